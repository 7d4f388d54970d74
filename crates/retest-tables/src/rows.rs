//! The rows of every result table, each the single statement of its table's columns: a
//! `table_row!` struct's fields are its columns (name, type, order); [`IccRow`] states its two
//! layouts by hand. Column names are snake_case and stable; `docs/tables.md` documents each
//! table.

use serde::{Deserialize, Serialize};

use crate::schema::{ColumnDef, ColumnType, Row, RowReader, RowWriter, table_row};
use crate::set_level::WeatStats;

/// Which word or base pair an ICC row is about (its "subject" in the reliability design of Du,
/// Fang & Nguyen 2021: a per-word ICC rates one word, a per-pair ICC rates one pair).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Subject {
    Word(String),
    Pair { male: String, female: String },
}

table_row! {
    /// An intraclass correlation with its F test and 95% confidence interval: the last columns
    /// of an ICC table.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct IccStats {
        /// The coefficient; NaN unless `status` is `ok`.
        pub icc: f64,
        pub f_stat: f64,
        pub df1: f64,
        pub df2: f64,
        pub p_value: f64,
        pub ci_low: f64,
        pub ci_high: f64,
        /// Rows of the subjects × raters matrix that were used.
        pub n_subjects: u32,
        /// Columns of the matrix (seeds for test-retest, rules for inter-rater).
        pub n_raters: u32,
        /// Rows dropped because they held a NaN.
        pub n_dropped: u32,
        /// `ok`, or why the value is NaN (`zero_variance`, `too_few_subjects`, …).
        pub status: String,
    }
}

table_row! {
    /// A value's spread across the seeds of one configuration: a column group of the spread and
    /// reliability tables.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct SpreadStats {
        /// Seeds with a value.
        pub n_seeds: u32,
        /// Seeds whose value is NaN, left out of the rest.
        pub n_undefined: u32,
        pub mean: f64,
        /// Sample standard deviation across seeds.
        pub sd: f64,
        /// 2.5 % and 97.5 % quantiles across seeds (linear interpolation).
        pub low: f64,
        pub high: f64,
    }
}

/// One row of a test-retest or inter-rater table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IccRow {
    pub corpus: String,
    pub algorithm: String,
    /// The scoring rule (test-retest), or the rules that act as raters joined by `+`
    /// (inter-rater, e.g. `dbwa+ripa+nbm`).
    pub rule: String,
    /// `raw`, or `zscore` when every rule's scores were standardised before the ICC.
    pub scale: String,
    /// The target list the row belongs to (`occ16`, `full`, …). Per-word rows appear once per
    /// list that contains the word.
    pub list: String,
    pub subject: Subject,
    pub stats: IccStats,
}

/// Whether the rows of an ICC table are about words or base pairs: the layout of an [`IccRow`]
/// table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubjectKind {
    Word,
    Pair,
}

/// The columns before the subject in an ICC table.
const ICC_LABELS: [&str; 5] = ["corpus", "algorithm", "rule", "scale", "list"];

/// Columns `corpus, algorithm, rule, scale, list`, then the subject (`word`, or `male` and
/// `female`), then the [`IccStats`] columns.
impl Row for IccRow {
    type Layout = SubjectKind;

    fn columns(kind: SubjectKind) -> Vec<ColumnDef> {
        let subject: &[&'static str] = match kind {
            SubjectKind::Word => &["word"],
            SubjectKind::Pair => &["male", "female"],
        };
        let strs = ICC_LABELS.iter().chain(subject).map(|&name| ColumnDef {
            name,
            kind: ColumnType::Str,
        });
        strs.chain(IccStats::columns(())).collect()
    }

    /// Pairs unless there is a `word` column.
    fn layout_of(column_names: &[&str]) -> SubjectKind {
        if column_names.contains(&"word") {
            SubjectKind::Word
        } else {
            SubjectKind::Pair
        }
    }

