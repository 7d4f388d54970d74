//! Two-way ANOVA without replication (subjects × raters), the basis of every ICC form.

use crate::matrix::{Matrix, Sum, rounding_floor};
use crate::status::Status;

/// Sums of squares and mean squares of a subjects × raters table with one score per cell.
///
/// Notation (Shrout & Fleiss 1979; McGraw & Wong 1996), for n subjects (rows) and k raters
/// (columns), scores x_ij, subject means x̄_i·, rater means x̄_·j and grand mean x̄:
///
/// * SS_subjects = k Σ_i (x̄_i· − x̄)², MSB = SS_subjects / (n − 1)
/// * SS_raters = n Σ_j (x̄_·j − x̄)², MSJ = SS_raters / (k − 1)
/// * SS_residual = Σ_ij (x_ij − x̄_i· − x̄_·j + x̄)², MSE = SS_residual / ((n − 1)(k − 1))
/// * MSW = (SS_raters + SS_residual) / (n (k − 1)), the within-subject mean square of the
///   one-way model
///
/// These are pingouin 0.7's `anova(between=[targets, raters], ss_type=2)` rows as used by
/// `intraclass_corr` (its "residual" is the subjects × raters interaction, the only error term
/// without replication). The residual is summed directly rather than obtained by subtraction,
/// and all sums are compensated.
///
/// A sum of squares at or below the rounding floor `N·(4ε·max|x|)²` (N = n k scores) is set to
/// exactly 0: such a "variance" is rounding noise (for example a constant table of 0.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoWayAnova {
    /// Complete rows used (subjects).
    pub n_subjects: usize,
    /// Columns (raters).
    pub n_raters: usize,
    /// Rows dropped because they contained a NaN.
    pub n_dropped: usize,
    pub ss_subjects: f64,
    pub ss_raters: f64,
    pub ss_residual: f64,
    /// MSB, between subjects.
    pub ms_subjects: f64,
    /// MSJ, between raters (judges).
    pub ms_raters: f64,
    /// MSE, residual.
    pub ms_residual: f64,
    /// MSW, within subjects (raters + residual).
    pub ms_within: f64,
    /// [`Status::Ok`]; [`Status::ZeroVariance`] when SS_subjects = 0 (the sums are still
    /// reported); otherwise the sums are NaN and the status says why.
    pub status: Status,
}

impl TwoWayAnova {
    /// The ANOVA of the complete rows of `m` (rows = subjects, columns = raters).
    pub fn new(m: Matrix<'_>) -> Self {
        let complete = m.complete_rows();
        let n = complete.rows.len();
        let k = complete.n_cols;
        let failed = |status| TwoWayAnova {
            n_subjects: n,
            n_raters: k,
            n_dropped: complete.n_dropped,
            ss_subjects: f64::NAN,
            ss_raters: f64::NAN,
            ss_residual: f64::NAN,
            ms_subjects: f64::NAN,
            ms_raters: f64::NAN,
            ms_residual: f64::NAN,
            ms_within: f64::NAN,
            status,
        };
        if k < 2 {
            return failed(Status::TooFewRaters);
        }
        if n < 2 {
            return failed(Status::TooFewSubjects);
        }
        if complete.has_infinite() {
            return failed(Status::NonFinite);
        }
        let (nf, kf) = (n as f64, k as f64);

        let subject_means: Vec<f64> = complete
            .rows
            .iter()
            .map(|row| Sum::of(row.iter().copied()) / kf)
            .collect();
        let mut rater_sums = vec![Sum::default(); k];
        for row in &complete.rows {
            for (acc, &x) in rater_sums.iter_mut().zip(row.iter()) {
                acc.add(x);
            }
        }
        let rater_means: Vec<f64> = rater_sums.iter().map(|s| s.value() / nf).collect();
        let grand_mean = Sum::of(subject_means.iter().copied()) / nf;

        let mut ss_subjects = kf * Sum::of(subject_means.iter().map(|&r| (r - grand_mean).powi(2)));
        let mut ss_raters = nf * Sum::of(rater_means.iter().map(|&c| (c - grand_mean).powi(2)));
        let mut residual = Sum::default();
        for (row, &r) in complete.rows.iter().zip(&subject_means) {
            for (&x, &c) in row.iter().zip(&rater_means) {
                residual.add(((x - r) - (c - grand_mean)).powi(2));
            }
        }
        let mut ss_residual = residual.value();
        if !(ss_subjects.is_finite() && ss_raters.is_finite() && ss_residual.is_finite()) {
            return failed(Status::NonFinite);
        }

        let floor = rounding_floor(n * k, complete.max_abs());
        for ss in [&mut ss_subjects, &mut ss_raters, &mut ss_residual] {
            if *ss <= floor {
                *ss = 0.0;
            }
        }

        let status = if ss_subjects == 0.0 {
            Status::ZeroVariance
        } else {
            Status::Ok
        };
        TwoWayAnova {
            n_subjects: n,
            n_raters: k,
            n_dropped: complete.n_dropped,
            ss_subjects,
            ss_raters,
            ss_residual,
            ms_subjects: ss_subjects / (nf - 1.0),
            ms_raters: ss_raters / (kf - 1.0),
            ms_residual: ss_residual / ((nf - 1.0) * (kf - 1.0)),
            ms_within: (ss_raters + ss_residual) / (nf * (kf - 1.0)),
            status,
        }
    }
}
