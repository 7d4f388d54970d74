//! The residual-bias stage of a measure job (a plan's `residual_bias` section): Gonen &
//! Goldberg's (2019) tests on every seed — 2-means and SVM accuracy on the most biased words,
//! the correlation of the targets' bias with their masculine neighbours — and across seeds each
//! test's spread beside the ICC of the values it rests on (`retest_analyses::residual_across`).
//! A debiased seed is tested with the labels of its seed before debiasing, as Gonen & Goldberg
//! test a debiased model.

use rustc_hash::FxHashSet;

use anyhow::{Context, Result};
use retest_analyses::{ResidualSeedValues, residual_across};
use retest_measures::{
    Measure, ResidualOptions, ResidualWords, projection_bias, residual_bias, residual_word,
};
use retest_rng::SeedPath;
use retest_spec::ResidualParams;
use retest_tables::{CoverageRow, ResidualReliabilityRow, ResidualSeedRow, Table, names};

use crate::lists::ResidualLists;
use crate::stages::columns::{icc_stats, spread_stats};
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, Setup, when_present};
use crate::stages::vocab::CasedVocab;

/// Gonen & Goldberg's tests: a configuration has their tables when its plan has a
/// `residual_bias` section.
pub(crate) const FAMILY: Family = Family {
    name: "residual_bias",
    title: "residual bias",
    tables: &[
        names::RESIDUAL_BIAS.name(),
        names::RESIDUAL_BIAS_RELIABILITY.name(),
    ],
    optional: true,
    key: |plan| when_present("residual_bias", &plan.residual_bias),
    build: |setup| Ok(Collect::stage(Residual::new(setup)?)),
};

/// The stream root of the tests' random draws: one per seed index, the same in every
/// configuration, so a model and its debiased copy draw alike.
const SEED_STREAM: &str = "residual-bias";

/// The coverage table's `kind` of the row naming the targets that are not candidates (out of
/// the vocabulary, beyond its most frequent words, or not a word Gonen & Goldberg keep).
const NOT_CANDIDATES: &str = "residual_targets";

/// The lists resolved against one configuration's vocabulary.
pub(crate) struct Residual<'a> {
    params: &'a ResidualParams,
    root: u64,
    he_she: (u32, u32),
    candidates: Vec<u32>,
    /// The targets among the candidates, in the list's order.
    targets: Vec<u32>,
    coverage: Vec<CoverageRow>,
    notes: Vec<String>,
}

/// One seed's tests, and the per-word values behind them.
pub(crate) struct ResidualSeed {
    row: ResidualSeedRow,
    bias: Vec<f64>,
    shares: Vec<f64>,
}

impl<'a> Residual<'a> {
    /// The stage, when the plan has a `residual_bias` section.
    ///
    /// # Errors
    ///
    /// `he` or `she` out of the vocabulary, or fewer than 4 candidates.
    fn new(setup: &Setup<'a>) -> Result<Option<Residual<'a>>> {
        let (Some(params), Some(lists)) = (&setup.plan.residual_bias, &setup.lists.residual) else {
            return Ok(None);
        };
        let corpus = setup.corpus_name();
        let cased = setup.cased();
        let id = |word: &str| {
            cased
                .id(word)
                .with_context(|| format!("corpus `{corpus}`: residual bias needs `{word}` in the vocabulary"))
        };
        let he_she = (id("he")?, id("she")?);
        let candidates = candidates(cased, lists, params.vocabulary);
        anyhow::ensure!(
            candidates.len() >= 4,
            "corpus `{corpus}`: residual bias needs at least 4 candidate words, the {} most frequent give {}",
            params.vocabulary,
            candidates.len()
        );
        let (targets_name, target_words) = &lists.targets;
        let candidate_set: FxHashSet<u32> = candidates.iter().copied().collect();
        let (mut targets, mut missing) = (Vec::new(), Vec::new());
        for word in target_words {
            match cased.id(word).filter(|id| candidate_set.contains(id)) {
                Some(id) if !targets.contains(&id) => targets.push(id),
                Some(_) => {}
                None => missing.push(word.clone()),
            }
        }
        let mut notes = vec![format!(
            "corpus `{corpus}`: residual bias over {} candidate words (of the {} most frequent) and {} of the \
             {} words of `{targets_name}`",
            candidates.len(),
            params.vocabulary,
            targets.len(),
            target_words.len()
        )];
        let mut coverage = Vec::new();
        if !missing.is_empty() {
            notes.push(format!(
                "corpus `{corpus}`: {} of the {} words of `{targets_name}` are not residual-bias candidates (see \
                 the coverage table)",
                missing.len(),
                target_words.len()
            ));
            coverage.push(CoverageRow::of(
                corpus,
                targets_name,
                NOT_CANDIDATES,
                target_words.len(),
                &missing,
            ));
        }
        Ok(Some(Residual {
            params,
            root: setup.plan.seed,
            he_she,
            candidates,
            targets,
            coverage,
            notes,
        }))
    }
}

/// The candidates: of the `limit` first words of `words`, those [`residual_word`] keeps and no
/// exclusion list names (as the corpus spells it), in the vocabulary's order.
fn candidates(words: CasedVocab<'_, '_>, lists: &ResidualLists, limit: usize) -> Vec<u32> {
    let excluded: FxHashSet<String> = lists.exclude.iter().map(|w| words.case(w)).collect();
    (words.vocab.words().iter().take(limit).enumerate())
        .filter(|(_, w)| residual_word(w) && !excluded.contains(*w))
        .map(|(id, _)| id as u32)
        .collect()
}

impl PerSeed for Residual<'_> {
    type Values = ResidualSeed;
    const WHAT: &'static str = "residual bias";

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn coverage(&self) -> &[CoverageRow] {
        &self.coverage
    }

