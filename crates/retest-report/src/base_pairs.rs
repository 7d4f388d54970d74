//! The report's base-pair section (Zhang, Sneyd & Stevenson 2020, across seeds): the spread of
//! each rule's scores (their Table 1), the pairs' agreement on the professions' labels beside the
//! seeds' agreement (Table 2), agreement with the capitalised pairs, the other word forms, the
//! true genders and the other rules (Tables 3–6), the example word under every pair and seed
//! (Figure 1), the difference vectors' cosines and their correlation with agreement (Figure 2)
//! with the random baselines, RIPA's label flips, how the variation splits into word, pair and
//! seed, and the paper's claims as findings with criteria.

use std::collections::BTreeMap;

use retest_tables::{
    BasePairAgreementRow, BasePairBaselineRow, BasePairCorrelationRow, BasePairDirectionRow,
    BasePairExampleRow, BasePairFlipRow, BasePairKappaRow, BasePairSeedsRow, BasePairSummaryRow,
    BasePairVarianceRow,
};

use crate::data::{algorithm_label, configs_of, distinct, of_config, rule_label, rules_of};
use crate::document::Block;
use crate::figures::{BoxFigure, BoxPanel};
use crate::finding::{Finding, Verdict};
use crate::input::RunTables;
use crate::numbers::{f2, f3};
use crate::page::{BOX_NOTE, NamedFigure, config_label, push_figure, push_findings, row_cells};
use crate::stats::{median, quantile_sorted, sorted};

type Config = (String, String);

/// The status of a comparison a lowercased corpus cannot make (capitalised pairs and forms).
const NOT_APPLICABLE: &str = "not_applicable";
/// Below this, Fleiss' κ across pairs is moderate or worse (Landis & Koch 1977).
const MODERATE: f64 = 0.6;
/// Below this, a mean Cohen's κ is short of almost perfect agreement (Landis & Koch 1977).
const ALMOST_PERFECT: f64 = 0.8;
/// The word forms of Table 4, with their labels.
const FORMS: [(&str, &str); 3] = [
    ("plural", "plural"),
    ("capital", "Capitalised"),
    ("upper", "UPPER"),
];
/// The forms of Figure 1's word, in drawing order.
const EXAMPLE_FORMS: [&str; 4] = ["base", "plural", "capital", "upper"];
/// The truth lists of Table 5 in the paper's order; others follow alphabetically.
const TRUTH_ORDER: [&str; 2] = ["bsri", "animals"];
/// The variance components in table order, with their labels.
const COMPONENTS: [(&str, &str); 7] = [
    ("word", "word"),
    ("pair", "pair"),
    ("seed", "seed"),
    ("word:pair", "word × pair"),
    ("word:seed", "word × seed"),
    ("pair:seed", "pair × seed"),
    ("residual", "residual"),
];

/// Names in order of first appearance (the order of the lists behind the tables), once each.
fn first_seen<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    distinct(names).into_iter().map(str::to_owned).collect()
}

/// `median [q₂.₅, q₉₇.₅]` of the finite values (the middle 95 % of them, type-7 quantiles), each
/// number written by `fmt`; `—` for none.
fn spread_with(values: &[f64], fmt: impl Fn(f64) -> String) -> String {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return "—".to_owned();
    }
    let s = sorted(&finite);
    let q = |p: f64| fmt(quantile_sorted(&s, p));
    format!("{} [{}, {}]", fmt(median(&s)), q(0.025), q(0.975))
}

/// `median [95 % interval]` with two decimals.
fn spread(values: &[f64]) -> String {
    spread_with(values, f2)
}

/// The median of the finite values (NaN for none).
fn finite_median(values: &[f64]) -> f64 {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    median(&finite)
}

/// A share as a percentage with one decimal.
fn pct1(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1} %", 100.0 * v)
    } else {
        "—".to_owned()
    }
}

/// A count, or a median of counts (which may end in .5).
fn count(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Counts across seeds: the count when every seed has the same, else `median [95 % interval]`.
fn counts(values: &[u32]) -> String {
    match values {
        [first, rest @ ..] if rest.iter().all(|v| v == first) => first.to_string(),
        _ => spread_with(&values.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), count),
    }
}

