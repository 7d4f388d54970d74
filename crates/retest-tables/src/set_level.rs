//! The rows of the set-level tables: one value per test or direction and seed (WEAT, Direct
//! Bias, Bakarov's detectors), per word and seed (the scores behind them), their spread across
//! seeds and their test-retest reliability. `docs/tables.md` documents each table.

use serde::Serialize;

use crate::rows::{IccStats, SpreadStats};
use crate::schema::table_row;

table_row! {
    /// What one WEAT test gives: the columns `retest weat` and the pipeline's `weat` table share.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct WeatStats {
        /// Words of X, Y, A and B in the vocabulary (the ones the test used).
        pub n_x: u32,
        pub n_y: u32,
        pub n_a: u32,
        pub n_b: u32,
        /// `S(X, Y, A, B) = Σ_X s(x, A, B) − Σ_Y s(y, A, B)`.
        pub statistic: f64,
        /// Cohen's d of the scores, `(mean_X s − mean_Y s) / sd_{X∪Y} s`; NaN when every score is
        /// equal.
        pub effect_size: f64,
        /// One-sided permutation p-value: the share of partitions with a larger statistic.
        pub p_value: f64,
        /// `exact` (every partition) or `sampled`.
        pub p_method: String,
        /// Partitions enumerated or drawn.
        pub n_partitions: u64,
    }
}

table_row! {
    /// One WEAT test on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct WeatSeedRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `weat6`, …, `career/family he:she` for a single-pair test, or the stereotype list's
        /// name (`professions`).
        pub test: String,
        /// `caliskan` (a test of the tests file), `single_pair` (query targets, one base
        /// pair's words or the `ensemble` of all pairs as attributes) or `stereotype` (the
        /// stereotypically masculine against the stereotypically feminine words of the
        /// stereotype list, the `ensemble` as attributes).
        pub family: String,
        /// The base pair (`he:she`) or `ensemble` of a single-pair or stereotype test; empty
        /// otherwise.
        pub attributes: String,
        pub weat: WeatStats,
        /// The standard deviation of the effect size: `population` or `sample`.
        pub sd: String,
        /// Schröder et al.'s `‖â − b̂‖`, the largest `|s(t, A, B)|` a target can reach.
        pub attribute_difference: f64,
        /// The share of pairs (x, y) with s(x) > s(y), ties a half: how well the scores separate
        /// X from Y, which d need not follow (Schröder et al., Fig. 1).
        pub separability: f64,
        /// `ok` or `no_spread` (every score equal: d is NaN).
        pub status: String,
    }
}

table_row! {
    /// One target word's WEAT score on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct WeatWordRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub test: String,
        /// `x` or `y`: the target set the word belongs to (in a stereotype test: the
        /// stereotypically masculine or feminine words).
        pub set: String,
        pub word: String,
        /// `s(w, A, B) = mean_A cos(w, a) − mean_B cos(w, b)`.
        pub score: f64,
        /// Schröder et al.'s normalised score `cos(w, â − b̂) = s / ‖â − b̂‖`.
        pub normalized: f64,
    }
}

table_row! {
    /// One gender direction on one seed and the Direct Bias of the neutral words along it.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct DirectionRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// A base pair (`he:she`: `m̂ − f̂`) or `pca` (first principal component of the
        /// definitional pairs).
        pub direction: String,
        /// The neutral word list.
        pub list: String,
        /// The exponent of the Direct Bias.
        pub c: f64,
        /// Neutral words in vocabulary.
        pub n_words: u32,
        /// `mean_N |cos(w, g)|^c`.
        pub direct_bias: f64,
        /// `cos(g, g_pca)` on the same seed (Schröder et al., Fig. 3); 1 for `pca`.
        pub cos_pca: f64,
        /// `pca`: the share of variance of the first component; NaN for a pair.
        pub explained_variance: f64,
        /// `pca`: the share of the second component (the first is unique when it is smaller);
        /// NaN for a pair.
        pub explained_variance_2: f64,
        /// A pair: `‖m̂ − f̂‖`; NaN for `pca`.
        pub attribute_difference: f64,
    }
}

table_row! {
    /// One of Bakarov's (2021) detectors on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct DetectorRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `os` (Occupational Stereotypes: `mean_N |cos(w, g)|` along the first detector pair's
        /// `m̂ − f̂`) or `gd` (Gender Direction: `Σ_N (‖ŵ − v̄_f‖ − ‖ŵ − v̄_m‖)` over the means of
        /// the pairs' unit vectors; positive = closer to the masculine words).
        pub detector: String,
        /// The neutral word list.
        pub list: String,
        pub value: f64,
        /// Neutral words in vocabulary.
        pub n_words: u32,
        /// `os`: the axis (`male:female`); `gd`: the number of pairs in vocabulary.
        pub reference: String,
    }
}

table_row! {
    /// A word-similarity benchmark on one seed (the embedding quality Bakarov (2021) sets
    /// beside the detectors), as `retest eval` computes it.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct QualityRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `wordsim353`, `simlex999`, `men`, `rg65`, `rw`; `google` (the analogy set).
        pub benchmark: String,
        /// Spearman's ρ between human scores and cosines (NaN for `google`).
        pub spearman: f64,
        pub pearson: f64,
        /// `google`: the share of questions 3CosAdd answers right (NaN for the others).
        pub accuracy: f64,
        /// Pairs (questions) with every word in the vocabulary, and those skipped.
        pub pairs_used: u32,
        pub pairs_skipped: u32,
    }
}

