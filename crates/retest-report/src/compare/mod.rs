//! The paper's findings, each checked against this run's rows: what Du, Fang & Nguyen (2021)
//! report, what this run gives, and whether the finding replicates by a stated criterion.

mod alpha;
mod effects;
mod pairs;
#[cfg(test)]
mod tests;
mod words;

pub use alpha::{alpha_base_pairs, alpha_queries};
pub use effects::regression_directions;
pub use pairs::{pair_reliability_correlation, pair_rows, pair_variation, singular_vs_plural};
pub use words::{
    full_list_lowest, inter_rater_low, list_names, poor_share_full_vs_google10k, rule_correlations,
    rule_medians, test_retest_high, variant_trends,
};
