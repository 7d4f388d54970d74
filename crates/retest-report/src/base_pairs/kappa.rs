//! The κ tables of the base-pair section (Tables 3–6): capitalised pairs, word forms, true gender
//! and the rules against each other, one table per configuration.

use std::collections::BTreeMap;

use retest_tables::BasePairKappaRow;

use super::cells::{Config, first_seen, spread};
use super::columns::{
    FORMS, KappaColumn, NOT_APPLICABLE, capitalised_columns, form_columns, kappa_rules, kappas_of,
    not_applicable, rule_pair_columns, seed_means, truth_columns, truth_lists, usable,
};
use crate::document::Block;
use crate::input::BasePairTables;
use crate::page::config_label;

/// The listed pairs of a configuration's κ rows, in the list's order.
pub(super) fn kappa_pairs(rows: &[&BasePairKappaRow]) -> Vec<String> {
    first_seen(
        rows.iter()
            .filter(|r| r.analysis != "pairs")
            .map(|r| r.pair.as_str()),
    )
}

/// A κ table (one row per pair, then the mean over pairs; each cell median [95 % interval] over
/// seeds) of the columns that apply; `None` when none does.
pub(super) fn kappa_table(
    rows: &[&BasePairKappaRow],
    columns: &[KappaColumn],
    pairs: &[String],
) -> Option<Block> {
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
pub(super) fn kappa_exclusions(rows: &[&BasePairKappaRow], columns: &[KappaColumn]) -> Option<String> {
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
pub(super) fn kappa_section(
    tables: &BasePairTables,
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

/// Tables 3–6, when the run wrote `base_pair_kappa`.
pub(super) fn blocks(tables: &BasePairTables, configs: &[Config], blocks: &mut Vec<Block>) {
    if tables.kappa.is_some() {
        kappa_section(
            tables,
            configs,
            "Capitalised base pairs (Table 3)",
            "Cohen's κ between the professions' labels under a pair and under its capitalised form (`he/she` \
             and `He/She`), per pair and rule, median [95 % interval] over seeds; the mean over pairs is taken per \
             seed.",
            |rows| capitalised_columns(&kappa_rules(rows)),
            blocks,
        );
        kappa_section(
            tables,
            configs,
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
            configs,
            "True gender (Table 5)",
            "Cohen's κ between the labels and the gender of the BSRI traits (stereotyped) and of the animal \
             names (linguistic), per pair, list and rule, median [95 % interval] over seeds.",
            |rows| truth_columns(&truth_lists(rows), &kappa_rules(rows)),
            blocks,
        );
        kappa_section(
            tables,
            configs,
            "Rules against each other (Table 6)",
            "Cohen's κ between two rules' labels of the professions under one pair, median [95 % interval] over \
             seeds.",
            rule_pair_columns,
            blocks,
        );
    }
}
