//! Bakarov (2021) in the set-level section: his detectors (OS, GD) beside WEAT and the
//! word-similarity benchmarks per configuration, his claims checked across configurations, and the
//! agreement between the measures.

use retest_measures::Measure;
use retest_tables::{AgreementRow, SeedSpreadRow, SetLevelStatistic};

use crate::data::{ConfigRow, algorithm_label, configs_of, rule_label, sorted_names};
use crate::document::Block;
use crate::finding::{Evidence, Finding, Verdict};
use crate::numbers::{f2, f3};
use crate::page::{push_findings, row_cells};

/// The word-similarity benchmarks Bakarov (2021) reports beside his detectors.
pub(super) const BAKAROV_BENCHMARKS: [&str; 3] = ["rg65", "rw", "wordsim353"];

/// Below this |Spearman ρ| across configurations, two quantities count as not correlated.
pub(super) const NO_CORRELATION: f64 = 0.5;

/// Per configuration the seed means Bakarov's table needs: OS, GD, WEAT's effect size averaged
/// over the tests of the tests file, each benchmark's ρ, and the Google analogy accuracy (NaN
/// unless the run measured it: his analogy benchmark, MSR's, is not in the data mirror).
pub(super) struct BakarovRow {
    pub(super) config: (String, String),
    pub(super) os: f64,
    pub(super) gd: f64,
    pub(super) weat: f64,
    /// WEAT's permutation p-value averaged as `weat`: the score Bakarov's table reports.
    pub(super) weat_p: f64,
    pub(super) quality: Vec<f64>,
    pub(super) analogy: f64,
}

