//! The rows of the gender-subspace tables: Direct Bias on the first k principal components of
//! the definitional pairs, the first component with each pair left out, indirect bias, and each
//! one's spread across seeds beside the test-retest reliability of the values it rests on.
//! `docs/tables.md` documents each table.

use serde::Serialize;

use crate::rows::{IccStats, SpreadStats};
use crate::schema::table_row;

table_row! {
    /// Direct Bias on the first `components` principal components, on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct SubspaceSeedRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// `k`: the subspace is spanned by the first `k` components.
        pub components: u32,
        /// The definitional pairs in vocabulary.
        pub n_pairs: u32,
        /// The neutral word list, and its words in vocabulary.
        pub list: String,
        pub n_words: u32,
        pub c: f64,
        /// The share of variance of component `k`, and of the first `k` together.
        pub explained_variance: f64,
        pub cumulative_variance: f64,
        /// Mean ‖ŵ_B‖^c: the cosine of each word with its projection on the subspace (with
        /// `k = 1`, Bolukbasi et al.'s Direct Bias along `pca`).
        pub direct_bias: f64,
        /// Mean (Σ_j |cos(w, b_j)|)^c: Schröder et al.'s code's reading.
        pub direct_bias_summed: f64,
    }
}

table_row! {
    /// The first principal component with one definitional pair left out, on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct LeaveOneOutRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// The pair left out, `masculine:feminine`.
        pub pair: String,
        /// The absolute cosine of the component without the pair with the full one (a
        /// component's sign is a convention).
        pub cos_pca: f64,
        /// The cosine of the pair's own direction m̂ − f̂ with the full component.
        pub pair_cos_pca: f64,
        /// Direct Bias of the neutral words along the component without the pair, and minus
        /// the full component's.
        pub direct_bias: f64,
        pub direct_bias_change: f64,
    }
}

table_row! {
    /// Bolukbasi et al.'s indirect bias of one neutral word with one anchor word, on one seed,
    /// with respect to the first principal component.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct IndirectBiasRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub anchor: String,
        pub word: String,
        /// cos(w, anchor).
        pub cosine: f64,
        /// β(w, anchor): the share of the cosine that removing the component takes away; NaN
        /// when the cosine is 0.
        pub beta: f64,
    }
}

table_row! {
    /// One subspace statistic across the seeds, beside the test-retest ICC of the per-subject
    /// values it rests on.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct SubspaceReliabilityRow {
        pub corpus: String,
        pub algorithm: String,
        /// `direct_bias`, `pca_leave_one_out` (the table's name) or `indirect_bias`.
        pub statistic: String,
        /// The number of components (`direct_bias`), `pca` or the anchor word (`indirect_bias`).
        pub scope: String,
        /// Across the seeds: Direct Bias, the smallest cosine over the pairs left out, or the
        /// median β over the words.
        pub spread: SpreadStats,
        /// The subjects of the ICC: `words` (their projection norms or β) or `pairs` (their
        /// cosines left out).
        pub subjects: String,
        /// ICC(2,1) of those values, subjects × seeds.
        pub stats: IccStats,
    }
}
