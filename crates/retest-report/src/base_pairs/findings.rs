//! Zhang et al.'s claims as findings with criteria, checked on one configuration, and whether the
//! seeds agree on the labels more than the pairs do.

use retest_tables::{BasePairAgreementRow, BasePairKappaRow, BasePairSeedsRow};

use super::cells::{Config, finite_median, pairs_kappas, per_rule, seeds_kappas};
use super::columns::{
    FORMS, KappaColumn, capitalised_columns, form_columns, kappa_rules, kappas_of, mean_kappa,
    not_applicable, truth_columns,
};
use crate::data::{of_config, rule_label, rules_of};
use crate::finding::{Finding, Verdict};
use crate::input::BasePairTables;
use crate::numbers::f2;

/// Below this, Fleiss' κ across pairs is moderate or worse (Landis & Koch 1977).
pub(super) const MODERATE: f64 = 0.6;
/// Below this, a mean Cohen's κ is short of almost perfect agreement (Landis & Koch 1977).
pub(super) const ALMOST_PERFECT: f64 = 0.8;

/// Zhang et al.'s claims (and whether the seeds agree more than the pairs), checked on one
/// configuration.
pub(super) fn findings(tables: &BasePairTables, config: &Config) -> Vec<Finding> {
    let kappas = kappas_of(tables, config);
    let across_pairs = across_pairs(tables, config);
    let rules = kappa_rules(&kappas);
    vec![
        pairs_agree_moderately(&across_pairs),
        capitalised_pairs_differ(&kappas, &rules),
        forms_differ(&kappas, &rules),
        truth_below_animals(&kappas, &rules),
        rules_agree(&kappas),
        seeds_agree_more(tables, config, &across_pairs),
    ]
}

/// Per rule, the median over seeds of Fleiss' κ across the pairs.
fn across_pairs(tables: &BasePairTables, config: &Config) -> Vec<(String, f64)> {
    let agreement: Vec<&BasePairAgreementRow> = (tables.agreement.as_deref())
        .map(|rows| of_config(rows, config).collect())
        .unwrap_or_default();
    let agreement_rules = rules_of(agreement.iter().map(|r| r.rule.as_str()));
    (agreement_rules.iter())
        .map(|rule| {
            (
                rule.clone(),
                finite_median(&pairs_kappas(agreement.iter().copied(), rule)),
            )
        })
        .collect()
}

/// (a) Table 2: the pairs agree on the labels only moderately or worse.
fn pairs_agree_moderately(across_pairs: &[(String, f64)]) -> Finding {
    let claim = "(a) The base pairs agree on the professions' labels only moderately or worse: Fleiss κ across \
                 pairs < 0.6 for every rule (Table 2)";
    let paper = "DB/WA 0.45, RIPA 0.42, NBM 0.29";
    let checked: Vec<&(String, f64)> = across_pairs.iter().filter(|(_, v)| v.is_finite()).collect();
    if checked.is_empty() {
        Finding::missing(
            claim,
            paper,
            "no usable Fleiss κ across pairs (`base_pair_agreement`)",
        )
    } else {
        let holds = checked.iter().all(|(_, v)| *v < MODERATE);
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: per_rule(across_pairs),
            verdict: Verdict::of(holds),
            sentence: format!(
                "Replicates when, for every rule, the median over seeds of Fleiss' κ across the pairs is below \
                 {MODERATE}; here {}.",
                per_rule(across_pairs)
            ),
        }
    }
}

