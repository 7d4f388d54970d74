//! Pearson and Spearman correlation, as `scipy.stats.pearsonr` / `spearmanr` compute them, as
//! plain numbers (the ranks are retest-reliability's, which also tests ρ and r).

pub use retest_reliability::average_ranks;

/// Pearson's r = Σ(xᵢ − x̄)(yᵢ − ȳ) / √(Σ(xᵢ − x̄)² · Σ(yᵢ − ȳ)²), two-pass in `f64`, clamped to
/// [−1, 1] like scipy. NaN when there are fewer than 2 points or either side is constant.
/// Panics if the lengths differ.
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    assert_eq!(x.len(), y.len(), "pearson: both samples need the same length");
    let n = x.len();
    if n < 2 {
        return f64::NAN;
    }
    let mean_x = x.iter().sum::<f64>() / n as f64;
    let mean_y = y.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (&a, &b) in x.iter().zip(y) {
        let (dx, dy) = (a - mean_x, b - mean_y);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return f64::NAN;
    }
    (sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0)
}

/// Spearman's ρ: Pearson's r of the ranks, tied values getting the average of the ranks they
/// span (scipy's `rankdata(method="average")`), so ties need no correction term.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    pearson(&average_ranks(x), &average_ranks(y))
}