    fn measure(&self, seed: &Seed<'_>) -> Result<ResidualSeed> {
        let (he, she) = self.he_she;
        let labels = seed.original.unwrap_or(seed.model);
        let bias = projection_bias(labels, &self.candidates, he, she)?;
        let path = SeedPath::new(self.root)
            .with(SEED_STREAM)
            .with_index(u64::from(seed.index));
        let p = self.params;
        let options = ResidualOptions {
            clustered: p.clustered,
            classified: p.classified,
            trained: p.trained,
            neighbours: p.neighbours,
            seed: &path,
        };
        let words = ResidualWords {
            candidates: &self.candidates,
            bias: &bias,
            targets: &self.targets,
        };
        let out = residual_bias(seed.model, &words, &options)?;
        let correlation = out.neighbour_correlation;
        Ok(ResidualSeed {
            row: ResidualSeedRow {
                corpus: String::new(),
                algorithm: String::new(),
                seed: seed.index,
                n_candidates: self.candidates.len() as u32,
                n_clustered: out.n_clustered as u32,
                cluster_accuracy: out.cluster_accuracy,
                n_trained: out.n_trained as u32,
                n_tested: out.n_tested as u32,
                svm_accuracy: out.svm_accuracy,
                n_targets: out.neighbours.len() as u32,
                neighbour_r: correlation.value,
                neighbour_p: correlation.p_value,
            },
            shares: out.neighbours.iter().map(|n| n.masculine_share).collect(),
            bias,
        })
    }

    fn tables(&self, seeds: &[ResidualSeed], across: &Across<'_>) -> Result<Vec<Table>> {
        let label = |mut row: ResidualSeedRow| {
            row.corpus = across.corpus.to_owned();
            row.algorithm = across.model.to_owned();
            row
        };
        let per_seed: Vec<ResidualSeedRow> = seeds.iter().map(|s| label(s.row.clone())).collect();
        let values: Vec<ResidualSeedValues<'_>> = (seeds.iter())
            .map(|s| ResidualSeedValues {
                cluster_accuracy: s.row.cluster_accuracy,
                svm_accuracy: s.row.svm_accuracy,
                neighbour_r: s.row.neighbour_r,
                bias: &s.bias,
                shares: &s.shares,
            })
            .collect();
        let a = residual_across(&values);
        let reliability: Vec<ResidualReliabilityRow> = [
            (
                Measure::ClusterAccuracy,
                &a.cluster_accuracy,
                "projection_bias",
                &a.bias,
            ),
            (Measure::SvmAccuracy, &a.svm_accuracy, "projection_bias", &a.bias),
            (
                Measure::NeighbourCorrelation,
                &a.neighbour_r,
                "masculine_share",
                &a.shares,
            ),
        ]
        .into_iter()
        .map(|(statistic, spread, subjects, icc)| ResidualReliabilityRow {
            corpus: across.corpus.to_owned(),
            algorithm: across.model.to_owned(),
            statistic: statistic.name().to_owned(),
            spread: spread_stats(spread),
            subjects: subjects.to_owned(),
            stats: icc_stats(icc),
        })
        .collect();
        Ok(vec![
            Table::of(names::RESIDUAL_BIAS, &per_seed)?,
            Table::of(names::RESIDUAL_BIAS_RELIABILITY, &reliability)?,
        ])
    }
}

#[cfg(test)]
mod tests {
    use retest_measures::Vocab;

    use super::*;

    #[test]
    fn candidates_are_the_first_words_gonen_and_goldberg_keep_less_the_excluded() {
        let words: Vec<String> = [
            "he", "she", "Nurse", "nurse", "king", "co-op", "new_york", "x2", "actor",
        ]
        .map(String::from)
        .to_vec();
        let lists = ResidualLists {
            exclude: vec!["King".into()],
            targets: ("t".into(), vec![]),
        };
        // Within the first 8: `Nurse` (case), `co-op` (punctuation) and `x2` (digit) are not
        // words of theirs; `king` is excluded once the list is lowercased; `actor` is the 9th.
        let vocab = Vocab::new(&words).unwrap();
        let cased = |lowercase| CasedVocab {
            vocab: &vocab,
            lowercase,
        };
        assert_eq!(candidates(cased(true), &lists, 8), [0, 1, 3, 6]);
        assert_eq!(candidates(cased(false), &lists, 8), [0, 1, 3, 4, 6]);
    }
}
