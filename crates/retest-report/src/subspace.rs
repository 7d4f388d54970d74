//! The gender subspace across seeds: for each configuration, Direct Bias on the first k principal
//! components of the definitional pairs, how far leaving one pair out turns the first component,
//! and the occupations' indirect bias with each anchor word — each with its spread across seeds
//! and the reliability of the per-word or per-pair values it rests on; and Bolukbasi et al.'s
//! finding that one component dominates.

use retest_measures::Measure;
use retest_tables::{SubspaceSeedRow, names};

use crate::data::{ConfigRow, algorithm_label, configs_of};
use crate::document::Block;
use crate::finding::Finding;
use crate::input::SubspaceTables;
use crate::numbers::f2;
use crate::page::{config_label, icc_cell, row_cells, spread_cell};

/// The section, when the run has the subspace tables.
pub(crate) fn blocks(tables: &SubspaceTables, blocks: &mut Vec<Block>) {
    let Some(rows) = tables.reliability.as_deref() else {
        return;
    };
    blocks.push(Block::Heading(2, "Bias subspace (Bolukbasi et al. 2016)".into()));
    blocks.push(Block::Paragraph(
        "Direct Bias of the neutral words on the span of the first k principal components of the \
         definitional pairs (the cosine of each word with its projection on the subspace; k = 1 is Direct \
         Bias along `pca`), with the ICC of the words' projections across seeds. Then the first component \
         recomputed with each definitional pair left out: the smallest cosine with the full component (the \
         most influential pair's) and the ICC of every pair's cosine — is the same pair influential on every \
         seed? — and the median indirect bias β of the neutral words with each anchor word, with the ICC of \
         the words' β. Mean and 2.5 %–97.5 % quantiles across seeds."
            .into(),
    ));
    let header = row_cells(&[
        "configuration",
        "components",
        "Direct Bias",
        "ICC of the projections",
    ]);
    let mut table = Vec::new();
    for (corpus, algorithm) in configs_of(rows.iter().map(ConfigRow::config)) {
        let direct_bias = (rows.iter()).filter(|r| {
            r.corpus == corpus && r.algorithm == algorithm && r.statistic == Measure::DirectBias.name()
        });
        for r in direct_bias {
            table.push(vec![
                config_label(&corpus, &algorithm),
                r.scope.clone(),
                spread_cell(&r.spread),
                icc_cell(&r.stats),
            ]);
        }
    }
    blocks.push(Block::Table { header, rows: table });
    let header = row_cells(&["configuration", "statistic", "across seeds", "ICC"]);
    let mut table = Vec::new();
    for (corpus, algorithm) in configs_of(rows.iter().map(ConfigRow::config)) {
        let mine = (rows.iter()).filter(|r| r.corpus == corpus && r.algorithm == algorithm);
        for r in mine.filter(|r| r.statistic != Measure::DirectBias.name()) {
            let statistic = if r.statistic == names::PCA_LEAVE_ONE_OUT.name() {
                "smallest cosine with one pair left out".to_owned()
            } else {
                format!("median β with `{}`", r.scope)
            };
            let icc = format!("{} of the {}", icc_cell(&r.stats), r.subjects);
            table.push(vec![
                config_label(&corpus, &algorithm),
                statistic,
                spread_cell(&r.spread),
                icc,
            ]);
        }
    }
    blocks.push(Block::Table { header, rows: table });
}

