//! How the base-pair section writes its numbers: the spread over seeds as `median [95 %
//! interval]`, counts, shares and per-rule lists, and the Fleiss κ values behind Table 2.

use retest_tables::{BasePairAgreementRow, BasePairSeedsRow};

use crate::data::{distinct, rule_label};
use crate::numbers::f2;
use crate::stats::{median, quantile_sorted, sorted};

/// A configuration: (corpus, algorithm).
pub(super) type Config = (String, String);

/// Names in order of first appearance (the order of the lists behind the tables), once each.
pub(super) fn first_seen<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    distinct(names).into_iter().map(str::to_owned).collect()
}

/// `median [q₂.₅, q₉₇.₅]` of the finite values (the middle 95 % of them, type-7 quantiles), each
/// number written by `fmt`; `—` for none.
pub(super) fn spread_with(values: &[f64], fmt: impl Fn(f64) -> String) -> String {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return "—".to_owned();
    }
    let s = sorted(&finite);
    let q = |p: f64| fmt(quantile_sorted(&s, p));
    format!("{} [{}, {}]", fmt(median(&s)), q(0.025), q(0.975))
}

/// `median [95 % interval]` with two decimals.
pub(super) fn spread(values: &[f64]) -> String {
    spread_with(values, f2)
}

/// The median of the finite values (NaN for none).
pub(super) fn finite_median(values: &[f64]) -> f64 {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    median(&finite)
}

/// A share as a percentage with one decimal.
pub(super) fn pct1(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1} %", 100.0 * v)
    } else {
        "—".to_owned()
    }
}

/// A count, or a median of counts (which may end in .5).
pub(super) fn count(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Counts across seeds: the count when every seed has the same, else `median [95 % interval]`.
pub(super) fn counts(values: &[u32]) -> String {
    match values {
        [first, rest @ ..] if rest.iter().all(|v| v == first) => first.to_string(),
        _ => spread_with(&values.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), count),
    }
}

/// `DB/WA 0.21, RIPA 0.30`.
pub(super) fn per_rule(values: &[(String, f64)]) -> String {
    values
        .iter()
        .map(|(rule, v)| format!("{} {}", rule_label(rule), f2(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How a truth list is named in the paper.
pub(super) fn truth_label(list: &str) -> String {
    match list {
        "bsri" => "BSRI".to_owned(),
        other => other.to_owned(),
    }
}

/// The usable Fleiss' κ across pairs of one rule, one per seed.
pub(super) fn pairs_kappas<'a>(rows: impl Iterator<Item = &'a BasePairAgreementRow>, rule: &str) -> Vec<f64> {
    rows.filter(|r| r.rule == rule && r.status == "ok" && r.kappa.is_finite())
        .map(|r| r.kappa)
        .collect()
}

/// The usable Fleiss' κ across seeds of one rule, one per pair.
pub(super) fn seeds_kappas<'a>(rows: impl Iterator<Item = &'a BasePairSeedsRow>, rule: &str) -> Vec<f64> {
    rows.filter(|r| r.rule == rule && r.status == "ok" && r.kappa.is_finite())
        .map(|r| r.kappa)
        .collect()
}
