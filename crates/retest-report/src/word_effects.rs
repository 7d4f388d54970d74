//! The word-level effects section (Du et al.'s Table 2): the direction of each effect in a
//! least-squares fit of this run beside the paper's estimates.

use crate::document::Block;
use crate::input::RuleTables;
use crate::numbers::{f2, p_text};
use crate::page::row_cells;
use crate::regression::{self, PAPER_ESTIMATES, term_label};

pub(crate) fn blocks(tables: &RuleTables, blocks: &mut Vec<Block>) {
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