/// (b) Table 3: capitalising a base pair changes the labels.
fn capitalised_pairs_differ(kappas: &[&BasePairKappaRow], rules: &[String]) -> Finding {
    let claim = "(b) Capitalising a base pair changes the labels: mean κ between a pair and its capitalised \
                 form < 0.8 for every rule (Table 3)";
    let paper = "mean DB/WA 0.42, RIPA 0.43, NBM 0.39";
    let columns = capitalised_columns(rules);
    let rows: Vec<Vec<&BasePairKappaRow>> = columns.iter().map(|c| c.rows(kappas)).collect();
    let means: Vec<(String, f64)> = (rules.iter().cloned())
        .zip(rows.iter().map(|r| mean_kappa(r)))
        .collect();
    if rows.iter().all(Vec::is_empty) {
        Finding::missing(claim, paper, "no capitalised-pair κ (`base_pair_kappa`)")
    } else if rows.iter().all(|r| r.is_empty() || not_applicable(r)) {
        Finding::missing(
            claim,
            paper,
            "the corpus is lowercased, so it has no capitalised base pairs",
        )
    } else if means.iter().all(|(_, v)| !v.is_finite()) {
        Finding::missing(claim, paper, "no usable capitalised-pair κ")
    } else {
        let holds = means
            .iter()
            .filter(|(_, v)| v.is_finite())
            .all(|(_, v)| *v < ALMOST_PERFECT);
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: format!("mean {}", per_rule(&means)),
            verdict: Verdict::of(holds),
            sentence: format!(
                "Replicates when, for every rule, Cohen's κ between a pair's labels and its capitalised form's, \
                 averaged over the pairs and then the median over seeds, is below {ALMOST_PERFECT}; here {}.",
                per_rule(&means)
            ),
        }
    }
}

/// (c) Table 4: other forms of a word get other labels.
fn forms_differ(kappas: &[&BasePairKappaRow], rules: &[String]) -> Finding {
    let claim = "(c) Other forms of a word get other labels: mean κ between a profession and its plural, \
                 Capitalised and UPPER forms < 0.8 for each form (Table 4)";
    let paper = "mean plural 0.46–0.56, Capitalised 0.55–0.66, UPPER 0.29–0.40";
    let mut parts = Vec::new();
    let mut values = Vec::new();
    let mut any_rows = false;
    for (form, label) in FORMS {
        let columns = form_columns(form, label, rules);
        let rows: Vec<Vec<&BasePairKappaRow>> = columns.iter().map(|c| c.rows(kappas)).collect();
        if rows.iter().all(Vec::is_empty) {
            continue;
        }
        any_rows = true;
        if rows.iter().all(|r| r.is_empty() || not_applicable(r)) {
            parts.push(format!("{label} not applicable"));
            continue;
        }
        let means: Vec<(String, f64)> = (rules.iter().cloned())
            .zip(rows.iter().map(|r| mean_kappa(r)))
            .collect();
        values.extend(means.iter().map(|(_, v)| *v).filter(|v| v.is_finite()));
        parts.push(format!("{label}: {}", per_rule(&means)));
    }
    if !any_rows {
        Finding::missing(claim, paper, "no word-form κ (`base_pair_kappa`)")
    } else if values.is_empty() {
        Finding::missing(claim, paper, "no usable word-form κ")
    } else {
        let holds = values.iter().all(|v| *v < ALMOST_PERFECT);
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: parts.join("; "),
            verdict: Verdict::of(holds),
            sentence: format!(
                "Replicates when, for every form that applies and every rule, Cohen's κ between the professions' \
                 labels and their forms' (mean over pairs, median over seeds) is below {ALMOST_PERFECT}; \
                 Capitalised and UPPER forms do not apply to a lowercased corpus. Here {}.",
                parts.join("; ")
            ),
        }
    }
}

/// (d) Table 5: the labels match the BSRI traits' gender less than the animals'.
fn truth_below_animals(kappas: &[&BasePairKappaRow], rules: &[String]) -> Finding {
    let claim = "(d) The labels match the BSRI traits' stereotyped gender less than the animals' gender: mean κ \
                 with the truth over the rules lower for BSRI than for animals (Table 5)";
    let paper = "BSRI vs animals: DB/WA 0.17 vs 0.42, RIPA 0.19 vs 0.35, NBM 0.18 vs 0.15; over the rules 0.18 vs \
                 0.31";
    let mean_of = |list: &str, rule: &str| -> f64 {
        let column = &truth_columns(&[list.to_owned()], &[rule.to_owned()])[0];
        mean_kappa(&column.rows(kappas))
    };
    let compared: Vec<(String, f64, f64)> = (rules.iter())
        .map(|rule| (rule.clone(), mean_of("bsri", rule), mean_of("animals", rule)))
        .filter(|(_, b, a)| b.is_finite() && a.is_finite())
        .collect();
    if compared.is_empty() {
        Finding::missing(claim, paper, "no usable κ with the BSRI and animals lists")
    } else {
        let mean = |values: Vec<f64>| values.iter().sum::<f64>() / values.len() as f64;
        let bsri = mean(compared.iter().map(|c| c.1).collect());
        let animals = mean(compared.iter().map(|c| c.2).collect());
        let text = (compared.iter())
            .map(|(rule, b, a)| format!("{} {} vs {}", rule_label(rule), f2(*b), f2(*a)))
            .collect::<Vec<_>>()
            .join(", ");
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: format!("BSRI vs animals: {text}"),
            verdict: Verdict::of(bsri < animals),
            sentence: format!(
                "Replicates when Cohen's κ between the labels and the true genders (mean over pairs, median over \
                 seeds), averaged over the rules, is lower for the BSRI list than for the animals list (the \
                 paper's \"overall poorer\"; its own NBM κ is higher for BSRI); here {} vs {}, per rule {text}.",
                f2(bsri),
                f2(animals)
            ),
        }
    }
}

