//! The rows of the residual-bias tables: Gonen & Goldberg's (2019) tests on each seed, and each
//! test's spread across the seeds beside the test-retest reliability of the values it rests on.
//! `docs/tables.md` documents each table.

use serde::Serialize;

use crate::rows::{IccStats, SpreadStats};
use crate::schema::table_row;

table_row! {
    /// Gonen & Goldberg's three tests on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ResidualSeedRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        /// The candidate words: the most frequent lowercase words without digits or punctuation,
        /// less the gender-specific ones.
        pub n_candidates: u32,
        /// Words per gender clustered: the most masculine and the most feminine by projection.
        pub n_clustered: u32,
        /// The share of the clustered words whose 2-means cluster is their gender's (≥ 0.5).
        pub cluster_accuracy: f64,
        /// Words per gender the RBF SVM was trained on, and tested on.
        pub n_trained: u32,
        pub n_tested: u32,
        /// The share of the test words the SVM labels with their gender.
        pub svm_accuracy: f64,
        /// Targets among the candidates.
        pub n_targets: u32,
        /// Pearson's r of the targets' bias by projection with their share of masculine
        /// neighbours, and its two-sided p-value.
        pub neighbour_r: f64,
        pub neighbour_p: f64,
    }
}

table_row! {
    /// One test's value across the seeds, beside the test-retest ICC of the per-word values it
    /// rests on: the candidates' bias by projection (the labels of both accuracies) or the
    /// targets' share of masculine neighbours (the correlation's).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ResidualReliabilityRow {
        pub corpus: String,
        pub algorithm: String,
        /// `cluster_accuracy`, `svm_accuracy` or `neighbour_r`.
        pub statistic: String,
        /// The test's value across the seeds.
        pub spread: SpreadStats,
        /// The per-word values of the ICC: `projection_bias` (candidates) or `masculine_share`
        /// (targets).
        pub subjects: String,
        /// ICC(2,1) of those values, words × seeds.
        pub stats: IccStats,
    }
}
