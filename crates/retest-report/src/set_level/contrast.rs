//! Schröder et al.'s Fig. 1 with seeds: the stereotype test on every stereotyped word of its
//! list against the same test on the most stereotyped words only. Their point is that WEAT's
//! effect size d need not follow how well the scores separate the two target sets: the
//! smaller selection can separate better and still get a smaller d, because d divides by the
//! spread of the pooled scores.

use retest_tables::{SeedSpreadRow, SetLevelStatistic, selection_of};

use crate::data::algorithm_label;
use crate::document::Block;
use crate::finding::{Evidence, Finding};
use crate::numbers::f2;
use crate::page::{interval, push_findings, row_cells, spread};

/// One configuration's two selections: (test, mean d, mean separability) each.
struct Contrast {
    config: (String, String),
    all: (String, f64, f64),
    top: (String, f64, f64),
}

/// The full stereotype tests paired with their `<test>:top<k>` selections, per configuration
/// that has both.
fn contrasts(
    spreads: &[SeedSpreadRow],
    stereotype_tests: &[String],
    configs: &[(String, String)],
) -> Vec<Contrast> {
    let means = |config: (&str, &str), test: &str| -> Option<(String, f64, f64)> {
        let d = spread(spreads, config, SetLevelStatistic::WeatEffectSize.as_str(), test)?;
        let separability = spread(
            spreads,
            config,
            SetLevelStatistic::WeatSeparability.as_str(),
            test,
        )?;
        Some((test.to_owned(), d.spread.mean, separability.spread.mean))
    };
    let mut found = Vec::new();
    for (corpus, algorithm) in configs {
        let config = (corpus.as_str(), algorithm.as_str());
        for top in stereotype_tests {
            let Some(full) = selection_of(top) else {
                continue;
            };
            if let (Some(all), Some(top)) = (means(config, full), means(config, top)) {
                found.push(Contrast {
                    config: (corpus.clone(), algorithm.clone()),
                    all,
                    top,
                });
            }
        }
    }
    found
}

/// The table of both selections' d and separability across seeds, and the finding: does a
/// selection that separates better get a smaller d on some configuration?
pub(super) fn selection_blocks(
    spreads: &[SeedSpreadRow],
    stereotype_tests: &[String],
    configs: &[(String, String)],
    evidence: Evidence,
    blocks: &mut Vec<Block>,
) {
    let found = contrasts(spreads, stereotype_tests, configs);
    if found.is_empty() {
        return;
    }
    blocks.push(Block::Heading(
        3,
        "Effect size against separability (Schröder et al., Fig. 1)".into(),
    ));
    blocks.push(Block::Paragraph(
        "The stereotype test on every stereotyped word of its list and on the most stereotyped words of each \
         side only. Separability is the share of (masculine, feminine) word pairs whose scores s(t, A, B) are in \
         order (ties a half): 1 when every stereotypically masculine word scores above every feminine one. \
         WEAT's d divides the difference of the means by the spread of the pooled scores, so it need not rise \
         with separability."
            .into(),
    ));
    let mut rows = Vec::new();
    for (corpus, algorithm) in configs {
        let config = (corpus.as_str(), algorithm.as_str());
        for test in stereotype_tests {
            let (Some(d), Some(s)) = (
                spread(spreads, config, SetLevelStatistic::WeatEffectSize.as_str(), test),
                spread(
                    spreads,
                    config,
                    SetLevelStatistic::WeatSeparability.as_str(),
                    test,
                ),
            ) else {
                continue;
            };
            rows.push(vec![
                corpus.clone(),
                algorithm_label(algorithm),
                test.clone(),
                interval(&d.spread),
                interval(&s.spread),
                d.spread.n_seeds.to_string(),
            ]);
        }
    }
    blocks.push(Block::Table {
        header: row_cells(&[
            "corpus",
            "algorithm",
            "test",
            "effect size d: mean [2.5 %, 97.5 %]",
            "separability: mean [2.5 %, 97.5 %]",
            "seeds",
        ]),
        rows,
    });
    push_findings(
        "finding (Schröder et al.)",
        vec![finding(&found)],
        evidence,
        blocks,
    );
}

/// How far a selection's words are in the order of its mean d: its separability, or 1 minus it
/// when d is negative (the feminine words then score above the masculine ones).
fn oriented((_, d, separability): &(String, f64, f64)) -> f64 {
    if *d < 0.0 {
        1.0 - separability
    } else {
        *separability
    }
}

