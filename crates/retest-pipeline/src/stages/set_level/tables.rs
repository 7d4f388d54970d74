//! The set-level tables of one configuration: the rows of each seed (WEAT and its words, the
//! directions, the detectors, the quality benchmarks) and the rows of the designs across seeds
//! (spreads, ICCs, agreement), labelled with the stage's tests, directions and lists.

use anyhow::Result;
use retest_analyses::{
    AgreementSeries, PER_TEST_QUERY_MEASURES, SeedSpread, SetDesign, SetLevelSeed, WeatFamily, WeatKind,
    seed_spread, set_level_agreement, set_level_reliability, set_level_spreads,
};
use retest_measures::{Measure, Vocab, separability};
use retest_reliability::IccResult;
use retest_rng::below;
use retest_tables::{
    AgreementRow, DetectorRow, DirectionRow, QualityRow, SeedSpreadRow, SetIccRow, SetLevelStatistic, Table,
    WeatSeedRow, WeatWordRow, names,
};

use super::{CALISKAN, PCA, SeedValues, SetLevel};
use crate::stages::columns::{icc_stats, spread_stats, weat_stats};

/// The configuration rows are of: their `corpus` and `algorithm` columns.
#[derive(Clone, Copy)]
pub(super) struct Configuration<'a> {
    pub corpus: &'a str,
    pub algorithm: &'a str,
}

impl Configuration<'_> {
    fn spread(self, measure: &str, subject: &str, s: &SeedSpread) -> SeedSpreadRow {
        SeedSpreadRow {
            corpus: self.corpus.to_owned(),
            algorithm: self.algorithm.to_owned(),
            measure: measure.to_owned(),
            subject: subject.to_owned(),
            spread: spread_stats(s),
            share_significant: s.share_significant.unwrap_or(f64::NAN),
        }
    }

    fn icc(self, measure: &str, scope: &str, subjects: &str, result: &IccResult) -> SetIccRow {
        SetIccRow {
            corpus: self.corpus.to_owned(),
            algorithm: self.algorithm.to_owned(),
            measure: measure.to_owned(),
            scope: scope.to_owned(),
            subjects: subjects.to_owned(),
            stats: icc_stats(result),
        }
    }
}

