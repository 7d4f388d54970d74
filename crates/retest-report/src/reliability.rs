//! The sections of Du, Fang & Nguyen's figures 2–5: test-retest reliability, inter-rater
//! consistency, internal consistency and the per-pair reliability, each a box-plot figure and a
//! table of medians.

use retest_tables::{AlphaRow, IccRow, Subject};

use crate::compare;
use crate::data::{
    ConfigRow, ITEMS_BASE_PAIRS, ITEMS_QUERY_WORDS, algorithm_label, alpha_value, configs_of, icc_value,
    icc_values, list_label, lists_of, pair_label, pairs_of, queries_of, rule_label, rules_of, sorted_names,
};
use crate::document::Block;
use crate::figures::{BoxFigure, BoxPanel};
use crate::numbers::f2;
use crate::page::{BOX_NOTE, NamedFigure, config_label, push_figure, row_cells};
use crate::stats::median;

fn scale_label(scale: &str) -> String {
    match scale {
        "raw" => "raw scores".to_owned(),
        "zscore" => "z-scored per rule".to_owned(),
        other => other.to_owned(),
    }
}

/// Fig. 2: per configuration, test-retest ICC per list (x) and rule (hue).
fn test_retest_figure(rows: &[IccRow], subject: &str) -> BoxFigure {
    let lists = lists_of(rows);
    let rules = rules_of(rows.iter().map(|r| r.rule.as_str()));
    let panels = configs_of(rows.iter().map(ConfigRow::config))
        .into_iter()
        .map(|(corpus, algorithm)| BoxPanel {
            title: config_label(&corpus, &algorithm),
            groups: lists.iter().map(|l| list_label(l)).collect(),
            values: rules
                .iter()
                .map(|rule| {
                    lists
                        .iter()
                        .map(|list| {
                            icc_values(rows.iter().filter(|r| {
                                r.corpus == corpus
                                    && r.algorithm == algorithm
                                    && &r.rule == rule
                                    && &r.list == list
                            }))
                        })
                        .collect()
                })
                .collect(),
        })
        .collect();
    BoxFigure {
        title: format!("Test-retest reliability of {subject}: ICC(2,1) across seeds"),
        x_label: "target list".into(),
        y_label: "ICC(2,1)".into(),
        hues: rules.iter().map(|r| rule_label(r)).collect(),
        panels,
        show_points: false,
        rotate_x_labels: false,
        panel_size: (560, 400),
        columns: 2,
        reference: Some(0.6),
        bands: Vec::new(),
        fit_y: false,
        own_y_axes: false,
    }
}

/// Fig. 3: per algorithm and scale, inter-rater ICC per list (x) and corpus (hue).
fn inter_rater_figure(rows: &[IccRow], subject: &str) -> BoxFigure {
    let lists = lists_of(rows);
    let corpora = sorted_names(rows.iter().map(|r| r.corpus.as_str()));
    let algorithms = sorted_names(rows.iter().map(|r| r.algorithm.as_str()));
    let scales = sorted_names(rows.iter().map(|r| r.scale.as_str()));
    let raters = sorted_names(rows.iter().map(|r| r.rule.as_str()));
    let mut panels = Vec::new();
    for algorithm in &algorithms {
        for scale in &scales {
            panels.push(BoxPanel {
                title: format!("{} · {}", algorithm_label(algorithm), scale_label(scale)),
                groups: lists.iter().map(|l| list_label(l)).collect(),
                values: corpora
                    .iter()
                    .map(|corpus| {
                        lists
                            .iter()
                            .map(|list| {
                                icc_values(rows.iter().filter(|r| {
                                    &r.corpus == corpus
                                        && &r.algorithm == algorithm
                                        && &r.scale == scale
                                        && &r.list == list
                                }))
                            })
                            .collect()
                    })
                    .collect(),
            });
        }
    }
    let raters = raters
        .iter()
        .map(|r| rule_label(r))
        .collect::<Vec<_>>()
        .join("; ");
    BoxFigure {
        title: format!("Inter-rater consistency of {subject}: ICC(3,1) across rules ({raters})"),
        x_label: "target list".into(),
        y_label: "ICC(3,1)".into(),
        hues: corpora,
        panels,
        show_points: false,
        rotate_x_labels: false,
        panel_size: (560, 400),
        columns: 2,
        reference: Some(0.5),
        bands: Vec::new(),
        fit_y: false,
        own_y_axes: false,
    }
}

