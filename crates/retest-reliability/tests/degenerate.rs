//! Degenerate input: every case gives NaN with a status, never a panic.

use retest_reliability::{
    CountTable, IccForm, Matrix, MatrixError, Status, TwoWayAnova, aggregate_raters, cohen_kappa,
    cronbach_alpha, fleiss_kappa, icc, icc_all,
};
use retest_test_support::Lcg;

/// Every ICC form and alpha of `data` (n × k) have `status` and NaN values.
fn assert_all_fail(data: &[f64], n: usize, k: usize, status: Status, what: &str) {
    let m = Matrix::new(data, n, k).unwrap();
    for r in icc_all(m) {
        assert_eq!(r.status, status, "{what}: {}", r.form.as_str());
        assert!(
            r.value.is_nan() && r.f.is_nan() && r.p_value.is_nan(),
            "{what}: {r:?}"
        );
        assert!(r.ci_low.is_nan() && r.ci_high.is_nan(), "{what}: {r:?}");
    }
    let alpha = cronbach_alpha(m);
    assert_eq!(alpha.status, status, "{what}: alpha");
    assert!(
        alpha.value.is_nan() && alpha.ci_low.is_nan() && alpha.ci_high.is_nan(),
        "{what}: {alpha:?}"
    );
}

#[test]
fn constant_tables_have_zero_variance() {
    assert_all_fail(&[2.0; 12], 4, 3, Status::ZeroVariance, "constant 2");
    assert_all_fail(&[0.0; 12], 4, 3, Status::ZeroVariance, "all zero");
    // 0.1 is not a binary fraction: the sums of squares are rounding noise, not zero.
    assert_all_fail(&[0.1; 96], 32, 3, Status::ZeroVariance, "constant 0.1");
    assert_all_fail(&[-1e-300; 6], 3, 2, Status::ZeroVariance, "constant tiny");
}

#[test]
fn identical_subjects_have_zero_variance() {
    // Raters differ, subjects do not (MSB = 0): the ICCs are undefined, not −1/(k − 1).
    let row = [0.1, 0.7, -0.3];
    let data: Vec<f64> = (0..5).flat_map(|_| row).collect();
    assert_all_fail(&data, 5, 3, Status::ZeroVariance, "identical rows");
    let anova = TwoWayAnova::new(Matrix::new(&data, 5, 3).unwrap());
    assert_eq!(
        (anova.status, anova.ss_subjects, anova.ss_residual),
        (Status::ZeroVariance, 0.0, 0.0)
    );
    assert!(anova.ss_raters > 0.0);
}

#[test]
fn too_few_subjects_or_raters() {
    assert_all_fail(&[1.0, 2.0, 3.0], 1, 3, Status::TooFewSubjects, "one subject");
    assert_all_fail(&[], 0, 3, Status::TooFewSubjects, "no subjects");
    assert_all_fail(&[1.0, 2.0, 3.0], 3, 1, Status::TooFewRaters, "one rater");
    assert_all_fail(&[], 3, 0, Status::TooFewRaters, "no raters");
    assert_all_fail(&[], 0, 0, Status::TooFewRaters, "empty");
    let r = icc(Matrix::new(&[1.0, 2.0], 1, 2).unwrap(), IccForm::Icc2_1);
    assert!(r.df1.is_nan() && r.df2.is_nan());
}

#[test]
fn nan_rows_are_dropped_and_counted() {
    let nan = f64::NAN;
    assert_all_fail(&[nan; 8], 4, 2, Status::TooFewSubjects, "all NaN");
    let all_nan = [nan; 8];
    let m = Matrix::new(&all_nan, 4, 2).unwrap();
    assert_eq!((icc_all(m)[0].n_subjects, icc_all(m)[0].n_dropped), (0, 4));
    assert_eq!((cronbach_alpha(m).n_cases, cronbach_alpha(m).n_dropped), (0, 4));
    // One complete row left.
    assert_all_fail(
        &[1.0, nan, 2.0, 3.0, nan, 4.0],
        3,
        2,
        Status::TooFewSubjects,
        "one complete row",
    );
}

