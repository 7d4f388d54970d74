//! Tables 1 and 2 of the base-pair section: the spread of each rule's scores, and the pairs'
//! agreement on the professions' labels beside the seeds'.

use retest_tables::{BasePairAgreementRow, BasePairSeedsRow, BasePairSummaryRow};

use super::cells::{Config, counts, pairs_kappas, seeds_kappas, spread, spread_with};
use crate::data::{algorithm_label, of_config, rule_label, rules_of};
use crate::document::Block;
use crate::input::BasePairTables;
use crate::numbers::f3;
use crate::page::row_cells;

/// Table 1: the mean and SD of each rule's scores per configuration.
pub(super) fn summary_table(rows: &[BasePairSummaryRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&BasePairSummaryRow> = of_config(rows, config).collect();
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

/// Table 2 with the seeds' agreement beside it.
pub(super) fn agreement_table(
    rows: &[BasePairAgreementRow],
    seeds: Option<&[BasePairSeedsRow]>,
    configs: &[Config],
) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&BasePairAgreementRow> = of_config(rows, config).collect();
        for rule in rules_of(own.iter().map(|r| r.rule.as_str())) {
            let of_rule: Vec<&&BasePairAgreementRow> = own.iter().filter(|r| r.rule == rule).collect();
            let values =
                |f: fn(&BasePairAgreementRow) -> f64| -> Vec<f64> { of_rule.iter().map(|r| f(r)).collect() };
            let across_seeds = seeds.map_or_else(
                || "—".to_owned(),
                |seeds| spread(&seeds_kappas(of_config(seeds, config), &rule)),
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

/// Table 1, and Table 2 when the run wrote `base_pair_agreement`.
pub(super) fn blocks(
    tables: &BasePairTables,
    summary: &[BasePairSummaryRow],
    configs: &[Config],
    blocks: &mut Vec<Block>,
) {
    blocks.push(Block::Heading(3, "Spread of the scores (Table 1)".into()));
    blocks.push(Block::Paragraph(
        "Each rule's scores of the most frequent words (alphabetic, shorter than 20 characters) under every \
         pair: mean and population SD, median [95 % interval] over seeds. A change of at least one SD counts as a \
         change of magnitude in Table 2."
            .into(),
    ));
    blocks.push(summary_table(summary, configs));

    if let Some(agreement) = &tables.agreement {
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
        blocks.push(agreement_table(agreement, tables.seeds.as_deref(), configs));
    }
}
