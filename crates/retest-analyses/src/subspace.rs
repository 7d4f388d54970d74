//! The gender subspace across seeds: for each number of components, Direct Bias's spread beside
//! the test-retest reliability of the neutral words' projections on the subspace; the first
//! component with each definitional pair left out (the spread of the smallest cosine with the
//! full component — the most influential pair's — beside the reliability of every pair's
//! cosine: is the same pair influential on every seed?); and each anchor word's indirect bias
//! with the neutral words (the spread of its median β beside the reliability of every word's β).

use retest_reliability::IccResult;

use crate::set_level::{SeedSpread, quantile, seed_spread, subjects_icc};

/// One seed's values as the design reads them; every seed has the same components, pairs,
/// anchors and words in the same order.
#[derive(Debug, Clone, Copy)]
pub struct SubspaceSeedValues<'a> {
    /// Direct Bias on the first `k` components, `k = 1, 2, …`.
    pub direct_bias: &'a [f64],
    /// Per `k`, each neutral word's projection norm on the first `k` components.
    pub norms: &'a [Vec<f64>],
    /// Per definitional pair, the absolute cosine of the first component without it with the
    /// full one.
    pub left_out: &'a [f64],
    /// Per anchor, each neutral word's indirect bias β with it.
    pub indirect: &'a [Vec<f64>],
}

/// A value's spread across seeds beside the ICC(2,1) of the per-subject values it summarises.
#[derive(Debug, Clone, PartialEq)]
pub struct SpreadIcc {
    pub spread: SeedSpread,
    pub icc: IccResult,
}

/// The subspace measures across the seeds of one configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct SubspaceAcross {
    /// Per `k`: Direct Bias; the words' projection norms.
    pub direct_bias: Vec<SpreadIcc>,
    /// The smallest cosine over the pairs left out; every pair's cosine.
    pub left_out: SpreadIcc,
    /// Per anchor: the median β over the words (NaN left out); every word's β.
    pub indirect: Vec<SpreadIcc>,
}

/// The spreads and ICCs of the subspace measures across `seeds`.
///
/// # Panics
///
/// If the seeds differ in their numbers of components, pairs, anchors or words.
pub fn subspace_across(seeds: &[SubspaceSeedValues<'_>]) -> SubspaceAcross {
    let first = seeds.first();
    let n_components = first.map_or(0, |s| s.direct_bias.len());
    let n_anchors = first.map_or(0, |s| s.indirect.len());
    assert!(
        seeds
            .iter()
            .all(|s| s.direct_bias.len() == n_components && s.norms.len() == n_components),
        "the same components on every seed"
    );
    assert!(
        seeds.iter().all(|s| s.indirect.len() == n_anchors),
        "the same anchors on every seed"
    );
    let spread = |values: Vec<f64>| seed_spread(&values, false);
    let direct_bias = (0..n_components)
        .map(|k| SpreadIcc {
            spread: spread(seeds.iter().map(|s| s.direct_bias[k]).collect()),
            icc: subjects_icc(&seeds.iter().map(|s| s.norms[k].as_slice()).collect::<Vec<_>>()),
        })
        .collect();
    let left_out = SpreadIcc {
        spread: spread(seeds.iter().map(|s| smallest(s.left_out)).collect()),
        icc: subjects_icc(&seeds.iter().map(|s| s.left_out).collect::<Vec<_>>()),
    };
    let indirect = (0..n_anchors)
        .map(|a| SpreadIcc {
            spread: spread(seeds.iter().map(|s| median(&s.indirect[a])).collect()),
            icc: subjects_icc(&seeds.iter().map(|s| s.indirect[a].as_slice()).collect::<Vec<_>>()),
        })
        .collect();
    SubspaceAcross {
        direct_bias,
        left_out,
        indirect,
    }
}

/// The smallest value (NaN without one).
fn smallest(values: &[f64]) -> f64 {
    values
        .iter()
        .copied()
        .filter(|x| !x.is_nan())
        .fold(f64::NAN, f64::min)
}

/// The median of the values that are not NaN (NaN without one).
fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { quantile(&v, 0.5) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_measure_is_spread_and_its_subjects_rated_across_seeds() {
        let norms_a = vec![vec![0.1, 0.3, 0.5], vec![0.2, 0.4, 0.6]];
        let norms_b = vec![vec![0.2, 0.4, 0.6], vec![0.2, 0.4, 0.6]];
        let indirect_a = vec![vec![0.5, f64::NAN, -0.1, 0.3]];
        let indirect_b = vec![vec![0.5, 2.0, -0.1, 0.3]];
        let seeds = [
            SubspaceSeedValues {
                direct_bias: &[0.3, 0.4],
                norms: &norms_a,
                left_out: &[0.99, 0.9, 0.98],
                indirect: &indirect_a,
            },
            SubspaceSeedValues {
                direct_bias: &[0.4, 0.4],
                norms: &norms_b,
                left_out: &[0.98, 0.89, 0.97],
                indirect: &indirect_b,
            },
        ];
        let a = subspace_across(&seeds);
        assert_eq!(a.direct_bias.len(), 2);
        assert!((a.direct_bias[0].spread.mean - 0.35).abs() < 1e-12);
        assert_eq!(a.direct_bias[1].spread.sd, 0.0);
        // k = 1: the words shift by 0.1 between the seeds: rows (0.1, 0.2), (0.3, 0.4),
        // (0.5, 0.6): MSR = 0.16/2, MSC = 0.015, MSE = 0, ICC(2,1) = 0.08 / (0.08 + 2·0.015/3).
        assert!(
            (a.direct_bias[0].icc.value - 0.08 / 0.09).abs() < 1e-9,
            "{}",
            a.direct_bias[0].icc.value
        );
        assert_eq!(a.direct_bias[1].icc.n_subjects, 3);
        // The most influential pair: 0.9 and 0.89. Every cosine falls by 0.01: MSE = 0,
        // MSR = 0.0146/3, MSC = 0.00015, ICC(2,1) = MSR / (MSR + 2·MSC/3) = 146/149.
        assert!((a.left_out.spread.mean - 0.895).abs() < 1e-12);
        assert!(
            (a.left_out.icc.value - 146.0 / 149.0).abs() < 1e-9,
            "{}",
            a.left_out.icc.value
        );
        // Medians 0.3 (NaN left out: −0.1, 0.3, 0.5) and 0.4 (−0.1, 0.3, 0.5, 2.0); the word
        // with a NaN is left out of the ICC.
        assert!((a.indirect[0].spread.mean - 0.35).abs() < 1e-12);
        assert_eq!((a.indirect[0].icc.n_subjects, a.indirect[0].icc.value), (3, 1.0));
    }
}
