//! Set-level measures across seeds: a WEAT test or a Direct Bias gives one value per seed, so a
//! configuration's seeds give its spread ([`seed_spread`]); a family of such values (the
//! single-pair WEATs of one query pair, the Direct Bias of every direction, the scores of a
//! test's words) is a subjects × seeds matrix, whose ICC(2,1) is its test-retest reliability
//! ([`seeds_icc`]), as for Du et al.'s per-word scores.

use retest_measures::ScoreTensor;
use retest_reliability::{CorrelationResult, IccResult, icc2_1, spearman};

use crate::study::matrix;

/// A p-value below this counts as significant in [`SeedSpread::share_significant`].
pub const SIGNIFICANCE: f64 = 0.05;

/// One value across the seeds of a configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeedSpread {
    /// Seeds with a value (not NaN).
    pub n: usize,
    /// Seeds whose value is NaN, left out of everything below.
    pub n_undefined: usize,
    pub mean: f64,
    /// Sample standard deviation (`n − 1`); NaN below 2 values.
    pub sd: f64,
    /// 2.5 % and 97.5 % quantiles, linearly interpolated between order statistics (numpy's
    /// default); NaN without values.
    pub low: f64,
    pub high: f64,
    /// The share of values below [`SIGNIFICANCE`], when the values are p-values.
    pub share_significant: Option<f64>,
}

/// The spread of `values` (one per seed); `p_values` says they are p-values, whose share below
/// [`SIGNIFICANCE`] is then counted.
pub fn seed_spread(values: &[f64], p_values: bool) -> SeedSpread {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let mean = if n == 0 {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / n as f64
    };
    let sd = if n < 2 {
        f64::NAN
    } else {
        (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
    };
    SeedSpread {
        n,
        n_undefined: values.len() - n,
        mean,
        sd,
        low: quantile(&v, 0.025),
        high: quantile(&v, 0.975),
        share_significant: p_values
            .then(|| v.iter().filter(|&&p| p < SIGNIFICANCE).count() as f64 / n as f64),
    }
}

/// The `q` quantile of sorted values: position `q·(n − 1)`, interpolated.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n => {
            let at = q * (n - 1) as f64;
            let (below, frac) = (at.floor() as usize, at.fract());
            let above = (below + 1).min(n - 1);
            sorted[below] + frac * (sorted[above] - sorted[below])
        }
    }
}

/// ICC(2,1) of a subjects × seeds matrix, row-major (`values[subject * n_seeds + seed]`): the
/// seeds are the raters. Subjects with a NaN are dropped, as in every ICC of the crate.
///
/// # Panics
///
/// If `values.len() != n_subjects * n_seeds`.
pub fn seeds_icc(values: &[f64], n_subjects: usize, n_seeds: usize) -> IccResult {
    assert_eq!(values.len(), n_subjects * n_seeds, "a subjects × seeds matrix");
    icc2_1(matrix(values, n_subjects, n_seeds))
}

/// Spearman's ρ across the seeds of one configuration between two set-level series, named by
/// their positions in the caller's list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgreementRecord {
    pub a: usize,
    pub b: usize,
    pub result: CorrelationResult,
}

/// Spearman's ρ across seeds between every two of `series` (each one value per seed, all of
/// one length), `a < b`: do the measures rank the seeds of one configuration alike?
pub fn seed_agreement(series: &[Vec<f64>]) -> Vec<AgreementRecord> {
    let mut records = Vec::new();
    for a in 0..series.len() {
        for b in a + 1..series.len() {
            records.push(AgreementRecord {
                a,
                b,
                result: spearman(&series[a], &series[b]),
            });
        }
    }
    records
}

