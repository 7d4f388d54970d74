//! Gonen & Goldberg's (2019) residual-bias tests across seeds: for each configuration, how well
//! 2-means clustering and an RBF SVM tell the most masculine from the most feminine words, and how
//! closely the professions' masculine neighbours follow their bias — each with its spread across
//! seeds and the reliability of the per-word values it rests on.

use retest_measures::Measure;
use retest_tables::ResidualReliabilityRow;

use crate::data::{ConfigRow, configs_of};
use crate::document::Block;
use crate::page::{config_label, icc_cell, row_cells, spread_cell};

/// The tests, in the table's column order.
const STATISTICS: [Measure; 3] = [
    Measure::ClusterAccuracy,
    Measure::SvmAccuracy,
    Measure::NeighbourCorrelation,
];

/// The section, when the run has the residual-bias tables.
pub(crate) fn blocks(rows: Option<&[ResidualReliabilityRow]>, blocks: &mut Vec<Block>) {
    let Some(rows) = rows else {
        return;
    };
    blocks.push(Block::Heading(2, "Residual bias (Gonen & Goldberg 2019)".into()));
    blocks.push(Block::Paragraph(
        "The most masculine and the most feminine candidate words by their projection on he − she \
         (gender-specific words left out) clustered into two clusters and classified by an RBF SVM trained \
         on some of them; and the professions' share of masculine words among their nearest neighbours \
         correlated with their projection. A debiased model keeps its model's labels: accuracy well above \
         0.5 after debiasing is bias the debiasing left. Mean and 2.5 %–97.5 % quantiles across seeds; \
         ICC(2,1) of the projections (the labels) and of the neighbour shares across seeds."
            .into(),
    ));
    let mut header = row_cells(&["configuration"]);
    header.extend(STATISTICS.iter().map(|m| m.label().to_owned()));
    header.extend(row_cells(&[
        "ICC of the projections",
        "ICC of the neighbour shares",
    ]));
    let mut table = Vec::new();
    for (corpus, algorithm) in configs_of(rows.iter().map(ConfigRow::config)) {
        let row = |statistic: &str| {
            (rows.iter()).find(|r| r.corpus == corpus && r.algorithm == algorithm && r.statistic == statistic)
        };
        let mut cells = vec![config_label(&corpus, &algorithm)];
        cells.extend(STATISTICS.iter().map(|m| {
            match row(m.name()) {
                // `undefined`: no seed has a value (e.g. neighbour shares that do not vary).
                Some(r) => spread_cell(&r.spread),
                None => "—".to_owned(),
            }
        }));
        for m in [Measure::ClusterAccuracy, Measure::NeighbourCorrelation] {
            cells.push(row(m.name()).map_or_else(|| "—".to_owned(), |r| icc_cell(&r.stats)));
        }
        table.push(cells);
    }
    blocks.push(Block::Table { header, rows: table });
}

#[cfg(test)]
mod tests {
    use retest_tables::IccStats;

    use super::*;

    fn row(algorithm: &str, statistic: &str, mean: f64, icc: f64) -> ResidualReliabilityRow {
        ResidualReliabilityRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            statistic: statistic.into(),
            spread: crate::tests::spread(3, mean, 0.1),
            subjects: "projection_bias".into(),
            stats: IccStats {
                icc,
                f_stat: f64::NAN,
                df1: f64::NAN,
                df2: f64::NAN,
                p_value: f64::NAN,
                ci_low: f64::NAN,
                ci_high: f64::NAN,
                n_subjects: 40,
                n_raters: 3,
                n_dropped: 0,
                status: if icc.is_nan() { "zero_variance" } else { "ok" }.into(),
            },
        }
    }

    #[test]
    fn each_configuration_is_one_row_of_every_test() {
        let rows = [
            row("sgns", "cluster_accuracy", 0.9, 0.8),
            row("sgns", "svm_accuracy", 0.95, 0.8),
            row("sgns", "neighbour_r", 0.7, f64::NAN),
            row("sgns+hard", "cluster_accuracy", 0.6, 0.8),
            ResidualReliabilityRow {
                spread: retest_tables::SpreadStats {
                    n_seeds: 0,
                    n_undefined: 3,
                    ..crate::tests::spread(3, f64::NAN, 0.1)
                },
                ..row("sgns+hard", "neighbour_r", f64::NAN, f64::NAN)
            },
        ];
        let mut out = Vec::new();
        blocks(Some(&rows), &mut out);
        let Some(Block::Table { rows, .. }) = out.last() else {
            panic!("a table last")
        };
        assert_eq!(
            rows,
            &[
                vec![
                    "c · SGNS",
                    "0.90 [0.80, 1.00]",
                    "0.95 [0.85, 1.05]",
                    "0.70 [0.60, 0.80]",
                    "0.80 (n = 40)",
                    "zero_variance"
                ],
                vec![
                    "c · SGNS + hard debiasing",
                    "0.60 [0.50, 0.70]",
                    "—",
                    "undefined",
                    "0.80 (n = 40)",
                    "zero_variance"
                ],
            ]
        );
        let mut none = Vec::new();
        blocks(None, &mut none);
        assert!(none.is_empty());
    }
}