/// The x categories of Fig. 4: the queries, then `base pairs` for the base-pair ensemble.
fn alpha_groups(rows: &[AlphaRow]) -> Vec<(String, String, String)> {
    let mut groups: Vec<(String, String, String)> = queries_of(
        rows.iter()
            .filter(|r| r.items == ITEMS_QUERY_WORDS)
            .map(|r| r.query.as_str()),
    )
    .into_iter()
    .map(|q| (ITEMS_QUERY_WORDS.to_owned(), q.clone(), q))
    .collect();
    for q in sorted_names(
        rows.iter()
            .filter(|r| r.items == ITEMS_BASE_PAIRS)
            .map(|r| r.query.as_str()),
    ) {
        groups.push((ITEMS_BASE_PAIRS.to_owned(), q.clone(), "base pairs".to_owned()));
    }
    groups
}

/// Fig. 4: α per query and for the base-pair ensemble (x), per corpus (hue); each box holds the
/// algorithms × rules.
fn alpha_figure(rows: &[AlphaRow]) -> BoxFigure {
    let groups = alpha_groups(rows);
    let corpora = sorted_names(rows.iter().map(|r| r.corpus.as_str()));
    BoxFigure {
        title: "Internal consistency: Cronbach's α per query and for the base-pair ensemble".into(),
        x_label: "query".into(),
        y_label: "Cronbach's α".into(),
        hues: corpora.clone(),
        panels: vec![BoxPanel {
            title: "each box: algorithms × rules".into(),
            groups: groups.iter().map(|(_, _, label)| label.clone()).collect(),
            values: corpora
                .iter()
                .map(|corpus| {
                    groups
                        .iter()
                        .map(|(items, query, _)| {
                            rows.iter()
                                .filter(|r| &r.corpus == corpus && &r.items == items && &r.query == query)
                                .filter_map(alpha_value)
                                .collect()
                        })
                        .collect()
                })
                .collect(),
        }],
        show_points: true,
        rotate_x_labels: false,
        panel_size: (1000, 460),
        columns: 1,
        reference: Some(0.7),
        bands: Vec::new(),
        fit_y: false,
        own_y_axes: false,
    }
}

fn values_of_pair<'a>(rows: impl IntoIterator<Item = &'a IccRow>, male: &str, female: &str) -> Vec<f64> {
    rows.into_iter()
        .filter(|r| matches!(&r.subject, Subject::Pair { male: m, female: f } if m == male && f == female))
        .filter_map(icc_value)
        .collect()
}

/// Fig. 5: per base pair (x), the reliability pooled over configurations (and rules), one hue
/// per `hue_of` value.
fn pair_figure(
    rows: &[&IccRow],
    title: &str,
    y_label: &str,
    hues: &[(String, String)],
    reference: f64,
) -> BoxFigure {
    let pairs = pairs_of(rows.iter().copied());
    BoxFigure {
        title: title.to_owned(),
        x_label: "base pair".into(),
        y_label: y_label.to_owned(),
        hues: hues.iter().map(|(_, label)| label.clone()).collect(),
        panels: vec![BoxPanel {
            title: String::new(),
            groups: pairs.iter().map(|(m, f)| pair_label(m, f)).collect(),
            values: hues
                .iter()
                .map(|(scale, _)| {
                    pairs
                        .iter()
                        .map(|(m, f)| {
                            values_of_pair(rows.iter().copied().filter(|r| &r.scale == scale), m, f)
                        })
                        .collect()
                })
                .collect(),
        }],
        show_points: false,
        rotate_x_labels: true,
        panel_size: (1200, 520),
        columns: 1,
        reference: Some(reference),
        bands: Vec::new(),
        fit_y: false,
        own_y_axes: false,
    }
}

