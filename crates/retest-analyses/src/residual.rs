//! Gonen & Goldberg's residual-bias tests across seeds: the spread of each test's value (2-means
//! accuracy, SVM accuracy, the neighbour correlation) beside the test-retest reliability of the
//! per-word values it rests on — the candidates' bias by projection, which labels the words both
//! accuracies score, and the targets' share of masculine neighbours.

use retest_reliability::IccResult;

use crate::set_level::{SeedSpread, seed_spread, subjects_icc};

/// One seed's tests as the design reads them.
#[derive(Debug, Clone, Copy)]
pub struct ResidualSeedValues<'a> {
    pub cluster_accuracy: f64,
    pub svm_accuracy: f64,
    pub neighbour_r: f64,
    /// Each candidate's bias by projection, in one order on every seed.
    pub bias: &'a [f64],
    /// Each target's share of masculine neighbours, in one order on every seed.
    pub shares: &'a [f64],
}

/// The tests across the seeds of one configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct ResidualAcross {
    pub cluster_accuracy: SeedSpread,
    pub svm_accuracy: SeedSpread,
    pub neighbour_r: SeedSpread,
    /// ICC(2,1) of the candidates' bias, candidates × seeds.
    pub bias: IccResult,
    /// ICC(2,1) of the targets' masculine shares, targets × seeds.
    pub shares: IccResult,
}

/// The spread of each test across `seeds` and the ICCs of the values they rest on.
///
/// # Panics
///
/// If the seeds' candidates or targets differ in number.
pub fn residual_across(seeds: &[ResidualSeedValues<'_>]) -> ResidualAcross {
    let spread = |value: fn(&ResidualSeedValues<'_>) -> f64| {
        seed_spread(&seeds.iter().map(value).collect::<Vec<_>>(), false)
    };
    ResidualAcross {
        cluster_accuracy: spread(|s| s.cluster_accuracy),
        svm_accuracy: spread(|s| s.svm_accuracy),
        neighbour_r: spread(|s| s.neighbour_r),
        bias: subjects_icc(&seeds.iter().map(|s| s.bias).collect::<Vec<_>>()),
        shares: subjects_icc(&seeds.iter().map(|s| s.shares).collect::<Vec<_>>()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_test_is_spread_and_its_words_rated_across_seeds() {
        // Two seeds; the bias agrees up to a shift (ICC(2,1) below 1), the shares exactly.
        let (bias_a, bias_b) = ([0.1, 0.3, -0.2], [0.2, 0.4, -0.1]);
        let shares = [0.6, 0.4];
        let seeds = [
            ResidualSeedValues {
                cluster_accuracy: 0.8,
                svm_accuracy: 0.9,
                neighbour_r: f64::NAN,
                bias: &bias_a,
                shares: &shares,
            },
            ResidualSeedValues {
                cluster_accuracy: 0.6,
                svm_accuracy: 0.9,
                neighbour_r: 0.5,
                bias: &bias_b,
                shares: &shares,
            },
        ];
        let a = residual_across(&seeds);
        assert!((a.cluster_accuracy.mean - 0.7).abs() < 1e-12);
        assert!((a.cluster_accuracy.sd - 0.02f64.sqrt()).abs() < 1e-12);
        assert_eq!(a.svm_accuracy.sd, 0.0);
        assert_eq!(
            (a.neighbour_r.n, a.neighbour_r.n_undefined, a.neighbour_r.mean),
            (1, 1, 0.5)
        );
        assert_eq!(a.shares.value, 1.0);
        // Rows (0.1, 0.2), (0.3, 0.4), (−0.2, −0.1): MSR = 0.38/3, MSC = 0.015, MSE = 0, so
        // ICC(2,1) = MSR / (MSR + 2·MSC/3) = 38/41: the shift of 0.1 costs agreement.
        assert!((a.bias.value - 38.0 / 41.0).abs() < 1e-9, "{}", a.bias.value);
        assert_eq!((a.bias.n_subjects, a.bias.n_raters), (3, 2));
    }
}
