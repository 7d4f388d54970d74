//! The report's set-level section: WEAT, Direct Bias and Bakarov's detectors per
//! configuration, their spread across seeds, their test-retest reliability, and how far each
//! base pair's direction is from the principal component of the definitional pairs.

mod bakarov;
mod contrast;

use retest_measures::Measure;
use retest_tables::{DirectionRow, SeedSpreadRow, SetIccRow, SetLevelStatistic, WeatWordRow, selection_of};

use crate::data::{ConfigRow, algorithm_label, configs_of, sorted_names};
use crate::document::Block;
use crate::figures::{BoxFigure, BoxPanel};
use crate::finding::Evidence;
use crate::input::{ReportMeta, SetLevelTables};
use crate::numbers::f2;
use crate::page::{BOX_NOTE, NamedFigure, config_label, icc_cell, interval, push_figure, row_cells, spread};
use crate::stats::median;
use bakarov::{agreement_blocks, bakarov_blocks, bakarov_rows};

/// WEAT per test of the tests file: d and p across seeds, the share of seeds with p < 0.05, and
/// Schröder et al.'s mean attribute difference ‖â − b̂‖ (their Table 2), which scales every word's
/// score: a d compares across configurations only beside it.
fn weat_table(spreads: &[SeedSpreadRow], tests: &[String], configs: &[(String, String)]) -> Block {
    let mut rows = Vec::new();
    for (corpus, algorithm) in configs {
        let config = (corpus.as_str(), algorithm.as_str());
        for test in tests {
            let (Some(d), Some(p)) = (
                spread(spreads, config, SetLevelStatistic::WeatEffectSize.as_str(), test),
                spread(spreads, config, SetLevelStatistic::WeatPValue.as_str(), test),
            ) else {
                continue;
            };
            let difference = spread(
                spreads,
                config,
                SetLevelStatistic::AttributeDifference.as_str(),
                test,
            );
            rows.push(vec![
                corpus.clone(),
                algorithm_label(algorithm),
                test.clone(),
                interval(&d.spread),
                interval(&p.spread),
                format!("{:.0} %", 100.0 * p.share_significant),
                difference.map_or_else(|| "—".to_owned(), |a| interval(&a.spread)),
                d.spread.n_seeds.to_string(),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "test",
            "effect size d: mean [2.5 %, 97.5 %]",
            "p: mean [2.5 %, 97.5 %]",
            "seeds with p < 0.05",
            "‖â − b̂‖: mean [2.5 %, 97.5 %]",
            "seeds",
        ]),
        rows,
    }
}

/// Every set-level ICC but the per-test word scores, which are summarised by their median
/// (those of the stereotype tests are shown too).
fn reliability_table(rows: &[SetIccRow], stereotype_tests: &[String], configs: &[(String, String)]) -> Block {
    let mut body = Vec::new();
    for (corpus, algorithm) in configs {
        let own: Vec<&SetIccRow> = (rows.iter())
            .filter(|r| &r.corpus == corpus && &r.algorithm == algorithm)
            .collect();
        let word_scores: Vec<f64> = (own.iter())
            .filter(|r| {
                r.measure == SetLevelStatistic::WeatScore.as_str()
                    && r.stats.status == "ok"
                    && r.stats.icc.is_finite()
            })
            .map(|r| r.stats.icc)
            .collect();
        if !word_scores.is_empty() {
            body.push(vec![
                corpus.clone(),
                algorithm_label(algorithm),
                SetLevelStatistic::WeatScore.as_str().to_owned(),
                "every test (median)".to_owned(),
                "words".to_owned(),
                format!("{} (n = {} tests)", f2(median(&word_scores)), word_scores.len()),
            ]);
        }
        for r in own.iter().filter(|r| {
            r.measure != SetLevelStatistic::WeatScore.as_str() || stereotype_tests.contains(&r.scope)
        }) {
            body.push(vec![
                corpus.clone(),
                algorithm_label(algorithm),
                r.measure.clone(),
                r.scope.clone(),
                r.subjects.clone(),
                icc_cell(&r.stats),
            ]);
        }
    }
    Block::Table {
        header: row_cells(&["corpus", "algorithm", "measure", "scope", "subjects", "ICC(2,1)"]),
        rows: body,
    }
}

/// Direct Bias along `pca` and `he:she`, the first component's share, its stability across
/// seeds, and Bakarov's OS and GD.
fn direction_table(spreads: &[SeedSpreadRow], configs: &[(String, String)]) -> Block {
    let cell = |config, measure: &str, subject: &str| {
        spread(spreads, config, measure, subject).map_or_else(|| "—".to_owned(), |s| interval(&s.spread))
    };
    let rows = configs
        .iter()
        .map(|(corpus, algorithm)| {
            let config = (corpus.as_str(), algorithm.as_str());
            let list = (spreads.iter())
                .find(|r| {
                    (r.corpus.as_str(), r.algorithm.as_str()) == config && r.measure == Measure::Os.name()
                })
                .map_or("", |r| r.subject.as_str());
            vec![
                corpus.clone(),
                algorithm_label(algorithm),
                cell(config, Measure::DirectBias.name(), "pca"),
                cell(config, Measure::DirectBias.name(), "he:she"),
                cell(config, SetLevelStatistic::PcaExplainedVariance.as_str(), "pca"),
                cell(config, SetLevelStatistic::PcaStability.as_str(), "pca"),
                cell(config, Measure::Os.name(), list),
                cell(config, Measure::Gd.name(), list),
            ]
        })
        .collect();
    Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "Direct Bias, pca",
            "Direct Bias, he:she",
            "pca: variance share",
            "pca: cosine with seed 0",
            Measure::Os.label(),
            Measure::Gd.label(),
        ]),
        rows,
    }
}

