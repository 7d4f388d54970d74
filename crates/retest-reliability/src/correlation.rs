//! Pearson's product-moment correlation with its two-sided t test, as `scipy.stats.pearsonr`.

use crate::fdist;
use crate::matrix::{Sum, rounding_floor};
use crate::status::Status;

/// A Pearson correlation between two paired samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorrelationResult {
    /// r; NaN unless `status` is [`Status::Ok`].
    pub value: f64,
    /// Two-sided p-value of the test of r = 0.
    pub p_value: f64,
    /// Pairs used.
    pub n: usize,
    /// Pairs dropped because either value was NaN.
    pub n_dropped: usize,
    pub status: Status,
}

/// Pearson's r of the paired samples `x` and `y` (equal lengths), with the p-value of the
/// two-sided test of no correlation.
///
/// With means x̄, ȳ over the n complete pairs (a pair with a NaN on either side is dropped and
/// counted), `r = Σ(x − x̄)(y − ȳ) / √(Σ(x − x̄)² Σ(y − ȳ)²)`, clamped to [−1, 1]. Under H₀ the
/// statistic `t = r √((n − 2)/(1 − r²))` has Student's t distribution with n − 2 degrees of
/// freedom, so `p = P(|T| ≥ |t|) = P(F(1, n − 2) ≥ t²)`; `p = 0` when |r| = 1. This is the
/// p-value of `scipy.stats.pearsonr` (exact beta distribution of r under bivariate normality).
///
/// NaN with a status for fewer than three complete pairs ([`Status::TooFewSubjects`]), an
/// infinite value ([`Status::NonFinite`]) or a sample that does not vary
/// ([`Status::ZeroVariance`]).
///
/// # Panics
///
/// If `x` and `y` differ in length.
pub fn pearson(x: &[f64], y: &[f64]) -> CorrelationResult {
    assert_eq!(x.len(), y.len(), "pearson: the two samples differ in length");
    let pairs: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter(|(a, b)| !a.is_nan() && !b.is_nan())
        .map(|(&a, &b)| (a, b))
        .collect();
    let n = pairs.len();
    let mut result = CorrelationResult {
        value: f64::NAN,
        p_value: f64::NAN,
        n,
        n_dropped: x.len() - n,
        status: Status::Ok,
    };
    let fail = |mut r: CorrelationResult, status| {
        r.status = status;
        r
    };
    if n < 3 {
        return fail(result, Status::TooFewSubjects);
    }
    if pairs.iter().any(|(a, b)| a.is_infinite() || b.is_infinite()) {
        return fail(result, Status::NonFinite);
    }
    let mx = Sum::of(pairs.iter().map(|p| p.0)) / n as f64;
    let my = Sum::of(pairs.iter().map(|p| p.1)) / n as f64;
    let (mut sxx, mut syy, mut sxy) = (Sum::default(), Sum::default(), Sum::default());
    for &(a, b) in &pairs {
        let (dx, dy) = (a - mx, b - my);
        sxx.add(dx * dx);
        syy.add(dy * dy);
        sxy.add(dx * dy);
    }
    let (sxx, syy, sxy) = (sxx.value(), syy.value(), sxy.value());
    let max_x = pairs.iter().fold(0.0_f64, |m, p| m.max(p.0.abs()));
    let max_y = pairs.iter().fold(0.0_f64, |m, p| m.max(p.1.abs()));
    if sxx <= rounding_floor(n, max_x) || syy <= rounding_floor(n, max_y) {
        return fail(result, Status::ZeroVariance);
    }
    let r = (sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0);
    let df = (n - 2) as f64;
    result.value = r;
    result.p_value = if r.abs() == 1.0 {
        0.0
    } else {
        let t2 = r * r * df / (1.0 - r * r);
        fdist::sf(t2, 1.0, df)
    };
    result
}

/// Spearman's ρ of the paired samples `x` and `y` (equal lengths): [`pearson`] of the average
/// ranks of the complete pairs (a pair with a NaN on either side is dropped and counted first),
/// with its t-test p-value, as `scipy.stats.spearmanr`.
///
/// # Panics
///
/// If `x` and `y` differ in length.
pub fn spearman(x: &[f64], y: &[f64]) -> CorrelationResult {
    assert_eq!(x.len(), y.len(), "spearman: the two samples differ in length");
    let (a, b): (Vec<f64>, Vec<f64>) = x
        .iter()
        .zip(y)
        .filter(|(a, b)| !a.is_nan() && !b.is_nan())
        .map(|(&a, &b)| (a, b))
        .unzip();
    let mut result = pearson(&average_ranks(&a), &average_ranks(&b));
    result.n_dropped = x.len() - a.len();
    if a.iter().chain(&b).any(|v| v.is_infinite()) {
        result.value = f64::NAN;
        result.p_value = f64::NAN;
        result.status = Status::NonFinite;
    }
    result
}

/// Ranks 1..=n of `values` in ascending order; tied values share the mean of their ranks
/// (scipy's `rankdata(method="average")`). NaN values sort last (`f64::total_cmp`).
pub fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1 ..= end; their mean is (start + 1 + end) / 2.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}
