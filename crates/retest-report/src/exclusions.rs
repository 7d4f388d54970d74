//! The exclusions section: per table, the rows left out by status, and the list entries outside
//! each corpus's vocabulary.

use crate::data::{Exclusions, list_label};
use crate::document::Block;
use crate::input::RunTables;
use crate::page::row_cells;

pub(crate) fn blocks(tables: &RunTables, blocks: &mut Vec<Block>) {
    blocks.push(Block::Heading(2, "Exclusions".into()));
    blocks.push(Block::Paragraph(
        "Rows whose status is not `ok` (or whose value is not finite) are left out of every figure and number; \
         per table:"
            .into(),
    ));
    let mut body = Vec::new();
    let icc_tables = [
        ("test_retest_words", &tables.rules.test_retest_words),
        ("test_retest_pairs", &tables.rules.test_retest_pairs),
        ("inter_rater_words", &tables.rules.inter_rater_words),
        ("inter_rater_pairs", &tables.rules.inter_rater_pairs),
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
    body.push(match &tables.rules.internal_consistency {
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
