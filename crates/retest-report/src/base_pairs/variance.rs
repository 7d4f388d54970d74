//! How the variation of the professions' scores and labels splits into word, pair and seed.

use retest_tables::BasePairVarianceRow;

use super::cells::{Config, pct1};
use crate::data::{of_config, rule_label, rules_of};
use crate::document::Block;
use crate::input::BasePairTables;
use crate::page::{config_label, row_cells};

/// The variance components in table order, with their labels.
pub(super) const COMPONENTS: [(&str, &str); 7] = [
    ("word", "word"),
    ("pair", "pair"),
    ("seed", "seed"),
    ("word:pair", "word × pair"),
    ("word:seed", "word × seed"),
    ("pair:seed", "pair × seed"),
    ("residual", "residual"),
];

/// How the variation of one rule's scores or labels splits beyond the words' own: shares of the
/// non-word components' variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Instability {
    /// `pair` + `word:pair`.
    pub(super) pair: f64,
    /// `seed` + `word:seed`.
    pub(super) seed: f64,
    /// `pair:seed` + `residual`.
    pub(super) joint: f64,
}

/// The variance of a component (0 without its row).
pub(super) fn variance_of(rows: &[&BasePairVarianceRow], component: &str) -> f64 {
    (rows.iter())
        .find(|r| r.component == component)
        .map_or(0.0, |r| r.variance)
}

/// The direction instability of one rule and scale; `None` when nothing varies beyond the words.
pub(super) fn instability(rows: &[&BasePairVarianceRow]) -> Option<Instability> {
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
pub(super) fn variance_rows<'a>(
    rows: &'a [BasePairVarianceRow],
    config: &'a Config,
    rule: &'a str,
    scale: &'a str,
) -> Vec<&'a BasePairVarianceRow> {
    of_config(rows, config)
        .filter(|r| r.rule == rule && r.scale == scale)
        .collect()
}

/// The seed-versus-pair table: per configuration, rule and scale the components' shares and the
/// direction instability.
pub(super) fn variance_table(rows: &[BasePairVarianceRow], configs: &[Config]) -> Block {
    let mut body = Vec::new();
    for config in configs {
        let own = of_config(rows, config);
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
pub(super) fn instability_sentence(rows: &[BasePairVarianceRow], config: &Config) -> Option<String> {
    let own = of_config(rows, config);
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

/// The variance table and one sentence per configuration, when the run wrote `base_pair_variance`.
pub(super) fn blocks(tables: &BasePairTables, configs: &[Config], blocks: &mut Vec<Block>) {
    if let Some(variance) = tables.variance.as_ref().filter(|v| !v.is_empty()) {
        blocks.push(Block::Heading(3, "Seed against pair".into()));
        blocks.push(Block::Paragraph(
            "Variance components of the professions' scores (`score`) and labels (`label`: 1 masculine, 0 \
             feminine) in the word × pair × seed design, as shares of their sum (negative estimates set to 0). \
             Beyond the words' own variation, the pair part is `pair` + `word × pair`, the seed part `seed` + \
             `word × seed`, the rest `pair × seed` + `residual`, each as a share of the non-word components."
                .into(),
        ));
        blocks.push(variance_table(variance, configs));
        for config in configs {
            if let Some(sentence) = instability_sentence(variance, config) {
                blocks.push(Block::Paragraph(sentence));
            }
        }
    }
}