/// The mean over its seeds of a measure of one configuration (of every subject of the measure,
/// or of one); NaN without a row.
pub(super) fn mean_of(
    spreads: &[SeedSpreadRow],
    config: (&str, &str),
    measure: &str,
    subject: Option<&str>,
) -> f64 {
    let values: Vec<f64> = (spreads.iter())
        .filter(|r| {
            (r.corpus.as_str(), r.algorithm.as_str()) == config
                && r.measure == measure
                && subject.is_none_or(|s| r.subject == s)
        })
        .map(|r| r.spread.mean)
        .collect();
    if values.is_empty() {
        f64::NAN
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

pub(super) fn bakarov_rows(
    spreads: &[SeedSpreadRow],
    tests: &[String],
    configs: &[(String, String)],
) -> Vec<BakarovRow> {
    let mean_of = |config, measure: &str, subject: Option<&str>| mean_of(spreads, config, measure, subject);
    configs
        .iter()
        .map(|(corpus, algorithm)| {
            let config = (corpus.as_str(), algorithm.as_str());
            let mean_over_tests = |statistic: SetLevelStatistic| {
                let values: Vec<f64> = (tests.iter())
                    .map(|t| mean_of(config, statistic.as_str(), Some(t)))
                    .collect();
                values.iter().sum::<f64>() / values.len() as f64
            };
            BakarovRow {
                config: (corpus.clone(), algorithm.clone()),
                os: mean_of(config, Measure::Os.name(), None),
                gd: mean_of(config, Measure::Gd.name(), None),
                weat: mean_over_tests(SetLevelStatistic::WeatEffectSize),
                weat_p: mean_over_tests(SetLevelStatistic::WeatPValue),
                quality: (BAKAROV_BENCHMARKS.iter())
                    .map(|b| mean_of(config, SetLevelStatistic::QualitySpearman.as_str(), Some(b)))
                    .collect(),
                analogy: mean_of(config, SetLevelStatistic::AnalogyAccuracy.as_str(), None),
            }
        })
        .collect()
}

/// Spearman's ρ across configurations of two columns, over the configurations where both are
/// numbers; `None` below 3.
pub(super) fn rho(x: &[f64], y: &[f64]) -> Option<(f64, usize)> {
    let (x, y): (Vec<f64>, Vec<f64>) = (x.iter().zip(y))
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(|(a, b)| (*a, *b))
        .unzip();
    (x.len() >= 3).then(|| (retest_eval::stats::spearman(&x, &y), x.len()))
}

/// Bakarov's claims as findings: his detectors disagree (ρ(OS, WEAT) = −0.2) and bias does not
/// follow embedding quality; both checked across this run's configurations (seed means).
pub(super) fn bakarov_findings(rows: &[BakarovRow], corpus_tokens: &[(String, u64)]) -> Vec<Finding> {
    let column = |f: &dyn Fn(&BakarovRow) -> f64| -> Vec<f64> { rows.iter().map(f).collect() };
    let (os, gd, weat) = (column(&|r| r.os), column(&|r| r.gd), column(&|r| r.weat));
    let quality = column(&|r| {
        let q: Vec<f64> = r.quality.iter().copied().filter(|v| v.is_finite()).collect();
        if q.is_empty() {
            f64::NAN
        } else {
            q.iter().sum::<f64>() / q.len() as f64
        }
    });
    let verdict = |pairs: &[Option<(f64, usize)>]| -> (Verdict, String) {
        if pairs.iter().any(Option::is_none) {
            return (Verdict::NotAvailable, "fewer than 3 configurations".to_owned());
        }
        let values: Vec<(f64, usize)> = pairs.iter().flatten().copied().collect();
        let text = values
            .iter()
            .map(|(r, n)| format!("ρ = {} (n = {n})", f2(*r)))
            .collect::<Vec<_>>();
        let all_low = values.iter().all(|(r, _)| r.abs() < NO_CORRELATION);
        (
            if all_low {
                Verdict::Replicates
            } else {
                Verdict::DoesNotReplicate
            },
            text.join(", "),
        )
    };
    let tokens = column(&|r| {
        (corpus_tokens.iter())
            .find(|(c, _)| *c == r.config.0)
            .map_or(f64::NAN, |(_, n)| *n as f64)
    });
    let (v1, t1) = verdict(&[rho(&os, &weat)]);
    let sizes: Vec<u64> = {
        let mut s: Vec<u64> = tokens
            .iter()
            .filter(|t| t.is_finite())
            .map(|&t| t as u64)
            .collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    let (v3, t3) = if sizes.len() < 2 {
        (Verdict::NotAvailable, "fewer than 2 corpus sizes".to_owned())
    } else {
        verdict(&[rho(&tokens, &os), rho(&tokens, &gd), rho(&tokens, &weat)])
    };
    let (v4, t4) = algorithm_order(rows);
    let mut against_quality = vec![rho(&os, &quality), rho(&gd, &quality), rho(&weat, &quality)];
    let analogy = column(&|r| r.analogy);
    if analogy.iter().any(|a| a.is_finite()) {
        against_quality.extend([rho(&os, &analogy), rho(&gd, &analogy), rho(&weat, &analogy)]);
    }
    let (v2, t2) = verdict(&against_quality);
    vec![
        Finding {
            claim: "Bias does not follow corpus size (§3)".into(),
            paper: "neither the smallest nor the largest corpus is the most biased".into(),
            this_run: t3,
            verdict: v3,
            sentence: format!(
                "Spearman's ρ across configurations between the corpus's tokens and each detector (OS, GD, WEAT; \
                 seed means); replicates when every |ρ| < {NO_CORRELATION}. GD is a sum over the neutral words in \
                 the vocabulary, so it grows with a larger corpus's coverage of the list (`detectors.n_words`)."
            ),
        },
        Finding {
            claim: "Bias does not follow the training algorithm (§3)".into(),
            paper: "no algorithm is consistently the most biased".into(),
            this_run: t4,
            verdict: v4,
            sentence:
                "For each detector (OS, GD, WEAT; seed means), whether every corpus ranks the algorithms in \
                       the same order; replicates when no detector does."
                    .into(),
        },
        Finding {
            claim: "The detectors disagree: OS and WEAT rank the models differently (§3)".into(),
            paper: "Spearman ρ(OS, WEAT) = −0.2".into(),
            this_run: t1,
            verdict: v1,
            sentence: format!(
                "Spearman's ρ across configurations between the seed means of OS and of WEAT's effect size \
                 (averaged over the tests); replicates when |ρ| < {NO_CORRELATION}."
            ),
        },
        Finding {
            claim: "Bias does not follow embedding quality (§3, Table 1)".into(),
            paper: "no relation between OS, GD, WEAT and RG, RW, WS-353, MSR".into(),
            this_run: t2,
            verdict: v2,
            sentence: format!(
                "Spearman's ρ across configurations between each detector (OS, GD, WEAT; seed means) and the mean \
                 Spearman ρ of RG-65, Rare Words and WS-353 (then, when the run measured it, the Google analogy \
                 accuracy in place of Bakarov's MSR); replicates when every |ρ| < {NO_CORRELATION}."
            ),
        },
    ]
}

/// Bakarov's "bias does not follow quality", seed by seed: within each configuration, Spearman's
/// ρ across its seeds between each detector (OS, GD, WEAT's mean d) and each quality
/// benchmark's score (a similarity ρ, the analogy accuracy), with its bootstrap interval over resamples of the seeds (the `agreement`
/// table). Replicates, as across configurations, when every |ρ| is below [`NO_CORRELATION`];
/// the intervals that include 0 are counted beside (of many comparisons, one in twenty excludes
/// 0 by chance alone).
pub(super) fn quality_across_seeds(rows: Option<&[AgreementRow]>) -> Finding {
    let claim = "Bias does not follow embedding quality across the seeds of one configuration".to_owned();
    let paper = "tested across configurations only (§3)".to_owned();
    let detectors = [
        Measure::Os.name(),
        Measure::Gd.name(),
        SetLevelStatistic::WeatEffectSize.as_str(),
    ];
    let quality = |name: &str| {
        [
            SetLevelStatistic::QualitySpearman,
            SetLevelStatistic::AnalogyAccuracy,
        ]
        .iter()
        .any(|s| {
            name.strip_prefix(s.as_str())
                .is_some_and(|rest| rest.starts_with(':'))
        })
    };
    let pairs: Vec<&AgreementRow> = (rows.unwrap_or_default().iter())
        .filter(|r| r.status == "ok" && r.ci_low.is_finite())
        .filter(|r| {
            (detectors.contains(&r.measure_a.as_str()) && quality(&r.measure_b))
                || (detectors.contains(&r.measure_b.as_str()) && quality(&r.measure_a))
        })
        .collect();
    if pairs.is_empty() {
        return Finding {
            claim,
            paper,
            this_run: "—".into(),
            verdict: Verdict::NotAvailable,
            sentence: "Cannot be checked: the run has no agreement of a detector with a quality benchmark \
                       across seeds."
                .into(),
        };
    }
    let mut parts = Vec::new();
    for (corpus, algorithm) in configs_of(pairs.iter().map(|r| r.config())) {
        let own: Vec<&&AgreementRow> = (pairs.iter())
            .filter(|r| r.corpus == corpus && r.algorithm == algorithm)
            .collect();
        let covering = own.iter().filter(|r| r.ci_low <= 0.0 && r.ci_high >= 0.0).count();
        let rhos: Vec<f64> = own.iter().map(|r| r.spearman).collect();
        let low = rhos.iter().copied().fold(f64::INFINITY, f64::min);
        let high = rhos.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        parts.push((
            low.abs().max(high.abs()) < NO_CORRELATION,
            format!(
                "{corpus} {}: {covering} of {} intervals include 0 (ρ {} to {})",
                algorithm_label(&algorithm),
                own.len(),
                f2(low),
                f2(high)
            ),
        ));
    }
    let holds = parts.iter().all(|(small, _)| *small);
    Finding::judged(
        claim,
        paper,
        parts.into_iter().map(|(_, p)| p).collect::<Vec<_>>().join("; "),
        holds,
        |verdict| {
            format!(
                "Within each configuration, Spearman's ρ across its seeds between each detector (OS, GD, WEAT's \
                 mean d) and each quality benchmark (word similarity's ρ, the Google analogy accuracy when \
                 measured), with the 2.5 %–97.5 % quantiles of ρ over \
                 1,000 bootstrap resamples of the seeds; replicates when every |ρ| < {NO_CORRELATION}, as \
                 across configurations (of many intervals, about one in twenty excludes 0 by chance alone); \
                 {verdict}."
            )
        },
    )
}

/// Whether each detector ranks the algorithms the same way on every corpus (with at least 2
/// corpora that share at least 2 algorithms).
pub(super) fn algorithm_order(rows: &[BakarovRow]) -> (Verdict, String) {
    let corpora = sorted_names(rows.iter().map(|r| r.config.0.as_str()));
    let mut consistent = Vec::new();
    let mut compared = 0;
    for (d, name) in [Measure::Os, Measure::Gd, Measure::Weat]
        .map(Measure::label)
        .into_iter()
        .enumerate()
    {
        let value = |r: &BakarovRow| [r.os, r.gd, r.weat][d];
        let orders: Vec<Vec<&str>> = (corpora.iter())
            .map(|c| {
                let mut own: Vec<&BakarovRow> = rows
                    .iter()
                    .filter(|r| &r.config.0 == c && value(r).is_finite())
                    .collect();
                own.sort_by(|a, b| value(a).total_cmp(&value(b)));
                own.iter().map(|r| r.config.1.as_str()).collect()
            })
            .filter(|order: &Vec<&str>| order.len() >= 2)
            .collect();
        if orders.len() < 2 {
            continue;
        }
        compared += 1;
        if orders.iter().all(|o| o == &orders[0]) {
            consistent.push(format!("{name}: {}", orders[0].join(" < ")));
        }
    }
    if compared == 0 {
        return (
            Verdict::NotAvailable,
            "fewer than 2 corpora with 2 algorithms".to_owned(),
        );
    }
    if consistent.is_empty() {
        (
            Verdict::Replicates,
            format!("no detector orders the algorithms alike on every corpus ({compared} compared)"),
        )
    } else {
        (
            Verdict::DoesNotReplicate,
            format!("same order on every corpus: {}", consistent.join("; ")),
        )
    }
}

/// Bakarov's Table 1 with seeds: each configuration's detectors and benchmarks (seed means),
/// and his claims checked.
pub(super) fn bakarov_blocks(
    rows: &[BakarovRow],
    corpus_tokens: &[(String, u64)],
    agreement: Option<&[AgreementRow]>,
    evidence: Evidence,
    blocks: &mut Vec<Block>,
) {
    blocks.push(Block::Heading(
        3,
        "Bakarov (2021): detectors and embedding quality".into(),
    ));
    blocks.push(Block::Paragraph(
        "Bakarov's table scores WEAT by its permutation p-value; it is here beside the effect size d. The \
         findings below compare configurations by d: a p-value saturates at its floor once a test is \
         significant on every seed, while d still orders the configurations."
            .into(),
    ));
    let mut header = row_cells(&[
        "corpus",
        "algorithm",
        Measure::Os.label(),
        Measure::Gd.label(),
        "WEAT d (mean of tests)",
        "WEAT p (mean of tests)",
    ]);
    header.extend(BAKAROV_BENCHMARKS.iter().map(|b| format!("{b} ρ")));
    let analogy = rows.iter().any(|r| r.analogy.is_finite());
    if analogy {
        header.push("Google analogy accuracy".to_owned());
    }
    blocks.push(Block::Table {
        header,
        rows: rows
            .iter()
            .map(|r| {
                let mut cells = vec![
                    r.config.0.clone(),
                    algorithm_label(&r.config.1),
                    f2(r.os),
                    f2(r.gd),
                    f2(r.weat),
                    f3(r.weat_p),
                ];
                cells.extend(r.quality.iter().map(|q| f2(*q)));
                if analogy {
                    cells.push(f2(r.analogy));
                }
                cells
            })
            .collect(),
    });
    let mut findings = bakarov_findings(rows, corpus_tokens);
    findings.push(quality_across_seeds(agreement));
    push_findings("finding (Bakarov 2021)", findings, evidence, blocks);
}

/// Do the measures rank the configurations alike? Spearman's ρ across configurations between
/// the seed means of WEAT's d (mean over the tests), Direct Bias along `pca`, OS, GD and each
/// rule's mean |score| over the neutral words.
pub(super) fn agreement_blocks(
    spreads: &[SeedSpreadRow],
    rows: &[BakarovRow],
    configs: &[(String, String)],
    blocks: &mut Vec<Block>,
) {
    let mut series: Vec<(String, Vec<f64>)> = vec![
        ("WEAT d".into(), rows.iter().map(|r| r.weat).collect()),
        (
            "Direct Bias (pca)".into(),
            (configs.iter())
                .map(|(c, a)| mean_of(spreads, (c, a), Measure::DirectBias.name(), Some("pca")))
                .collect(),
        ),
        (Measure::Os.label().into(), rows.iter().map(|r| r.os).collect()),
        (Measure::Gd.label().into(), rows.iter().map(|r| r.gd).collect()),
    ];
    for rule in sorted_names(
        (spreads.iter())
            .filter(|r| r.measure == SetLevelStatistic::MeanAbsScore.as_str())
            .map(|r| r.subject.as_str()),
    ) {
        let values = (configs.iter())
            .map(|(c, a)| {
                mean_of(
                    spreads,
                    (c, a),
                    SetLevelStatistic::MeanAbsScore.as_str(),
                    Some(&rule),
                )
            })
            .collect();
        series.push((format!("{} (mean |score|)", rule_label(&rule)), values));
    }
    blocks.push(Block::Heading(
        3,
        "Agreement between measures across configurations".into(),
    ));
    let mut body = Vec::new();
    for a in 0..series.len() {
        for b in a + 1..series.len() {
            if let Some((r, n)) = rho(&series[a].1, &series[b].1) {
                body.push(vec![
                    series[a].0.clone(),
                    series[b].0.clone(),
                    f2(r),
                    n.to_string(),
                ]);
            }
        }
    }
    if body.is_empty() {
        blocks.push(Block::Paragraph(
            "Fewer than 3 configurations: no agreement across configurations (the `agreement` table has \
             each configuration's agreement across its seeds)."
                .into(),
        ));
        return;
    }
    blocks.push(Block::Paragraph(
        "Spearman's ρ across configurations between the seed means of each two measures; the `agreement` \
         table has the same within each configuration, across its seeds."
            .into(),
    ));
    blocks.push(Block::Table {
        header: row_cells(&["measure", "measure", "Spearman ρ", "configurations"]),
        rows: body,
    });
}
