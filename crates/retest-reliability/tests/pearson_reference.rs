//! Pearson's r and its p-value against scipy.stats.pearsonr (`tests/data/pearson_reference.py`
//! printed `tests/data/pearson_reference.in`), and its degenerate cases.

use retest_reliability::{Status, pearson};

/// (name, x, y, r, p) from scipy.
type Case = (&'static str, &'static [f64], &'static [f64], f64, f64);

const CASES: &[Case] = include!("data/pearson_reference.in");

#[test]
fn pearson_matches_scipy() {
    for &(name, x, y, r, p) in CASES {
        let got = pearson(x, y);
        assert_eq!(got.status, Status::Ok, "{name}");
        assert!((got.value - r).abs() < 1e-13, "{name}: r {} vs {r}", got.value);
        assert!(
            (got.p_value - p).abs() <= 1e-12 * p.max(1e-300) + 1e-15,
            "{name}: p {} vs {p}",
            got.p_value
        );
        assert_eq!(got.n, x.len());
    }
}

#[test]
fn pearson_degenerate_inputs_are_nan_with_a_status() {
    let constant = pearson(&[1.0, 2.0, 3.0], &[4.0, 4.0, 4.0]);
    assert_eq!(constant.status, Status::ZeroVariance);
    assert!(constant.value.is_nan() && constant.p_value.is_nan());
    assert_eq!(pearson(&[1.0, 2.0], &[3.0, 1.0]).status, Status::TooFewSubjects);
    assert_eq!(
        pearson(&[1.0, f64::INFINITY, 3.0], &[1.0, 2.0, 3.0]).status,
        Status::NonFinite
    );
    // A NaN on either side drops the pair.
    let dropped = pearson(&[1.0, 2.0, f64::NAN, 4.0, 5.0], &[2.0, 4.0, 1.0, 4.0, f64::NAN]);
    assert_eq!((dropped.n, dropped.n_dropped), (3, 2));
}
