//! Every case of `reliability_vectors.json` (pingouin 0.7, statsmodels, scikit-learn) reproduced.
//!
//! The file is found in `$RETEST_REFERENCE_DIR`, by default `../shared/reference` beside the
//! workspace. A missing file fails the test; it is never skipped.
//!
//! Tolerances:
//! * ICC values, F statistics, Cronbach's alpha, kappas: 1e-9, absolute for |reference| ≤ 1 and
//!   relative above (`|ours − ref| ≤ 1e-9 · max(1, |ref|)`).
//! * p-values: relative 1e-9 (they go down to 1e-262); a reference of exactly 0 (scipy's
//!   underflow) requires ours below `f64::MIN_POSITIVE`.
//! * ICC confidence limits: pingouin rounds them to 2 decimals, so `|ours − ref| ≤ 0.005 + 1e-12`.

use std::path::PathBuf;

use retest_reliability::{
    IccForm, Matrix, Status, aggregate_raters, cohen_kappa, cronbach_alpha, fleiss_kappa, icc_all,
};
use serde_json::Value;

const DEFAULT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/reference");
const FILE: &str = "reliability_vectors.json";

fn reference() -> Value {
    let dir =
        std::env::var_os("RETEST_REFERENCE_DIR").map_or_else(|| PathBuf::from(DEFAULT_DIR), PathBuf::from);
    let path = dir.join(FILE);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the reference file {} ({e}); set RETEST_REFERENCE_DIR to the directory \
             holding {FILE} (default: {DEFAULT_DIR})",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()))
}

fn number(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("{what}: expected a number, found {v}"))
}

/// A matrix of rows (`what`: "matrix" or "labels"), flattened row by row, with its row and
/// column counts.
fn rows<T>(v: &Value, what: &str, entry: impl Fn(&Value) -> T) -> (Vec<T>, usize, usize) {
    let rows = v.as_array().unwrap_or_else(|| panic!("{what}: array of rows"));
    let n_cols = rows.first().and_then(Value::as_array).map_or(0, Vec::len);
    let mut data = Vec::new();
    for row in rows {
        let row = row.as_array().unwrap_or_else(|| panic!("{what} row: array"));
        assert_eq!(row.len(), n_cols, "ragged reference {what}");
        data.extend(row.iter().map(&entry));
    }
    (data, rows.len(), n_cols)
}

fn rows_f64(v: &Value) -> (Vec<f64>, usize, usize) {
    rows(v, "matrix", |x| number(x, "matrix entry"))
}

fn rows_i64(v: &Value) -> (Vec<i64>, usize, usize) {
    rows(v, "labels", |x| x.as_i64().expect("integer label"))
}

/// The cases of one section of the reference file (`reliability`, `agreement`); never empty.
fn cases(reference: &Value, section: &str) -> Vec<Value> {
    let cases = reference[section]
        .as_array()
        .unwrap_or_else(|| panic!("`{section}`: array of cases"));
    assert!(!cases.is_empty(), "no {section} cases in the reference file");
    cases.clone()
}