impl SetLevel<'_> {
    /// The set-level tables of one configuration from the values of its seeds (in seed order),
    /// the cosines of each later seed's `pca` direction with seed 0's after alignment, and each
    /// rule's mean |score| over the neutral words on each seed.
    pub(crate) fn tables(
        &self,
        corpus: &str,
        algorithm: &str,
        vocab: &Vocab<'_>,
        seeds: &[SeedValues],
        pca_stability: &[f64],
        rule_bias: &[(String, Vec<f64>)],
    ) -> Result<Vec<Table>> {
        let c = Configuration { corpus, algorithm };
        let (weat_rows, word_rows) = self.weat_rows(c, vocab, seeds);
        Ok(vec![
            Table::of(names::WEAT, &weat_rows)?,
            Table::of(names::WEAT_WORDS, &word_rows)?,
            Table::of(names::DIRECTIONS, &self.direction_rows(c, seeds))?,
            Table::of(names::DETECTORS, &self.detector_rows(c, vocab, seeds))?,
            Table::of(names::QUALITY, &quality_rows(c, seeds))?,
            Table::of(names::AGREEMENT, &self.agreement_rows(c, seeds, rule_bias))?,
            Table::of(
                names::SEED_SPREAD,
                &self.spread_rows(c, seeds, pca_stability, rule_bias),
            )?,
            Table::of(names::SET_LEVEL_RELIABILITY, &self.reliability_rows(c, seeds))?,
        ])
    }

    /// The kind of each test, in test order.
    fn kinds(&self) -> Vec<WeatKind> {
        self.tests.iter().map(|t| t.kind).collect()
    }

    /// Each seed's row of each test, and of each of its X and Y words.
    pub(super) fn weat_rows(
        &self,
        c: Configuration<'_>,
        vocab: &Vocab<'_>,
        seeds: &[SeedValues],
    ) -> (Vec<WeatSeedRow>, Vec<WeatWordRow>) {
        let (mut weat_rows, mut word_rows) = (Vec::new(), Vec::new());
        for (s, values) in seeds.iter().enumerate() {
            for (t, w) in self.tests.iter().zip(&values.measures.weat) {
                weat_rows.push(WeatSeedRow {
                    corpus: c.corpus.to_owned(),
                    algorithm: c.algorithm.to_owned(),
                    seed: s as u32,
                    test: t.name.clone(),
                    family: t.family().to_owned(),
                    attributes: t.attributes.clone(),
                    weat: weat_stats([&t.x, &t.y, &t.a, &t.b], Some(w)),
                    sd: w.effect_size.sd.as_str().to_owned(),
                    attribute_difference: w.attribute_difference,
                    separability: separability(&w.x_scores, &w.y_scores),
                    status: w.effect_size.status.as_str().to_owned(),
                });
                let sets = [
                    ("x", &t.x, &w.x_scores, &w.x_normalized),
                    ("y", &t.y, &w.y_scores, &w.y_normalized),
                ];
                for (set, ids, scores, normalized) in sets {
                    for ((&id, &score), &normalized) in ids.iter().zip(scores.iter()).zip(normalized.iter()) {
                        word_rows.push(WeatWordRow {
                            corpus: c.corpus.to_owned(),
                            algorithm: c.algorithm.to_owned(),
                            seed: s as u32,
                            test: t.name.clone(),
                            set: set.to_owned(),
                            word: vocab.word(id).to_owned(),
                            score,
                            normalized,
                        });
                    }
                }
            }
        }
        (weat_rows, word_rows)
    }

    /// Each seed's row of each direction (the base pairs, then `pca`).
    pub(super) fn direction_rows(&self, c: Configuration<'_>, seeds: &[SeedValues]) -> Vec<DirectionRow> {
        let mut rows = Vec::new();
        for (s, values) in seeds.iter().enumerate() {
            let directions = values.measures.direct_bias.iter().zip(&values.directions);
            for (name, (&bias, &(cos_pca, difference))) in self.direction_names().zip(directions) {
                let ratio = |i: usize| {
                    if name == PCA {
                        values.explained_variance[i]
                    } else {
                        f64::NAN
                    }
                };
                rows.push(DirectionRow {
                    corpus: c.corpus.to_owned(),
                    algorithm: c.algorithm.to_owned(),
                    seed: s as u32,
                    direction: name.to_owned(),
                    list: self.params.neutral.clone(),
                    c: self.params.c,
                    n_words: self.neutral.len() as u32,
                    direct_bias: bias,
                    cos_pca,
                    explained_variance: ratio(0),
                    explained_variance_2: ratio(1),
                    attribute_difference: difference,
                });
            }
        }
        rows
    }

    /// Each seed's OS (along the first detector pair) and GD (over every detector pair).
    fn detector_rows(
        &self,
        c: Configuration<'_>,
        vocab: &Vocab<'_>,
        seeds: &[SeedValues],
    ) -> Vec<DetectorRow> {
        let (m, f) = self.detectors[0];
        let axis = format!("{}:{}", vocab.word(m), vocab.word(f));
        let mut rows = Vec::new();
        for (s, values) in seeds.iter().enumerate() {
            let detectors = [
                (Measure::Os.name(), values.measures.os.value, axis.clone()),
                (
                    Measure::Gd.name(),
                    values.measures.gd.value,
                    format!("{} pairs", self.detectors.len()),
                ),
            ];
            for (detector, value, reference) in detectors {
                rows.push(DetectorRow {
                    corpus: c.corpus.to_owned(),
                    algorithm: c.algorithm.to_owned(),
                    seed: s as u32,
                    detector: detector.to_owned(),
                    list: self.params.neutral.clone(),
                    value,
                    n_words: self.neutral.len() as u32,
                    reference,
                });
            }
        }
        rows
    }

    /// The spread across seeds of each test's effect size, statistic and p-value, each
    /// direction's Direct Bias, `pca`'s explained variance and stability, OS, GD, each quality
    /// benchmark's ρ and each rule's mean |score|.
    pub(super) fn spread_rows(
        &self,
        c: Configuration<'_>,
        seeds: &[SeedValues],
        pca_stability: &[f64],
        rule_bias: &[(String, Vec<f64>)],
    ) -> Vec<SeedSpreadRow> {
        let spreads = set_level_spreads(&measures(seeds));
        let over_seeds =
            |value: &dyn Fn(&SeedValues) -> f64| -> Vec<f64> { seeds.iter().map(value).collect() };
        let mut rows = Vec::new();
        for (t, s) in self.tests.iter().zip(&spreads.weat) {
            rows.extend([
                c.spread(
                    SetLevelStatistic::WeatEffectSize.as_str(),
                    &t.name,
                    &s.effect_size,
                ),
                c.spread(SetLevelStatistic::WeatStatistic.as_str(), &t.name, &s.statistic),
                c.spread(SetLevelStatistic::WeatPValue.as_str(), &t.name, &s.p_value),
                c.spread(
                    SetLevelStatistic::AttributeDifference.as_str(),
                    &t.name,
                    &s.attribute_difference,
                ),
                c.spread(
                    SetLevelStatistic::WeatSeparability.as_str(),
                    &t.name,
                    &s.separability,
                ),
            ]);
        }
        for (name, s) in self.direction_names().zip(&spreads.direct_bias) {
            rows.push(c.spread(Measure::DirectBias.name(), name, s));
        }
        for (t, s) in self.tests.iter().zip(&spreads.query) {
            for (measure, s) in PER_TEST_QUERY_MEASURES.iter().zip(s) {
                rows.push(c.spread(measure.name(), &t.name, s));
            }
        }
        let first_ratio = seed_spread(&over_seeds(&|v| v.explained_variance[0]), false);
        let neutral = self.params.neutral.as_str();
        rows.extend([
            c.spread(
                SetLevelStatistic::PcaExplainedVariance.as_str(),
                PCA,
                &first_ratio,
            ),
            c.spread(
                SetLevelStatistic::PcaStability.as_str(),
                PCA,
                &seed_spread(pca_stability, false),
            ),
            c.spread(Measure::Os.name(), neutral, &spreads.os),
            c.spread(Measure::Gd.name(), neutral, &spreads.gd),
            c.spread(Measure::Rnd.name(), neutral, &spreads.rnd),
            c.spread(Measure::Ect.name(), neutral, &spreads.ect),
        ]);
        for (b, (name, _)) in self.benchmarks.iter().enumerate() {
            let rho = seed_spread(&over_seeds(&|v| v.quality.similarity[b].spearman), false);
            rows.push(c.spread(SetLevelStatistic::QualitySpearman.as_str(), name, &rho));
        }
        if let Some(accuracy) = analogy_accuracy(seeds) {
            let s = seed_spread(&accuracy, false);
            rows.push(c.spread(SetLevelStatistic::AnalogyAccuracy.as_str(), GOOGLE, &s));
        }
        for (rule, values) in rule_bias {
            let s = seed_spread(values, false);
            rows.push(c.spread(SetLevelStatistic::MeanAbsScore.as_str(), rule, &s));
        }
        rows
    }

    /// The ICC of each design across seeds: each test's words, each family of tests, the
    /// directions, and the neutral words' projections on `pca`, cosines with OS's axis and GD
    /// terms.
    pub(super) fn reliability_rows(&self, c: Configuration<'_>, seeds: &[SeedValues]) -> Vec<SetIccRow> {
        let neutral = self.params.neutral.as_str();
        let effect_size = SetLevelStatistic::WeatEffectSize.as_str();
        let family_scope = |family: WeatFamily| match family {
            WeatFamily::Caliskan => (CALISKAN.to_owned(), "tests"),
            WeatFamily::QueryPair(q) => {
                let (x, y) = &self.params.single_pair[q];
                (format!("{x}/{y}"), "base_pairs")
            }
        };
        (set_level_reliability(&measures(seeds), &self.kinds()).iter())
            .map(|r| {
                let (measure, scope, subjects) = match r.design {
                    SetDesign::WeatScores(i) => (
                        SetLevelStatistic::WeatScore.as_str(),
                        self.tests[i].name.clone(),
                        "words",
                    ),
                    SetDesign::WeatEffectSizes(family) => {
                        let (scope, subjects) = family_scope(family);
                        (effect_size, scope, subjects)
                    }
                    SetDesign::QueryTests(measure, family) => {
                        let (scope, subjects) = family_scope(family);
                        (measure.name(), scope, subjects)
                    }
                    SetDesign::RndTerms => (SetLevelStatistic::RndTerm.as_str(), neutral.to_owned(), "words"),
                    SetDesign::DirectBias => (Measure::DirectBias.name(), neutral.to_owned(), "directions"),
                    SetDesign::PcaProjections => (
                        SetLevelStatistic::PcaProjection.as_str(),
                        neutral.to_owned(),
                        "words",
                    ),
                    SetDesign::OsProjections => (
                        SetLevelStatistic::OsProjection.as_str(),
                        neutral.to_owned(),
                        "words",
                    ),
                    SetDesign::GdTerms => (SetLevelStatistic::GdTerm.as_str(), neutral.to_owned(), "words"),
                };
                c.icc(measure, &scope, subjects, &r.result)
            })
            .collect()
    }

    /// Spearman's ρ across seeds between WEAT's effect size (mean over the tests of the tests
    /// file), Direct Bias along `pca`, OS, GD, each rule's mean |score| over the neutral words
    /// and each word-similarity benchmark's ρ (Bakarov's question, seed by seed: does bias follow
    /// quality?), each with its bootstrap interval over resamples of the seeds.
    pub(super) fn agreement_rows(
        &self,
        c: Configuration<'_>,
        seeds: &[SeedValues],
        rule_bias: &[(String, Vec<f64>)],
    ) -> Vec<AgreementRow> {
        let mut quality: Vec<(String, Vec<f64>)> = (self.benchmarks.iter().enumerate())
            .map(|(b, (name, _))| {
                let name = format!("{}:{name}", SetLevelStatistic::QualitySpearman.as_str());
                (
                    name,
                    seeds.iter().map(|v| v.quality.similarity[b].spearman).collect(),
                )
            })
            .collect();
        if let Some(accuracy) = analogy_accuracy(seeds) {
            quality.push((
                format!("{}:{GOOGLE}", SetLevelStatistic::AnalogyAccuracy.as_str()),
                accuracy,
            ));
        }
        let extra: Vec<&(String, Vec<f64>)> = rule_bias.iter().chain(&quality).collect();
        let values: Vec<&[f64]> = extra.iter().map(|(_, v)| v.as_slice()).collect();
        let resamples = self.resamples(seeds.len());
        let agreement = set_level_agreement(&measures(seeds), &self.kinds(), &values, &resamples);
        let name = |i: usize| -> String {
            match agreement.series[i] {
                AgreementSeries::CaliskanEffectSize => SetLevelStatistic::WeatEffectSize.as_str().to_owned(),
                AgreementSeries::DirectBiasPca => SetLevelStatistic::DirectBiasPca.as_str().to_owned(),
                AgreementSeries::Os => Measure::Os.name().to_owned(),
                AgreementSeries::Gd => Measure::Gd.name().to_owned(),
                AgreementSeries::CaliskanQuery(measure) => measure.name().to_owned(),
                AgreementSeries::Rnd => Measure::Rnd.name().to_owned(),
                AgreementSeries::Ect => Measure::Ect.name().to_owned(),
                AgreementSeries::Extra(r) => extra[r].0.clone(),
            }
        };
        (agreement.records.iter())
            .map(|r| AgreementRow {
                corpus: c.corpus.to_owned(),
                algorithm: c.algorithm.to_owned(),
                measure_a: name(r.a),
                measure_b: name(r.b),
                spearman: r.result.value,
                p_value: r.result.p_value,
                ci_low: r.interval[0],
                ci_high: r.interval[1],
                n_seeds: r.result.n as u32,
                status: r.result.status.as_str().to_owned(),
            })
            .collect()
    }
}

