//! Putting the report together: which figures, which tables and which sentences, all from the
//! run's rows, in a fixed order.

use retest_tables::{AlphaRow, IccRow, Subject};

use crate::compare;
use crate::data::{
    Exclusions, ITEMS_BASE_PAIRS, ITEMS_QUERY_WORDS, algorithm_label, alpha_value, configs_of, icc_value,
    icc_values, list_label, lists_of, pair_label, pairs_of, queries_of, rule_label, rules_of, sorted_names,
    unique_word_values,
};
use crate::document::Block;
use crate::figures::{BoxFigure, BoxPanel};
use crate::finding::{Finding, Verdict};
use crate::input::{ReportMeta, RunTables};
use crate::numbers::{f2, p_text};
use crate::page::{BOX_NOTE, NamedFigure, TITLE, config_label, push_figure, row_cells};
use crate::regression::{self, PAPER_ESTIMATES, term_label};
use crate::stats::median;

/// Everything the report writes.
pub struct Assembled {
    pub figures: Vec<NamedFigure>,
    pub blocks: Vec<Block>,
    pub findings: Vec<Finding>,
}

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
    let panels = configs_of(rows.iter().map(|r| (r.corpus.as_str(), r.algorithm.as_str())))
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

/// Appendix E: each variant beside its algorithm's configuration, corpus by corpus — median
/// test-retest ICC of words per rule, median inter-rater ICC of words (raw scores), median α of
/// the queries.
fn variant_blocks(
    test_retest: &[IccRow],
    inter_rater: &[IccRow],
    alpha: &[AlphaRow],
    variants: &[(String, String)],
    blocks: &mut Vec<Block>,
) {
    blocks.push(Block::Heading(2, "Hyper-parameters (App. E)".into()));
    blocks.push(Block::Paragraph(
        "Each variant beside the configuration of its algorithm: the same corpus and seeds, some \
         parameters changed. Medians over every list (a word listed twice counted once); α over the \
         query items."
            .into(),
    ));
    let rules = rules_of(test_retest.iter().map(|r| r.rule.as_str()));
    let mut header = row_cells(&["corpus", "configuration"]);
    header.extend(rules.iter().map(|r| format!("test-retest {}", rule_label(r))));
    header.extend(row_cells(&["inter-rater (raw)", "α (queries)"]));
    let mut models: Vec<&str> = Vec::new();
    for (model, algorithm) in variants {
        for name in [algorithm.as_str(), model.as_str()] {
            if !models.contains(&name) {
                models.push(name);
            }
        }
    }
    let mut rows = Vec::new();
    for corpus in sorted_names(test_retest.iter().map(|r| r.corpus.as_str())) {
        for &model in &models {
            let medians = compare::rule_medians(test_retest, &corpus, model, &rules);
            if medians.iter().all(|v| !v.is_finite()) {
                continue;
            }
            let mut cells = vec![corpus.clone(), algorithm_label(model)];
            cells.extend(medians.iter().map(|&v| f2(v)));
            let inter = unique_word_values(
                inter_rater
                    .iter()
                    .filter(|r| r.corpus == corpus && r.algorithm == model && r.scale == "raw"),
            );
            cells.push(f2(median(&inter)));
            let queries: Vec<f64> = alpha
                .iter()
                .filter(|r| r.corpus == corpus && r.algorithm == model && r.items == ITEMS_QUERY_WORDS)
                .filter_map(alpha_value)
                .collect();
            cells.push(f2(median(&queries)));
            rows.push(cells);
        }
    }
    blocks.push(Block::Table { header, rows });
}

