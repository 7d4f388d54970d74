//! Reliability statistics on one's own ratings, as the JSON values `retest stats` prints and the
//! Python package turns into tables: one place, so that both say the same numbers under the
//! same names. The ratings are a matrix of one row per subject (ICC), case (alpha) or rated item
//! (kappa) and one column per rater or item; NaN is a missing value.

use anyhow::{Result, bail};
use retest_reliability::{
    IccForm, IccResult, KappaResult, Matrix, aggregate_raters, cohen_kappa, cronbach_alpha, fleiss_kappa,
    icc_all,
};
use serde_json::{Value, json};

/// All six ICC forms (an array), or the one named by `form` (its stable or pingouin name).
///
/// # Errors
/// `form` names no ICC form.
pub fn icc_report(m: Matrix<'_>, form: Option<&str>) -> Result<Value> {
    let results = icc_all(m);
    match form {
        None => Ok(Value::Array(results.iter().map(icc_json).collect())),
        Some(name) => {
            let Some(form) = IccForm::from_name(name) else {
                let known: Vec<&str> = IccForm::ALL.iter().map(|f| f.as_str()).collect();
                bail!(
                    "unknown ICC form `{name}`: expected one of {} (or pingouin's names)",
                    known.join(", ")
                );
            };
            Ok(icc_json(
                &results[IccForm::ALL.iter().position(|f| *f == form).expect("in ALL")],
            ))
        }
    }
}

fn icc_json(r: &IccResult) -> Value {
    json!({
        "form": r.form.as_str(), "pingouin_name": r.form.pingouin_name(), "value": r.value,
        "f": r.f, "df1": r.df1, "df2": r.df2, "p_value": r.p_value,
        "ci95": [r.ci_low, r.ci_high], "n_subjects": r.n_subjects, "n_raters": r.n_raters,
        "n_dropped": r.n_dropped, "status": r.status.as_str(),
    })
}

/// Cronbach's alpha with columns as items.
pub fn alpha_report(m: Matrix<'_>) -> Value {
    let r = cronbach_alpha(m);
    json!({
        "alpha": r.value, "ci95": [r.ci_low, r.ci_high], "n_cases": r.n_cases, "n_items": r.n_items,
        "n_dropped": r.n_dropped, "status": r.status.as_str(),
    })
}

/// Fleiss' kappa over all columns, and Cohen's kappa when there are exactly two. A row with a
/// missing value is dropped, as for ICC and alpha.
///
/// # Errors
/// A value that is not a whole number: `cell(row, column)` says where it is (0-based indices of
/// the matrix).
pub fn kappa_report(m: Matrix<'_>, cell: &dyn Fn(usize, usize) -> String) -> Result<Value> {
    let n_raters = m.n_cols();
    let mut labels = Vec::with_capacity(m.data().len());
    let mut n_rows = 0;
    for (i, row) in m.data().chunks_exact(n_raters).enumerate() {
        if row.iter().any(|v| v.is_nan()) {
            continue;
        }
        for (j, &v) in row.iter().enumerate() {
            if v.fract() != 0.0 || !v.is_finite() {
                bail!(
                    "{}: `{v}` is not a category label: kappa needs whole numbers",
                    cell(i, j)
                );
            }
            labels.push(v as i64);
        }
        n_rows += 1;
    }
    let aggregated = aggregate_raters(&labels, n_rows, n_raters)?;
    let mut out = json!({ "fleiss": kappa_json(&fleiss_kappa(&aggregated.table)), "categories": aggregated.categories });
    if n_raters == 2 {
        let (a, b): (Vec<i64>, Vec<i64>) = labels.chunks_exact(2).map(|pair| (pair[0], pair[1])).unzip();
        out["cohen"] = kappa_json(&cohen_kappa(&a, &b));
    }
    Ok(out)
}

fn kappa_json(r: &KappaResult) -> Value {
    json!({
        "kappa": r.value, "observed_agreement": r.observed_agreement, "expected_agreement": r.expected_agreement,
        "n_subjects": r.n_subjects, "n_raters": r.n_raters, "n_categories": r.n_categories,
        "status": r.status.as_str(),
    })
}