/// Per rule of `tensor`, each seed's mean absolute score over every base pair and the words at
/// `targets`: a rule's bias of a word list on one seed, the value it is compared with the
/// set-level measures on.
pub fn mean_absolute_scores(tensor: &ScoreTensor, targets: &[usize]) -> Vec<Vec<f64>> {
    (0..tensor.n_rules())
        .map(|rule| {
            let mut sums = vec![0.0f64; tensor.n_seeds()];
            for p in 0..tensor.n_refs() {
                for &t in targets {
                    for (sum, v) in sums.iter_mut().zip(tensor.seeds(rule, p, t)) {
                        *sum += f64::from(*v).abs();
                    }
                }
            }
            let n = (tensor.n_refs() * targets.len()) as f64;
            sums.iter().map(|s| s / n).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_of_seeds_by_hand() {
        let s = seed_spread(&[0.01, f64::NAN, 0.2, 0.04, 0.5], true);
        assert_eq!((s.n, s.n_undefined), (4, 1));
        assert!((s.mean - 0.1875).abs() < 1e-15);
        // deviations −0.1775, 0.0125, −0.1475, 0.3125: squares sum to 0.151075, / 3.
        assert!((s.sd - (0.151075f64 / 3.0).sqrt()).abs() < 1e-15);
        // sorted 0.01 0.04 0.2 0.5: 2.5 % at position 0.075, 97.5 % at 2.925.
        assert!((s.low - (0.01 + 0.075 * 0.03)).abs() < 1e-15);
        assert!((s.high - (0.2 + 0.925 * 0.3)).abs() < 1e-15);
        assert_eq!(s.share_significant, Some(0.5));
        let plain = seed_spread(&[3.0], false);
        assert_eq!((plain.mean, plain.low, plain.high), (3.0, 3.0, 3.0));
        assert!(plain.sd.is_nan());
        assert_eq!(plain.share_significant, None);
    }

    #[test]
    fn agreement_is_spearman_across_seeds_and_rules_average_absolute_scores() {
        let series = vec![
            vec![1.0, 2.0, 3.0, 4.0],
            vec![10.0, 30.0, 20.0, 40.0],
            vec![4.0, 3.0, 2.0, 1.0],
        ];
        let r = seed_agreement(&series);
        assert_eq!(
            r.iter().map(|r| (r.a, r.b)).collect::<Vec<_>>(),
            [(0, 1), (0, 2), (1, 2)]
        );
        // ranks 1 3 2 4 against 1 2 3 4: Σd² = 2, ρ = 1 − 6·2/(4·15) = 0.8.
        assert!((r[0].result.value - 0.8).abs() < 1e-12);
        assert!((r[1].result.value + 1.0).abs() < 1e-12);
        assert!((r[2].result.value + 0.8).abs() < 1e-12);
        // One rule, 2 pairs, 2 targets, 2 seeds: [pair][target][seed].
        let values = vec![1.0, -2.0, 5.0, 5.0, /* pair 1 */ -3.0, 4.0, 7.0, 7.0];
        let tensor = ScoreTensor::from_values(&[retest_measures::Rule::Dbwa], 2, 2, 2, values).unwrap();
        assert_eq!(mean_absolute_scores(&tensor, &[0]), [vec![2.0, 3.0]]);
        assert_eq!(mean_absolute_scores(&tensor, &[0, 1]), [vec![4.0, 4.5]]);
    }

    #[test]
    fn seeds_icc_is_icc_2_1_with_seeds_as_raters() {
        // Shrout & Fleiss (1979), table 2: 6 subjects × 4 raters, ICC(2,1) = 0.29.
        let m = [
            9.0, 2.0, 5.0, 8.0, 6.0, 1.0, 3.0, 2.0, 8.0, 4.0, 6.0, 8.0, 7.0, 1.0, 2.0, 6.0, 10.0, 5.0, 6.0,
            9.0, 6.0, 2.0, 4.0, 7.0,
        ];
        let r = seeds_icc(&m, 6, 4);
        assert!((r.value - 0.28976).abs() < 1e-4, "{}", r.value);
        assert_eq!((r.n_subjects, r.n_raters), (6, 4));
    }

    /// A 5 × 2 matrix and pingouin's ICC(2,1) of it: entry `reliability[5]` of
    /// `reliability_vectors.json` (pingouin 0.7.0), copied here.
    #[test]
    fn seeds_icc_equals_pingouin_on_the_reference_matrix() {
        let m = [
            0.61137909545,
            0.347846654508,
            -0.070079689787,
            -0.210079922255,
            0.150110667386,
            0.071197154877,
            0.16417458387,
            -0.006190983439,
            0.143935138085,
            0.027810760169,
        ];
        let r = seeds_icc(&m, 5, 2);
        assert!((r.value - 0.7796149004362484).abs() < 1e-12, "{}", r.value);
    }

    #[test]
    fn the_spread_of_no_values_and_agreement_of_one_series() {
        let s = seed_spread(&[f64::NAN], true);
        assert_eq!((s.n, s.n_undefined), (0, 1));
        assert!(s.mean.is_nan() && s.sd.is_nan() && s.low.is_nan() && s.high.is_nan());
        // The share of no p-values is undefined.
        assert!(s.share_significant.is_some_and(f64::is_nan));
        assert!(seed_agreement(&[vec![1.0, 2.0, 3.0]]).is_empty());
        assert!(seed_agreement(&[]).is_empty());
    }
}