/// Runs `check` on each `reliability` case with its matrix and a label naming the case
/// (`case 3 (20×4)`).
fn for_each_matrix(check: impl Fn(&str, &Value, Matrix<'_>)) {
    for (case_idx, case) in cases(&reference(), "reliability").iter().enumerate() {
        let (data, n_rows, n_cols) = rows_f64(&case["matrix"]);
        let m = Matrix::new(&data, n_rows, n_cols).expect("reference matrix shape");
        check(&format!("case {case_idx} ({n_rows}×{n_cols})"), case, m);
    }
}

/// |ours − ref| / max(1, |ref|).
fn mixed_error(ours: f64, reference: f64) -> f64 {
    (ours - reference).abs() / reference.abs().max(1.0)
}

fn assert_mixed(ours: f64, reference: f64, what: &str) {
    let err = mixed_error(ours, reference);
    assert!(
        err <= 1e-9,
        "{what}: ours {ours:e}, reference {reference:e}, error {err:e} > 1e-9"
    );
}

fn assert_p_value(ours: f64, reference: f64, what: &str) {
    if reference == 0.0 {
        assert!(
            (0.0..f64::MIN_POSITIVE).contains(&ours),
            "{what}: reference underflowed to 0, ours is {ours:e}"
        );
    } else {
        let rel = (ours - reference).abs() / reference.abs();
        assert!(
            rel <= 1e-9,
            "{what}: ours {ours:e}, reference {reference:e}, relative error {rel:e} > 1e-9"
        );
    }
}

/// A confidence limit the reference rounded to the unit of which `half_unit` is half
/// (0.005 for 2 decimals): `|ours − ref| ≤ half_unit + 1e-12`.
fn assert_rounded_limit(ours: f64, reference: f64, half_unit: f64, what: &str) {
    let err = (ours - reference).abs();
    assert!(
        err <= half_unit + 1e-12,
        "{what}: ours {ours}, reference {reference} (rounded), error {err} > {half_unit}"
    );
}

#[test]
fn icc_matches_pingouin_on_every_case() {
    for_each_matrix(|label, case, m| {
        let (n_rows, n_cols) = (m.n_rows(), m.n_cols());
        let results = icc_all(m);
        for result in results {
            let form = result.form;
            let key = form.pingouin_legacy_name();
            let what = |field: &str| format!("{label} {} {field}", form.pingouin_name());
            assert_eq!(result.status, Status::Ok, "{}", what("status"));
            assert_eq!(
                (result.n_subjects, result.n_raters, result.n_dropped),
                (n_rows, n_cols, 0)
            );
            assert_mixed(
                result.value,
                number(&case["icc"][key], &what("ICC")),
                &what("ICC"),
            );
            assert_mixed(result.f, number(&case["icc_f"][key], &what("F")), &what("F"));
            assert_p_value(
                result.p_value,
                number(&case["icc_pval"][key], &what("p")),
                &what("p"),
            );
            let ci = case["icc_ci95"][key].as_array().expect("CI: [low, high]");
            assert_eq!(ci.len(), 2, "{}", what("CI length"));
            // pingouin rounds the ICC CI to 2 decimals.
            for (ours, limit, name) in [
                (result.ci_low, &ci[0], "CI low"),
                (result.ci_high, &ci[1], "CI high"),
            ] {
                assert_rounded_limit(ours, number(limit, &what(name)), 0.005, &what(name));
            }
            let (n, k) = (n_rows as f64, n_cols as f64);
            let expected_df2 = if matches!(form, IccForm::Icc1_1 | IccForm::Icc1_k) {
                n * (k - 1.0)
            } else {
                (n - 1.0) * (k - 1.0)
            };
            assert_eq!(
                (result.df1, result.df2),
                (n - 1.0, expected_df2),
                "{}",
                what("df")
            );
        }
    });
}

#[test]
fn cronbach_alpha_matches_pingouin_on_every_case() {
    for_each_matrix(|label, case, m| {
        let (n_rows, n_cols) = (m.n_rows(), m.n_cols());
        let alpha = cronbach_alpha(m);
        let what = format!("{label} Cronbach's alpha");
        assert_eq!(alpha.status, Status::Ok, "{what}");
        assert_eq!(
            (alpha.n_cases, alpha.n_items, alpha.n_dropped),
            (n_rows, n_cols, 0)
        );
        assert_mixed(alpha.value, number(&case["cronbach_alpha"], &what), &what);
        // pingouin rounds the alpha CI to 3 decimals; the file has it only in some versions.
        if let Some(ci) = case.get("cronbach_alpha_ci95").and_then(Value::as_array) {
            for (ours, limit, name) in [
                (alpha.ci_low, &ci[0], "CI low"),
                (alpha.ci_high, &ci[1], "CI high"),
            ] {
                assert_rounded_limit(ours, number(limit, &what), 0.0005, &format!("{what} {name}"));
            }
        }
    });
}

#[test]
fn kappas_match_scikit_learn_and_statsmodels_on_every_case() {
    let cases = cases(&reference(), "agreement");
    for (case_idx, case) in cases.iter().enumerate() {
        let (labels, n_subjects, n_raters) = rows_i64(&case["labels"]);
        let what = |s: &str| format!("case {case_idx} ({n_subjects}×{n_raters}) {s}");

        let first: Vec<i64> = labels.chunks_exact(n_raters).map(|r| r[0]).collect();
        let second: Vec<i64> = labels.chunks_exact(n_raters).map(|r| r[1]).collect();
        let cohen = cohen_kappa(&first, &second);
        assert_eq!(cohen.status, Status::Ok, "{}", what("Cohen status"));
        let expected = number(&case["cohen_kappa_first_two_raters"], &what("Cohen"));
        assert_mixed(cohen.value, expected, &what("Cohen's kappa"));

        let aggregated = aggregate_raters(&labels, n_subjects, n_raters).expect("label shape");
        let fleiss = fleiss_kappa(&aggregated.table);
        assert_eq!(fleiss.status, Status::Ok, "{}", what("Fleiss status"));
        assert_eq!(fleiss.n_raters, n_raters);
        let expected = number(&case["fleiss_kappa"], &what("Fleiss"));
        assert_mixed(fleiss.value, expected, &what("Fleiss' kappa"));
    }
}