/// Bootstrap resamples of the seeds for the agreement's intervals.
const AGREEMENT_RESAMPLES: usize = 1000;

impl SetLevel<'_> {
    /// [`AGREEMENT_RESAMPLES`] resamples of `n` seed positions drawn with replacement, from the
    /// stream `agreement-bootstrap` of the stage's root: the same for the same plan, corpus and
    /// model.
    fn resamples(&self, n: usize) -> Vec<Vec<usize>> {
        let mut rng = self.root.stream("agreement-bootstrap");
        (0..AGREEMENT_RESAMPLES)
            .map(|_| (0..n).map(|_| below(&mut rng, n as u64) as usize).collect())
            .collect()
    }
}

/// What the designs across seeds read of each seed.
fn measures(seeds: &[SeedValues]) -> Vec<&SetLevelSeed> {
    seeds.iter().map(|v| &v.measures).collect()
}

/// Each seed's row of each word-similarity benchmark.
pub(super) fn quality_rows(c: Configuration<'_>, seeds: &[SeedValues]) -> Vec<QualityRow> {
    let mut rows = Vec::new();
    for (s, values) in seeds.iter().enumerate() {
        let row = |benchmark: &str| QualityRow {
            corpus: c.corpus.to_owned(),
            algorithm: c.algorithm.to_owned(),
            seed: s as u32,
            benchmark: benchmark.to_owned(),
            spearman: f64::NAN,
            pearson: f64::NAN,
            accuracy: f64::NAN,
            pairs_used: 0,
            pairs_skipped: 0,
        };
        rows.extend(values.quality.similarity.iter().map(|q| QualityRow {
            spearman: q.spearman,
            pearson: q.pearson,
            pairs_used: q.pairs_used as u32,
            pairs_skipped: q.pairs_skipped as u32,
            ..row(&q.name)
        }));
        rows.extend(values.quality.analogy.iter().map(|a| QualityRow {
            accuracy: a.total_accuracy,
            pairs_used: a.attempted as u32,
            pairs_skipped: a.skipped as u32,
            ..row(GOOGLE)
        }));
    }
    rows
}

/// The name of the Google analogy set among the quality benchmarks.
const GOOGLE: &str = "google";

/// Each seed's Google analogy accuracy, when the stage measured it.
fn analogy_accuracy(seeds: &[SeedValues]) -> Option<Vec<f64>> {
    (seeds.iter())
        .map(|v| v.quality.analogy.as_ref().map(|a| a.total_accuracy))
        .collect()
}
