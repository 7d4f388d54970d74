//! The rows of the validity tables: how well each rule's scores of a criterion's words track the
//! criterion on each seed, and across the seeds beside the scores' test-retest reliability.
//! `docs/tables.md` documents each table.

use serde::Serialize;

use crate::rows::IccStats;
use crate::schema::table_row;

table_row! {
    /// One rule's scores along one reference against the criterion, on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ValiditySeedRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub rule: String,
        /// The base pair (`he:she`).
        pub reference: String,
        /// `census-1900`, `mturk`, or a criterion file's stem.
        pub criterion: String,
        /// Words with a score and a criterion value.
        pub n_words: u32,
        pub pearson_r: f64,
        pub spearman_r: f64,
        /// The two-sided p-value of Pearson's r.
        pub p_value: f64,
    }
}

table_row! {
    /// One rule's validity along one reference across the seeds, beside the test-retest ICC of
    /// the same scores.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ValidityReliabilityRow {
        pub corpus: String,
        pub algorithm: String,
        pub rule: String,
        pub reference: String,
        pub criterion: String,
        /// Seeds with an r, and without (NaN: too few words or no spread).
        pub n_seeds: u32,
        pub n_undefined: u32,
        /// Pearson's r across the seeds: mean, sample SD, 2.5 % and 97.5 % quantiles.
        pub mean_r: f64,
        pub sd_r: f64,
        pub low_r: f64,
        pub high_r: f64,
        /// ICC(2,1) of the criterion words' scores, words × seeds.
        pub stats: IccStats,
    }
}
