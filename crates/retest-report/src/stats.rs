//! Descriptive statistics for the report: quantiles, box-plot summaries, shares above a threshold,
//! Pearson's r and the paired t test, each with its test p-value from the F distribution.

use retest_reliability::fdist;

/// The `p`-quantile of sorted, finite values by linear interpolation between order statistics
/// (Hyndman & Fan type 7, the default of R's `quantile` and of numpy): with h = (n − 1)·p,
/// Q(p) = x₍⌊h⌋₎ + (h − ⌊h⌋)·(x₍⌊h⌋+1₎ − x₍⌊h⌋₎). NaN for an empty slice.
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// The values sorted ascending (`total_cmp`), for [`quantile_sorted`].
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// The median (type-7 quantile at 0.5). NaN for no values.
pub fn median(values: &[f64]) -> f64 {
    quantile_sorted(&sorted(values), 0.5)
}

/// The share of values strictly above `threshold` (NaN for no values).
pub fn share_above(values: &[f64], threshold: f64) -> f64 {
    share(values, |v| v > threshold)
}

/// The share of values at or above `threshold` (NaN for no values).
pub fn share_at_least(values: &[f64], threshold: f64) -> f64 {
    share(values, |v| v >= threshold)
}

/// The share of values strictly below `threshold` (NaN for no values).
pub fn share_below(values: &[f64], threshold: f64) -> f64 {
    share(values, |v| v < threshold)
}

fn share(values: &[f64], pred: impl Fn(f64) -> bool) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().filter(|&&v| pred(v)).count() as f64 / values.len() as f64
}

/// Tukey's box-plot summary: quartiles (type 7), whiskers at the most extreme values within
/// 1.5 IQR of the box, and the values beyond them.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxStats {
    pub n: usize,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub whisker_low: f64,
    pub whisker_high: f64,
    /// Values outside the whiskers, ascending.
    pub outliers: Vec<f64>,
}

impl BoxStats {
    /// The summary of finite values; `None` for none.
    pub fn new(values: &[f64]) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        let s = sorted(values);
        let q1 = quantile_sorted(&s, 0.25);
        let median = quantile_sorted(&s, 0.5);
        let q3 = quantile_sorted(&s, 0.75);
        let iqr = q3 - q1;
        let (fence_low, fence_high) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
        let inside = s.iter().copied().filter(|&v| v >= fence_low && v <= fence_high);
        let whisker_low = inside.clone().fold(f64::INFINITY, f64::min).min(q1);
        let whisker_high = inside.fold(f64::NEG_INFINITY, f64::max).max(q3);
        let outliers = s
            .iter()
            .copied()
            .filter(|&v| v < fence_low || v > fence_high)
            .collect();
        Some(BoxStats {
            n: s.len(),
            q1,
            median,
            q3,
            whisker_low,
            whisker_high,
            outliers,
        })
    }
}

/// A test statistic with its degrees of freedom and two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TTest {
    pub estimate: f64,
    pub t: f64,
    pub df: f64,
    pub p_value: f64,
    pub n: usize,
}

/// Two-sided p-value of a t statistic: P(|T| ≥ |t|) = P(F(1, df) ≥ t²).
fn t_p_value(t: f64, df: f64) -> f64 {
    fdist::sf(t * t, 1.0, df)
}

/// The paired t test of mean(d) = 0 for differences `d` (Student 1908): t = d̄ / (s_d / √n),
/// df = n − 1. `None` for fewer than two differences.
pub fn paired_t(diffs: &[f64]) -> Option<TTest> {
    let n = diffs.len();
    if n < 2 {
        return None;
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let t = mean / (var / n as f64).sqrt();
    let df = (n - 1) as f64;
    Some(TTest {
        estimate: mean,
        t,
        df,
        p_value: t_p_value(t, df),
        n,
    })
}

/// Pearson's r with the t test of r = 0: t = r·√(n − 2) / √(1 − r²), df = n − 2.
/// `None` for fewer than three pairs or zero variance.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<TTest> {
    let n = x.len().min(y.len());
    if n < 3 {
        return None;
    }
    let (x, y) = (&x[..n], &y[..n]);
    let mx = x.iter().sum::<f64>() / n as f64;
    let my = y.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    let r = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    let df = (n - 2) as f64;
    let t = r * df.sqrt() / (1.0 - r * r).max(f64::MIN_POSITIVE).sqrt();
    Some(TTest {
        estimate: r,
        t,
        df,
        p_value: t_p_value(t, df),
        n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_type_7() {
        // R: quantile(c(1, 2, 4, 8, 9), c(.25, .5, .75)) = 2, 4, 8; quantile(1:4, .25) = 1.75.
        let s = [1.0, 2.0, 4.0, 8.0, 9.0];
        assert_eq!(quantile_sorted(&s, 0.25), 2.0);
        assert_eq!(quantile_sorted(&s, 0.5), 4.0);
        assert_eq!(quantile_sorted(&s, 0.75), 8.0);
        assert_eq!(quantile_sorted(&[1.0, 2.0, 3.0, 4.0], 0.25), 1.75);
        assert!(quantile_sorted(&[], 0.5).is_nan());
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), 2.5);
    }

    #[test]
    fn box_stats_whiskers_and_outliers() {
        let v = [0.9, 0.91, 0.92, 0.93, 0.94, 0.95, 0.1];
        let b = BoxStats::new(&v).unwrap();
        assert_eq!(b.n, 7);
        assert_eq!(b.outliers, vec![0.1]);
        assert_eq!(b.whisker_low, 0.9);
        assert_eq!(b.whisker_high, 0.95);
        assert!(BoxStats::new(&[]).is_none());
    }

    #[test]
    fn shares() {
        let v = [0.5, 0.6, 0.7, 0.8];
        assert_eq!(share_above(&v, 0.6), 0.5);
        assert_eq!(share_at_least(&v, 0.6), 0.75);
        assert_eq!(share_below(&v, 0.6), 0.25);
        assert!(share_above(&[], 0.6).is_nan());
    }

    #[test]
    fn paired_t_matches_r() {
        // R: t.test(c(0.1, 0.2, 0.05, 0.15)): t = 3.872983, df = 3, p-value = 0.03046629.
        let t = paired_t(&[0.1, 0.2, 0.05, 0.15]).unwrap();
        assert!((t.t - 3.872983).abs() < 1e-5, "{t:?}");
        assert_eq!(t.df, 3.0);
        assert!((t.p_value - 0.03046629).abs() < 1e-7, "{t:?}");
        assert!(paired_t(&[1.0]).is_none());
    }

    #[test]
    fn pearson_matches_r() {
        // R: cor.test(c(1, 2, 3, 4, 5), c(2, 1, 4, 3, 5)): r = 0.8, t = 2.3094, df = 3, p = 0.1041.
        let r = pearson(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 1.0, 4.0, 3.0, 5.0]).unwrap();
        assert!((r.estimate - 0.8).abs() < 1e-12);
        assert!((r.t - 2.309401).abs() < 1e-5);
        assert!((r.p_value - 0.1040880).abs() < 1e-5, "{r:?}");
        assert!(pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).is_none());
    }
}