/// `cos(g_pair, g_pca)` per base pair across seeds, one panel per configuration (Schröder et
/// al., Fig. 3).
fn direction_figure(rows: &[DirectionRow], configs: &[(String, String)]) -> BoxFigure {
    let pairs = sorted_names(
        rows.iter()
            .filter(|r| r.direction != "pca")
            .map(|r| r.direction.as_str()),
    );
    let panels = configs
        .iter()
        .map(|(corpus, algorithm)| BoxPanel {
            title: config_label(corpus, algorithm),
            groups: pairs.clone(),
            values: vec![
                pairs
                    .iter()
                    .map(|pair| {
                        (rows.iter())
                            .filter(|r| {
                                &r.corpus == corpus && &r.algorithm == algorithm && &r.direction == pair
                            })
                            .map(|r| r.cos_pca)
                            .filter(|v| v.is_finite())
                            .collect()
                    })
                    .collect(),
            ],
        })
        .collect();
    BoxFigure {
        title: "Each base pair's direction against the principal component of the definitional pairs".into(),
        x_label: "base pair".into(),
        y_label: "cos(m̂ − f̂, pca)".into(),
        hues: vec!["seeds".into()],
        panels,
        show_points: true,
        rotate_x_labels: true,
        panel_size: (640, 400),
        columns: 2,
        reference: None,
        bands: Vec::new(),
        fit_y: false,
        own_y_axes: false,
    }
}

/// The stereotype test's word scores s(t, A, B) on every seed, the stereotypically masculine
/// and feminine words side by side, one panel per configuration.
fn stereotype_figure(words: &[WeatWordRow], test: &str, configs: &[(String, String)]) -> BoxFigure {
    let panels = configs
        .iter()
        .map(|(corpus, algorithm)| {
            let own: Vec<&WeatWordRow> = (words.iter())
                .filter(|r| &r.corpus == corpus && &r.algorithm == algorithm && r.test == test)
                .collect();
            let n_seeds = own.iter().map(|r| r.seed + 1).max().unwrap_or(0);
            let scores = |set: &str| -> Vec<Vec<f64>> {
                (0..n_seeds)
                    .map(|seed| {
                        (own.iter())
                            .filter(|r| r.seed == seed && r.set == set)
                            .map(|r| r.score)
                            .collect()
                    })
                    .collect()
            };
            BoxPanel {
                title: config_label(corpus, algorithm),
                groups: (0..n_seeds).map(|s| s.to_string()).collect(),
                values: vec![scores("x"), scores("y")],
            }
        })
        .collect();
    BoxFigure {
        title: format!("WEAT scores of the stereotypically masculine and feminine words of `{test}`"),
        x_label: "seed".into(),
        y_label: "s(t, A, B)".into(),
        hues: vec![
            "stereotypically masculine".into(),
            "stereotypically feminine".into(),
        ],
        panels,
        show_points: false,
        rotate_x_labels: false,
        panel_size: (960, 360),
        columns: 1,
        reference: Some(0.0),
        bands: Vec::new(),
        fit_y: true,
        own_y_axes: true,
    }
}

