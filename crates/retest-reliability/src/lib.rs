//! Reliability statistics: intraclass correlations, Cronbach's alpha, Cohen's and Fleiss' kappa,
//! and Pearson's correlation.
//!
//! Pure numerics on `f64` slices: no I/O, no clock, no randomness, no dependencies. Each
//! estimator reproduces a reference implementation (pingouin 0.7, scikit-learn, statsmodels) and
//! is checked against its values in the tests; the formulas, with notation and citations, are
//! in the documentation of the function that computes them.
//!
//! Orientation follows Du, Fang & Nguyen (2021): a [`Matrix`] has one row per subject (ICC: a
//! base pair or a target word) or case (alpha), and one column per rater (ICC: a seed or a
//! scoring rule) or item (alpha).
//!
//! ```
//! use retest_reliability::{IccForm, Matrix, Status, icc_all};
//!
//! // Shrout & Fleiss (1979), Table 2: 6 targets rated by 4 judges.
//! let scores = [
//!     9.0, 2.0, 5.0, 8.0, 6.0, 1.0, 3.0, 2.0, 8.0, 4.0, 6.0, 8.0, //
//!     7.0, 1.0, 2.0, 6.0, 10.0, 5.0, 6.0, 9.0, 6.0, 2.0, 4.0, 7.0,
//! ];
//! let m = Matrix::new(&scores, 6, 4).unwrap();
//! let [icc1, icc2, icc3, ..] = icc_all(m);
//! assert_eq!(icc2.form, IccForm::Icc2_1);
//! assert_eq!(icc2.status, Status::Ok);
//! assert!((icc1.value - 0.17).abs() < 0.005);
//! assert!((icc2.value - 0.29).abs() < 0.005);
//! assert!((icc3.value - 0.71).abs() < 0.005);
//! ```
//!
//! **Degenerate input never panics.** Too few subjects or raters, rows that are all NaN,
//! infinite scores, or subjects that do not differ give NaN values and a [`Status`] saying why.
//! Rows containing NaN are dropped (listwise deletion) and counted in `n_dropped`.

mod alpha;
mod anova;
mod correlation;
pub mod fdist;
mod icc;
mod kappa;
mod matrix;
mod status;

pub use alpha::{AlphaResult, cronbach_alpha};
pub use anova::TwoWayAnova;
pub use correlation::{CorrelationResult, average_ranks, pearson, spearman};
pub use icc::{IccForm, IccResult, icc, icc_all, icc2_1, icc3_1};
pub use kappa::{AggregatedRatings, CountTable, KappaResult, aggregate_raters, cohen_kappa, fleiss_kappa};
pub use matrix::{Matrix, MatrixError};
pub use status::Status;
