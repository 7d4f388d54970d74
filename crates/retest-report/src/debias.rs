//! Hard debiasing (Bolukbasi et al. 2016): each debiased model beside its model, on the same
//! corpus and seeds — the set-level measures' values and reliability, and the rules'
//! reliability, before and after; and whether debiasing removed the gender direction from the
//! neutral words on every seed.

use retest_measures::Measure;
use retest_tables::{AlphaRow, DirectionRow, IccRow, ResidualReliabilityRow, SeedSpreadRow, SetIccRow};

use crate::beside::rule_table;
use crate::data::{algorithm_label, sorted_names};
use crate::document::Block;
use crate::finding::Finding;
use crate::input::SetLevelTables;
use crate::numbers::f2;
use crate::page::{config_label, icc_cell, interval, row_cells, spread};

/// The set-level measures shown before and after, each on every subject that is not a
/// single-pair query (`career/family he:she`); Direct Bias along the definitional pairs' first
/// principal component only.
const MEASURES: &[&str] = &[
    "direct_bias",
    "weat_effect_size",
    "rnd",
    "ect",
    "mac",
    "rnsb",
    "os",
    "gd",
    "mean_abs_score",
];

/// The direction whose Direct Bias the finding follows.
const PCA: &str = "pca";

/// The section: `debiased` are (debiased model, model) pairs.
pub(crate) fn blocks(
    set_level: &SetLevelTables,
    (test_retest, inter_rater, alpha): (&[IccRow], &[IccRow], &[AlphaRow]),
    debiased: &[(String, String)],
    blocks: &mut Vec<Block>,
) {
    blocks.push(Block::Heading(2, "Hard debiasing (Bolukbasi et al. 2016)".into()));
    blocks.push(Block::Paragraph(
        "Each debiased model beside its model: the same corpus and seeds, every seed hard-debiased (every \
         word outside the gender-specific list loses its component along the first principal component of \
         the definitional pairs; each equalize pair then differs along it only) and measured as a model of \
         its own. Does debiasing's effect replicate across seeds, and does it change how reliable a measure \
         is?"
        .into(),
    ));
    if let Some(spreads) = &set_level.seed_spread {
        blocks.push(Block::Heading(3, "Set-level measures".into()));
        blocks.push(Block::Paragraph(
            "Mean and 2.5 %–97.5 % quantiles across seeds, before and after.".into(),
        ));
        blocks.push(spread_table(spreads, debiased));
    }
    if let Some(reliability) = &set_level.reliability {
        blocks.push(Block::Heading(
            3,
            "Test-retest reliability of the set-level measures".into(),
        ));
        blocks.push(reliability_table(reliability, debiased));
    }
    if !test_retest.is_empty() {
        blocks.push(Block::Heading(3, "Du et al.'s rules".into()));
        blocks.push(Block::Paragraph(
            "Medians over every list (a word listed twice counted once); α over the query items.".into(),
        ));
        blocks.push(rule_table(test_retest, inter_rater, alpha, debiased));
    }
}

/// Whether a spread or reliability row's subject is shown: not a single-pair query.
fn shown(measure: &str, subject: &str) -> bool {
    !subject.contains(' ') && (measure != "direct_bias" || subject == PCA)
}

/// Every shown measure and subject of each model, before and after.
fn spread_table(spreads: &[SeedSpreadRow], debiased: &[(String, String)]) -> Block {
    let header = row_cells(&["configuration", "measure", "subject", "before", "after"]);
    let mut rows = Vec::new();
    for (copy, model) in debiased {
        for corpus in sorted_names(spreads.iter().map(|r| r.corpus.as_str())) {
            for &measure in MEASURES {
                let subjects = (spreads.iter())
                    .filter(|r| r.corpus == corpus && &r.algorithm == model && r.measure == measure)
                    .filter(|r| shown(measure, &r.subject));
                for before in subjects {
                    let after = spread(spreads, (&corpus, copy), measure, &before.subject);
                    rows.push(vec![
                        config_label(&corpus, model),
                        measure.to_owned(),
                        before.subject.clone(),
                        interval(&before.spread),
                        after.map_or_else(|| "—".to_owned(), |a| interval(&a.spread)),
                    ]);
                }
            }
        }
    }
    Block::Table { header, rows }
}

/// The test-retest ICC of every shown family of values of each model, before and after.
fn reliability_table(rows: &[SetIccRow], debiased: &[(String, String)]) -> Block {
    let header = row_cells(&["configuration", "measure", "scope", "subjects", "before", "after"]);
    let mut out = Vec::new();
    for (copy, model) in debiased {
        let before = (rows.iter()).filter(|r| &r.algorithm == model && shown(&r.measure, &r.scope));
        for b in before {
            let after = rows.iter().find(|r| {
                &r.algorithm == copy
                    && r.corpus == b.corpus
                    && r.measure == b.measure
                    && r.scope == b.scope
                    && r.subjects == b.subjects
            });
            out.push(vec![
                config_label(&b.corpus, model),
                b.measure.clone(),
                b.scope.clone(),
                b.subjects.clone(),
                icc_cell(&b.stats),
                after.map_or_else(|| "—".to_owned(), |a| icc_cell(&a.stats)),
            ]);
        }
    }
    Block::Table { header, rows: out }
}