    fn misfit(&self, kind: SubjectKind) -> Option<String> {
        match (&self.subject, kind) {
            (Subject::Word(_), SubjectKind::Word) | (Subject::Pair { .. }, SubjectKind::Pair) => None,
            _ => Some(format!("is not about a {kind:?}")),
        }
    }

    /// The subject's columns follow the row's subject; [`Row::misfit`] has checked it fits.
    fn push<'a>(&'a self, _: SubjectKind, out: &mut RowWriter<'a>) {
        for label in [&self.corpus, &self.algorithm, &self.rule, &self.scale, &self.list] {
            out.str(label);
        }
        match &self.subject {
            Subject::Word(word) => out.str(word),
            Subject::Pair { male, female } => {
                out.str(male);
                out.str(female);
            }
        }
        Row::push(&self.stats, (), out);
    }

    fn read(kind: SubjectKind, cells: &mut RowReader) -> Self {
        let (corpus, algorithm, rule) = (cells.str(), cells.str(), cells.str());
        let (scale, list) = (cells.str(), cells.str());
        let subject = match kind {
            SubjectKind::Word => Subject::Word(cells.str()),
            SubjectKind::Pair => Subject::Pair {
                male: cells.str(),
                female: cells.str(),
            },
        };
        IccRow {
            corpus,
            algorithm,
            rule,
            scale,
            list,
            subject,
            stats: <IccStats as Row>::read((), cells),
        }
    }
}

table_row! {
    /// One Cronbach's alpha.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AlphaRow {
        pub corpus: String,
        pub algorithm: String,
        pub rule: String,
        /// The query (`career`, …) or, for the base-pair ensemble, the list of cases (`google10k`).
        pub query: String,
        /// What the items are: `query_words` (cases = base pairs) or `base_pairs` (cases = words).
        pub items: String,
        pub alpha: f64,
        pub ci_low: f64,
        pub ci_high: f64,
        pub n_items: u32,
        pub n_cases: u32,
        pub n_dropped: u32,
        pub status: String,
    }
}

table_row! {
    /// Pearson's r between two rules' seed-averaged scores over every (base pair, word) of a list.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct CorrelationRow {
        pub corpus: String,
        pub algorithm: String,
        pub list: String,
        pub rule_a: String,
        pub rule_b: String,
        /// Pearson's r; NaN unless `status` is `ok`.
        pub r: f64,
        /// Two-sided p-value of the test of r = 0.
        pub p_value: f64,
        /// (base pair, word) cells correlated.
        pub n_cells: u64,
        pub status: String,
    }
}

table_row! {
    /// The share of a list's words or base pairs whose ICC falls below a threshold (poor
    /// reliability), for one rule (test-retest) or set of rules (inter-rater).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ShareRow {
        pub corpus: String,
        pub algorithm: String,
        /// `test_retest` or `inter_rater`.
        pub analysis: String,
        /// The rule (test-retest) or the raters joined by `+` (inter-rater).
        pub rule: String,
        /// `raw` or `zscore`.
        pub scale: String,
        pub list: String,
        /// `word` or `pair`: what the ICCs rate.
        pub subject: String,
        /// The ICC below which reliability counts as poor.
        pub threshold: f64,
        /// ICCs that are numbers (status `ok`).
        pub n_rated: u32,
        /// Of those, ICCs below `threshold`.
        pub n_below: u32,
        /// `n_below / n_rated`; NaN when nothing was rated.
        pub share_below: f64,
        /// ICCs that are NaN (degenerate matrices), left out of the share.
        pub n_undefined: u32,
    }
}

table_row! {
    /// How much of a word or pair list a corpus's vocabulary covers.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct CoverageRow {
        pub corpus: String,
        pub list: String,
        /// `base_pairs`, `target_words` or `query`.
        pub kind: String,
        pub n_listed: u32,
        pub n_in_vocabulary: u32,
        pub n_dropped: u32,
        /// The dropped entries, space-separated (pairs as `male:female`), in list order.
        pub dropped: String,
    }
}

