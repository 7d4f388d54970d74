//! Unit tests of the base-pair designs on small hand-built inputs.

use super::*;

#[test]
fn a_score_of_zero_is_masculine() {
    assert_eq!([0.5, 0.0, -0.0, -1e-30].map(masculine), [1, 1, 1, 0]);
}

/// Two words under three pairs, SD 1: word 0 has scores 0.5, 2.0, −0.2 (comparisons
/// differing by 1.5, 0.7, 2.2: two of three ≥ 1; labels m, m, f); word 1 has −1, −1.5, −1.2
/// (none ≥ 1; one label). Fleiss' κ by hand: P_0 = (2² + 1² − 3)/6 = 1/3, P_1 = 1, P̄ = 2/3;
/// masculine share 2/6, P̄_e = 1/9 + 4/9 = 5/9; κ = (2/3 − 5/9)/(4/9) = 1/4.
#[test]
fn agreement_of_pairs_by_hand() {
    let scores = [0.5, -1.0, 2.0, -1.5, -0.2, -1.2];
    let a = pairs_agreement(&scores, 3, 2, 1.0);
    assert!((a.kappa.value - 0.25).abs() < 1e-12, "{}", a.kappa.value);
    assert!((a.magnitude_changed - (2.0 / 3.0 + 0.0) / 2.0).abs() < 1e-12);
    assert!((a.magnitude_within - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(a.same_label, 0.5);
    assert_eq!(label_flips(&[0.5, -1.0], &[-0.2, -1.2]), (1, 0.5));
}

#[test]
fn nan_is_feminine_and_infinities_keep_their_sign() {
    assert_eq!(
        [f32::NAN, f32::INFINITY, f32::NEG_INFINITY].map(masculine),
        [0, 1, 0]
    );
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

/// 1, 2, 4, 5: mean 12/4 = 3; deviations −2, −1, 1, 2, squares sum to 10, SD = √(10/4).
#[test]
fn mean_and_population_sd_by_hand() {
    let m = mean_sd(&[1.0, 2.0, 4.0, 5.0]);
    assert_eq!(m.n, 4);
    close(m.mean, 3.0);
    close(m.sd, 2.5f64.sqrt());
}

#[test]
fn mean_sd_of_one_value_and_of_none() {
    assert_eq!(
        mean_sd(&[7.0]),
        MeanSd {
            n: 1,
            mean: 7.0,
            sd: 0.0
        }
    );
    let none = mean_sd(&[]);
    assert_eq!(none.n, 0);
    assert!(none.mean.is_nan() && none.sd.is_nan());
}