/// Bolukbasi et al. (§6): hard debiasing removes the gender direction from the gender-neutral
/// words. Replicates when, on every corpus and seed, the Direct Bias of the neutral words along
/// the definitional pairs' first principal component is lower after debiasing than before.
pub(crate) fn direct_bias_removed(
    directions: Option<&[DirectionRow]>,
    debiased: &[(String, String)],
) -> Finding {
    let claim =
        "Hard debiasing removes the gender direction from neutral words (Bolukbasi et al. §6)".to_owned();
    let paper = "neutralised words have no component along g".to_owned();
    let rows = directions.unwrap_or_default();
    let pca = |corpus: &str, algorithm: &str| -> Vec<(u32, f64)> {
        (rows.iter())
            .filter(|r| r.corpus == corpus && r.algorithm == algorithm && r.direction == PCA)
            .map(|r| (r.seed, r.direct_bias))
            .collect()
    };
    let (mut parts, mut n_lower, mut n_seeds) = (Vec::new(), 0, 0);
    for (copy, model) in debiased {
        for corpus in sorted_names(rows.iter().map(|r| r.corpus.as_str())) {
            let (before, after) = (pca(&corpus, model), pca(&corpus, copy));
            let paired: Vec<(f64, f64)> = (before.iter())
                .filter_map(|&(seed, b)| after.iter().find(|(s, _)| *s == seed).map(|&(_, a)| (b, a)))
                .collect();
            if paired.is_empty() {
                continue;
            }
            let lower = paired.iter().filter(|(b, a)| a < b).count();
            let mean =
                |pick: fn(&(f64, f64)) -> f64| paired.iter().map(pick).sum::<f64>() / paired.len() as f64;
            parts.push(format!(
                "{corpus} {}: {} → {}, lower on {lower} of {} seeds",
                algorithm_label(model),
                f2(mean(|p| p.0)),
                f2(mean(|p| p.1)),
                paired.len()
            ));
            n_lower += lower;
            n_seeds += paired.len();
        }
    }
    if parts.is_empty() {
        return Finding::missing(
            &claim,
            &paper,
            "no seed has a Direct Bias along the definitional pairs both before and after debiasing",
        );
    }
    Finding::judged(
        claim,
        paper,
        format!("Direct Bias (pca), mean over seeds: {}", parts.join("; ")),
        n_lower == n_seeds,
        |verdict| {
            format!(
                "Criterion: the neutral words' Direct Bias along the first principal component of the \
                 definitional pairs is lower after debiasing on every seed ({n_lower} of {n_seeds}); {verdict}."
            )
        },
    )
}

/// The accuracy above which Gonen & Goldberg's tests still tell the genders apart after
/// debiasing: half way from chance (0.5) to certainty.
const RECOVERABLE: f64 = 0.75;