fn regression_blocks(tables: &RunTables, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading(2, "Word-level effects (Table 2)".into()));
    let Some(rows) = &tables.regression else {
        blocks.push(Block::Paragraph(
            "Regression input not available: the run has no `regression` table, so the direction of the \
             word-level effects is not compared."
                .into(),
        ));
        return;
    };
    blocks.push(Block::Paragraph(format!(
        "Least squares on the `regression` table ({} rows): score ~ configuration + rule (test-retest) + \
         z(log freq) + z(log freq)² + z(log #senses) + PoS + z(NN sim) + z(L2 norm) + z(ES), one intercept per \
         (corpus, algorithm) in place of the paper's random effects, inter-rater on the raw scale. Only the \
         direction is compared; `just regress` fits the paper's multilevel model with lme4.",
        rows.len()
    )));
    let fits = [
        regression::fit(rows, "test_retest"),
        regression::fit(rows, "inter_rater"),
    ];
    let estimate = |fit: &Option<regression::Fit>, term: &str| match fit {
        Some(fit) => fit
            .estimates
            .iter()
            .find(|e| e.term == term)
            .map_or("left out".to_owned(), |e| {
                format!("{:+.4} ({})", e.estimate, p_text(e.p_value))
            }),
        None => "not fitted".to_owned(),
    };
    let mut body: Vec<Vec<String>> = PAPER_ESTIMATES
        .iter()
        .map(|(term, tr, ir)| {
            vec![
                term_label(term).to_owned(),
                format!("{tr:+.4}"),
                estimate(&fits[0], term),
                format!("{ir:+.4}"),
                estimate(&fits[1], term),
            ]
        })
        .collect();
    let r2 = |fit: &Option<regression::Fit>| {
        fit.as_ref()
            .map_or("—".to_owned(), |f| format!("{} (n = {})", f2(f.r2), f.n_obs))
    };
    body.push(vec![
        "R² (whole model)".into(),
        "0.5177 (R²total)".into(),
        r2(&fits[0]),
        "0.5160 (R²total)".into(),
        r2(&fits[1]),
    ]);
    blocks.push(Block::Table {
        header: row_cells(&[
            "term",
            "paper test-retest",
            "this run test-retest",
            "paper inter-rater",
            "this run inter-rater",
        ]),
        rows: body,
    });
    let notes: Vec<String> = fits
        .iter()
        .flatten()
        .flat_map(|f| f.notes.iter().map(|n| format!("{}: {n}", f.analysis)))
        .collect();
    if !notes.is_empty() {
        blocks.push(Block::Paragraph(format!(
            "Left out of the fit: {}.",
            notes.join("; ")
        )));
    }
}

fn exclusion_blocks(tables: &RunTables, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading(2, "Exclusions".into()));
    blocks.push(Block::Paragraph(
        "Rows whose status is not `ok` (or whose value is not finite) are left out of every figure and number; \
         per table:"
            .into(),
    ));
    let mut body = Vec::new();
    let icc_tables = [
        ("test_retest_words", &tables.test_retest_words),
        ("test_retest_pairs", &tables.test_retest_pairs),
        ("inter_rater_words", &tables.inter_rater_words),
        ("inter_rater_pairs", &tables.inter_rater_pairs),
    ];
    for (name, rows) in icc_tables {
        let cells = match rows {
            Some(rows) => {
                let e = Exclusions::of_icc(rows);
                vec![
                    name.to_owned(),
                    e.n_rows.to_string(),
                    e.n_used.to_string(),
                    e.describe(),
                ]
            }
            None => vec![
                name.to_owned(),
                "table not written".into(),
                "—".into(),
                "—".into(),
            ],
        };
        body.push(cells);
    }
    body.push(match &tables.internal_consistency {
        Some(rows) => {
            let e = Exclusions::of_alpha(rows);
            vec![
                "internal_consistency".into(),
                e.n_rows.to_string(),
                e.n_used.to_string(),
                e.describe(),
            ]
        }
        None => vec![
            "internal_consistency".into(),
            "table not written".into(),
            "—".into(),
            "—".into(),
        ],
    });
    blocks.push(Block::Table {
        header: row_cells(&["table", "rows", "used", "excluded (by status)"]),
        rows: body,
    });
    if let Some(coverage) = &tables.coverage {
        blocks.push(Block::Paragraph(
            "List entries outside a corpus's vocabulary are dropped before any score (the `coverage` table lists them):".into(),
        ));
        let body = coverage
            .iter()
            .map(|c| {
                vec![
                    c.corpus.clone(),
                    list_label(&c.list),
                    c.kind.clone(),
                    c.n_listed.to_string(),
                    c.n_in_vocabulary.to_string(),
                    c.n_dropped.to_string(),
                ]
            })
            .collect();
        blocks.push(Block::Table {
            header: row_cells(&["corpus", "list", "kind", "listed", "in vocabulary", "dropped"]),
            rows: body,
        });
    }
}

fn empty() -> Vec<IccRow> {
    Vec::new()
}

