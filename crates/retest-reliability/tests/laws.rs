//! Published values and mathematical laws: Shrout & Fleiss (1979) Table 2, invariances of the
//! ICC forms, Spearman–Brown relations, alpha = ICC(3,k), hand-computed kappas.

use retest_reliability::{
    AlphaResult, CountTable, IccForm, IccResult, Matrix, Status, TwoWayAnova, aggregate_raters, cohen_kappa,
    cronbach_alpha, fleiss_kappa, icc, icc_all, icc2_1, icc3_1,
};
use retest_test_support::Lcg;

/// Shrout & Fleiss (1979), Table 2: 6 targets (rows) rated by 4 judges (columns).
const SHROUT_FLEISS: [f64; 24] = [
    9.0, 2.0, 5.0, 8.0, //
    6.0, 1.0, 3.0, 2.0, //
    8.0, 4.0, 6.0, 8.0, //
    7.0, 1.0, 2.0, 6.0, //
    10.0, 5.0, 6.0, 9.0, //
    6.0, 2.0, 4.0, 7.0,
];

/// A subjects × raters table with subject effects, rater effects and noise.
fn random_scores(rng: &mut Lcg, n: usize, k: usize) -> Vec<f64> {
    let raters: Vec<f64> = (0..k).map(|_| rng.uniform() - 0.5).collect();
    let mut data = Vec::with_capacity(n * k);
    for _ in 0..n {
        let subject = 2.0 * rng.uniform() - 1.0;
        for rater in &raters {
            data.push(subject + rater + 0.6 * (rng.uniform() - 0.5));
        }
    }
    data
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

fn assert_same_icc(a: &IccResult, b: &IccResult, tol: f64, what: &str) {
    assert_eq!(a.status, b.status, "{what}: status");
    for (name, x, y) in [
        ("value", a.value, b.value),
        ("F", a.f, b.f),
        ("p", a.p_value, b.p_value),
        ("CI low", a.ci_low, b.ci_low),
        ("CI high", a.ci_high, b.ci_high),
    ] {
        assert!(close(x, y, tol), "{what} {}: {name} {x} vs {y}", a.form.as_str());
    }
}

#[test]
fn shrout_fleiss_table_2_example() {
    let m = Matrix::new(&SHROUT_FLEISS, 6, 4).unwrap();
    let anova = TwoWayAnova::new(m);
    // Their ANOVA table: BMS 11.24, WMS 6.26, JMS 32.49, EMS 1.02.
    for (ours, published) in [
        (anova.ms_subjects, 11.24),
        (anova.ms_within, 6.26),
        (anova.ms_raters, 32.49),
        (anova.ms_residual, 1.02),
    ] {
        assert!(
            (ours - published).abs() <= 0.005,
            "mean square {ours} vs published {published}"
        );
    }
    // Their Table 4: ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71, ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91.
    let published = [0.17, 0.29, 0.71, 0.44, 0.62, 0.91];
    for (result, published) in icc_all(m).iter().zip(published) {
        assert_eq!(result.status, Status::Ok);
        assert!(
            (result.value - published).abs() <= 0.005,
            "{}: {} vs published {published}",
            result.form.pingouin_name(),
            result.value
        );
    }
    // Exact values of the same formulas (rational arithmetic): 92/317.5 etc.
    assert!((icc2_1(m).value - 0.289_763_779_527_559_05).abs() < 1e-14);
    assert!((icc3_1(m).value - 0.714_840_714_840_714_9).abs() < 1e-14);
    // Du et al.'s reference implementation documents 0.289764 and 0.714841, and alpha 0.909316.
    assert!((cronbach_alpha(m).value - 0.909_316).abs() < 5e-7);
}

#[test]
fn icc_is_unchanged_by_adding_a_constant_or_rescaling() {
    let mut rng = Lcg::new(1979);
    for (n, k) in [(6, 4), (23, 32), (30, 3), (2, 2), (100, 5)] {
        let data = random_scores(&mut rng, n, k);
        let base = icc_all(Matrix::new(&data, n, k).unwrap());
        let base_alpha = cronbach_alpha(Matrix::new(&data, n, k).unwrap());
        for (shift, scale) in [(1000.0, 1.0), (-3.25, 1.0), (0.0, 7.5), (12.0, 1e-3)] {
            let moved: Vec<f64> = data.iter().map(|x| x * scale + shift).collect();
            let m = Matrix::new(&moved, n, k).unwrap();
            for (a, b) in base.iter().zip(icc_all(m).iter()) {
                assert_same_icc(a, b, 1e-9, &format!("{n}×{k} shift {shift} scale {scale}"));
            }
            assert!(close(base_alpha.value, cronbach_alpha(m).value, 1e-9));
        }
    }
}

#[test]
fn consistency_forms_ignore_per_rater_offsets() {
    let mut rng = Lcg::new(42);
    for (n, k) in [(6, 4), (23, 32), (8, 3)] {
        let data = random_scores(&mut rng, n, k);
        let offsets: Vec<f64> = (0..k).map(|j| 3.0 * j as f64 - 1.7).collect();
        let shifted: Vec<f64> = data
            .iter()
            .enumerate()
            .map(|(idx, x)| x + offsets[idx % k])
            .collect();
        let m0 = Matrix::new(&data, n, k).unwrap();
        let m1 = Matrix::new(&shifted, n, k).unwrap();
        for form in [IccForm::Icc3_1, IccForm::Icc3_k] {
            assert_same_icc(
                &icc(m0, form),
                &icc(m1, form),
                1e-9,
                &format!("{n}×{k} rater offsets"),
            );
        }
        assert!(close(cronbach_alpha(m0).value, cronbach_alpha(m1).value, 1e-9));
        // The absolute-agreement form is not invariant: offsets between raters lower it.
        assert!(icc2_1(m1).value < icc2_1(m0).value);
    }
}

#[test]
fn icc_ignores_the_order_of_subjects_and_raters() {
    let mut rng = Lcg::new(7);
    let (n, k) = (9, 5);
    let data = random_scores(&mut rng, n, k);
    let row_order = [3, 0, 8, 1, 7, 2, 6, 4, 5];
    let col_order = [4, 2, 0, 3, 1];
    let permuted: Vec<f64> = row_order
        .iter()
        .flat_map(|&i| col_order.iter().map(move |&j| (i, j)))
        .map(|(i, j)| data[i * k + j])
        .collect();
    let a = icc_all(Matrix::new(&data, n, k).unwrap());
    let b = icc_all(Matrix::new(&permuted, n, k).unwrap());
    for (x, y) in a.iter().zip(b.iter()) {
        assert_same_icc(x, y, 1e-12, "permuted");
    }
}

#[test]
fn average_forms_are_spearman_brown_step_ups_of_single_forms() {
    let mut rng = Lcg::new(1996);
    for (n, k) in [(6, 4), (23, 32), (12, 7), (5, 2)] {
        let data = random_scores(&mut rng, n, k);
        let [i1, i2, i3, i1k, i2k, i3k] = icc_all(Matrix::new(&data, n, k).unwrap());
        let kf = k as f64;
        let step_up = |r: f64| kf * r / (1.0 + (kf - 1.0) * r);
        for (single, average) in [(i1, i1k), (i2, i2k), (i3, i3k)] {
            assert!(
                close(step_up(single.value), average.value, 1e-12),
                "{n}×{k} {}",
                average.form.as_str()
            );
        }
        // The ICC(2,k) limits are by construction the step-ups of the ICC(2,1) limits.
        assert!(close(step_up(i2.ci_low), i2k.ci_low, 1e-12));
        assert!(close(step_up(i2.ci_high), i2k.ci_high, 1e-12));
    }
}

#[test]
fn cronbach_alpha_equals_icc_3_k_with_the_same_interval() {
    let mut rng = Lcg::new(1951);
    for (n, k) in [(6, 4), (23, 32), (30, 3), (5, 2), (320, 3), (12, 7)] {
        let data = random_scores(&mut rng, n, k);
        let m = Matrix::new(&data, n, k).unwrap();
        let alpha: AlphaResult = cronbach_alpha(m);
        let icc3k = icc(m, IccForm::Icc3_k);
        assert!(
            close(alpha.value, icc3k.value, 1e-12),
            "{n}×{k}: alpha {} vs ICC(3,k) {}",
            alpha.value,
            icc3k.value
        );
        // Feldt's interval is the ICC(3,k) interval of McGraw & Wong.
        assert!(
            close(alpha.ci_low, icc3k.ci_low, 1e-10),
            "{n}×{k}: {} vs {}",
            alpha.ci_low,
            icc3k.ci_low
        );
        assert!(
            close(alpha.ci_high, icc3k.ci_high, 1e-10),
            "{n}×{k}: {} vs {}",
            alpha.ci_high,
            icc3k.ci_high
        );
        assert!(alpha.ci_low < alpha.value && alpha.value < alpha.ci_high);
    }
}

#[test]
fn intervals_contain_the_estimate_and_p_values_follow_f() {
    let mut rng = Lcg::new(2021);
    for (n, k) in [(6, 4), (23, 32), (30, 3), (8, 23), (100, 32)] {
        let data = random_scores(&mut rng, n, k);
        for r in icc_all(Matrix::new(&data, n, k).unwrap()) {
            assert!(
                r.ci_low <= r.value && r.value <= r.ci_high,
                "{n}×{k} {}: {r:?}",
                r.form.as_str()
            );
            assert!((0.0..=1.0).contains(&r.p_value));
        }
    }
}

#[test]
fn perfect_agreement_gives_one_with_infinite_f() {
    // Every rater gives every subject the same score: MSE = MSW = MSJ = 0.
    let data = [1.0, 1.0, 1.0, 4.0, 4.0, 4.0, 2.5, 2.5, 2.5, -3.0, -3.0, -3.0];
    for r in icc_all(Matrix::new(&data, 4, 3).unwrap()) {
        assert_eq!(r.status, Status::Ok, "{}", r.form.as_str());
        assert_eq!(
            (r.value, r.f, r.p_value),
            (1.0, f64::INFINITY, 0.0),
            "{}",
            r.form.as_str()
        );
        assert_eq!((r.ci_low, r.ci_high), (1.0, 1.0), "{}", r.form.as_str());
    }
    let alpha = cronbach_alpha(Matrix::new(&data, 4, 3).unwrap());
    assert_eq!((alpha.value, alpha.ci_low, alpha.ci_high), (1.0, 1.0, 1.0));
}

#[test]
fn additive_rater_offsets_give_perfect_consistency_but_not_agreement() {
    // x_ij = subject_i + rater_j exactly: MSE = 0, MSJ > 0.
    let subjects = [0.0, 3.0, 1.0, 7.0, 2.0];
    let raters = [0.0, 1.0, -2.0];
    let data: Vec<f64> = subjects
        .iter()
        .flat_map(|s| raters.iter().map(move |r| s + r))
        .collect();
    let m = Matrix::new(&data, 5, 3).unwrap();
    let i3 = icc3_1(m);
    assert_eq!(
        (i3.value, i3.f, i3.p_value, i3.ci_low, i3.ci_high),
        (1.0, f64::INFINITY, 0.0, 1.0, 1.0)
    );
    let i2 = icc2_1(m);
    assert_eq!(i2.status, Status::Ok);
    assert!(i2.value > 0.0 && i2.value < 1.0);
    assert!(
        i2.ci_low.is_finite() && i2.ci_high.is_finite() && i2.ci_low <= i2.value && i2.value <= i2.ci_high
    );
}

#[test]
fn rows_with_nan_are_dropped_listwise() {
    let mut rng = Lcg::new(5);
    let (n, k) = (10, 4);
    let data = random_scores(&mut rng, n, k);
    let mut holed = data.clone();
    holed[2 * k + 1] = f64::NAN;
    holed[7 * k] = f64::NAN;
    holed[7 * k + 3] = f64::NAN;
    let kept: Vec<f64> = data
        .chunks(k)
        .enumerate()
        .filter(|(i, _)| *i != 2 && *i != 7)
        .flat_map(|(_, row)| row.to_vec())
        .collect();
    let a = icc_all(Matrix::new(&holed, n, k).unwrap());
    let b = icc_all(Matrix::new(&kept, n - 2, k).unwrap());
    for (x, y) in a.iter().zip(b.iter()) {
        assert_eq!((x.n_subjects, x.n_dropped), (8, 2));
        assert_same_icc(x, y, 0.0, "listwise");
    }
    let alpha = cronbach_alpha(Matrix::new(&holed, n, k).unwrap());
    assert_eq!((alpha.n_cases, alpha.n_items, alpha.n_dropped), (8, 4, 2));
    assert_eq!(
        alpha.value,
        cronbach_alpha(Matrix::new(&kept, n - 2, k).unwrap()).value
    );
}

#[test]
fn icc_forms_have_stable_names() {
    let names: Vec<_> = IccForm::ALL
        .iter()
        .map(|f| (f.as_str(), f.pingouin_name(), f.pingouin_legacy_name()))
        .collect();
    assert_eq!(
        names,
        [
            ("icc1_1", "ICC(1,1)", "ICC1"),
            ("icc2_1", "ICC(A,1)", "ICC2"),
            ("icc3_1", "ICC(C,1)", "ICC3"),
            ("icc1_k", "ICC(1,k)", "ICC1k"),
            ("icc2_k", "ICC(A,k)", "ICC2k"),
            ("icc3_k", "ICC(C,k)", "ICC3k"),
        ]
    );
    for form in IccForm::ALL {
        for name in [form.as_str(), form.pingouin_name(), form.pingouin_legacy_name()] {
            assert_eq!(IccForm::from_name(name), Some(form));
        }
    }
    assert_eq!(IccForm::from_name("icc4_1"), None);
    let statuses: Vec<_> = Status::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(
        statuses,
        [
            "ok",
            "too_few_subjects",
            "too_few_raters",
            "non_finite",
            "zero_variance",
            "undefined",
            "unbalanced",
            "length_mismatch"
        ]
    );
    assert_eq!(Status::ZeroVariance.to_string(), "zero_variance");
}

#[test]
fn cohen_kappa_hand_computed() {
    // Agreement on 3 of 4; margins a = {0: 2, 1: 2}, b = {0: 1, 1: 3}:
    // P_o = 3/4, P_e = (2·1 + 2·3)/16 = 1/2, κ = (3/4 − 1/2)/(1/2) = 1/2.
    let r = cohen_kappa(&[0, 1, 0, 1], &[0, 1, 1, 1]);
    assert_eq!(
        (r.value, r.observed_agreement, r.expected_agreement),
        (0.5, 0.75, 0.5)
    );
    assert_eq!(
        (r.n_subjects, r.n_raters, r.n_categories, r.status),
        (4, 2, 2, Status::Ok)
    );
    // Labels need not be 0..c, nor shared by both raters; complete disagreement with
    // constant raters is κ = 0.
    let r = cohen_kappa(&[-5, -5, -5], &[9, 9, 9]);
    assert_eq!((r.value, r.status, r.n_categories), (0.0, Status::Ok, 2));
    // Perfect agreement.
    assert_eq!(cohen_kappa(&[3, 1, 2, 3], &[3, 1, 2, 3]).value, 1.0);
    // Symmetric in the raters.
    let (a, b) = ([1, 2, 3, 1, 2, 2, 3, 1], [1, 2, 2, 1, 3, 2, 3, 3]);
    assert_eq!(cohen_kappa(&a, &b).value, cohen_kappa(&b, &a).value);
}

#[test]
fn fleiss_kappa_worked_example() {
    // The worked example of the Wikipedia article "Fleiss' kappa": 10 subjects, 14 raters,
    // 5 categories; P̄ = 0.378, P̄_e = 0.213, κ = 0.210 (exactly 4211/20059).
    #[rustfmt::skip]
    let counts = vec![
        0, 0, 0, 0, 14,
        0, 2, 6, 4, 2,
        0, 0, 3, 5, 6,
        0, 3, 9, 2, 0,
        2, 2, 8, 1, 1,
        7, 7, 0, 0, 0,
        3, 2, 6, 3, 0,
        2, 5, 3, 2, 2,
        6, 5, 2, 1, 0,
        0, 2, 2, 3, 7,
    ];
    let table = CountTable::new(counts, 10, 5).unwrap();
    let r = fleiss_kappa(&table);
    assert_eq!(r.status, Status::Ok);
    assert_eq!((r.n_subjects, r.n_raters, r.n_categories), (10, 14, 5));
    assert!((r.observed_agreement - 0.378).abs() < 5e-4);
    assert!((r.expected_agreement - 0.213).abs() < 5e-4);
    assert!((r.value - 4211.0 / 20059.0).abs() < 1e-15);
}

#[test]
fn aggregate_raters_counts_sorted_categories() {
    // 3 subjects × 4 raters.
    let labels = [2, 2, 7, -1, 7, 7, 7, 7, -1, 2, 2, 2];
    let agg = aggregate_raters(&labels, 3, 4).unwrap();
    assert_eq!(agg.categories, [-1, 2, 7]);
    assert_eq!(agg.table.counts(), [1, 2, 1, 0, 0, 4, 1, 3, 0]);
    assert_eq!(agg.table.row(1), Some(&[0, 0, 4][..]));
    assert_eq!(agg.table.row(3), None);
    // With two raters Fleiss' and Cohen's kappa differ only in how chance agreement is
    // estimated (pooled vs per-rater margins).
    let two = [0, 0, 1, 1, 0, 1, 1, 1, 0, 0];
    let f = fleiss_kappa(&aggregate_raters(&two, 5, 2).unwrap().table);
    assert_eq!(f.status, Status::Ok);
    assert!(f.value < 1.0);
}