/// Replicates when on some configuration the smaller selection separates better in the
/// direction of its d (a higher [`oriented`] separability) and yet has the smaller |d|.
fn finding(found: &[Contrast]) -> Finding {
    let contrary = |c: &Contrast| oriented(&c.top) > oriented(&c.all) && c.top.1.abs() < c.all.1.abs();
    let this_run = (found.iter())
        .map(|c| {
            format!(
                "{} {}: d {} → {}, separability {} → {}",
                c.config.0,
                algorithm_label(&c.config.1),
                f2(c.all.1),
                f2(c.top.1),
                f2(c.all.2),
                f2(c.top.2)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let (top, all) = (&found[0].top.0, &found[0].all.0);
    Finding::judged(
        "A selection of targets that separates better can get a smaller effect size (Fig. 1)".into(),
        "DistilBERT: fewer job titles, more distinct, lower d".into(),
        this_run,
        found.iter().any(contrary),
        |verdict| {
            format!(
                "Mean d and mean separability across seeds of `{all}` and `{top}`, separability read in the \
                 direction of each selection's d (1 − separability when d < 0); replicates when on some \
                 configuration `{top}` separates better and has the smaller |d|; {verdict}."
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Verdict;
    use crate::tests::spread as stats;

    fn row(algorithm: &str, measure: &str, subject: &str, mean: f64) -> SeedSpreadRow {
        SeedSpreadRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            measure: measure.into(),
            subject: subject.into(),
            spread: stats(8, mean, 0.1),
            share_significant: f64::NAN,
        }
    }

    fn rows(algorithm: &str, [d_all, s_all, d_top, s_top]: [f64; 4]) -> Vec<SeedSpreadRow> {
        let (d, s) = ("weat_effect_size", "weat_separability");
        vec![
            row(algorithm, d, "professions", d_all),
            row(algorithm, s, "professions", s_all),
            row(algorithm, d, "professions:top10", d_top),
            row(algorithm, s, "professions:top10", s_top),
        ]
    }

    #[test]
    fn the_smaller_selection_separating_better_with_a_smaller_d_replicates() {
        let tests = ["professions".to_owned(), "professions:top10".to_owned()];
        let configs = [
            ("c".to_owned(), "sgns".to_owned()),
            ("c".to_owned(), "glove".to_owned()),
        ];
        // GloVe: d falls from 1.2 to 0.9 while separability rises from 0.8 to 0.95.
        let spreads = [
            rows("sgns", [1.0, 0.7, 1.4, 0.9]),
            rows("glove", [1.2, 0.8, 0.9, 0.95]),
        ]
        .concat();
        let found = contrasts(&spreads, &tests, &configs);
        assert_eq!(found.len(), 2);
        let f = finding(&found);
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(
            f.this_run,
            "c SGNS: d 1.00 → 1.40, separability 0.70 → 0.90; c GloVe: d 1.20 → 0.90, separability 0.80 → 0.95"
        );
        // d follows separability on both: not replicated.
        let spreads = [
            rows("sgns", [1.0, 0.7, 1.4, 0.9]),
            rows("glove", [1.2, 0.8, 1.3, 0.95]),
        ]
        .concat();
        assert_eq!(
            finding(&contrasts(&spreads, &tests, &configs)).verdict,
            Verdict::DoesNotReplicate
        );
        // The selection's name is the stage's: its list, `:top` and the number of words.
        assert_eq!(retest_tables::stereotype_selection("professions", 10), tests[1]);
        assert_eq!(selection_of(&tests[1]), Some("professions"));
        assert_eq!(
            (selection_of("professions"), selection_of("a:topx")),
            (None, None)
        );
        // Without the smaller selection there is nothing to contrast.
        assert!(contrasts(&spreads, &tests[..1], &configs).is_empty());
        // A negative d reads separability from the other side: d −0.02 → −0.16 is a larger |d|,
        // and 0.50 → 0.51 a worse separation in its direction; 0.40 → 0.2 with d −0.3 → −0.1 is
        // a better one with a smaller |d|.
        let negative = |d_all, s_all, d_top, s_top| {
            let spreads = [
                rows("sgns", [1.0, 0.7, 1.4, 0.9]),
                rows("glove", [d_all, s_all, d_top, s_top]),
            ]
            .concat();
            finding(&contrasts(&spreads, &tests, &configs)).verdict
        };
        assert_eq!(negative(-0.02, 0.50, -0.16, 0.51), Verdict::DoesNotReplicate);
        assert_eq!(negative(-0.3, 0.40, -0.1, 0.2), Verdict::Replicates);
    }
}
