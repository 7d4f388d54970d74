//! Du et al.'s word-level effects (Table 2): the direction of each estimate of this run's fit
//! against the paper's.

use retest_tables::RegressionRow;

use crate::finding::{Finding, Verdict};
use crate::numbers::p_text;
use crate::regression::{self, PAPER_ESTIMATES, term_label};

/// Table 2: the direction of the word-level effects (ES +, L2 norm −, log freq + for
/// test-retest; log freq + and ES + for inter-rater), from the least-squares stand-in of
/// [`regression::fit`]. Replicates when the sign agrees and p < .05.
pub fn regression_directions(rows: Option<&[RegressionRow]>) -> Vec<Finding> {
    let checks: [(&str, &str); 5] = [
        ("test_retest", "es"),
        ("test_retest", "l2_norm"),
        ("test_retest", "log_freq"),
        ("inter_rater", "log_freq"),
        ("inter_rater", "es"),
    ];
    let fits = rows.map(|rows| {
        (
            regression::fit(rows, "test_retest"),
            regression::fit(rows, "inter_rater"),
        )
    });
    checks
        .iter()
        .map(|(analysis, term)| {
            let (tr, paper_tr, paper_ir) =
                PAPER_ESTIMATES.iter().find(|(t, _, _)| t == term).copied().unwrap_or(("", f64::NAN, f64::NAN));
            let paper_value = if *analysis == "test_retest" { paper_tr } else { paper_ir };
            let what = if *analysis == "test_retest" { "test-retest reliability" } else { "inter-rater consistency" };
            let direction = if paper_value > 0.0 { "higher" } else { "lower" };
            let claim = format!("Higher {} goes with {direction} {what} (Table 2)", term_label(tr));
            let paper = format!("β = {paper_value:+.4}");
            let Some((fit_tr, fit_ir)) = &fits else {
                return Finding::missing(&claim, &paper, "regression input not available");
            };
            let fit = if *analysis == "test_retest" { fit_tr } else { fit_ir };
            let Some(fit) = fit else {
                return Finding::missing(&claim, &paper, "too few complete rows in the regression input");
            };
            let Some(e) = fit.estimates.iter().find(|e| e.term == *term) else {
                return Finding::missing(&claim, &paper, &format!("{} left out of the fit", term_label(term)));
            };
            let verdict = Verdict::of(e.estimate.signum() == paper_value.signum() && e.p_value < 0.05);
            Finding {
                claim,
                paper,
                this_run: format!("β = {:+.4} (SE {:.4}, {}, n = {})", e.estimate, e.std_error, p_text(e.p_value), fit.n_obs),
                verdict,
                sentence: format!(
                    "Replicates if the least-squares estimate (standardised predictors, one intercept per configuration) has the paper's sign with p < .05; it is {:+.4}, so the finding {}.",
                    e.estimate,
                    verdict.as_str()
                ),
            }
        })
        .collect()
}