table_row! {
    /// Do two measures rank the seeds of one configuration alike? Spearman's ρ across seeds.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AgreementRow {
        pub corpus: String,
        pub algorithm: String,
        /// `weat_effect_size` (mean over the tests of the tests file), `direct_bias_pca`, `os`,
        /// `gd`, a rule (`dbwa`, …: its mean |score| over the base pairs and the neutral words),
        /// or `quality_spearman:<benchmark>` (a word-similarity benchmark's ρ).
        pub measure_a: String,
        pub measure_b: String,
        /// Spearman's ρ; NaN unless `status` is `ok`.
        pub spearman: f64,
        /// Two-sided p-value of ρ = 0 (t test, as scipy's `spearmanr`).
        pub p_value: f64,
        /// The 2.5 % and 97.5 % quantiles of ρ over bootstrap resamples of the seeds.
        pub ci_low: f64,
        pub ci_high: f64,
        pub n_seeds: u32,
        pub status: String,
    }
}

table_row! {
    /// A set-level value across the seeds of one configuration.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct SeedSpreadRow {
        pub corpus: String,
        pub algorithm: String,
        /// `weat_effect_size`, `weat_statistic`, `weat_p_value`, `direct_bias`,
        /// `pca_stability`, …
        pub measure: String,
        /// The test or direction.
        pub subject: String,
        pub spread: SpreadStats,
        /// `weat_p_value`: the share of seeds with p < 0.05 (does the decision survive a
        /// reseed?); NaN for other measures.
        pub share_significant: f64,
    }
}

table_row! {
    /// The test-retest reliability (ICC(2,1), seeds as raters) of a set-level measure.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct SetIccRow {
        pub corpus: String,
        pub algorithm: String,
        /// `weat_effect_size`, `weat_score`, `direct_bias`, `pca_projection`, …
        pub measure: String,
        /// What the ICC is over: a query pair (`career/family`), a test, a word list.
        pub scope: String,
        /// What the subjects (rows) are: `base_pairs`, `tests`, `words`, `directions`.
        pub subjects: String,
        pub stats: IccStats,
    }
}

/// The `test` name of a stereotype list's selection of its `k` most stereotyped words per side:
/// `<list>:top<k>` (written by the set-level stage, read by the report).
pub fn stereotype_selection(list: &str, k: usize) -> String {
    format!("{list}{SELECTION}{k}")
}

/// The stereotype list a selection's `test` name was made from ([`stereotype_selection`]), or
/// `None` for a test that is no selection.
pub fn selection_of(test: &str) -> Option<&str> {
    let (list, k) = test.rsplit_once(SELECTION)?;
    (!k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())).then_some(list)
}

const SELECTION: &str = ":top";

/// The values of the set-level tables' `measure` column that are not a measure of the registry
/// (those are named by `retest_measures::Measure::name`): written by the set-level stage, read
/// by the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetLevelStatistic {
    /// WEAT's effect size d of a test.
    WeatEffectSize,
    /// WEAT's test statistic s(X, Y, A, B).
    WeatStatistic,
    /// WEAT's permutation p-value.
    WeatPValue,
    /// A word's WEAT association score s(w, A, B).
    WeatScore,
    /// Direct Bias along the `pca` direction (a series of the seed agreement).
    DirectBiasPca,
    /// The share of variance the `pca` direction explains.
    PcaExplainedVariance,
    /// The cosine of a seed's `pca` direction with seed 0's after Procrustes alignment.
    PcaStability,
    /// A neutral word's projection on the `pca` direction.
    PcaProjection,
    /// Spearman's ρ of a word-similarity benchmark.
    QualitySpearman,
    /// A rule's mean |score| over the neutral words.
    MeanAbsScore,
    /// A word's term of Occupational Stereotypes.
    OsProjection,
    /// A word's term of Gender Direction.
    GdTerm,
    /// A word's term of RND (WEFE's relative norm distance).
    RndTerm,
    /// Schröder et al.'s mean attribute difference ‖â − b̂‖ of a WEAT test.
    AttributeDifference,
    /// The share of a WEAT test's (x, y) pairs whose scores are in order.
    WeatSeparability,
    /// The Google analogy set's 3CosAdd accuracy.
    AnalogyAccuracy,
}

impl SetLevelStatistic {
    /// The name in the `measure` column.
    pub const fn as_str(self) -> &'static str {
        match self {
            SetLevelStatistic::WeatEffectSize => "weat_effect_size",
            SetLevelStatistic::WeatStatistic => "weat_statistic",
            SetLevelStatistic::WeatPValue => "weat_p_value",
            SetLevelStatistic::WeatScore => "weat_score",
            SetLevelStatistic::DirectBiasPca => "direct_bias_pca",
            SetLevelStatistic::PcaExplainedVariance => "pca_explained_variance",
            SetLevelStatistic::PcaStability => "pca_stability",
            SetLevelStatistic::PcaProjection => "pca_projection",
            SetLevelStatistic::QualitySpearman => "quality_spearman",
            SetLevelStatistic::MeanAbsScore => "mean_abs_score",
            SetLevelStatistic::OsProjection => "os_projection",
            SetLevelStatistic::GdTerm => "gd_term",
            SetLevelStatistic::RndTerm => "rnd_term",
            SetLevelStatistic::AttributeDifference => "attribute_difference",
            SetLevelStatistic::WeatSeparability => "weat_separability",
            SetLevelStatistic::AnalogyAccuracy => "analogy_accuracy",
        }
    }
}