/// Medians per (configuration, rule) (rows) and list (columns).
fn median_table(rows: &[IccRow]) -> Block {
    let lists = lists_of(rows);
    let mut header = row_cells(&["corpus", "algorithm", "rule", "scale"]);
    header.extend(lists.iter().map(|l| list_label(l)));
    let mut keys: Vec<(String, String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r.corpus.clone(),
                r.algorithm.clone(),
                r.rule.clone(),
                r.scale.clone(),
            )
        })
        .collect();
    keys.sort();
    keys.dedup();
    let rule_order = rules_of(keys.iter().map(|k| k.2.as_str()));
    keys.sort_by_key(|k| {
        (
            k.0.clone(),
            k.1.clone(),
            rule_order.iter().position(|r| *r == k.2),
            k.3.clone(),
        )
    });
    let body = keys
        .iter()
        .map(|(corpus, algorithm, rule, scale)| {
            let mut cells = vec![
                corpus.clone(),
                algorithm_label(algorithm),
                rule_label(rule),
                scale.clone(),
            ];
            cells.extend(lists.iter().map(|list| {
                let v = icc_values(rows.iter().filter(|r| {
                    &r.corpus == corpus
                        && &r.algorithm == algorithm
                        && &r.rule == rule
                        && &r.scale == scale
                        && &r.list == list
                }));
                if v.is_empty() {
                    "—".to_owned()
                } else {
                    format!("{} (n = {})", f2(median(&v)), v.len())
                }
            }));
            cells
        })
        .collect();
    Block::Table { header, rows: body }
}

fn alpha_table(rows: &[AlphaRow]) -> Block {
    let body = alpha_groups(rows)
        .into_iter()
        .map(|(items, query, label)| {
            let values: Vec<f64> = rows
                .iter()
                .filter(|r| r.items == items && r.query == query)
                .filter_map(alpha_value)
                .collect();
            let sorted = crate::stats::sorted(&values);
            vec![
                label,
                f2(median(&values)),
                f2(sorted.first().copied().unwrap_or(f64::NAN)),
                f2(sorted.last().copied().unwrap_or(f64::NAN)),
                format!(
                    "{} of {}",
                    values.iter().filter(|v| **v >= 0.7).count(),
                    values.len()
                ),
            ]
        })
        .collect();
    Block::Table {
        header: row_cells(&["query", "median α", "min", "max", "α ≥ 0.7"]),
        rows: body,
    }
}

fn pair_table(test_retest: &[&IccRow], inter_rater: &[&IccRow]) -> Block {
    let mut pairs = pairs_of(test_retest.iter().copied());
    for p in pairs_of(inter_rater.iter().copied()) {
        if !pairs.contains(&p) {
            pairs.push(p);
        }
    }
    let cell = |v: Vec<f64>| {
        if v.is_empty() {
            "—".to_owned()
        } else {
            f2(median(&v))
        }
    };
    let body = pairs
        .iter()
        .map(|(m, f)| {
            vec![
                pair_label(m, f),
                cell(values_of_pair(test_retest.iter().copied(), m, f)),
                cell(values_of_pair(
                    inter_rater.iter().copied().filter(|r| r.scale == "raw"),
                    m,
                    f,
                )),
                cell(values_of_pair(
                    inter_rater.iter().copied().filter(|r| r.scale == "zscore"),
                    m,
                    f,
                )),
            ]
        })
        .collect();
    Block::Table {
        header: row_cells(&[
            "base pair",
            "test-retest median",
            "inter-rater median (raw)",
            "inter-rater median (z-scored)",
        ]),
        rows: body,
    }
}

/// Fig. 2 and its medians, for words and for base pairs.
pub(crate) fn test_retest_blocks(
    trw: &[IccRow],
    trp: &[IccRow],
    blocks: &mut Vec<Block>,
    figures: &mut Vec<NamedFigure>,
) {
    blocks.push(Block::Heading(2, "Test-retest reliability (Fig. 2)".into()));
    for (stem, rows, subject, what) in [
        (
            "fig2_test_retest_words",
            trw,
            "target words",
            "one value per word of the list",
        ),
        (
            "fig2_test_retest_pairs",
            trp,
            "base pairs",
            "one value per base pair (subjects: the list's words)",
        ),
    ] {
        if rows.is_empty() {
            blocks.push(Block::Paragraph(format!("No test-retest rows for {subject}.")));
            continue;
        }
        push_figure(
            blocks,
            figures,
            stem,
            test_retest_figure(rows, subject),
            format!(
                "Test-retest reliability (ICC(2,1), raters = seeds) of {subject} per list and rule, {what}; one panel per corpus and algorithm. Grey line: 0.6. {BOX_NOTE}"
            ),
        );
        blocks.push(Block::Paragraph(format!(
            "Median ICC(2,1) of {subject} (n = rows used):"
        )));
        blocks.push(median_table(rows));
    }
}