#[test]
fn infinite_scores_are_non_finite() {
    let inf = f64::INFINITY;
    assert_all_fail(&[1.0, 2.0, inf, 4.0, 5.0, 7.0], 3, 2, Status::NonFinite, "+inf");
    assert_all_fail(&[1.0, 2.0, 3.0, -inf, 5.0, 7.0], 3, 2, Status::NonFinite, "-inf");
    // An infinite score in a row dropped for its NaN does not matter.
    let data = [1.0, 2.0, inf, f64::NAN, 5.0, 7.0, 2.0, 2.5];
    let m = Matrix::new(&data, 4, 2).unwrap();
    assert_eq!(icc_all(m)[1].status, Status::Ok);
    // Squares that overflow.
    assert_all_fail(
        &[1e200, -1e200, 3e200, 1e200, -2e200, 5e199],
        3,
        2,
        Status::NonFinite,
        "overflow",
    );
}

#[test]
fn icc_2_k_with_a_vanishing_denominator_is_undefined() {
    // MSB = 1/6, MSJ = 0, MSE = 1/2, n = 3: MSB + (MSJ − MSE)/n = 0.
    let m = Matrix::new(&[0.0, 0.0, 0.0, 1.0, 1.0, 0.0], 3, 2).unwrap();
    let results = icc_all(m);
    for r in results {
        if r.form == IccForm::Icc2_k {
            assert_eq!(r.status, Status::Undefined);
            assert!(r.value.is_nan() && r.ci_low.is_nan());
        } else {
            assert_eq!(r.status, Status::Ok, "{}", r.form.as_str());
            assert!(r.value.is_finite());
        }
    }
}

#[test]
fn bad_shapes_are_errors_with_a_message() {
    let err = Matrix::new(&[1.0, 2.0, 3.0], 2, 2).unwrap_err();
    assert_eq!(
        err,
        MatrixError::LengthMismatch {
            len: 3,
            n_rows: 2,
            n_cols: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "table has 3 values but its shape 2 rows × 2 columns needs 4"
    );
    let err = Matrix::new(&[], usize::MAX, 2).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("table shape {} rows × 2 columns is too large", usize::MAX)
    );
    assert!(CountTable::new(vec![1, 2, 3], 2, 2).is_err());
    assert!(aggregate_raters(&[1, 2, 3], 2, 2).is_err());
    let m = Matrix::new(&[1.0, 2.0, 3.0, 4.0], 2, 2).unwrap();
    assert_eq!((m.row(1), m.row(2)), (Some(&[3.0, 4.0][..]), None));
}

#[test]
fn degenerate_kappas() {
    let r = cohen_kappa(&[1, 2, 3], &[1, 2]);
    assert_eq!(r.status, Status::LengthMismatch);
    assert!(r.value.is_nan());
    assert_eq!(cohen_kappa(&[], &[]).status, Status::TooFewSubjects);
    // Both raters always say the same single category: P_e = 1.
    let r = cohen_kappa(&[4, 4, 4], &[4, 4, 4]);
    assert_eq!(
        (r.status, r.observed_agreement, r.expected_agreement),
        (Status::ZeroVariance, 1.0, 1.0)
    );
    assert!(r.value.is_nan());

    let empty = CountTable::new(vec![], 0, 3).unwrap();
    assert_eq!(fleiss_kappa(&empty).status, Status::TooFewSubjects);
    let unbalanced = CountTable::new(vec![2, 1, 1, 1], 2, 2).unwrap();
    assert_eq!(fleiss_kappa(&unbalanced).status, Status::Unbalanced);
    let one_rater = CountTable::new(vec![1, 0, 0, 1], 2, 2).unwrap();
    assert_eq!(fleiss_kappa(&one_rater).status, Status::TooFewRaters);
    let no_categories = CountTable::new(vec![], 3, 0).unwrap();
    assert_eq!(fleiss_kappa(&no_categories).status, Status::TooFewRaters);
    let one_category = aggregate_raters(&[7, 7, 7, 7, 7, 7], 3, 2).unwrap();
    let r = fleiss_kappa(&one_category.table);
    assert_eq!(
        (r.status, r.observed_agreement, r.expected_agreement),
        (Status::ZeroVariance, 1.0, 1.0)
    );
    let huge = CountTable::new(vec![u64::MAX, u64::MAX, u64::MAX, u64::MAX], 2, 2).unwrap();
    assert_eq!(fleiss_kappa(&huge).status, Status::NonFinite);
    assert_eq!(aggregate_raters(&[], 0, 0).unwrap().categories, Vec::<i64>::new());
}

