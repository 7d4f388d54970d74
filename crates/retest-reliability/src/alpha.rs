//! Cronbach's alpha with Feldt's confidence interval, as pingouin 0.7 `cronbach_alpha`.

use crate::fdist;
use crate::matrix::{Matrix, Sum, rounding_floor};
use crate::status::Status;

/// Cronbach's alpha of a cases × items table, with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlphaResult {
    /// α; NaN unless `status` is [`Status::Ok`].
    pub value: f64,
    /// Lower end of Feldt's 95% interval (not rounded; pingouin rounds to 3 decimals).
    pub ci_low: f64,
    /// Upper end of Feldt's 95% interval.
    pub ci_high: f64,
    /// Cases (complete rows) used.
    pub n_cases: usize,
    /// Items (columns).
    pub n_items: usize,
    /// Rows dropped because they contained a NaN (listwise deletion).
    pub n_dropped: usize,
    pub status: Status,
}

/// Cronbach's (1951) alpha of `m`, rows = cases (observations), columns = items.
///
/// For n cases and k items with scores x_ij, item variances s²_j and the variance s²_T of the
/// case totals T_i = Σ_j x_ij (all with ddof 1, i.e. the covariance matrix C of pingouin):
///
/// α = k/(k − 1) · (1 − Σ_j s²_j / s²_T) = k/(k − 1) · (1 − tr C / Σ C).
///
/// It equals ICC(3,k) = 1 − MSE/MSB of the same table.
///
/// 95% interval by Feldt (1965; Feldt, Woodruff & Salih 1987), with F_q(ν₁, ν₂) the upper-q
/// quantile of the F distribution, ν₁ = n − 1, ν₂ = (n − 1)(k − 1):
/// low = 1 − (1 − α) F_.025(ν₁, ν₂), high = 1 − (1 − α) F_.975(ν₁, ν₂).
///
/// Rows with a NaN are dropped first (listwise deletion, pingouin's `nan_policy="listwise"`;
/// pingouin's default is pairwise). NaN with a status for fewer than 2 cases or 2 items,
/// infinite scores, or [`Status::ZeroVariance`] when the case totals do not vary (s²_T at the
/// rounding floor).
pub fn cronbach_alpha(m: Matrix<'_>) -> AlphaResult {
    let complete = m.complete_rows();
    let n = complete.rows.len();
    let k = complete.n_cols;
    let mut result = AlphaResult {
        value: f64::NAN,
        ci_low: f64::NAN,
        ci_high: f64::NAN,
        n_cases: n,
        n_items: k,
        n_dropped: complete.n_dropped,
        status: Status::Ok,
    };
    let fail = |mut r: AlphaResult, status| {
        r.status = status;
        r
    };
    if k < 2 {
        return fail(result, Status::TooFewRaters);
    }
    if n < 2 {
        return fail(result, Status::TooFewSubjects);
    }
    if complete.has_infinite() {
        return fail(result, Status::NonFinite);
    }
    let (nf, kf) = (n as f64, k as f64);

    let mut item_sums = vec![Sum::default(); k];
    for row in &complete.rows {
        for (acc, &x) in item_sums.iter_mut().zip(row.iter()) {
            acc.add(x);
        }
    }
    let item_means: Vec<f64> = item_sums.iter().map(|s| s.value() / nf).collect();
    let mut item_ss = vec![Sum::default(); k];
    for row in &complete.rows {
        for ((acc, &x), &mean) in item_ss.iter_mut().zip(row.iter()).zip(&item_means) {
            acc.add((x - mean).powi(2));
        }
    }
    // Σ_j s²_j and s²_T share the factor 1/(n − 1), which cancels in the ratio.
    let sum_item_ss = Sum::of(item_ss.iter().map(|s| s.value()));
    let totals: Vec<f64> = complete
        .rows
        .iter()
        .map(|row| Sum::of(row.iter().copied()))
        .collect();
    let total_mean = Sum::of(totals.iter().copied()) / nf;
    let total_ss = Sum::of(totals.iter().map(|&t| (t - total_mean).powi(2)));
    if !(sum_item_ss.is_finite() && total_ss.is_finite()) {
        return fail(result, Status::NonFinite);
    }
    if total_ss <= rounding_floor(n, kf * complete.max_abs()) {
        return fail(result, Status::ZeroVariance);
    }

    let alpha = kf / (kf - 1.0) * (1.0 - sum_item_ss / total_ss);
    let df1 = nf - 1.0;
    let df2 = df1 * (kf - 1.0);
    result.value = alpha;
    result.ci_low = 1.0 - (1.0 - alpha) * fdist::isf(0.025, df1, df2);
    result.ci_high = 1.0 - (1.0 - alpha) * fdist::isf(0.975, df1, df2);
    result
}