/// Fig. 3 and its medians, for words and for base pairs.
pub(crate) fn inter_rater_blocks(
    irw: &[IccRow],
    irp: &[IccRow],
    blocks: &mut Vec<Block>,
    figures: &mut Vec<NamedFigure>,
) {
    blocks.push(Block::Heading(2, "Inter-rater consistency (Fig. 3)".into()));
    for (stem, rows, subject) in [
        ("fig3_inter_rater_words", irw, "target words"),
        ("fig3_inter_rater_pairs", irp, "base pairs"),
    ] {
        if rows.is_empty() {
            blocks.push(Block::Paragraph(format!("No inter-rater rows for {subject}.")));
            continue;
        }
        push_figure(
            blocks,
            figures,
            stem,
            inter_rater_figure(rows, subject),
            format!(
                "Inter-rater consistency (ICC(3,1), raters = scoring rules, seed-averaged scores) of {subject} per list and corpus; panels per algorithm and scale (raw scores as in the paper, or each rule z-scored first). Grey line: 0.5. {BOX_NOTE}"
            ),
        );
        blocks.push(Block::Paragraph(format!("Median ICC(3,1) of {subject}:")));
        blocks.push(median_table(rows));
    }
}

/// Fig. 4 and its table.
pub(crate) fn alpha_blocks(alpha: &[AlphaRow], blocks: &mut Vec<Block>, figures: &mut Vec<NamedFigure>) {
    blocks.push(Block::Heading(2, "Internal consistency (Fig. 4)".into()));
    if alpha.is_empty() {
        blocks.push(Block::Paragraph("No internal-consistency rows.".into()));
    } else {
        let figure = alpha_figure(alpha);
        blocks.push(Block::Figure {
            stem: "fig4_internal_consistency".into(),
            caption: format!(
                "Cronbach's α of each query (items: its words, cases: base pairs) and of the base-pair ensemble (items: base pairs, cases: Google10K words), per corpus; black dots are the algorithm × rule values. Grey line: 0.7. {BOX_NOTE}"
            ),
        });
        figures.push(NamedFigure {
            stem: "fig4_internal_consistency".into(),
            figure,
        });
        blocks.push(alpha_table(alpha));
    }
}

/// Fig. 5 (test-retest and inter-rater per base pair) and its table.
pub(crate) fn pair_blocks(
    trp: &[IccRow],
    irp: &[IccRow],
    blocks: &mut Vec<Block>,
    figures: &mut Vec<NamedFigure>,
) {
    blocks.push(Block::Heading(2, "Per-pair reliability (Fig. 5)".into()));
    let trp_rows = compare::pair_rows(trp);
    let irp_rows = compare::pair_rows(irp);
    let list_of = |rows: &[&IccRow]| {
        if rows.iter().any(|r| r.list == "full") {
            "the Full list".to_owned()
        } else {
            "all lists".to_owned()
        }
    };
    if !trp_rows.is_empty() {
        let figure = pair_figure(
            &trp_rows,
            "Test-retest reliability per base pair",
            "ICC(2,1)",
            &[("raw".into(), "corpora × algorithms × rules".into())],
            0.6,
        );
        blocks.push(Block::Figure {
            stem: "fig5a_pairs_test_retest".into(),
            caption: format!(
                "Test-retest reliability of each base pair on {}, pooled over corpora, algorithms and rules. {BOX_NOTE}",
                list_of(&trp_rows)
            ),
        });
        figures.push(NamedFigure {
            stem: "fig5a_pairs_test_retest".into(),
            figure,
        });
    }
    if !irp_rows.is_empty() {
        let scales: Vec<(String, String)> = sorted_names(irp_rows.iter().map(|r| r.scale.as_str()))
            .into_iter()
            .map(|s| {
                let label = scale_label(&s);
                (s, label)
            })
            .collect();
        let figure = pair_figure(
            &irp_rows,
            "Inter-rater consistency per base pair",
            "ICC(3,1)",
            &scales,
            0.5,
        );
        blocks.push(Block::Figure {
            stem: "fig5b_pairs_inter_rater".into(),
            caption: format!(
                "Inter-rater consistency of each base pair on {}, pooled over corpora and algorithms, per scale. {BOX_NOTE}",
                list_of(&irp_rows)
            ),
        });
        figures.push(NamedFigure {
            stem: "fig5b_pairs_inter_rater".into(),
            figure,
        });
    }
    if !trp_rows.is_empty() || !irp_rows.is_empty() {
        blocks.push(pair_table(&trp_rows, &irp_rows));
    }
}
