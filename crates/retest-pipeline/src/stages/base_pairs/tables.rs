//! The stage's tables from every seed's results: the per-seed rows in seed order, the
//! professions' scores, and the designs across seeds (the seeds' agreement, the variance
//! components), labelled.

use anyhow::Result;
use retest_analyses::{
    SeedsRecord, VarianceRecord, seeds_agreement_per_pair, variance_per_rule, words_tensor,
};
use retest_measures::ScoreTensor;
use retest_tables::{BasePairScoreRow, BasePairSeedsRow, BasePairVarianceRow, Table, names};

use super::{BasePairSeed, BasePairs};

/// The rows of every seed, seeds in order.
fn gather<T: Clone>(seeds: &[BasePairSeed], rows: impl Fn(&BasePairSeed) -> &Vec<T>) -> Vec<T> {
    seeds.iter().flat_map(|s| rows(s).iter().cloned()).collect()
}

impl BasePairs<'_> {
    /// The per-seed tables of `seeds`, and with `across_seeds` the seeds' agreement and the
    /// variance components (the seeds must then share this vocabulary).
    ///
    /// # Errors
    ///
    /// A table that cannot be built.
    pub(crate) fn tables_for(&self, seeds: &[BasePairSeed], across_seeds: bool) -> Result<Vec<Table>> {
        let mut tables = vec![
            Table::of(names::BASE_PAIR_SUMMARY, &gather(seeds, |s| &s.summary))?,
            Table::of(names::BASE_PAIR_AGREEMENT, &gather(seeds, |s| &s.agreement))?,
            Table::of(names::BASE_PAIR_KAPPA, &gather(seeds, |s| &s.kappas))?,
            Table::of(names::BASE_PAIR_DIRECTIONS, &gather(seeds, |s| &s.directions))?,
            Table::of(names::BASE_PAIR_CORRELATIONS, &gather(seeds, |s| &s.correlations))?,
            Table::of(names::BASE_PAIR_BASELINES, &gather(seeds, |s| &s.baselines))?,
            Table::of(names::BASE_PAIR_FLIPS, &gather(seeds, |s| &s.flips))?,
            Table::of(names::BASE_PAIR_EXAMPLES, &gather(seeds, |s| &s.examples))?,
            Table::of(names::BASE_PAIR_SCORES, &self.score_rows(seeds))?,
        ];
        if across_seeds {
            tables.extend(self.across_seed_tables(seeds)?);
        }
        Ok(tables)
    }

    /// The professions' scores, seed by seed, rule by rule, pair by pair (each seed's
    /// [`BasePairSeed::professions`] labelled in its order).
    fn score_rows(&self, seeds: &[BasePairSeed]) -> Vec<BasePairScoreRow> {
        let (n_pairs, n_words) = (self.n_pairs(), self.profession_words.len());
        let mut rows = Vec::new();
        for seed in seeds {
            for (r, rule) in self.rules.iter().enumerate() {
                for (p, pair) in self.pair_names.iter().enumerate() {
                    for (w, word) in self.profession_words.iter().enumerate() {
                        rows.push(BasePairScoreRow {
                            corpus: self.corpus.clone(),
                            algorithm: self.algorithm.clone(),
                            seed: seed.seed,
                            rule: rule.as_str().to_owned(),
                            pair: pair.clone(),
                            word: word.clone(),
                            score: f64::from(seed.professions[(r * n_pairs + p) * n_words + w]),
                        });
                    }
                }
            }
        }
        rows
    }

    /// The seeds' agreement per rule and pair, and the variance components per rule and
    /// scale, of the professions' scores of every seed (all of this vocabulary).
    ///
    /// # Errors
    ///
    /// A seed whose scores are of another shape; a table that cannot be built.
    fn across_seed_tables(&self, seeds: &[BasePairSeed]) -> Result<[Table; 2]> {
        let blocks: Vec<&[f32]> = seeds.iter().map(|s| s.professions.as_slice()).collect();
        let professions = words_tensor(&self.rules, self.n_pairs(), self.design.words.len(), &blocks)?;
        let agreement: Vec<BasePairSeedsRow> = (seeds_agreement_per_pair(&professions).iter())
            .map(|a| self.seeds_row(a, &professions))
            .collect();
        let variance: Vec<BasePairVarianceRow> = (variance_per_rule(&professions).iter())
            .flat_map(|v| self.variance_rows(v))
            .collect();
        Ok([
            Table::of(names::BASE_PAIR_SEEDS, &agreement)?,
            Table::of(names::BASE_PAIR_VARIANCE, &variance)?,
        ])
    }

    /// The seeds' agreement on one rule's labels under one pair.
    fn seeds_row(&self, a: &SeedsRecord, professions: &ScoreTensor) -> BasePairSeedsRow {
        BasePairSeedsRow {
            corpus: self.corpus.clone(),
            algorithm: self.algorithm.clone(),
            rule: self.rules[a.rule].as_str().to_owned(),
            pair: self.pair_names[a.pair].clone(),
            n_words: professions.n_targets() as u32,
            n_seeds: professions.n_seeds() as u32,
            kappa: a.kappa.value,
            status: a.kappa.status.as_str().to_owned(),
        }
    }

    /// One rule's variance components on one scale.
    fn variance_rows(&self, v: &VarianceRecord) -> Vec<BasePairVarianceRow> {
        (v.components.components.iter())
            .map(|c| BasePairVarianceRow {
                corpus: self.corpus.clone(),
                algorithm: self.algorithm.clone(),
                rule: self.rules[v.rule].as_str().to_owned(),
                scale: v.scale.as_str().to_owned(),
                component: c.component.as_str().to_owned(),
                sum_of_squares: c.sum_of_squares,
                df: c.df as u32,
                mean_square: c.mean_square,
                estimate: c.estimate,
                variance: c.variance,
                share: c.share,
            })
            .collect()
    }
}
