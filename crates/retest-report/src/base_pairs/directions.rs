//! Figure 2 of the base-pair section as tables (the difference vectors' cosines and their
//! correlation with agreement), the random baselines and RIPA's label flips.

use std::collections::BTreeMap;

use retest_tables::{BasePairBaselineRow, BasePairCorrelationRow, BasePairDirectionRow, BasePairFlipRow};

use super::cells::{Config, count, counts, first_seen, pct1, spread, spread_with};
use crate::data::{algorithm_label, distinct, of_config, rule_label};
use crate::document::Block;
use crate::input::BasePairTables;
use crate::page::{config_label, row_cells};

/// Figure 2 as a table: per pair, the mean cosine of its difference vector with the other
/// pairs' and Pearson's r of cosines against DB/WA κ in both readings.
pub(super) fn direction_table(
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
pub(super) fn baseline_table(rows: &[BasePairBaselineRow], configs: &[Config]) -> Block {
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
        let own: Vec<&BasePairBaselineRow> = of_config(rows, config).collect();
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
pub(super) fn flip_table(rows: &[BasePairFlipRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own: Vec<&BasePairFlipRow> = of_config(rows, config).collect();
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

/// Figure 2, the baselines and the flips, for the tables the run wrote.
pub(super) fn blocks(tables: &BasePairTables, configs: &[Config], blocks: &mut Vec<Block>) {
    if tables.directions.is_some() || tables.correlations.is_some() {
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
        for config in configs {
            let directions: Vec<&BasePairDirectionRow> =
                of_config(tables.directions.as_ref().unwrap_or(&no_directions), config).collect();
            let correlations: Vec<&BasePairCorrelationRow> =
                of_config(tables.correlations.as_ref().unwrap_or(&no_correlations), config).collect();
            if let Some(table) = direction_table(&directions, &correlations) {
                blocks.push(Block::Paragraph(format!(
                    "{}:",
                    config_label(&config.0, &config.1)
                )));
                blocks.push(table);
            }
        }
    }
    if let Some(baselines) = tables.baselines.as_ref().filter(|b| !b.is_empty()) {
        blocks.push(Block::Paragraph(
            "Mean cosines of random words, of random difference vectors and of every two base pairs' difference \
             vectors (each seed's own sample), median [95 % interval] over seeds:"
                .into(),
        ));
        blocks.push(baseline_table(baselines, configs));
    }

    if let Some(flips) = tables.flips.as_ref().filter(|f| !f.is_empty()) {
        blocks.push(Block::Heading(3, "Label flips".into()));
        blocks.push(Block::Paragraph(
            "Professions whose RIPA label changes from one pair to the other (Ethayarajh et al.'s example of \
             two pairs with roughly the same difference vector), median [95 % interval] over seeds; the paper finds \
             28 % (91 of 320)."
                .into(),
        ));
        blocks.push(flip_table(flips, configs));
    }
}
