//! The validity stage of a measure job (a plan's `validity` section): on every seed, each rule's
//! scores of the criterion's words along each base pair, correlated with the criterion; across
//! seeds, the spread of each correlation beside the test-retest ICC of the same scores — the
//! design `retest_analyses::validity_across`, which this stage feeds and labels.

use anyhow::{Context, Result};
use retest_analyses::validity_across;
use retest_measures::Scorer;
use retest_tables::{CoverageRow, Table, ValidityReliabilityRow, ValiditySeedRow, names};

use crate::lists::Criterion;
use crate::stages::columns::{OUT_OF_VOCABULARY, icc_stats, plan_scoring, validity_stats};
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, Setup, when_present};

/// Criterion validity: a configuration has its tables when its plan has a `validity` section.
pub(crate) const FAMILY: Family = Family {
    name: "validity",
    title: "criterion validity",
    tables: &[names::VALIDITY.name(), names::VALIDITY_RELIABILITY.name()],
    optional: true,
    key: |plan| when_present("validity", &plan.validity),
    build: |setup| Ok(Collect::stage(Validity::new(setup)?)),
};

/// The criterion resolved against one configuration's vocabulary, with the plan's rules.
pub(crate) struct Validity<'a> {
    criterion: &'a Criterion,
    /// The criterion's words in the vocabulary: their ids and values, in the criterion's order.
    ids: Vec<u32>,
    values: Vec<f64>,
    /// The plan's base pairs in the vocabulary: ids and `m:f` names.
    pairs: Vec<(u32, u32)>,
    pair_names: Vec<String>,
    scorer: Scorer<'a>,
    coverage: Vec<CoverageRow>,
    notes: Vec<String>,
}

/// One seed's scores: per rule (the plan's order), per pair, per criterion word in the
/// vocabulary (NaN: no score, e.g. a zero vector).
type SeedScores = Vec<Vec<Vec<f64>>>;

impl<'a> Validity<'a> {
    /// The stage, when the plan has a `validity` section.
    ///
    /// # Errors
    ///
    /// None of the criterion's words is in the vocabulary.
    fn new(setup: &Setup<'a>) -> Result<Option<Validity<'a>>> {
        let Some(criterion) = setup.lists.validity.as_ref() else {
            return Ok(None);
        };
        let (mut ids, mut values, mut missing) = (Vec::new(), Vec::new(), Vec::new());
        for (word, &value) in criterion.words.iter().zip(&criterion.values) {
            match setup.cased().id(word) {
                Some(id) => {
                    ids.push(id);
                    values.push(value);
                }
                None => missing.push(word.clone()),
            }
        }
        anyhow::ensure!(
            !ids.is_empty(),
            "corpus `{}`: none of the {} words of criterion `{}` is in the vocabulary",
            setup.corpus_name(),
            criterion.words.len(),
            criterion.name
        );
        let mut notes: Vec<String> = criterion.left_out_line().into_iter().collect();
        let mut coverage = Vec::new();
        if !missing.is_empty() {
            notes.push(format!(
                "corpus `{}`: {} of the {} words of criterion `{}` are out of vocabulary (see the coverage table)",
                setup.corpus_name(),
                missing.len(),
                criterion.words.len(),
                criterion.name
            ));
            coverage.push(CoverageRow::of(
                setup.corpus_name(),
                &criterion.name,
                OUT_OF_VOCABULARY,
                criterion.words.len(),
                &missing,
            ));
        }
        let scorer = plan_scoring(setup.plan, setup.lists, setup.threads)
            .for_vocabulary(&setup.vocabulary.words, &setup.lists.base_pairs.pairs);
        let base_pairs = setup.base_pairs;
        Ok(Some(Validity {
            criterion,
            ids,
            values,
            pairs: base_pairs.ids.clone(),
            pair_names: base_pairs.pairs.iter().map(|(m, f)| format!("{m}:{f}")).collect(),
            scorer,
            coverage,
            notes,
        }))
    }
}

impl PerSeed for Validity<'_> {
    type Values = SeedScores;
    const WHAT: &'static str = "criterion validity";

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn coverage(&self) -> &[CoverageRow] {
        &self.coverage
    }

    fn measure(&self, seed: &Seed<'_>) -> Result<SeedScores> {
        let scores = (self.scorer.score(seed.model, &self.pairs, &self.ids))
            .with_context(|| format!("the scores of criterion `{}`", self.criterion.name))?;
        let zero = scores.zero_vector_targets();
        Ok((self.scorer.rules().iter())
            .map(|&rule| {
                (0..self.pairs.len())
                    .map(|p| {
                        let values = scores.scores(rule, p);
                        (0..self.ids.len())
                            .map(|t| match values {
                                Some(v) if !zero.contains(&t) => f64::from(v[t]),
                                _ => f64::NAN,
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect())
    }

    fn tables(&self, seeds: &[SeedScores], across: &Across<'_>) -> Result<Vec<Table>> {
        let (mut per_seed, mut reliability) = (Vec::new(), Vec::new());
        for (r, rule) in self.scorer.rules().iter().enumerate() {
            for (p, reference) in self.pair_names.iter().enumerate() {
                let scores: Vec<Vec<f64>> = seeds.iter().map(|s| s[r][p].clone()).collect();
                let a = validity_across(&scores, &self.values);
                for (s, v) in a.seeds.iter().enumerate() {
                    per_seed.push(ValiditySeedRow {
                        corpus: across.corpus.to_owned(),
                        algorithm: across.model.to_owned(),
                        seed: s as u32,
                        validity: validity_stats(rule.as_str(), reference, &self.criterion.name, v),
                    });
                }
                reliability.push(ValidityReliabilityRow {
                    corpus: across.corpus.to_owned(),
                    algorithm: across.model.to_owned(),
                    rule: rule.as_str().to_owned(),
                    reference: reference.clone(),
                    criterion: self.criterion.name.clone(),
                    n_seeds: a.spread.n as u32,
                    n_undefined: a.spread.n_undefined as u32,
                    mean_r: a.spread.mean,
                    sd_r: a.spread.sd,
                    low_r: a.spread.low,
                    high_r: a.spread.high,
                    stats: icc_stats(&a.reliability),
                });
            }
        }
        Ok(vec![
            Table::of(names::VALIDITY, &per_seed)?,
            Table::of(names::VALIDITY_RELIABILITY, &reliability)?,
        ])
    }
}