/// The section, when the run wrote set-level tables.
pub(crate) fn blocks(
    tables: &SetLevelTables,
    meta: &ReportMeta,
    evidence: Evidence,
    blocks: &mut Vec<Block>,
    figures: &mut Vec<NamedFigure>,
) {
    let (Some(spreads), Some(reliability)) = (&tables.seed_spread, &tables.reliability) else {
        return;
    };
    let configs = configs_of(spreads.iter().map(ConfigRow::config));
    blocks.push(Block::Heading(
        2,
        "WEAT, Direct Bias and Bakarov's detectors across seeds".into(),
    ));
    blocks.push(Block::Paragraph(
        "Each set-level measure gives one value per seed; the intervals are the 2.5 % and 97.5 % quantiles \
         across seeds. Test-retest ICC(2,1) rates a family of such values with the seeds as raters: the \
         single-pair WEATs of a query pair (one subject per base pair), Direct Bias along every direction, and \
         the per-word scores behind each value (`set_level_reliability`)."
            .into(),
    ));
    let family = |family: &str| -> Vec<String> {
        (tables.weat.as_deref())
            .map(|rows| {
                sorted_names(
                    rows.iter()
                        .filter(|r| r.family == family)
                        .map(|r| r.test.as_str()),
                )
            })
            .unwrap_or_default()
    };
    let (tests, stereotype_tests) = (family("caliskan"), family("stereotype"));
    if !tests.is_empty() || !stereotype_tests.is_empty() {
        blocks.push(Block::Heading(3, "WEAT tests".into()));
        blocks.push(Block::Paragraph(if stereotype_tests.is_empty() {
            "Does a test's verdict survive a reseed? Caliskan et al.'s tests on every seed:".into()
        } else {
            "Does a test's verdict survive a reseed? Caliskan et al.'s tests, and the stereotype test — the \
             stereotypically masculine against the stereotypically feminine words of a list with stereotype \
             scores (Bolukbasi et al.'s professions), every base pair's words as attributes — on every seed:"
                .into()
        }));
        blocks.push(weat_table(
            spreads,
            &[&tests[..], &stereotype_tests[..]].concat(),
            &configs,
        ));
    }
    contrast::selection_blocks(spreads, &stereotype_tests, &configs, evidence, blocks);
    if let Some(words) = &tables.weat_words {
        // One figure per list: its selection of the most stereotyped words is in the tables.
        for test in stereotype_tests.iter().filter(|t| selection_of(t).is_none()) {
            push_figure(
                blocks,
                figures,
                &format!("set_level_stereotypes_{test}"),
                stereotype_figure(words, test, &configs),
                format!(
                    "Each word's score s(t, A, B) = mean cos(t, a) − mean cos(t, b) on every seed, A and B every \
                     masculine and every feminine word of the base pairs (positive = closer to the masculine \
                     words), for the words of `{test}` whose stereotype score is masculine and feminine (words \
                     gendered by definition left out). {BOX_NOTE}"
                ),
            );
        }
    }
    blocks.push(Block::Heading(
        3,
        "Test-retest reliability of the set-level measures".into(),
    ));
    blocks.push(reliability_table(reliability, &stereotype_tests, &configs));
    blocks.push(Block::Heading(3, "Direct Bias and Bakarov's detectors".into()));
    blocks.push(direction_table(spreads, &configs));
    let rows = bakarov_rows(spreads, &tests, &configs);
    bakarov_blocks(
        &rows,
        &meta.corpus_tokens,
        tables.agreement.as_deref(),
        evidence,
        blocks,
    );
    agreement_blocks(spreads, &rows, &configs, blocks);
    if let Some(directions) = &tables.directions {
        push_figure(
            blocks,
            figures,
            "set_level_directions",
            direction_figure(directions, &configs),
            format!(
                "The cosine between each base pair's direction m̂ − f̂ and the first principal component of the \
                 definitional pairs on the same seed (Schröder et al., Fig. 3); one dot per seed. {BOX_NOTE}"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::bakarov::{
        BAKAROV_BENCHMARKS, BakarovRow, algorithm_order, bakarov_findings, bakarov_rows, quality_across_seeds,
    };
    use super::*;
    use crate::finding::Verdict;

    fn row(corpus: &str, measure: &str, subject: &str, mean: f64) -> SeedSpreadRow {
        SeedSpreadRow {
            corpus: corpus.into(),
            algorithm: "sgns".into(),
            measure: measure.into(),
            subject: subject.into(),
            spread: retest_tables::SpreadStats {
                sd: 0.1,
                ..crate::tests::spread(4, mean, 0.2)
            },
            share_significant: f64::NAN,
        }
    }

    /// Three corpora where OS rises with WEAT's d (ρ = 1) and no detector follows quality.
    fn spreads() -> Vec<SeedSpreadRow> {
        let mut rows = Vec::new();
        for (corpus, os, gd, d, q) in [
            ("a", 0.1, 2.0, 0.5, 0.3),
            ("b", 0.2, 1.0, 0.7, 0.2),
            ("c", 0.3, 3.0, 0.9, 0.4),
        ] {
            rows.push(row(corpus, "os", "occ16", os));
            rows.push(row(corpus, "gd", "occ16", gd));
            rows.push(row(corpus, "weat_effect_size", "weat6", d));
            rows.push(row(corpus, "weat_effect_size", "weat7", d + 0.1));
            rows.push(row(corpus, "weat_p_value", "weat6", 0.01));
            rows.push(row(corpus, "weat_p_value", "weat7", 0.03));
            for b in BAKAROV_BENCHMARKS {
                rows.push(row(corpus, "quality_spearman", b, q));
            }
        }
        rows
    }

    #[test]
    fn the_stereotype_figure_has_a_box_per_seed_and_side() {
        let word = |corpus: &str, seed: u32, test: &str, set: &str, score: f64| WeatWordRow {
            corpus: corpus.into(),
            algorithm: "sgns".into(),
            seed,
            test: test.into(),
            set: set.into(),
            word: "w".into(),
            score,
            normalized: f64::NAN,
        };
        let words = vec![
            word("a", 0, "professions", "x", 0.2),
            word("a", 0, "professions", "x", 0.3),
            word("a", 0, "professions", "y", -0.1),
            word("a", 1, "professions", "y", -0.2),
            word("a", 1, "weat6", "x", 9.0),
            word("b", 0, "professions", "x", 0.4),
        ];
        let configs = [
            ("a".to_owned(), "sgns".to_owned()),
            ("b".to_owned(), "sgns".to_owned()),
        ];
        let figure = stereotype_figure(&words, "professions", &configs);
        assert_eq!(figure.panels.len(), 2);
        assert_eq!(figure.panels[0].groups, ["0", "1"]);
        assert_eq!(
            figure.panels[0].values,
            [vec![vec![0.2, 0.3], vec![]], vec![vec![-0.1], vec![-0.2]]]
        );
        assert_eq!(figure.panels[1].values, [vec![vec![0.4]], vec![vec![]]]);
        assert!(figure.fit_y && !figure.clips());
    }

    #[test]
    fn algorithms_ordered_alike_on_every_corpus_follow_the_algorithm() {
        let mut rows = Vec::new();
        for (corpus, sgns, glove) in [("a", 0.1, 0.3), ("b", 0.2, 0.4)] {
            for (algorithm, os) in [("sgns", sgns), ("glove", glove)] {
                rows.push(BakarovRow {
                    config: (corpus.into(), algorithm.into()),
                    os,
                    gd: if corpus == "a" { os } else { -os },
                    weat: f64::NAN,
                    weat_p: f64::NAN,
                    quality: Vec::new(),
                    analogy: f64::NAN,
                });
            }
        }
        let (verdict, text) = algorithm_order(&rows);
        assert_eq!(verdict, Verdict::DoesNotReplicate);
        assert_eq!(text, "same order on every corpus: OS: sgns < glove");
        rows[3].os = 0.0;
        let (verdict, text) = algorithm_order(&rows);
        assert_eq!(verdict, Verdict::Replicates);
        assert_eq!(
            text,
            "no detector orders the algorithms alike on every corpus (2 compared)"
        );
    }

    #[test]
    fn bakarovs_claims_are_checked_across_configurations() {
        let spreads = spreads();
        let configs = configs_of(spreads.iter().map(ConfigRow::config));
        let tests = vec!["weat6".to_owned(), "weat7".to_owned()];
        let rows = bakarov_rows(&spreads, &tests, &configs);
        assert!((rows[1].weat - 0.75).abs() < 1e-12);
        assert!((rows[1].weat_p - 0.02).abs() < 1e-12);
        let tokens: Vec<(String, u64)> = vec![("a".into(), 1000), ("b".into(), 2000), ("c".into(), 3000)];
        let findings = bakarov_findings(&rows, &tokens);
        // OS and WEAT grow with the corpus, GD does not.
        assert_eq!(
            findings[0].this_run,
            "ρ = 1.00 (n = 3), ρ = 0.50 (n = 3), ρ = 1.00 (n = 3)"
        );
        assert_eq!(findings[0].verdict, Verdict::DoesNotReplicate);
        // One algorithm per corpus: nothing to order.
        assert_eq!(findings[1].verdict, Verdict::NotAvailable);
        assert_eq!(findings[1].this_run, "fewer than 2 corpora with 2 algorithms");
        // OS and WEAT rank the corpora alike: the detectors agree, against Bakarov.
        assert_eq!(findings[2].this_run, "ρ = 1.00 (n = 3)");
        assert_eq!(findings[2].verdict, Verdict::DoesNotReplicate);
        // Quality ranks a < b < c as b < a < c: ρ(OS) = ρ(WEAT) = 0.5, ρ(GD) = 1.
        assert_eq!(
            findings[3].this_run,
            "ρ = 0.50 (n = 3), ρ = 1.00 (n = 3), ρ = 0.50 (n = 3)"
        );
        assert_eq!(findings[3].verdict, Verdict::DoesNotReplicate);
        let two = bakarov_findings(&rows[..2], &tokens);
        assert_eq!(two[2].verdict, Verdict::NotAvailable);
        assert_eq!(two[2].this_run, "fewer than 3 configurations");
        // With the Google analogy accuracy (c < a < b), quality is also judged by it: ρ(OS) =
        // ρ(WEAT) = −0.5, ρ(GD) = −1.
        let mut spreads = spreads;
        for (corpus, accuracy) in [("a", 0.3), ("b", 0.4), ("c", 0.1)] {
            spreads.push(row(corpus, "analogy_accuracy", "google", accuracy));
        }
        let rows = bakarov_rows(&spreads, &tests, &configs);
        assert!((rows[1].analogy - 0.4).abs() < 1e-12);
        assert_eq!(
            bakarov_findings(&rows, &tokens)[3].this_run,
            "ρ = 0.50 (n = 3), ρ = 1.00 (n = 3), ρ = 0.50 (n = 3), ρ = -0.50 (n = 3), ρ = -1.00 (n = 3), ρ = -0.50 (n = 3)"
        );
    }

    #[test]
    fn quality_across_seeds_needs_every_rho_to_stay_small() {
        let row =
            |algorithm: &str, a: &str, b: &str, rho: f64, low: f64, high: f64| retest_tables::AgreementRow {
                corpus: "c".into(),
                algorithm: algorithm.into(),
                measure_a: a.into(),
                measure_b: b.into(),
                spearman: rho,
                p_value: 0.5,
                ci_low: low,
                ci_high: high,
                n_seeds: 32,
                status: "ok".into(),
            };
        let mut rows = vec![
            row("sgns", "os", "quality_spearman:ws353", 0.1, -0.3, 0.4),
            row(
                "sgns",
                "weat_effect_size",
                "quality_spearman:rg65",
                -0.2,
                -0.5,
                0.1,
            ),
            // Not a detector against quality: left out.
            row("sgns", "os", "gd", 0.9, 0.8, 1.0),
            row("glove", "quality_spearman:ws353", "gd", 0.0, -0.2, 0.2),
            row("sgns", "gd", "analogy_accuracy:google", 0.3, -0.1, 0.6),
        ];
        let f = quality_across_seeds(Some(&rows));
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(
            f.this_run,
            "c GloVe: 1 of 1 intervals include 0 (ρ 0.00 to 0.00); c SGNS: 3 of 3 intervals include 0 (ρ -0.20 to 0.30)"
        );
        // An interval that excludes 0 is counted; a |ρ| of 0.5 or more decides.
        rows[1].ci_high = -0.05;
        let f = quality_across_seeds(Some(&rows));
        assert_eq!(f.verdict, Verdict::Replicates);
        assert!(
            f.this_run
                .ends_with("c SGNS: 2 of 3 intervals include 0 (ρ -0.20 to 0.30)"),
            "{}",
            f.this_run
        );
        rows[0].spearman = 0.6;
        assert_eq!(
            quality_across_seeds(Some(&rows)).verdict,
            Verdict::DoesNotReplicate
        );
        assert_eq!(quality_across_seeds(None).verdict, Verdict::NotAvailable);
    }
}