impl CoverageRow {
    /// The row of a list of `n_listed` entries of which `dropped` are not in the vocabulary.
    pub fn of(corpus: &str, list: &str, kind: &str, n_listed: usize, dropped: &[String]) -> CoverageRow {
        CoverageRow {
            corpus: corpus.to_owned(),
            list: list.to_owned(),
            kind: kind.to_owned(),
            n_listed: n_listed as u32,
            n_in_vocabulary: (n_listed - dropped.len()) as u32,
            n_dropped: dropped.len() as u32,
            dropped: dropped.join(" "),
        }
    }
}

table_row! {
    /// Geometric properties of one word in one (corpus, algorithm) configuration.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct WordPropertyRow {
        pub corpus: String,
        pub algorithm: String,
        pub word: String,
        /// Corpus count (after `min_count`); 0 when unknown (a model read from files without a
        /// counts file).
        pub frequency: u64,
        /// Cosine to the nearest other word, averaged over seeds.
        pub nn_sim: f64,
        /// L2 norm of the raw vector, averaged over seeds.
        pub l2_norm: f64,
        /// Embedding stability: mean cosine across all seed pairs after Procrustes alignment.
        pub es: f64,
    }
}

table_row! {
    /// One observation of the multilevel regression (Du et al. 2021, §5.5): a word's reliability
    /// with the word's properties.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct RegressionRow {
        /// `test_retest` or `inter_rater`.
        pub analysis: String,
        pub corpus: String,
        pub algorithm: String,
        /// The rule (test-retest) or the raters joined by `+` (inter-rater).
        pub metric: String,
        /// `raw` or `zscore` (inter-rater); `raw` for test-retest.
        pub scale: String,
        pub word: String,
        /// The per-word ICC.
        pub score: f64,
        /// As the word's properties give it (0: unknown); `log_freq` and `log_freq_sq` are then NaN.
        pub frequency: u64,
        pub log_freq: f64,
        pub log_freq_sq: f64,
        pub n_senses: u32,
        pub log_senses: f64,
        /// Most common Brown tag in the universal tagset.
        pub pos: String,
        pub nn_sim: f64,
        pub l2_norm: f64,
        pub es: f64,
    }
}

table_row! {
    /// One score of `retest score`: an embedding file scored outside a pipeline.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ScoreRow {
        /// The embedding file as given on the command line.
        pub embedding: String,
        pub rule: String,
        pub male: String,
        pub female: String,
        pub word: String,
        /// NaN when `status` is not `ok`.
        pub score: f64,
        /// `ok`, or `zero_vector`: the word's vector is all zeros and has no direction.
        pub status: String,
    }
}

table_row! {
    /// One WEAT test on one embedding file (`retest weat`).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct WeatRow {
        /// The embedding file as given on the command line.
        pub embedding: String,
        /// The test's name in the tests file.
        pub test: String,
        /// NaN numbers, an empty `p_method` and 0 partitions when a set is empty.
        pub weat: WeatStats,
        /// `ok`, `no_spread` (every score equal: no effect size) or `empty_set`.
        pub status: String,
        /// For `empty_set`, the sets left without a word (`x`, `y`, `a`, `b`, space-separated).
        pub detail: String,
        /// The out-of-vocabulary words left out, as `set:word`, space-separated (`x:hyacinth b:teargas`).
        pub dropped: String,
    }
}

