//! The rows of the validity tables: how well each rule's scores of a criterion's words track the
//! criterion on each seed, and across the seeds beside the scores' test-retest reliability.
//! `docs/tables.md` documents each table.

use serde::Serialize;

use crate::rows::IccStats;
use crate::schema::table_row;

table_row! {
    /// How well one rule's scores along one reference track a criterion: the columns
    /// `retest validity` and the pipeline's `validity` table share.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ValidityStats {
        /// `dbwa`, `ripa` or `nbm`.
        pub rule: String,
        /// The base pair (`he:she`).
        pub reference: String,
        /// `census-1900`, `mturk`, or a criterion file's stem.
        pub criterion: String,
        /// Words with a score and a criterion value (the ones correlated).
        pub n_words: u32,
        /// Pearson's r of the scores and the criterion; NaN below 3 words or without spread.
        pub pearson_r: f64,
        /// Spearman's ρ.
        pub spearman_r: f64,
        /// The two-sided p-value of Pearson's r (t test with n − 2 degrees of freedom).
        pub p_value: f64,
    }
}

table_row! {
    /// The validity of one rule along one reference on one embedding file (`retest validity`).
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ValidityRow {
        /// The embedding file as given on the command line.
        pub embedding: String,
        pub validity: ValidityStats,
    }
}

table_row! {
    /// The validity of one rule along one reference on one seed.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct ValiditySeedRow {
        pub corpus: String,
        pub algorithm: String,
        pub seed: u32,
        pub validity: ValidityStats,
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