/// Bolukbasi et al. (2016, §5): one direction captures gender — the first principal component of
/// the definitional pairs explains far more variance than the second. Replicates when, on every
/// seed of every configuration but the debiased copies (`debiased`: (copy, model) pairs, whose
/// equalised pairs span one direction by construction), the first component's share is at least
/// twice the second's.
pub(crate) fn first_component_dominates(
    rows: Option<&[SubspaceSeedRow]>,
    debiased: &[(String, String)],
) -> Finding {
    let claim =
        "One direction captures gender: the first principal component dominates (Bolukbasi et al. 2016)"
            .to_owned();
    let paper = "the first eigenvalue is much larger than the rest (their Fig. 6)".to_owned();
    let rows: Vec<&SubspaceSeedRow> = (rows.unwrap_or_default().iter())
        .filter(|r| !debiased.iter().any(|(copy, _)| *copy == r.algorithm))
        .collect();
    let share = |r: &SubspaceSeedRow, k: u32| {
        (rows.iter())
            .find(|o| {
                o.corpus == r.corpus && o.algorithm == r.algorithm && o.seed == r.seed && o.components == k
            })
            .map(|o| o.explained_variance)
    };
    // Per configuration: the smallest ratio of the first share to the second over its seeds.
    let mut ratios: Vec<((String, String), f64)> = Vec::new();
    for r in rows.iter().filter(|r| r.components == 1) {
        let Some(second) = share(r, 2) else { continue };
        let ratio = r.explained_variance / second;
        let config = (r.corpus.clone(), r.algorithm.clone());
        match ratios.iter_mut().find(|(c, _)| *c == config) {
            Some((_, smallest)) => *smallest = smallest.min(ratio),
            None => ratios.push((config, ratio)),
        }
    }
    if ratios.is_empty() {
        return Finding::missing(
            &claim,
            &paper,
            "the run has no subspace of two components on a model not debiased",
        );
    }
    let holds = ratios.iter().all(|(_, ratio)| *ratio >= 2.0);
    let parts: Vec<String> = (ratios.iter())
        .map(|((corpus, algorithm), ratio)| {
            format!("{corpus} {}: ≥ {}×", algorithm_label(algorithm), f2(*ratio))
        })
        .collect();
    Finding::judged(claim, paper, parts.join("; "), holds, |verdict| {
        format!(
            "Criterion: the first component's share of variance is at least twice the second's on every seed \
             of every configuration (the smallest ratio shown); {verdict}."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Verdict;
    use crate::input::SubspaceTables;

    fn reliability(
        algorithm: &str,
        statistic: &str,
        scope: &str,
        subjects: &str,
    ) -> retest_tables::SubspaceReliabilityRow {
        retest_tables::SubspaceReliabilityRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            statistic: statistic.into(),
            scope: scope.into(),
            spread: crate::tests::spread(3, 0.5, 0.1),
            subjects: subjects.into(),
            stats: crate::tests::stats(0.8, "ok"),
        }
    }

    fn seed(algorithm: &str, seed: u32, components: u32, explained_variance: f64) -> SubspaceSeedRow {
        SubspaceSeedRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            seed,
            components,
            n_pairs: 7,
            list: "occ16".into(),
            n_words: 30,
            c: 1.0,
            explained_variance,
            cumulative_variance: f64::NAN,
            direct_bias: 0.3,
            direct_bias_summed: 0.3,
        }
    }

    #[test]
    fn a_row_per_number_of_components_then_the_pairs_and_anchors() {
        let rows = vec![
            reliability("sgns", "direct_bias", "1", "words"),
            reliability("sgns", "direct_bias", "2", "words"),
            reliability("sgns", "pca_leave_one_out", "pca", "pairs"),
            reliability("sgns", "indirect_bias", "football", "words"),
        ];
        let tables = SubspaceTables {
            seeds: None,
            reliability: Some(rows),
        };
        let mut out = Vec::new();
        blocks(&tables, &mut out);
        let tables: Vec<&Vec<Vec<String>>> = (out.iter())
            .filter_map(|b| match b {
                Block::Table { rows, .. } => Some(rows),
                _ => None,
            })
            .collect();
        assert_eq!(
            tables[0],
            &[
                vec!["c · SGNS", "1", "0.50 [0.40, 0.60]", "0.80 (n = 4)"],
                vec!["c · SGNS", "2", "0.50 [0.40, 0.60]", "0.80 (n = 4)"],
            ]
        );
        assert_eq!(
            tables[1],
            &[
                vec![
                    "c · SGNS",
                    "smallest cosine with one pair left out",
                    "0.50 [0.40, 0.60]",
                    "0.80 (n = 4) of the pairs"
                ],
                vec![
                    "c · SGNS",
                    "median β with `football`",
                    "0.50 [0.40, 0.60]",
                    "0.80 (n = 4) of the words"
                ],
            ]
        );
        let mut none = Vec::new();
        blocks(&SubspaceTables::default(), &mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn the_first_component_must_dominate_on_every_seed() {
        let debiased = [("sgns+hard".to_owned(), "sgns".to_owned())];
        let rows = [
            seed("sgns", 0, 1, 0.6),
            seed("sgns", 0, 2, 0.2),
            seed("sgns", 1, 1, 0.5),
            seed("sgns", 1, 2, 0.2),
            // A debiased copy's second share is 0: left out.
            seed("sgns+hard", 0, 1, 1.0),
            seed("sgns+hard", 0, 2, 0.0),
        ];
        let finding = first_component_dominates(Some(&rows), &debiased);
        assert_eq!(finding.verdict, Verdict::Replicates);
        assert_eq!(finding.this_run, "c SGNS: ≥ 2.50×");
        let mut weak = rows.to_vec();
        weak[3].explained_variance = 0.3;
        let finding = first_component_dominates(Some(&weak), &debiased);
        assert_eq!(finding.verdict, Verdict::DoesNotReplicate);
        assert_eq!(finding.this_run, "c SGNS: ≥ 1.67×");
        let one = [seed("sgns", 0, 1, 0.6)];
        assert_eq!(
            first_component_dominates(Some(&one), &debiased).verdict,
            Verdict::NotAvailable
        );
    }
}