table_row! {
    /// One set-level measure of one test on one embedding file (`retest query`).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct QueryRow {
        /// The embedding file as given on the command line.
        pub embedding: String,
        /// The test's name in the tests file.
        pub test: String,
        /// `weat` (its effect size), `rnd`, `ect`, `mac` or `rnsb`.
        pub measure: String,
        /// NaN when the measure does not fit the test or a set is empty.
        pub value: f64,
        /// WEAT's one-sided permutation p-value; NaN for the other measures.
        pub p_value: f64,
        /// Target words in the vocabulary, over every target set.
        pub n_targets: u32,
        /// Attribute words in the vocabulary, over every attribute set.
        pub n_attributes: u32,
        /// `ok`, `no_spread` (WEAT: every score equal), `not_applicable` (the test does not have
        /// the sets the measure takes), `empty_set` or `not_computed` (a constant ranking: no ECT).
        pub status: String,
        /// Why a row is not `ok`: the measure's shape, or the sets left without a word.
        pub detail: String,
        /// The out-of-vocabulary words left out, as `set:word`, space-separated.
        pub dropped: String,
    }
}

table_row! {
    /// Direct Bias of one gender direction on one embedding file (`retest direct-bias`).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct DirectBiasRow {
        /// The embedding file as given on the command line.
        pub embedding: String,
        /// `masculine:feminine` for one pair's direction, `pca` for the first principal
        /// component of all the pairs in the vocabulary.
        pub direction: String,
        /// The exponent `c`.
        pub c: f64,
        /// Neutral words in the vocabulary (the ones averaged).
        pub n_words: u32,
        pub direct_bias: f64,
        /// The share of variance of the first principal component (`pca`); NaN for a pair.
        pub explained_variance: f64,
    }
}

table_row! {
    /// One number of the intrinsic-quality suite on one embedding file (`retest eval --out`).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct EvalRow {
        /// The embedding file as given on the command line.
        pub embedding: String,
        /// `wordsim353`, `simlex999`, `men`, `rg65`, `rw`, `google` or `msr`.
        pub benchmark: String,
        /// An analogy set's section, or `total` (all its questions); empty for a similarity set.
        pub section: String,
        /// `spearman` or `pearson` (similarity), `accuracy` (analogies, 3CosAdd).
        pub metric: String,
        pub value: f64,
        /// Analogy questions answered correctly; 0 for similarity.
        pub n_correct: u32,
        /// Pairs or questions with every word in the vocabulary searched.
        pub n_used: u32,
        /// Pairs or questions left out for a word out of that vocabulary.
        pub n_skipped: u32,
        /// `ok`; `not_available` (the benchmark's file is not in the benchmark folder);
        /// `too_few_pairs` or `constant` (a correlation that is NaN).
        pub status: String,
    }
}

table_row! {
    /// One answer D of an analogy query A : B :: C : ? on one embedding file (`retest
    /// analogies`), or the one row of a query with a word out of vocabulary.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct AnalogyRow {
        /// The embedding file as given on the command line.
        pub embedding: String,
        pub a: String,
        pub b: String,
        pub c: String,
        /// `cosadd`, `cosmul`, `cosmul_unshifted` or `bolukbasi`.
        pub solver: String,
        /// `constrained` (D is none of A, B, C) or `unconstrained`.
        pub constraint: String,
        /// 1 for the best answer; 0 on an `out_of_vocabulary` row.
        pub rank: u32,
        /// The answer D; empty on an `out_of_vocabulary` row.
        pub answer: String,
        /// The solver's score of D; NaN on an `out_of_vocabulary` row.
        pub score: f64,
        /// `ok`, or `out_of_vocabulary` when a query word is not among the words searched.
        pub status: String,
        /// For `out_of_vocabulary`, the query words not found, space-separated.
        pub detail: String,
        /// The answer the queries file reports for the query (its fourth word), or empty.
        pub reported: String,
        /// Where `reported` ranks among the words searched (1 + the candidates the solver scores
        /// higher, ties to the earlier word); 0 unless `reported_status` is `ok`.
        pub reported_rank: u32,
        /// Empty without a reported answer; else `ok`, `out_of_vocabulary` (it or a query word
        /// is not among the words searched) or `excluded` (an input word, constrained).
        pub reported_status: String,
    }
}
