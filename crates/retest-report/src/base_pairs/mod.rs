//! The report's base-pair section (Zhang, Sneyd & Stevenson 2020, across seeds): the spread of
//! each rule's scores (their Table 1), the pairs' agreement on the professions' labels beside the
//! seeds' agreement (Table 2), agreement with the capitalised pairs, the other word forms, the
//! true genders and the other rules (Tables 3–6), the example word under every pair and seed
//! (Figure 1), the difference vectors' cosines and their correlation with agreement (Figure 2)
//! with the random baselines, RIPA's label flips, how the variation splits into word, pair and
//! seed, and the paper's claims as findings with criteria.

mod agreement;
mod cells;
mod columns;
mod directions;
mod example;
mod findings;
mod kappa;
#[cfg(test)]
mod tests;
mod variance;

use crate::data::{ConfigRow, configs_of};
use crate::document::Block;
use crate::finding::Evidence;
use crate::input::BasePairTables;
use crate::page::{NamedFigure, config_label, push_findings};

/// The section, when the run wrote the base-pair tables.
pub(crate) fn blocks(
    tables: &BasePairTables,
    evidence: Evidence,
    blocks: &mut Vec<Block>,
    figures: &mut Vec<NamedFigure>,
) {
    let Some(summary) = &tables.summary else {
        return;
    };
    let configs = configs_of(summary.iter().map(ConfigRow::config));
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
            findings::findings(tables, config),
            evidence,
            blocks,
        );
    }

    agreement::blocks(tables, summary, &configs, blocks);
    kappa::blocks(tables, &configs, blocks);
    example::blocks(tables, summary, &configs, blocks, figures);
    directions::blocks(tables, &configs, blocks);
    variance::blocks(tables, &configs, blocks);
}