/// Scores chosen to provoke edge cases: repeats, NaN, infinities, extremes, exact ties.
const PALETTE: [f64; 14] = [
    0.0,
    1.0,
    -1.0,
    0.1,
    0.5,
    2.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e300,
    -1e300,
    1e-300,
    5e-324,
    f64::MAX,
];

#[test]
fn random_small_tables_never_panic_and_status_matches_value() {
    let mut rng = Lcg::new(0x5eed);
    let mut n_ok = 0;
    for _ in 0..20_000 {
        let n = rng.below(7);
        let k = rng.below(6);
        // Mostly ordinary values, sometimes the palette's edge cases, sometimes constant rows.
        let data: Vec<f64> = (0..n * k)
            .map(|_| match rng.below(10) {
                0..=5 => (rng.below(2001) as f64 - 1000.0) / 250.0,
                6 | 7 => PALETTE[rng.below(PALETTE.len())],
                _ => 1.0,
            })
            .collect();
        let m = Matrix::new(&data, n, k).unwrap();
        for r in icc_all(m) {
            assert_eq!(r.status.is_ok(), r.value.is_finite(), "{n}×{k} {data:?}: {r:?}");
            if r.status.is_ok() {
                assert!(
                    r.p_value.is_nan() || (0.0..=1.0).contains(&r.p_value),
                    "{data:?}: {r:?}"
                );
                assert!(!r.f.is_nan() && r.f >= 0.0, "{data:?}: {r:?}");
            }
            assert_eq!(r.n_subjects + r.n_dropped, n);
        }
        let alpha = cronbach_alpha(m);
        assert_eq!(
            alpha.status.is_ok(),
            alpha.value.is_finite(),
            "{n}×{k} {data:?}: {alpha:?}"
        );
        n_ok += usize::from(alpha.status.is_ok());
    }
    // The generator must reach the ordinary path too, not only the degenerate ones.
    assert!(n_ok > 2_000, "only {n_ok} tables had a defined alpha");
}

#[test]
fn random_labels_never_panic() {
    let mut rng = Lcg::new(1960);
    for _ in 0..5_000 {
        let n = rng.below(8);
        let n_raters = rng.below(5);
        let labels: Vec<i64> = (0..n * n_raters)
            .map(|_| {
                if rng.below(20) == 0 {
                    i64::MIN
                } else {
                    rng.below(3) as i64
                }
            })
            .collect();
        let a: Vec<i64> = labels.iter().copied().step_by(2).collect();
        let b: Vec<i64> = labels.iter().copied().skip(1).step_by(2).collect();
        let r = cohen_kappa(&a, &b);
        assert_eq!(r.status.is_ok(), r.value.is_finite(), "{a:?} {b:?}: {r:?}");
        if r.status.is_ok() {
            assert!((-1.0..=1.0).contains(&r.value));
        }
        let agg = aggregate_raters(&labels, n, n_raters).unwrap();
        let r = fleiss_kappa(&agg.table);
        assert_eq!(r.status.is_ok(), r.value.is_finite(), "{labels:?}: {r:?}");
        if r.status.is_ok() {
            assert!(r.value <= 1.0);
        }
    }
}

#[test]
fn a_kappa_of_one_subject_is_too_few_subjects() {
    let cohen = cohen_kappa(&[1], &[0]);
    assert_eq!((cohen.status, cohen.n_subjects), (Status::TooFewSubjects, 1));
    assert!(cohen.value.is_nan());
    let table = CountTable::new(vec![2, 1], 1, 2).unwrap();
    let fleiss = fleiss_kappa(&table);
    assert_eq!((fleiss.status, fleiss.n_subjects), (Status::TooFewSubjects, 1));
    assert!(fleiss.value.is_nan());
}