/// The figures, blocks and findings of a report.
pub fn assemble(tables: &RunTables, meta: &ReportMeta) -> Assembled {
    let none = empty();
    let trw = tables.test_retest_words.as_ref().unwrap_or(&none);
    let trp = tables.test_retest_pairs.as_ref().unwrap_or(&none);
    let irw = tables.inter_rater_words.as_ref().unwrap_or(&none);
    let irp = tables.inter_rater_pairs.as_ref().unwrap_or(&none);
    let no_alpha = Vec::new();
    let alpha = tables.internal_consistency.as_ref().unwrap_or(&no_alpha);

    let mut findings = vec![
        compare::test_retest_high(trw, "words"),
        compare::test_retest_high(trp, "base pairs"),
        compare::full_list_lowest(trw),
        compare::inter_rater_low(irw, "words"),
        compare::inter_rater_low(irp, "base pairs"),
        compare::alpha_queries(alpha),
        compare::alpha_base_pairs(alpha),
        compare::pair_variation(trp),
        compare::singular_vs_plural(trp, true),
        compare::singular_vs_plural(irp, false),
        compare::pair_reliability_correlation(trp, irp),
        compare::rule_correlations(tables.rule_correlations.as_deref()),
        compare::poor_share_full_vs_google10k(tables.low_reliability.as_deref()),
    ];
    findings.extend(compare::regression_directions(tables.regression.as_deref()));
    if !meta.variants.is_empty() {
        findings.push(compare::variant_trends(trw, &meta.variants));
    }

    let mut figures = Vec::new();
    let mut blocks = Vec::new();
    let configs = configs_of(
        trw.iter()
            .chain(trp)
            .map(|r| (r.corpus.as_str(), r.algorithm.as_str())),
    );
    blocks.push(Block::Heading(1, format!("{}{}", TITLE, meta.pipeline)));
    blocks.push(Block::Paragraph(format!(
        "Reliability of word-embedding gender-bias measures for pipeline `{}`, compared with Du, Fang & Nguyen \
         (2021), *Assessing the reliability of word embedding gender bias measures*. Configurations (corpus · \
         algorithm): {}. Figures follow the paper's figures 2–5; each is also available as PNG beside the SVG.",
        meta.pipeline,
        if configs.is_empty() {
            "none".to_owned()
        } else {
            configs.iter().map(|(c, a)| config_label(c, a)).collect::<Vec<_>>().join(", ")
        }
    )));

    blocks.push(Block::Heading(2, "Comparison with the paper".into()));
    let n_rep = findings
        .iter()
        .filter(|f| f.verdict == Verdict::Replicates)
        .count();
    let n_checked = findings
        .iter()
        .filter(|f| f.verdict != Verdict::NotAvailable)
        .count();
    blocks.push(Block::Paragraph(format!(
        "{n_rep} of {n_checked} checkable findings replicate in this run ({} could not be checked). The \
         criterion of each is stated below the table; the paper's numbers for figures are read off its plots.",
        findings.len() - n_checked
    )));
    blocks.push(Block::Table {
        header: row_cells(&["#", "finding (paper)", "paper", "this run", "verdict"]),
        rows: findings
            .iter()
            .enumerate()
            .map(|(i, f)| {
                vec![
                    (i + 1).to_string(),
                    f.claim.clone(),
                    f.paper.clone(),
                    f.this_run.clone(),
                    f.verdict.as_str().to_owned(),
                ]
            })
            .collect(),
    });
    for (i, f) in findings.iter().enumerate() {
        blocks.push(Block::Paragraph(format!(
            "**{}. {}.** {}",
            i + 1,
            f.claim,
            f.sentence
        )));
    }

    if !meta.variants.is_empty() {
        variant_blocks(trw, irw, alpha, &meta.variants, &mut blocks);
    }

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
            &mut blocks,
            &mut figures,
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
            &mut blocks,
            &mut figures,
            stem,
            inter_rater_figure(rows, subject),
            format!(
                "Inter-rater consistency (ICC(3,1), raters = scoring rules, seed-averaged scores) of {subject} per list and corpus; panels per algorithm and scale (raw scores as in the paper, or each rule z-scored first). Grey line: 0.5. {BOX_NOTE}"
            ),
        );
        blocks.push(Block::Paragraph(format!("Median ICC(3,1) of {subject}:")));
        blocks.push(median_table(rows));
    }

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

    crate::set_level::blocks(tables, meta, &mut blocks, &mut figures);
    crate::analogies::blocks(tables, &mut blocks);
    crate::base_pairs::blocks(tables, &mut blocks, &mut figures);
    regression_blocks(tables, &mut blocks);
    exclusion_blocks(tables, &mut blocks);
    Assembled {
        figures,
        blocks,
        findings,
    }
}