/// Gonen & Goldberg (2019, §4): after hard debiasing, the words its model labels masculine and
/// feminine are still told apart — 2-means 92.5 % and an SVM 88.9 % on their model. Replicates
/// when, on every corpus, each debiased model's mean 2-means and SVM accuracy across seeds
/// exceed [`RECOVERABLE`].
pub(crate) fn bias_recoverable(
    rows: Option<&[ResidualReliabilityRow]>,
    debiased: &[(String, String)],
) -> Finding {
    let claim = "Hard debiasing leaves the bias recoverable (Gonen & Goldberg 2019, §4)".to_owned();
    let paper = "after hard debiasing: 2-means 92.5 %, SVM 88.9 %".to_owned();
    let rows = rows.unwrap_or_default();
    let mean = |corpus: &str, algorithm: &str, m: Measure| {
        (rows.iter())
            .find(|r| {
                r.corpus == corpus
                    && r.algorithm == algorithm
                    && r.statistic == m.name()
                    && r.spread.n_seeds > 0
            })
            .map(|r| r.spread.mean)
    };
    let (mut parts, mut all_above) = (Vec::new(), true);
    for (copy, model) in debiased {
        for corpus in sorted_names(rows.iter().map(|r| r.corpus.as_str())) {
            let cell = |algorithm: &str| {
                mean(&corpus, algorithm, Measure::ClusterAccuracy).zip(mean(
                    &corpus,
                    algorithm,
                    Measure::SvmAccuracy,
                ))
            };
            let (Some(before), Some(after)) = (cell(model), cell(copy)) else {
                continue;
            };
            all_above &= after.0 > RECOVERABLE && after.1 > RECOVERABLE;
            parts.push(format!(
                "{corpus} {}: 2-means {} → {}, SVM {} → {}",
                algorithm_label(model),
                f2(before.0),
                f2(after.0),
                f2(before.1),
                f2(after.1)
            ));
        }
    }
    if parts.is_empty() {
        return Finding::missing(
            &claim,
            &paper,
            "the run has no residual-bias tests of a model and its debiased copy",
        );
    }
    Finding::judged(claim, paper, parts.join("; "), all_above, |verdict| {
        format!(
            "Criterion: after debiasing, the mean 2-means and SVM accuracies across seeds exceed \
             {RECOVERABLE} on every corpus; {verdict}."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Verdict;

    fn direction(algorithm: &str, seed: u32, direction: &str, direct_bias: f64) -> DirectionRow {
        DirectionRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            seed,
            direction: direction.into(),
            list: "occ16".into(),
            c: 1.0,
            n_words: 10,
            direct_bias,
            cos_pca: 1.0,
            explained_variance: f64::NAN,
            explained_variance_2: f64::NAN,
            attribute_difference: f64::NAN,
        }
    }

    fn pairs() -> Vec<(String, String)> {
        vec![("sgns+hard".to_owned(), "sgns".to_owned())]
    }

    #[test]
    fn direct_bias_must_fall_on_every_seed() {
        let mut rows = vec![
            direction("sgns", 0, PCA, 0.4),
            direction("sgns", 1, PCA, 0.2),
            direction("sgns+hard", 0, PCA, 0.01),
            direction("sgns+hard", 1, PCA, 0.03),
            // Another direction is not the finding's.
            direction("sgns+hard", 1, "he:she", 0.9),
        ];
        let f = direct_bias_removed(Some(&rows), &pairs());
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(
            f.this_run,
            "Direct Bias (pca), mean over seeds: c SGNS: 0.30 → 0.02, lower on 2 of 2 seeds"
        );
        rows[3].direct_bias = 0.25;
        let f = direct_bias_removed(Some(&rows), &pairs());
        assert_eq!(f.verdict, Verdict::DoesNotReplicate);
        assert!(
            f.sentence.ends_with("(1 of 2); does not replicate."),
            "{}",
            f.sentence
        );
        assert_eq!(direct_bias_removed(None, &pairs()).verdict, Verdict::NotAvailable);
    }

    #[test]
    fn the_bias_is_recoverable_when_both_accuracies_stay_high() {
        let row = |algorithm: &str, statistic: Measure, mean: f64| ResidualReliabilityRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            statistic: statistic.name().into(),
            spread: crate::tests::spread(3, mean, 0.0),
            subjects: "projection_bias".into(),
            stats: crate::tests::stats(0.9, "ok"),
        };
        let mut rows = vec![
            row("sgns", Measure::ClusterAccuracy, 0.98),
            row("sgns", Measure::SvmAccuracy, 0.97),
            row("sgns+hard", Measure::ClusterAccuracy, 0.93),
            row("sgns+hard", Measure::SvmAccuracy, 0.92),
        ];
        let f = bias_recoverable(Some(&rows), &pairs());
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(f.this_run, "c SGNS: 2-means 0.98 → 0.93, SVM 0.97 → 0.92");
        rows[3].spread.mean = 0.6;
        assert_eq!(
            bias_recoverable(Some(&rows), &pairs()).verdict,
            Verdict::DoesNotReplicate
        );
        assert_eq!(bias_recoverable(None, &pairs()).verdict, Verdict::NotAvailable);
    }

    #[test]
    fn the_spread_table_puts_each_subject_before_and_after() {
        let row = |algorithm: &str, measure: &str, subject: &str, mean: f64| SeedSpreadRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            measure: measure.into(),
            subject: subject.into(),
            spread: crate::tests::spread(3, mean, 0.0),
            share_significant: f64::NAN,
        };
        let spreads = vec![
            row("sgns", "direct_bias", "pca", 0.4),
            row("sgns", "direct_bias", "he:she", 0.5),
            row("sgns", "weat_effect_size", "weat6", 1.0),
            row("sgns", "weat_effect_size", "career/family he:she", 0.7),
            row("sgns+hard", "direct_bias", "pca", 0.0),
        ];
        let Block::Table { rows, .. } = spread_table(&spreads, &pairs()) else {
            panic!("a table")
        };
        assert_eq!(
            rows,
            [
                [
                    "c · SGNS",
                    "direct_bias",
                    "pca",
                    "0.40 [0.40, 0.40]",
                    "0.00 [0.00, 0.00]"
                ],
                ["c · SGNS", "weat_effect_size", "weat6", "1.00 [1.00, 1.00]", "—"],
            ]
        );
    }
}
