//! Figure 1 of the base-pair section: the example word and its forms under every pair, one dot
//! per seed.

use retest_tables::{BasePairExampleRow, BasePairSummaryRow};

use super::cells::{Config, finite_median, first_seen};
use crate::data::{of_config, rule_label, rules_of};
use crate::document::Block;
use crate::figures::{BoxFigure, BoxPanel};
use crate::input::BasePairTables;
use crate::page::{BOX_NOTE, NamedFigure, config_label, push_figure};

/// The forms of Figure 1's word, in drawing order.
pub(super) const EXAMPLE_FORMS: [&str; 4] = ["base", "plural", "capital", "upper"];

/// Figure 1 for one configuration and rule: the example word's forms (hues) under each pair
/// (groups), one value per seed, with Table 1's mean and ±1, ±2 SD (medians over seeds).
pub(super) fn example_figure(
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
        own_y_axes: false,
    })
}

/// Figure 1 per configuration and rule, when the run wrote `base_pair_examples`.
pub(super) fn blocks(
    tables: &BasePairTables,
    summary: &[BasePairSummaryRow],
    configs: &[Config],
    blocks: &mut Vec<Block>,
    figures: &mut Vec<NamedFigure>,
) {
    if let Some(examples) = &tables.examples {
        blocks.push(Block::Heading(
            3,
            "The example word under every pair (Figure 1)".into(),
        ));
        blocks.push(Block::Paragraph(format!(
            "Per configuration and rule, the scores of the example word and of its forms in vocabulary under \
             each base pair, one dot per seed. Grey line: the mean of Table 1; dashed: ±1 and ±2 SD (medians \
             over seeds). Positive scores are masculine (the paper's Figure 1 draws feminine up). {BOX_NOTE}"
        )));
        for config in configs {
            let own: Vec<&BasePairExampleRow> = of_config(examples, config).collect();
            let own_summary: Vec<&BasePairSummaryRow> = of_config(summary, config).collect();
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
}