/// `DB/WA 0.21, RIPA 0.30`.
fn per_rule(values: &[(String, f64)]) -> String {
    values
        .iter()
        .map(|(rule, v)| format!("{} {}", rule_label(rule), f2(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How a truth list is named in the paper.
fn truth_label(list: &str) -> String {
    match list {
        "bsri" => "BSRI".to_owned(),
        other => other.to_owned(),
    }
}

fn usable(row: &BasePairKappaRow) -> bool {
    row.status == "ok" && row.kappa.is_finite()
}

/// One column of a κ table (Tables 3–6): the rows of one analysis, list and rule (or two rules,
/// in either order).
struct KappaColumn {
    label: String,
    /// What the column compares, for saying that it does not apply (`Capitalised forms`).
    group: String,
    analysis: String,
    list: Option<String>,
    rule: String,
    rule_b: Option<String>,
}

impl KappaColumn {
    fn matches(&self, row: &BasePairKappaRow) -> bool {
        row.analysis == self.analysis
            && self.list.as_ref().is_none_or(|l| *l == row.list)
            && match &self.rule_b {
                None => row.rule == self.rule,
                Some(b) => {
                    (row.rule == self.rule && row.rule_b == *b) || (row.rule == *b && row.rule_b == self.rule)
                }
            }
    }

    fn rows<'a>(&self, rows: &[&'a BasePairKappaRow]) -> Vec<&'a BasePairKappaRow> {
        rows.iter().copied().filter(|r| self.matches(r)).collect()
    }
}

/// Whether every row is `not_applicable` (and there is one).
fn not_applicable(rows: &[&BasePairKappaRow]) -> bool {
    !rows.is_empty() && rows.iter().all(|r| r.status == NOT_APPLICABLE)
}

/// Per seed (ascending), the mean of the usable κ over the pairs; seeds without one left out.
fn seed_means(rows: &[&BasePairKappaRow]) -> Vec<f64> {
    let mut by_seed: BTreeMap<u32, (f64, usize)> = BTreeMap::new();
    for r in rows.iter().filter(|r| usable(r)) {
        let entry = by_seed.entry(r.seed).or_default();
        entry.0 += r.kappa;
        entry.1 += 1;
    }
    by_seed.values().map(|(sum, n)| sum / *n as f64).collect()
}

/// The mean κ over the pairs, median over seeds (NaN without a usable row).
fn mean_kappa(rows: &[&BasePairKappaRow]) -> f64 {
    finite_median(&seed_means(rows))
}

/// The κ rows of one configuration.
fn kappas_of<'a>(tables: &'a RunTables, config: &'a Config) -> Vec<&'a BasePairKappaRow> {
    (tables.base_pair_kappa.as_deref())
        .map(|rows| of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect())
        .unwrap_or_default()
}

/// The rules of a configuration's κ rows, in the registry's order.
fn kappa_rules(rows: &[&BasePairKappaRow]) -> Vec<String> {
    rules_of(
        rows.iter()
            .filter(|r| r.analysis != "rules" && r.analysis != "pairs")
            .map(|r| r.rule.as_str()),
    )
}

/// The columns of Table 3: one per rule.
fn capitalised_columns(rules: &[String]) -> Vec<KappaColumn> {
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
fn form_columns(form: &str, form_label: &str, rules: &[String]) -> Vec<KappaColumn> {
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
fn truth_lists(rows: &[&BasePairKappaRow]) -> Vec<String> {
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
fn truth_columns(lists: &[String], rules: &[String]) -> Vec<KappaColumn> {
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
fn rule_pair_columns(rows: &[&BasePairKappaRow]) -> Vec<KappaColumn> {
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

/// The listed pairs of a configuration's κ rows, in the list's order.
fn kappa_pairs(rows: &[&BasePairKappaRow]) -> Vec<String> {
    first_seen(
        rows.iter()
            .filter(|r| r.analysis != "pairs")
            .map(|r| r.pair.as_str()),
    )
}

/// A κ table (one row per pair, then the mean over pairs; each cell median [95 % interval] over
/// seeds) of the columns that apply; `None` when none does.
fn kappa_table(rows: &[&BasePairKappaRow], columns: &[KappaColumn], pairs: &[String]) -> Option<Block> {
    let applicable: Vec<(&KappaColumn, Vec<&BasePairKappaRow>)> = (columns.iter())
        .map(|c| (c, c.rows(rows)))
        .filter(|(_, rows)| !rows.is_empty() && !not_applicable(rows))
        .collect();
    if applicable.is_empty() {
        return None;
    }
    let mut body: Vec<Vec<String>> = pairs
        .iter()
        .map(|pair| {
            let mut cells = vec![pair.clone()];
            cells.extend(applicable.iter().map(|(_, rows)| {
                let values: Vec<f64> = (rows.iter())
                    .filter(|r| &r.pair == pair && usable(r))
                    .map(|r| r.kappa)
                    .collect();
                spread(&values)
            }));
            cells
        })
        .collect();
    let mut mean = vec!["mean over pairs".to_owned()];
    mean.extend(applicable.iter().map(|(_, rows)| spread(&seed_means(rows))));
    body.push(mean);
    let mut header = vec!["base pair".to_owned()];
    header.extend(applicable.iter().map(|(c, _)| c.label.clone()));
    Some(Block::Table { header, rows: body })
}

/// `Left out: …` for the rows of `columns` without a usable κ other than `not_applicable`.
fn kappa_exclusions(rows: &[&BasePairKappaRow], columns: &[KappaColumn]) -> Option<String> {
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    let mut n = 0;
    for r in rows.iter().filter(|r| columns.iter().any(|c| c.matches(r))) {
        if r.status == NOT_APPLICABLE {
            continue;
        }
        n += 1;
        if !usable(r) {
            let reason = if r.status == "ok" {
                "non_finite"
            } else {
                r.status.as_str()
            };
            *reasons.entry(reason).or_default() += 1;
        }
    }
    if reasons.is_empty() {
        return None;
    }
    let left: usize = reasons.values().sum();
    Some(format!(
        "Left out: {left} of {n} κ without a value ({}).",
        reasons
            .iter()
            .map(|(r, k)| format!("{r} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// One κ table per configuration under a heading: the table, or that it does not apply.
fn kappa_section(
    tables: &RunTables,
    configs: &[Config],
    heading: &str,
    explanation: &str,
    columns_of: impl Fn(&[&BasePairKappaRow]) -> Vec<KappaColumn>,
    blocks: &mut Vec<Block>,
) {
    blocks.push(Block::Heading(3, heading.to_owned()));
    blocks.push(Block::Paragraph(explanation.to_owned()));
    for config in configs {
        let rows = kappas_of(tables, config);
        let label = config_label(&config.0, &config.1);
        let columns = columns_of(&rows);
        match kappa_table(&rows, &columns, &kappa_pairs(&rows)) {
            Some(table) => {
                blocks.push(Block::Paragraph(format!("{label}:")));
                blocks.push(table);
                let dropped = first_seen(
                    (columns.iter())
                        .filter(|c| not_applicable(&c.rows(&rows)))
                        .map(|c| c.group.as_str()),
                );
                if !dropped.is_empty() {
                    blocks.push(Block::Paragraph(format!(
                        "{}: not applicable (lowercased corpus).",
                        dropped.join(" and ")
                    )));
                }
                if let Some(note) = kappa_exclusions(&rows, &columns) {
                    blocks.push(Block::Paragraph(note));
                }
            }
            None if columns.iter().any(|c| not_applicable(&c.rows(&rows))) => {
                blocks.push(Block::Paragraph(format!(
                    "{label}: not applicable (lowercased corpus)."
                )));
            }
            None => blocks.push(Block::Paragraph(format!("{label}: no rows."))),
        }
    }
}

/// Table 1: the mean and SD of each rule's scores per configuration.
fn summary_table(rows: &[BasePairSummaryRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&BasePairSummaryRow> =
            of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect();
        for rule in rules_of(own.iter().map(|r| r.rule.as_str())) {
            let of_rule: Vec<&&BasePairSummaryRow> = own.iter().filter(|r| r.rule == rule).collect();
            let values =
                |f: fn(&BasePairSummaryRow) -> f64| -> Vec<f64> { of_rule.iter().map(|r| f(r)).collect() };
            body.push(vec![
                config.0.clone(),
                algorithm_label(&config.1),
                rule_label(&rule),
                counts(&of_rule.iter().map(|r| r.n_words).collect::<Vec<_>>()),
                spread_with(&values(|r| r.mean), f3),
                spread_with(&values(|r| r.sd), f3),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&["corpus", "algorithm", "rule", "words", "mean", "SD"]),
        rows: body,
    }
}

/// The usable Fleiss' κ across pairs of one rule, one per seed.
fn pairs_kappas<'a>(rows: impl Iterator<Item = &'a BasePairAgreementRow>, rule: &str) -> Vec<f64> {
    rows.filter(|r| r.rule == rule && r.status == "ok" && r.kappa.is_finite())
        .map(|r| r.kappa)
        .collect()
}

/// The usable Fleiss' κ across seeds of one rule, one per pair.
fn seeds_kappas<'a>(rows: impl Iterator<Item = &'a BasePairSeedsRow>, rule: &str) -> Vec<f64> {
    rows.filter(|r| r.rule == rule && r.status == "ok" && r.kappa.is_finite())
        .map(|r| r.kappa)
        .collect()
}

/// Table 2 with the seeds' agreement beside it.
fn agreement_table(
    rows: &[BasePairAgreementRow],
    seeds: Option<&[BasePairSeedsRow]>,
    configs: &[Config],
) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&BasePairAgreementRow> =
            of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect();
        for rule in rules_of(own.iter().map(|r| r.rule.as_str())) {
            let of_rule: Vec<&&BasePairAgreementRow> = own.iter().filter(|r| r.rule == rule).collect();
            let values =
                |f: fn(&BasePairAgreementRow) -> f64| -> Vec<f64> { of_rule.iter().map(|r| f(r)).collect() };
            let across_seeds = seeds.map_or_else(
                || "—".to_owned(),
                |seeds| {
                    spread(&seeds_kappas(
                        of_config(seeds, config, |r| (r.corpus.as_str(), r.algorithm.as_str())),
                        &rule,
                    ))
                },
            );
            body.push(vec![
                config.0.clone(),
                algorithm_label(&config.1),
                rule_label(&rule),
                counts(&of_rule.iter().map(|r| r.n_words).collect::<Vec<_>>()),
                spread(&pairs_kappas(own.iter().copied(), &rule)),
                spread(&values(|r| r.magnitude_changed)),
                spread(&values(|r| r.magnitude_within)),
                spread(&values(|r| r.same_label)),
                across_seeds,
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "rule",
            "professions",
            "Fleiss κ across pairs",
            "magnitude changed ≥ 1 SD (paper's text)",
            "magnitude within 1 SD (authors' code)",
            "same label under every pair",
            "Fleiss κ across seeds (median [95 % interval] over pairs)",
        ]),
        rows: body,
    }
}

/// Figure 1 for one configuration and rule: the example word's forms (hues) under each pair
/// (groups), one value per seed, with Table 1's mean and ±1, ±2 SD (medians over seeds).
fn example_figure(
    examples: &[&BasePairExampleRow],
    summary: &[&BasePairSummaryRow],
    config: &Config,
    rule: &str,
) -> Option<BoxFigure> {
    let own: Vec<&BasePairExampleRow> = examples.iter().copied().filter(|r| r.rule == rule).collect();
    if own.is_empty() {
        return None;
    }
    let pairs = first_seen(own.iter().map(|r| r.pair.as_str()));
    let forms: Vec<(&str, String)> = (EXAMPLE_FORMS.iter())
        .filter_map(|form| Some((*form, own.iter().find(|r| r.form == *form)?.word.clone())))
        .collect();
    let of_rule: Vec<&&BasePairSummaryRow> = summary.iter().filter(|r| r.rule == rule).collect();
    let mean = finite_median(&of_rule.iter().map(|r| r.mean).collect::<Vec<_>>());
    let sd = finite_median(&of_rule.iter().map(|r| r.sd).collect::<Vec<_>>());
    let bands = if mean.is_finite() && sd.is_finite() {
        vec![mean - 2.0 * sd, mean - sd, mean + sd, mean + 2.0 * sd]
    } else {
        Vec::new()
    };
    let values = (forms.iter())
        .map(|(form, _)| {
            (pairs.iter())
                .map(|pair| {
                    (own.iter())
                        .filter(|r| r.form == *form && &r.pair == pair && r.score.is_finite())
                        .map(|r| r.score)
                        .collect()
                })
                .collect()
        })
        .collect();
    let base = forms.first().map_or(String::new(), |(_, w)| w.clone());
    Some(BoxFigure {
        title: format!(
            "{} · {}: {base} and its forms under each base pair",
            config_label(&config.0, &config.1),
            rule_label(rule)
        ),
        x_label: "base pair".into(),
        y_label: format!("{} score (positive = masculine)", rule_label(rule)),
        hues: forms
            .iter()
            .map(|(form, word)| {
                if *form == "base" {
                    word.clone()
                } else {
                    format!("{word} ({form})")
                }
            })
            .collect(),
        panels: vec![BoxPanel {
            title: String::new(),
            groups: pairs,
            values,
        }],
        show_points: true,
        rotate_x_labels: true,
        panel_size: (1000, 440),
        columns: 1,
        reference: mean.is_finite().then_some(mean),
        bands,
        fit_y: true,
    })
}

/// Figure 2 as a table: per pair, the mean cosine of its difference vector with the other
/// pairs' and Pearson's r of cosines against DB/WA κ in both readings.
fn direction_table(
    directions: &[&BasePairDirectionRow],
    correlations: &[&BasePairCorrelationRow],
) -> Option<Block> {
    let pairs = first_seen(
        (directions.iter().map(|r| r.pair.as_str())).chain(correlations.iter().map(|r| r.pair.as_str())),
    );
    if pairs.is_empty() {
        return None;
    }
    let body = (pairs.iter())
        .map(|pair| {
            let mut by_seed: BTreeMap<u32, (f64, usize)> = BTreeMap::new();
            for r in directions.iter().filter(|r| &r.pair == pair && r.pair_b != *pair) {
                let entry = by_seed.entry(r.seed).or_default();
                entry.0 += r.cosine;
                entry.1 += 1;
            }
            let cosines: Vec<f64> = by_seed.values().map(|(s, n)| s / *n as f64).collect();
            let of = |reading: &str| -> Vec<&BasePairCorrelationRow> {
                (correlations.iter().copied())
                    .filter(|r| &r.pair == pair && r.reading == reading && r.r.is_finite())
                    .collect()
            };
            let r_of = |rows: &[&BasePairCorrelationRow]| -> Vec<f64> { rows.iter().map(|r| r.r).collect() };
            let (text, code) = (of("text"), of("code"));
            let significant = text.iter().filter(|r| r.p_value < 0.05).count();
            vec![
                pair.clone(),
                spread(&cosines),
                spread(&r_of(&text)),
                format!("{significant} of {}", text.len()),
                spread(&r_of(&code)),
            ]
        })
        .collect();
    Some(Block::Table {
        header: row_cells(&[
            "base pair",
            "mean cos with the other pairs' difference vectors",
            "Pearson r, other pairs (paper's text)",
            "seeds with p < 0.05 (text)",
            "Pearson r, with itself (authors' code)",
        ]),
        rows: body,
    })
}

/// The random baselines and the base pairs' mean cosine per configuration.
fn baseline_table(rows: &[BasePairBaselineRow], configs: &[Config]) -> Block {
    const BASELINES: [(&str, &str, &str); 3] = [
        ("word_pairs", "random words: cos(a, b)", "0.13 (SD 0.11)"),
        (
            "difference_vectors",
            "random difference vectors: cos(a − b, c − d)",
            "0.00 (SD 0.09)",
        ),
        ("base_pairs", "base pairs: cos(m − f, m′ − f′)", "0.5"),
    ];
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&BasePairBaselineRow> =
            of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect();
        for (baseline, label, paper) in BASELINES {
            let of: Vec<&&BasePairBaselineRow> = own.iter().filter(|r| r.baseline == baseline).collect();
            if of.is_empty() {
                continue;
            }
            body.push(vec![
                config.0.clone(),
                algorithm_label(&config.1),
                label.to_owned(),
                counts(&of.iter().map(|r| r.n).collect::<Vec<_>>()),
                spread(&of.iter().map(|r| r.mean).collect::<Vec<_>>()),
                spread(&of.iter().map(|r| r.sd).collect::<Vec<_>>()),
                paper.to_owned(),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "cosines",
            "n",
            "mean",
            "SD",
            "paper (Google News)",
        ]),
        rows: body,
    }
}

/// RIPA's label flips between two pairs per configuration.
fn flip_table(rows: &[BasePairFlipRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&BasePairFlipRow> =
            of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect();
        let keys = distinct(
            own.iter()
                .map(|r| (r.rule.as_str(), r.pair.as_str(), r.pair_b.as_str())),
        );
        for (rule, pair, pair_b) in keys {
            let of: Vec<&&BasePairFlipRow> = (own.iter())
                .filter(|r| r.rule == rule && r.pair == pair && r.pair_b == pair_b)
                .collect();
            let ok: Vec<&&&BasePairFlipRow> = of.iter().filter(|r| r.status == "ok").collect();
            let (words, flipped, share) = if ok.is_empty() {
                let why = of.first().map_or("—", |r| r.status.as_str()).replace('_', " ");
                (why.clone(), why.clone(), why)
            } else {
                (
                    counts(&ok.iter().map(|r| r.n_words).collect::<Vec<_>>()),
                    spread_with(
                        &ok.iter().map(|r| f64::from(r.flipped)).collect::<Vec<_>>(),
                        count,
                    ),
                    spread_with(&ok.iter().map(|r| r.share).collect::<Vec<_>>(), pct1),
                )
            };
            body.push(vec![
                config.0.clone(),
                algorithm_label(&config.1),
                rule_label(rule),
                format!("{pair} → {pair_b}"),
                words,
                flipped,
                share,
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "rule",
            "pairs",
            "professions",
            "labels changed",
            "share",
        ]),
        rows: body,
    }
}

/// How the variation of one rule's scores or labels splits beyond the words' own: shares of the
/// non-word components' variance.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Instability {
    /// `pair` + `word:pair`.
    pair: f64,
    /// `seed` + `word:seed`.
    seed: f64,
    /// `pair:seed` + `residual`.
    joint: f64,
}

/// The variance of a component (0 without its row).
fn variance_of(rows: &[&BasePairVarianceRow], component: &str) -> f64 {
    (rows.iter())
        .find(|r| r.component == component)
        .map_or(0.0, |r| r.variance)
}

/// The direction instability of one rule and scale; `None` when nothing varies beyond the words.
fn instability(rows: &[&BasePairVarianceRow]) -> Option<Instability> {
    let v = |c: &str| variance_of(rows, c);
    let (pair, seed, joint) = (
        v("pair") + v("word:pair"),
        v("seed") + v("word:seed"),
        v("pair:seed") + v("residual"),
    );
    let beyond = pair + seed + joint;
    (beyond > 0.0 && beyond.is_finite()).then(|| Instability {
        pair: pair / beyond,
        seed: seed / beyond,
        joint: joint / beyond,
    })
}

/// The variance rows of one configuration, rule and scale.
fn variance_rows<'a>(
    rows: &'a [BasePairVarianceRow],
    config: &'a Config,
    rule: &'a str,
    scale: &'a str,
) -> Vec<&'a BasePairVarianceRow> {
    of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str()))
        .filter(|r| r.rule == rule && r.scale == scale)
        .collect()
}

/// The seed-versus-pair table: per configuration, rule and scale the components' shares and the
/// direction instability.
fn variance_table(rows: &[BasePairVarianceRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own = of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str()));
        for rule in rules_of(own.map(|r| r.rule.as_str())) {
            for scale in ["score", "label"] {
                let of = variance_rows(rows, config, &rule, scale);
                if of.is_empty() {
                    continue;
                }
                let mut cells = vec![
                    config_label(&config.0, &config.1),
                    rule_label(&rule),
                    scale.to_owned(),
                ];
                cells.extend(COMPONENTS.iter().map(|(c, _)| {
                    of.iter()
                        .find(|r| r.component == *c)
                        .map_or("—".to_owned(), |r| pct1(r.share))
                }));
                match instability(&of) {
                    Some(i) => cells.extend([pct1(i.pair), pct1(i.seed), pct1(i.joint)]),
                    None => cells.extend(["—".to_owned(), "—".to_owned(), "—".to_owned()]),
                }
                body.push(cells);
            }
        }
    }
    let mut header = row_cells(&["configuration", "rule", "scale"]);
    header.extend(COMPONENTS.iter().map(|(_, label)| (*label).to_owned()));
    header.extend(row_cells(&[
        "beyond the word: pair",
        "beyond the word: seed",
        "beyond the word: pair × seed + residual",
    ]));
    Block::Table { header, rows: body }
}

/// The sentence on one configuration's labels: how much of the variation beyond the words' own
/// the pair and the seed explain, rule by rule.
fn instability_sentence(rows: &[BasePairVarianceRow], config: &Config) -> Option<String> {
    let own = of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str()));
    let parts: Vec<String> = rules_of(own.map(|r| r.rule.as_str()))
        .iter()
        .filter_map(|rule| {
            let i = instability(&variance_rows(rows, config, rule, "label"))?;
            Some(format!(
                "of the variation of {} labels beyond the words' own, the pair explains {}, the seed {} (pair × \
                 seed and residual: {})",
                rule_label(rule),
                pct1(i.pair),
                pct1(i.seed),
                pct1(i.joint)
            ))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("{}: {}.", config_label(&config.0, &config.1), parts.join("; ")))
}

/// Zhang et al.'s claims (and whether the seeds agree more than the pairs), checked on one
/// configuration.
fn findings(tables: &RunTables, config: &Config) -> Vec<Finding> {
    let mut out = Vec::new();
    let kappas = kappas_of(tables, config);
    let agreement: Vec<&BasePairAgreementRow> = (tables.base_pair_agreement.as_deref())
        .map(|rows| of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect())
        .unwrap_or_default();
    let agreement_rules = rules_of(agreement.iter().map(|r| r.rule.as_str()));
    let across_pairs: Vec<(String, f64)> = (agreement_rules.iter())
        .map(|rule| {
            (
                rule.clone(),
                finite_median(&pairs_kappas(agreement.iter().copied(), rule)),
            )
        })
        .collect();

    let claim = "(a) The base pairs agree on the professions' labels only moderately or worse: Fleiss κ across \
                 pairs < 0.6 for every rule (Table 2)";
    let paper = "DB/WA 0.45, RIPA 0.42, NBM 0.29";
    let checked: Vec<&(String, f64)> = across_pairs.iter().filter(|(_, v)| v.is_finite()).collect();
    out.push(if checked.is_empty() {
        Finding::missing(claim, paper, "no usable Fleiss κ across pairs (`base_pair_agreement`)")
    } else {
        let holds = checked.iter().all(|(_, v)| *v < MODERATE);
        Finding {
            claim: claim.to_owned(),
            paper: paper.to_owned(),
            this_run: per_rule(&across_pairs),
            verdict: Verdict::of(holds),
            sentence: format!(
                "Replicates when, for every rule, the median over seeds of Fleiss' κ across the pairs is below \
                 {MODERATE}; here {}.",
                per_rule(&across_pairs)
            ),
        }
    });

    let rules = kappa_rules(&kappas);
    let claim = "(b) Capitalising a base pair changes the labels: mean κ between a pair and its capitalised \
                 form < 0.8 for every rule (Table 3)";
    let paper = "mean DB/WA 0.42, RIPA 0.43, NBM 0.39";
    let columns = capitalised_columns(&rules);
    let rows: Vec<Vec<&BasePairKappaRow>> = columns.iter().map(|c| c.rows(&kappas)).collect();
    let means: Vec<(String, f64)> = (rules.iter().cloned())
        .zip(rows.iter().map(|r| mean_kappa(r)))
        .collect();
    out.push(if rows.iter().all(Vec::is_empty) {
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
        let holds = means.iter().filter(|(_, v)| v.is_finite()).all(|(_, v)| *v < ALMOST_PERFECT);
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
    });

    let claim = "(c) Other forms of a word get other labels: mean κ between a profession and its plural, \
                 Capitalised and UPPER forms < 0.8 for each form (Table 4)";
    let paper = "mean plural 0.46–0.56, Capitalised 0.55–0.66, UPPER 0.29–0.40";
    let mut parts = Vec::new();
    let mut values = Vec::new();
    let mut any_rows = false;
    for (form, label) in FORMS {
        let columns = form_columns(form, label, &rules);
        let rows: Vec<Vec<&BasePairKappaRow>> = columns.iter().map(|c| c.rows(&kappas)).collect();
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
    out.push(if !any_rows {
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
    });

    let claim = "(d) The labels match the BSRI traits' stereotyped gender less than the animals' gender: mean κ \
                 with the truth over the rules lower for BSRI than for animals (Table 5)";
    let paper = "BSRI vs animals: DB/WA 0.17 vs 0.42, RIPA 0.19 vs 0.35, NBM 0.18 vs 0.15; over the rules 0.18 vs \
                 0.31";
    let mean_of = |list: &str, rule: &str| -> f64 {
        let column = &truth_columns(&[list.to_owned()], &[rule.to_owned()])[0];
        mean_kappa(&column.rows(&kappas))
    };
    let compared: Vec<(String, f64, f64)> = (rules.iter())
        .map(|rule| (rule.clone(), mean_of("bsri", rule), mean_of("animals", rule)))
        .filter(|(_, b, a)| b.is_finite() && a.is_finite())
        .collect();
    out.push(if compared.is_empty() {
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
    });

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
        mean_kappa(&column.rows(&kappas))
    };
    let (dr, dn, rn) = (
        between("dbwa", "ripa"),
        between("dbwa", "nbm"),
        between("ripa", "nbm"),
    );
    out.push(if [dr, dn, rn].iter().any(|v| !v.is_finite()) {
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
    });

    let claim = "(f) The seeds agree on the labels more than the base pairs do: median κ across seeds > median \
                 κ across pairs for every rule (not in the paper)";
    let paper = "not tested (one embedding)";
    let seeds: Vec<&BasePairSeedsRow> = (tables.base_pair_seeds.as_deref())
        .map(|rows| of_config(rows, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect())
        .unwrap_or_default();
    let compared: Vec<(String, f64, f64)> = (across_pairs.iter())
        .map(|(rule, pairs)| {
            let seeds = finite_median(&seeds_kappas(seeds.iter().copied(), rule));
            (rule.clone(), seeds, *pairs)
        })
        .filter(|(_, s, p)| s.is_finite() && p.is_finite())
        .collect();
    out.push(if compared.is_empty() {
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
    });
    out
}

/// The section, when the run wrote the base-pair tables.
pub(crate) fn blocks(tables: &RunTables, blocks: &mut Vec<Block>, figures: &mut Vec<NamedFigure>) {
    let Some(summary) = &tables.base_pair_summary else {
        return;
    };
    let configs = configs_of(summary.iter().map(|r| (r.corpus.as_str(), r.algorithm.as_str())));
    blocks.push(Block::Heading(
        2,
        "Base pairs across seeds (Zhang, Sneyd & Stevenson 2020)".into(),
    ));
    blocks.push(Block::Paragraph(
        "Zhang et al. score Bolukbasi et al.'s professions with DB/WA, RIPA and NBM under ten gendered base \
         pairs and ask whether a word's label — the sign of its score — survives a change of base pair, of the \
         pair's capitalisation or of the word's form, and whether it matches the gender of BSRI traits and of \
         animal names. They report one embedding. Here every analysis is repeated on each seed: a number \
         computed per seed is shown as its median over seeds with the interval of the middle 95 % of the seeds \
         (2.5 % and 97.5 % quantiles), and the seeds' own agreement on the labels is set beside the pairs'. Pairs are written masculine/feminine; positive scores are masculine, a score \
         of 0 counting as masculine."
            .into(),
    ));
    for config in &configs {
        push_findings(
            &format!(
                "finding (Zhang et al. 2020), {}",
                config_label(&config.0, &config.1)
            ),
            &findings(tables, config),
            blocks,
        );
    }

    blocks.push(Block::Heading(3, "Spread of the scores (Table 1)".into()));
    blocks.push(Block::Paragraph(
        "Each rule's scores of the most frequent words (alphabetic, shorter than 20 characters) under every \
         pair: mean and population SD, median [95 % interval] over seeds. A change of at least one SD counts as a \
         change of magnitude in Table 2."
            .into(),
    ));
    blocks.push(summary_table(summary, &configs));

    if let Some(agreement) = &tables.base_pair_agreement {
        blocks.push(Block::Heading(
            3,
            "Agreement across pairs and across seeds (Table 2)".into(),
        ));
        blocks.push(Block::Paragraph(
            "Per seed: Fleiss' κ of the professions' labels with the pairs as raters; the mean share of two \
             pairs' scores of a profession that differ by at least one SD (as the paper's text defines the \
             magnitude column) and by less (as the authors' code computes it); the share of professions with \
             one label under every pair. Beside it, Fleiss' κ with the seeds as raters, one per pair."
                .into(),
        ));
        blocks.push(agreement_table(
            agreement,
            tables.base_pair_seeds.as_deref(),
            &configs,
        ));
    }

    if tables.base_pair_kappa.is_some() {
        kappa_section(
            tables,
            &configs,
            "Capitalised base pairs (Table 3)",
            "Cohen's κ between the professions' labels under a pair and under its capitalised form (`he/she` \
             and `He/She`), per pair and rule, median [95 % interval] over seeds; the mean over pairs is taken per \
             seed.",
            |rows| capitalised_columns(&kappa_rules(rows)),
            blocks,
        );
        kappa_section(
            tables,
            &configs,
            "Word forms (Table 4)",
            "Cohen's κ between the labels of the professions and of their plural, Capitalised and UPPER forms \
             (professions with every applicable form in vocabulary), per pair, form and rule, median [95 % interval] \
             over seeds.",
            |rows| {
                let rules = kappa_rules(rows);
                (FORMS.iter())
                    .flat_map(|(form, label)| form_columns(form, label, &rules))
                    .collect()
            },
            blocks,
        );
        kappa_section(
            tables,
            &configs,
            "True gender (Table 5)",
            "Cohen's κ between the labels and the gender of the BSRI traits (stereotyped) and of the animal \
             names (linguistic), per pair, list and rule, median [95 % interval] over seeds.",
            |rows| truth_columns(&truth_lists(rows), &kappa_rules(rows)),
            blocks,
        );
        kappa_section(
            tables,
            &configs,
            "Rules against each other (Table 6)",
            "Cohen's κ between two rules' labels of the professions under one pair, median [95 % interval] over \
             seeds.",
            rule_pair_columns,
            blocks,
        );
    }

    if let Some(examples) = &tables.base_pair_examples {
        blocks.push(Block::Heading(
            3,
            "The example word under every pair (Figure 1)".into(),
        ));
        blocks.push(Block::Paragraph(format!(
            "Per configuration and rule, the scores of the example word and of its forms in vocabulary under \
             each base pair, one dot per seed. Grey line: the mean of Table 1; dashed: ±1 and ±2 SD (medians \
             over seeds). Positive scores are masculine (the paper's Figure 1 draws feminine up). {BOX_NOTE}"
        )));
        for config in &configs {
            let own: Vec<&BasePairExampleRow> =
                of_config(examples, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect();
            let own_summary: Vec<&BasePairSummaryRow> =
                of_config(summary, config, |r| (r.corpus.as_str(), r.algorithm.as_str())).collect();
            for rule in rules_of(own.iter().map(|r| r.rule.as_str())) {
                let Some(figure) = example_figure(&own, &own_summary, config, &rule) else {
                    continue;
                };
                push_figure(
                    blocks,
                    figures,
                    &format!("base_pairs_fig1_{}_{}_{rule}", config.0, config.1),
                    figure,
                    format!(
                        "{}, {}: the example word and its forms under each base pair, one dot per seed.",
                        config_label(&config.0, &config.1),
                        rule_label(&rule)
                    ),
                );
            }
        }
    }

    if tables.base_pair_directions.is_some() || tables.base_pair_correlations.is_some() {
        blocks.push(Block::Heading(
            3,
            "Difference vectors and agreement (Figure 2)".into(),
        ));
        blocks.push(Block::Paragraph(
            "Per pair: the mean cosine of its difference vector m − f with the other pairs' (unit vectors), and \
             Pearson's r between those cosines and the κ of the DB/WA labels of the professions under the two \
             pairs, over the other nine pairs (as the paper's text describes it) or over all ten, the pair with \
             itself included (cosine 1, κ 1, as the authors' code computes it); median [95 % interval] over seeds."
                .into(),
        ));
        let no_directions = Vec::new();
        let no_correlations = Vec::new();
        for config in &configs {
            let directions: Vec<&BasePairDirectionRow> = of_config(
                tables.base_pair_directions.as_ref().unwrap_or(&no_directions),
                config,
                |r| (r.corpus.as_str(), r.algorithm.as_str()),
            )
            .collect();
            let correlations: Vec<&BasePairCorrelationRow> = of_config(
                tables.base_pair_correlations.as_ref().unwrap_or(&no_correlations),
                config,
                |r| (r.corpus.as_str(), r.algorithm.as_str()),
            )
            .collect();
            if let Some(table) = direction_table(&directions, &correlations) {
                blocks.push(Block::Paragraph(format!(
                    "{}:",
                    config_label(&config.0, &config.1)
                )));
                blocks.push(table);
            }
        }
    }
    if let Some(baselines) = tables.base_pair_baselines.as_ref().filter(|b| !b.is_empty()) {
        blocks.push(Block::Paragraph(
            "Mean cosines of random words, of random difference vectors and of every two base pairs' difference \
             vectors (each seed's own sample), median [95 % interval] over seeds:"
                .into(),
        ));
        blocks.push(baseline_table(baselines, &configs));
    }

    if let Some(flips) = tables.base_pair_flips.as_ref().filter(|f| !f.is_empty()) {
        blocks.push(Block::Heading(3, "Label flips".into()));
        blocks.push(Block::Paragraph(
            "Professions whose RIPA label changes from one pair to the other (Ethayarajh et al.'s example of \
             two pairs with roughly the same difference vector), median [95 % interval] over seeds; the paper finds \
             28 % (91 of 320)."
                .into(),
        ));
        blocks.push(flip_table(flips, &configs));
    }

    if let Some(variance) = tables.base_pair_variance.as_ref().filter(|v| !v.is_empty()) {
        blocks.push(Block::Heading(3, "Seed against pair".into()));
        blocks.push(Block::Paragraph(
            "Variance components of the professions' scores (`score`) and labels (`label`: 1 masculine, 0 \
             feminine) in the word × pair × seed design, as shares of their sum (negative estimates set to 0). \
             Beyond the words' own variation, the pair part is `pair` + `word × pair`, the seed part `seed` + \
             `word × seed`, the rest `pair × seed` + `residual`, each as a share of the non-word components."
                .into(),
        ));
        blocks.push(variance_table(variance, &configs));
        for config in &configs {
            if let Some(sentence) = instability_sentence(variance, config) {
                blocks.push(Block::Paragraph(sentence));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEEDS: u32 = 3;
    const PAIRS: [&str; 2] = ["he/she", "man/woman"];
    const RULES: [&str; 3] = ["dbwa", "ripa", "nbm"];

    fn config() -> Config {
        ("c".to_owned(), "sgns".to_owned())
    }

    fn agreement(rule: &str, seed: u32, kappa: f64) -> BasePairAgreementRow {
        BasePairAgreementRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            seed,
            rule: rule.into(),
            n_words: 20,
            n_pairs: 2,
            kappa,
            magnitude_changed: 0.3,
            magnitude_within: 0.7,
            same_label: 0.5,
            status: "ok".into(),
        }
    }

    fn seeds_row(rule: &str, pair: &str, kappa: f64) -> BasePairSeedsRow {
        BasePairSeedsRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            rule: rule.into(),
            pair: pair.into(),
            n_words: 20,
            n_seeds: SEEDS,
            kappa,
            status: "ok".into(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn kappa(
        seed: u32,
        analysis: &str,
        list: &str,
        rule: &str,
        rule_b: &str,
        pair: &str,
        value: f64,
        status: &str,
    ) -> BasePairKappaRow {
        BasePairKappaRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            seed,
            analysis: analysis.into(),
            list: list.into(),
            rule: rule.into(),
            rule_b: rule_b.into(),
            pair: pair.into(),
            pair_b: String::new(),
            n_words: 20,
            kappa: value,
            status: status.into(),
        }
    }

    /// Every κ analysis of a lowercased corpus: capitalised forms `not_applicable`.
    fn lowercased_kappas() -> Vec<BasePairKappaRow> {
        let mut rows = Vec::new();
        for seed in 0..SEEDS {
            for rule in RULES {
                for (p, pair) in PAIRS.iter().enumerate() {
                    let offset = 0.01 * f64::from(seed) + 0.02 * p as f64;
                    let na = |analysis: &str| {
                        kappa(
                            seed,
                            analysis,
                            "professions",
                            rule,
                            "",
                            pair,
                            f64::NAN,
                            NOT_APPLICABLE,
                        )
                    };
                    rows.push(na("capitalised"));
                    rows.push(kappa(
                        seed,
                        "plural",
                        "professions",
                        rule,
                        "",
                        pair,
                        0.5 + offset,
                        "ok",
                    ));
                    rows.push(na("capital"));
                    rows.push(na("upper"));
                    rows.push(kappa(seed, "truth", "bsri", rule, "", pair, 0.1 + offset, "ok"));
                    rows.push(kappa(
                        seed,
                        "truth",
                        "animals",
                        rule,
                        "",
                        pair,
                        0.4 + offset,
                        "ok",
                    ));
                }
            }
            for (a, b, v) in [
                ("dbwa", "ripa", 0.85),
                ("dbwa", "nbm", 0.5),
                ("ripa", "nbm", 0.45),
            ] {
                for pair in PAIRS {
                    rows.push(kappa(seed, "rules", "professions", a, b, pair, v, "ok"));
                }
            }
        }
        rows
    }

    fn lowercased_tables() -> RunTables {
        let mut agreement_rows = Vec::new();
        for seed in 0..SEEDS {
            for (rule, k) in [("dbwa", 0.3), ("ripa", 0.35), ("nbm", 0.1)] {
                agreement_rows.push(agreement(rule, seed, k + 0.01 * f64::from(seed)));
            }
        }
        let mut seeds = Vec::new();
        for (rule, k) in [("dbwa", 0.7), ("ripa", 0.75), ("nbm", 0.5)] {
            for pair in PAIRS {
                seeds.push(seeds_row(rule, pair, k));
            }
        }
        RunTables {
            base_pair_agreement: Some(agreement_rows),
            base_pair_kappa: Some(lowercased_kappas()),
            base_pair_seeds: Some(seeds),
            ..RunTables::default()
        }
    }

    fn verdicts(found: &[Finding]) -> Vec<Verdict> {
        found.iter().map(|f| f.verdict).collect()
    }

    #[test]
    fn findings_on_a_lowercased_corpus() {
        let found = findings(&lowercased_tables(), &config());
        assert_eq!(
            verdicts(&found),
            [
                Verdict::Replicates,
                Verdict::NotAvailable,
                Verdict::Replicates,
                Verdict::Replicates,
                Verdict::Replicates,
                Verdict::Replicates,
            ],
            "{found:#?}"
        );
        assert!(found[1].sentence.contains("lowercased"), "{}", found[1].sentence);
        // Plural κ per seed: mean over pairs 0.51 + 0.01·seed, median over seeds 0.52.
        assert_eq!(
            found[2].this_run,
            "plural: DB/WA 0.52, RIPA 0.52, NBM 0.52; Capitalised not applicable; UPPER not applicable"
        );
        assert_eq!(found[0].this_run, "DB/WA 0.31, RIPA 0.36, NBM 0.11");
        assert_eq!(
            found[5].this_run,
            "seeds vs pairs: DB/WA 0.70 vs 0.31, RIPA 0.75 vs 0.36, NBM 0.50 vs 0.11"
        );
    }

    #[test]
    fn findings_that_do_not_replicate() {
        let mut tables = lowercased_tables();
        // One rule with substantial agreement across pairs, beyond the seeds' agreement.
        for row in tables.base_pair_agreement.as_mut().unwrap() {
            if row.rule == "nbm" {
                row.kappa = 0.65;
            }
        }
        for row in tables.base_pair_kappa.as_mut().unwrap() {
            match (row.analysis.as_str(), row.list.as_str(), row.rule.as_str()) {
                // Almost perfect plural agreement for RIPA.
                ("plural", _, "ripa") => row.kappa = 0.9,
                // BSRI above animals over the rules.
                ("truth", "bsri", _) => row.kappa = 0.9,
                // DB/WA–NBM above DB/WA–RIPA.
                ("rules", _, "dbwa") if row.rule_b == "nbm" => row.kappa = 0.9,
                _ => {}
            }
        }
        let found = findings(&tables, &config());
        assert_eq!(
            verdicts(&found),
            [
                Verdict::DoesNotReplicate,
                Verdict::NotAvailable,
                Verdict::DoesNotReplicate,
                Verdict::DoesNotReplicate,
                Verdict::DoesNotReplicate,
                Verdict::DoesNotReplicate,
            ],
            "{found:#?}"
        );
    }

    #[test]
    fn capitalised_pairs_are_checked_on_a_cased_corpus() {
        let mut tables = lowercased_tables();
        for row in tables.base_pair_kappa.as_mut().unwrap() {
            if row.analysis == "capitalised" {
                row.status = "ok".into();
                row.kappa = if row.pair == "he/she" { 0.6 } else { 0.9 };
            }
        }
        let found = findings(&tables, &config());
        assert_eq!(found[1].verdict, Verdict::Replicates, "{:?}", found[1]);
        assert_eq!(found[1].this_run, "mean DB/WA 0.75, RIPA 0.75, NBM 0.75");
        for row in tables.base_pair_kappa.as_mut().unwrap() {
            if row.analysis == "capitalised" {
                row.kappa = 0.85;
            }
        }
        assert_eq!(findings(&tables, &config())[1].verdict, Verdict::DoesNotReplicate);
    }

    #[test]
    fn missing_tables_are_not_available() {
        let found = findings(&RunTables::default(), &config());
        assert_eq!(verdicts(&found), [Verdict::NotAvailable; 6]);
    }

    #[test]
    fn not_applicable_tables_are_one_sentence() {
        let tables = lowercased_tables();
        let mut blocks = Vec::new();
        kappa_section(
            &tables,
            &[config()],
            "Table 3",
            "",
            |rows| capitalised_columns(&kappa_rules(rows)),
            &mut blocks,
        );
        assert_eq!(
            blocks[2],
            Block::Paragraph("c · SGNS: not applicable (lowercased corpus).".into())
        );
        assert_eq!(blocks.len(), 3);
        let mut blocks = Vec::new();
        kappa_section(
            &tables,
            &[config()],
            "Table 4",
            "",
            |rows| {
                let rules = kappa_rules(rows);
                (FORMS.iter())
                    .flat_map(|(form, label)| form_columns(form, label, &rules))
                    .collect()
            },
            &mut blocks,
        );
        let Block::Table { header, rows } = &blocks[3] else {
            panic!("{blocks:?}")
        };
        assert_eq!(
            header,
            &["base pair", "plural · DB/WA", "plural · RIPA", "plural · NBM"]
        );
        assert_eq!(rows[0][1], "0.51 [0.50, 0.52]");
        assert_eq!(
            rows[2],
            [
                "mean over pairs",
                "0.52 [0.51, 0.53]",
                "0.52 [0.51, 0.53]",
                "0.52 [0.51, 0.53]"
            ]
        );
        assert!(
            matches!(&blocks[4], Block::Paragraph(p) if p == "Capitalised forms and UPPER forms: not applicable (lowercased corpus)."),
            "{:?}",
            blocks[4]
        );
    }

    fn variance(rule: &str, scale: &str, component: &str, variance: f64) -> BasePairVarianceRow {
        BasePairVarianceRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            rule: rule.into(),
            scale: scale.into(),
            component: component.into(),
            sum_of_squares: 0.0,
            df: 1,
            mean_square: 0.0,
            estimate: variance,
            variance,
            share: variance / 10.0,
        }
    }

    #[test]
    fn direction_instability_splits_the_non_word_variance() {
        let rows: Vec<BasePairVarianceRow> = [
            ("word", 5.0),
            ("pair", 1.0),
            ("seed", 0.25),
            ("word:pair", 2.0),
            ("word:seed", 0.25),
            ("pair:seed", 0.5),
            ("residual", 1.0),
        ]
        .iter()
        .map(|(c, v)| variance("dbwa", "label", c, *v))
        .collect();
        let refs: Vec<&BasePairVarianceRow> = rows.iter().collect();
        assert_eq!(
            instability(&refs),
            Some(Instability {
                pair: 0.6,
                seed: 0.1,
                joint: 0.3
            })
        );
        assert_eq!(
            instability_sentence(&rows, &config()).unwrap(),
            "c · SGNS: of the variation of DB/WA labels beyond the words' own, the pair explains 60.0 %, the seed \
             10.0 % (pair × seed and residual: 30.0 %)."
        );
        let only_words = [variance("dbwa", "label", "word", 1.0)];
        assert_eq!(instability(&only_words.iter().collect::<Vec<_>>()), None);
    }

    fn example_rows() -> Vec<BasePairExampleRow> {
        let mut examples = Vec::new();
        for seed in 0..SEEDS {
            for pair in PAIRS {
                for (form, word) in [("base", "professor"), ("plural", "professors")] {
                    examples.push(BasePairExampleRow {
                        corpus: "c".into(),
                        algorithm: "sgns".into(),
                        seed,
                        rule: "dbwa".into(),
                        pair: pair.into(),
                        form: form.into(),
                        word: word.into(),
                        score: 0.01 * f64::from(seed),
                    });
                }
            }
        }
        examples
    }

    fn summary_rows() -> Vec<BasePairSummaryRow> {
        (0..SEEDS)
            .map(|seed| BasePairSummaryRow {
                corpus: "c".into(),
                algorithm: "sgns".into(),
                seed,
                rule: "dbwa".into(),
                n_words: 100,
                n_scores: 200,
                mean: 0.0,
                sd: 0.05 + 0.01 * f64::from(seed),
            })
            .collect()
    }

    #[test]
    fn the_example_figure_has_bands_around_the_mean() {
        let (examples, summary) = (example_rows(), summary_rows());
        let figure = example_figure(
            &examples.iter().collect::<Vec<_>>(),
            &summary.iter().collect::<Vec<_>>(),
            &config(),
            "dbwa",
        )
        .unwrap();
        assert_eq!(figure.hues, ["professor", "professors (plural)"]);
        assert_eq!(figure.panels[0].groups, PAIRS);
        assert_eq!(figure.panels[0].values[1][0], [0.0, 0.01, 0.02]);
        assert_eq!(figure.reference, Some(0.0));
        let expected = [-0.12, -0.06, 0.06, 0.12];
        assert!(
            (figure.bands.iter().zip(expected)).all(|(b, e)| (b - e).abs() < 1e-12),
            "{:?}",
            figure.bands
        );
        let svg = crate::figures::svg(&figure).unwrap();
        assert_eq!(svg, crate::figures::svg(&figure).unwrap());
    }

    #[test]
    fn the_section_is_drawn_from_the_tables() {
        let mut tables = lowercased_tables();
        let mut blocks = Vec::new();
        let mut figures = Vec::new();
        super::blocks(&tables, &mut blocks, &mut figures);
        assert!(blocks.is_empty(), "no section without base_pair_summary");
        tables.base_pair_summary = Some(summary_rows());
        tables.base_pair_examples = Some(example_rows());
        super::blocks(&tables, &mut blocks, &mut figures);
        assert_eq!(
            blocks[0],
            Block::Heading(
                2,
                "Base pairs across seeds (Zhang, Sneyd & Stevenson 2020)".into()
            )
        );
        let paragraphs: Vec<&str> = (blocks.iter())
            .filter_map(|b| match b {
                Block::Paragraph(p) => Some(p.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            (paragraphs.iter())
                .filter(|p| **p == "c · SGNS: not applicable (lowercased corpus).")
                .count(),
            1,
            "Table 3 once: {paragraphs:#?}"
        );
        let stems: Vec<&str> = figures.iter().map(|f| f.stem.as_str()).collect();
        assert_eq!(stems, ["base_pairs_fig1_c_sgns_dbwa"]);
        let again = {
            let (mut b, mut f) = (Vec::new(), Vec::new());
            super::blocks(&tables, &mut b, &mut f);
            b
        };
        assert_eq!(again, blocks);
    }

    #[test]
    fn spreads_are_median_and_95_percent_interval() {
        // Type-7 quantiles of 0.1, 0.2, 0.3: 0.1 + 0.05·0.1 and 0.3 − 0.05·0.1.
        assert_eq!(spread(&[0.3, f64::NAN, 0.1, 0.2]), "0.20 [0.11, 0.29]");
        let values: Vec<f64> = (0..=40).map(f64::from).collect();
        assert_eq!(spread_with(&values, count), "20 [1, 39]");
        assert_eq!(spread(&[]), "—");
        assert_eq!(spread_with(&[60.0, 50.0], count), "55 [50.2, 59.8]");
        assert_eq!(counts(&[155, 155]), "155");
        assert_eq!(counts(&[150, 155, 160]), "155 [150.2, 159.8]");
    }
}