/// (e) Table 6: DB/WA and RIPA agree with each other more than either with NBM.
fn rules_agree(kappas: &[&BasePairKappaRow]) -> Finding {
    let claim = "(e) DB/WA and RIPA agree with each other more than either with NBM (Table 6)";
    let paper = "mean 0.83 vs 0.48 and 0.49";
    let between = |a: &str, b: &str| -> f64 {
        let column = KappaColumn {
            label: String::new(),
            group: String::new(),
            analysis: "rules".into(),
            list: None,
            rule: a.into(),
            rule_b: Some(b.into()),
        };
        mean_kappa(&column.rows(kappas))
    };
    let (dr, dn, rn) = (
        between("dbwa", "ripa"),
        between("dbwa", "nbm"),
        between("ripa", "nbm"),
    );
    if [dr, dn, rn].iter().any(|v| !v.is_finite()) {
        Finding::missing(
            claim,
            paper,
            "no usable κ between every two of DB/WA, RIPA and NBM",
        )
    } else {
        let text = format!(
            "DB/WA & RIPA {}, DB/WA & NBM {}, RIPA & NBM {}",
            f2(dr),
            f2(dn),
            f2(rn)
        );
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: text.clone(),
            verdict: Verdict::of(dr > dn && dr > rn),
            sentence: format!(
                "Replicates when Cohen's κ between the DB/WA and RIPA labels (mean over pairs, median over seeds) \
                 exceeds both κ with NBM; {text}."
            ),
        }
    }
}

/// (f) Not in the paper: the seeds agree on the labels more than the pairs do.
fn seeds_agree_more(tables: &BasePairTables, config: &Config, across_pairs: &[(String, f64)]) -> Finding {
    let claim = "(f) The seeds agree on the labels more than the base pairs do: median κ across seeds > median \
                 κ across pairs for every rule (not in the paper)";
    let paper = "not tested (one embedding)";
    let seeds: Vec<&BasePairSeedsRow> = (tables.seeds.as_deref())
        .map(|rows| of_config(rows, config).collect())
        .unwrap_or_default();
    let compared: Vec<(String, f64, f64)> = (across_pairs.iter())
        .map(|(rule, pairs)| {
            let seeds = finite_median(&seeds_kappas(seeds.iter().copied(), rule));
            (rule.clone(), seeds, *pairs)
        })
        .filter(|(_, s, p)| s.is_finite() && p.is_finite())
        .collect();
    if compared.is_empty() {
        Finding::missing(
            claim,
            paper,
            "no usable Fleiss κ across seeds and across pairs of one rule",
        )
    } else {
        let text = (compared.iter())
            .map(|(rule, s, p)| format!("{} {} vs {}", rule_label(rule), f2(*s), f2(*p)))
            .collect::<Vec<_>>()
            .join(", ");
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: format!("seeds vs pairs: {text}"),
            verdict: Verdict::of(compared.iter().all(|(_, s, p)| s > p)),
            sentence: format!(
                "Replicates when, for every rule, Fleiss' κ across the seeds (median over the pairs) exceeds \
                 Fleiss' κ across the pairs (median over the seeds); seeds against pairs: {text}."
            ),
        }
    }
}
