//! The columns of the κ tables (Tables 3–6): which rows of `base_pair_kappa` each column holds,
//! and the mean κ over the pairs per seed.

use std::collections::BTreeMap;

use retest_tables::BasePairKappaRow;

use super::cells::{Config, finite_median, first_seen, truth_label};
use crate::data::{of_config, rule_label, rules_of};
use crate::input::BasePairTables;

/// The status of a comparison a lowercased corpus cannot make (capitalised pairs and forms).
pub(super) const NOT_APPLICABLE: &str = "not_applicable";
/// The word forms of Table 4, with their labels.
pub(super) const FORMS: [(&str, &str); 3] = [
    ("plural", "plural"),
    ("capital", "Capitalised"),
    ("upper", "UPPER"),
];
/// The truth lists of Table 5 in the paper's order; others follow alphabetically.
pub(super) const TRUTH_ORDER: [&str; 2] = ["bsri", "animals"];

pub(super) fn usable(row: &BasePairKappaRow) -> bool {
    row.status == "ok" && row.kappa.is_finite()
}

/// One column of a κ table (Tables 3–6): the rows of one analysis, list and rule (or two rules,
/// in either order).
pub(super) struct KappaColumn {
    pub(super) label: String,
    /// What the column compares, for saying that it does not apply (`Capitalised forms`).
    pub(super) group: String,
    pub(super) analysis: String,
    pub(super) list: Option<String>,
    pub(super) rule: String,
    pub(super) rule_b: Option<String>,
}

impl KappaColumn {
    pub(super) fn matches(&self, row: &BasePairKappaRow) -> bool {
        row.analysis == self.analysis
            && self.list.as_ref().is_none_or(|l| *l == row.list)
            && match &self.rule_b {
                None => row.rule == self.rule,
                Some(b) => {
                    (row.rule == self.rule && row.rule_b == *b) || (row.rule == *b && row.rule_b == self.rule)
                }
            }
    }

    pub(super) fn rows<'a>(&self, rows: &[&'a BasePairKappaRow]) -> Vec<&'a BasePairKappaRow> {
        rows.iter().copied().filter(|r| self.matches(r)).collect()
    }
}

/// Whether every row is `not_applicable` (and there is one).
pub(super) fn not_applicable(rows: &[&BasePairKappaRow]) -> bool {
    !rows.is_empty() && rows.iter().all(|r| r.status == NOT_APPLICABLE)
}

/// Per seed (ascending), the mean of the usable κ over the pairs; seeds without one left out.
pub(super) fn seed_means(rows: &[&BasePairKappaRow]) -> Vec<f64> {
    let mut by_seed: BTreeMap<u32, (f64, usize)> = BTreeMap::new();
    for r in rows.iter().filter(|r| usable(r)) {
        let entry = by_seed.entry(r.seed).or_default();
        entry.0 += r.kappa;
        entry.1 += 1;
    }
    by_seed.values().map(|(sum, n)| sum / *n as f64).collect()
}

/// The mean κ over the pairs, median over seeds (NaN without a usable row).
pub(super) fn mean_kappa(rows: &[&BasePairKappaRow]) -> f64 {
    finite_median(&seed_means(rows))
}

/// The κ rows of one configuration.
pub(super) fn kappas_of<'a>(tables: &'a BasePairTables, config: &'a Config) -> Vec<&'a BasePairKappaRow> {
    (tables.kappa.as_deref())
        .map(|rows| of_config(rows, config).collect())
        .unwrap_or_default()
}

/// The rules of a configuration's κ rows, in the registry's order.
pub(super) fn kappa_rules(rows: &[&BasePairKappaRow]) -> Vec<String> {
    rules_of(
        rows.iter()
            .filter(|r| r.analysis != "rules" && r.analysis != "pairs")
            .map(|r| r.rule.as_str()),
    )
}

/// The columns of Table 3: one per rule.
pub(super) fn capitalised_columns(rules: &[String]) -> Vec<KappaColumn> {
    (rules.iter())
        .map(|rule| KappaColumn {
            label: rule_label(rule),
            group: "capitalised pairs".into(),
            analysis: "capitalised".into(),
            list: None,
            rule: rule.clone(),
            rule_b: None,
        })
        .collect()
}

/// The columns of Table 4: form × rule.
pub(super) fn form_columns(form: &str, form_label: &str, rules: &[String]) -> Vec<KappaColumn> {
    (rules.iter())
        .map(|rule| KappaColumn {
            label: format!("{form_label} · {}", rule_label(rule)),
            group: format!("{form_label} forms"),
            analysis: form.into(),
            list: None,
            rule: rule.clone(),
            rule_b: None,
        })
        .collect()
}

/// The truth lists of a configuration's κ rows, the paper's first.
pub(super) fn truth_lists(rows: &[&BasePairKappaRow]) -> Vec<String> {
    let mut lists: Vec<String> = first_seen(
        rows.iter()
            .filter(|r| r.analysis == "truth")
            .map(|r| r.list.as_str()),
    );
    lists.sort_by_key(|l| {
        (
            TRUTH_ORDER
                .iter()
                .position(|t| t == l)
                .unwrap_or(TRUTH_ORDER.len()),
            l.clone(),
        )
    });
    lists
}

/// The columns of Table 5: truth list × rule.
pub(super) fn truth_columns(lists: &[String], rules: &[String]) -> Vec<KappaColumn> {
    let mut out = Vec::new();
    for list in lists {
        for rule in rules {
            out.push(KappaColumn {
                label: format!("{} · {}", truth_label(list), rule_label(rule)),
                group: truth_label(list),
                analysis: "truth".into(),
                list: Some(list.clone()),
                rule: rule.clone(),
                rule_b: None,
            });
        }
    }
    out
}

/// The columns of Table 6: every two rules, in the order of the rows.
pub(super) fn rule_pair_columns(rows: &[&BasePairKappaRow]) -> Vec<KappaColumn> {
    let mut out: Vec<KappaColumn> = Vec::new();
    for r in rows.iter().filter(|r| r.analysis == "rules") {
        let column = KappaColumn {
            label: format!("{} & {}", rule_label(&r.rule), rule_label(&r.rule_b)),
            group: "rules".into(),
            analysis: "rules".into(),
            list: None,
            rule: r.rule.clone(),
            rule_b: Some(r.rule_b.clone()),
        };
        if !out.iter().any(|c| c.matches(r)) {
            out.push(column);
        }
    }
    out
}
