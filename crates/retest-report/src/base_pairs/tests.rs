//! Tests of the base-pair section on small hand-built tables.

use retest_tables::{
    BasePairAgreementRow, BasePairExampleRow, BasePairKappaRow, BasePairSeedsRow, BasePairSummaryRow,
    BasePairVarianceRow,
};

use super::cells::*;
use super::columns::*;
use super::example::*;
use super::findings::*;
use super::kappa::*;
use super::variance::*;
use crate::document::Block;
use crate::finding::{Finding, Verdict};
use crate::input::BasePairTables;

const SEEDS: u32 = 3;
const PAIRS: [&str; 2] = ["he/she", "man/woman"];
const RULES: [&str; 3] = ["dbwa", "ripa", "nbm"];

fn config() -> Config {
    ("c".to_owned(), "sgns".to_owned())
}

fn agreement(rule: &str, seed: u32, kappa: f64) -> BasePairAgreementRow {
    BasePairAgreementRow {
        corpus: "c".into(),
        algorithm: "sgns".into(),
        seed,
        rule: rule.into(),
        n_words: 20,
        n_pairs: 2,
        kappa,
        magnitude_changed: 0.3,
        magnitude_within: 0.7,
        same_label: 0.5,
        status: "ok".into(),
    }
}

fn seeds_row(rule: &str, pair: &str, kappa: f64) -> BasePairSeedsRow {
    BasePairSeedsRow {
        corpus: "c".into(),
        algorithm: "sgns".into(),
        rule: rule.into(),
        pair: pair.into(),
        n_words: 20,
        n_seeds: SEEDS,
        kappa,
        status: "ok".into(),
    }
}

#[allow(clippy::too_many_arguments)]
fn kappa(
    seed: u32,
    analysis: &str,
    list: &str,
    rule: &str,
    rule_b: &str,
    pair: &str,
    value: f64,
    status: &str,
) -> BasePairKappaRow {
    BasePairKappaRow {
        corpus: "c".into(),
        algorithm: "sgns".into(),
        seed,
        analysis: analysis.into(),
        list: list.into(),
        rule: rule.into(),
        rule_b: rule_b.into(),
        pair: pair.into(),
        pair_b: String::new(),
        n_words: 20,
        kappa: value,
        status: status.into(),
    }
}

/// Every κ analysis of a lowercased corpus: capitalised forms `not_applicable`.
fn lowercased_kappas() -> Vec<BasePairKappaRow> {
    let mut rows = Vec::new();
    for seed in 0..SEEDS {
        for rule in RULES {
            for (p, pair) in PAIRS.iter().enumerate() {
                let offset = 0.01 * f64::from(seed) + 0.02 * p as f64;
                let na = |analysis: &str| {
                    kappa(
                        seed,
                        analysis,
                        "professions",
                        rule,
                        "",
                        pair,
                        f64::NAN,
                        NOT_APPLICABLE,
                    )
                };
                rows.push(na("capitalised"));
                rows.push(kappa(
                    seed,
                    "plural",
                    "professions",
                    rule,
                    "",
                    pair,
                    0.5 + offset,
                    "ok",
                ));
                rows.push(na("capital"));
                rows.push(na("upper"));
                rows.push(kappa(seed, "truth", "bsri", rule, "", pair, 0.1 + offset, "ok"));
                rows.push(kappa(
                    seed,
                    "truth",
                    "animals",
                    rule,
                    "",
                    pair,
                    0.4 + offset,
                    "ok",
                ));
            }
        }
        for (a, b, v) in [
            ("dbwa", "ripa", 0.85),
            ("dbwa", "nbm", 0.5),
            ("ripa", "nbm", 0.45),
        ] {
            for pair in PAIRS {
                rows.push(kappa(seed, "rules", "professions", a, b, pair, v, "ok"));
            }
        }
    }
    rows
}

fn lowercased_tables() -> BasePairTables {
    let mut agreement_rows = Vec::new();
    for seed in 0..SEEDS {
        for (rule, k) in [("dbwa", 0.3), ("ripa", 0.35), ("nbm", 0.1)] {
            agreement_rows.push(agreement(rule, seed, k + 0.01 * f64::from(seed)));
        }
    }
    let mut seeds = Vec::new();
    for (rule, k) in [("dbwa", 0.7), ("ripa", 0.75), ("nbm", 0.5)] {
        for pair in PAIRS {
            seeds.push(seeds_row(rule, pair, k));
        }
    }
    BasePairTables {
        agreement: Some(agreement_rows),
        kappa: Some(lowercased_kappas()),
        seeds: Some(seeds),
        ..BasePairTables::default()
    }
}

fn verdicts(found: &[Finding]) -> Vec<Verdict> {
    found.iter().map(|f| f.verdict).collect()
}

#[test]
fn findings_on_a_lowercased_corpus() {
    let found = findings(&lowercased_tables(), &config());
    assert_eq!(
        verdicts(&found),
        [
            Verdict::Replicates,
            Verdict::NotAvailable,
            Verdict::Replicates,
            Verdict::Replicates,
            Verdict::Replicates,
            Verdict::Replicates,
        ],
        "{found:#?}"
    );
    assert!(found[1].sentence.contains("lowercased"), "{}", found[1].sentence);
    // Plural κ per seed: mean over pairs 0.51 + 0.01·seed, median over seeds 0.52.
    assert_eq!(
        found[2].this_run,
        "plural: DB/WA 0.52, RIPA 0.52, NBM 0.52; Capitalised not applicable; UPPER not applicable"
    );
    assert_eq!(found[0].this_run, "DB/WA 0.31, RIPA 0.36, NBM 0.11");
    assert_eq!(
        found[5].this_run,
        "seeds vs pairs: DB/WA 0.70 vs 0.31, RIPA 0.75 vs 0.36, NBM 0.50 vs 0.11"
    );
}

#[test]
fn findings_that_do_not_replicate() {
    let mut tables = lowercased_tables();
    // One rule with substantial agreement across pairs, beyond the seeds' agreement.
    for row in tables.agreement.as_mut().unwrap() {
        if row.rule == "nbm" {
            row.kappa = 0.65;
        }
    }
    for row in tables.kappa.as_mut().unwrap() {
        match (row.analysis.as_str(), row.list.as_str(), row.rule.as_str()) {
            // Almost perfect plural agreement for RIPA.
            ("plural", _, "ripa") => row.kappa = 0.9,
            // BSRI above animals over the rules.
            ("truth", "bsri", _) => row.kappa = 0.9,
            // DB/WA–NBM above DB/WA–RIPA.
            ("rules", _, "dbwa") if row.rule_b == "nbm" => row.kappa = 0.9,
            _ => {}
        }
    }
    let found = findings(&tables, &config());
    assert_eq!(
        verdicts(&found),
        [
            Verdict::DoesNotReplicate,
            Verdict::NotAvailable,
            Verdict::DoesNotReplicate,
            Verdict::DoesNotReplicate,
            Verdict::DoesNotReplicate,
            Verdict::DoesNotReplicate,
        ],
        "{found:#?}"
    );
}

#[test]
fn capitalised_pairs_are_checked_on_a_cased_corpus() {
    let mut tables = lowercased_tables();
    for row in tables.kappa.as_mut().unwrap() {
        if row.analysis == "capitalised" {
            row.status = "ok".into();
            row.kappa = if row.pair == "he/she" { 0.6 } else { 0.9 };
        }
    }
    let found = findings(&tables, &config());
    assert_eq!(found[1].verdict, Verdict::Replicates, "{:?}", found[1]);
    assert_eq!(found[1].this_run, "mean DB/WA 0.75, RIPA 0.75, NBM 0.75");
    for row in tables.kappa.as_mut().unwrap() {
        if row.analysis == "capitalised" {
            row.kappa = 0.85;
        }
    }
    assert_eq!(findings(&tables, &config())[1].verdict, Verdict::DoesNotReplicate);
}

#[test]
fn missing_tables_are_not_available() {
    let found = findings(&BasePairTables::default(), &config());
    assert_eq!(verdicts(&found), [Verdict::NotAvailable; 6]);
}

#[test]
fn not_applicable_tables_are_one_sentence() {
    let tables = lowercased_tables();
    let mut blocks = Vec::new();
    kappa_section(
        &tables,
        &[config()],
        "Table 3",
        "",
        |rows| capitalised_columns(&kappa_rules(rows)),
        &mut blocks,
    );
    assert_eq!(
        blocks[2],
        Block::Paragraph("c · SGNS: not applicable (lowercased corpus).".into())
    );
    assert_eq!(blocks.len(), 3);
    let mut blocks = Vec::new();
    kappa_section(
        &tables,
        &[config()],
        "Table 4",
        "",
        |rows| {
            let rules = kappa_rules(rows);
            (FORMS.iter())
                .flat_map(|(form, label)| form_columns(form, label, &rules))
                .collect()
        },
        &mut blocks,
    );
    let Block::Table { header, rows } = &blocks[3] else {
        panic!("{blocks:?}")
    };
    assert_eq!(
        header,
        &["base pair", "plural · DB/WA", "plural · RIPA", "plural · NBM"]
    );
    assert_eq!(rows[0][1], "0.51 [0.50, 0.52]");
    assert_eq!(
        rows[2],
        [
            "mean over pairs",
            "0.52 [0.51, 0.53]",
            "0.52 [0.51, 0.53]",
            "0.52 [0.51, 0.53]"
        ]
    );
    assert!(
        matches!(&blocks[4], Block::Paragraph(p) if p == "Capitalised forms and UPPER forms: not applicable (lowercased corpus)."),
        "{:?}",
        blocks[4]
    );
}

fn variance(rule: &str, scale: &str, component: &str, variance: f64) -> BasePairVarianceRow {
    BasePairVarianceRow {
        corpus: "c".into(),
        algorithm: "sgns".into(),
        rule: rule.into(),
        scale: scale.into(),
        component: component.into(),
        sum_of_squares: 0.0,
        df: 1,
        mean_square: 0.0,
        estimate: variance,
        variance,
        share: variance / 10.0,
    }
}

#[test]
fn direction_instability_splits_the_non_word_variance() {
    let rows: Vec<BasePairVarianceRow> = [
        ("word", 5.0),
        ("pair", 1.0),
        ("seed", 0.25),
        ("word:pair", 2.0),
        ("word:seed", 0.25),
        ("pair:seed", 0.5),
        ("residual", 1.0),
    ]
    .iter()
    .map(|(c, v)| variance("dbwa", "label", c, *v))
    .collect();
    let refs: Vec<&BasePairVarianceRow> = rows.iter().collect();
    assert_eq!(
        instability(&refs),
        Some(Instability {
            pair: 0.6,
            seed: 0.1,
            joint: 0.3
        })
    );
    assert_eq!(
        instability_sentence(&rows, &config()).unwrap(),
        "c · SGNS: of the variation of DB/WA labels beyond the words' own, the pair explains 60.0 %, the seed \
         10.0 % (pair × seed and residual: 30.0 %)."
    );
    let only_words = [variance("dbwa", "label", "word", 1.0)];
    assert_eq!(instability(&only_words.iter().collect::<Vec<_>>()), None);
}

fn example_rows() -> Vec<BasePairExampleRow> {
    let mut examples = Vec::new();
    for seed in 0..SEEDS {
        for pair in PAIRS {
            for (form, word) in [("base", "professor"), ("plural", "professors")] {
                examples.push(BasePairExampleRow {
                    corpus: "c".into(),
                    algorithm: "sgns".into(),
                    seed,
                    rule: "dbwa".into(),
                    pair: pair.into(),
                    form: form.into(),
                    word: word.into(),
                    score: 0.01 * f64::from(seed),
                });
            }
        }
    }
    examples
}

fn summary_rows() -> Vec<BasePairSummaryRow> {
    (0..SEEDS)
        .map(|seed| BasePairSummaryRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            seed,
            rule: "dbwa".into(),
            n_words: 100,
            n_scores: 200,
            mean: 0.0,
            sd: 0.05 + 0.01 * f64::from(seed),
        })
        .collect()
}

#[test]
fn the_example_figure_has_bands_around_the_mean() {
    let (examples, summary) = (example_rows(), summary_rows());
    let figure = example_figure(
        &examples.iter().collect::<Vec<_>>(),
        &summary.iter().collect::<Vec<_>>(),
        &config(),
        "dbwa",
    )
    .unwrap();
    assert_eq!(figure.hues, ["professor", "professors (plural)"]);
    assert_eq!(figure.panels[0].groups, PAIRS);
    assert_eq!(figure.panels[0].values[1][0], [0.0, 0.01, 0.02]);
    assert_eq!(figure.reference, Some(0.0));
    let expected = [-0.12, -0.06, 0.06, 0.12];
    assert!(
        (figure.bands.iter().zip(expected)).all(|(b, e)| (b - e).abs() < 1e-12),
        "{:?}",
        figure.bands
    );
    let svg = crate::figures::svg(&figure).unwrap();
    assert_eq!(svg, crate::figures::svg(&figure).unwrap());
}

/// Evidence enough for every verdict.
const ENOUGH: crate::finding::Evidence = crate::finding::Evidence { n_seeds: 32 };

#[test]
fn the_section_is_drawn_from_the_tables() {
    let mut tables = lowercased_tables();
    let mut blocks = Vec::new();
    let mut figures = Vec::new();
    super::blocks(&tables, ENOUGH, &mut blocks, &mut figures);
    assert!(blocks.is_empty(), "no section without base_pair_summary");
    tables.summary = Some(summary_rows());
    tables.examples = Some(example_rows());
    super::blocks(&tables, ENOUGH, &mut blocks, &mut figures);
    assert_eq!(
        blocks[0],
        Block::Heading(
            2,
            "Base pairs across seeds (Zhang, Sneyd & Stevenson 2020)".into()
        )
    );
    let paragraphs: Vec<&str> = (blocks.iter())
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(p.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        (paragraphs.iter())
            .filter(|p| **p == "c · SGNS: not applicable (lowercased corpus).")
            .count(),
        1,
        "Table 3 once: {paragraphs:#?}"
    );
    let stems: Vec<&str> = figures.iter().map(|f| f.stem.as_str()).collect();
    assert_eq!(stems, ["base_pairs_fig1_c_sgns_dbwa"]);
    let again = {
        let (mut b, mut f) = (Vec::new(), Vec::new());
        super::blocks(&tables, ENOUGH, &mut b, &mut f);
        b
    };
    assert_eq!(again, blocks);
}

#[test]
fn spreads_are_median_and_95_percent_interval() {
    // Type-7 quantiles of 0.1, 0.2, 0.3: 0.1 + 0.05·0.1 and 0.3 − 0.05·0.1.
    assert_eq!(spread(&[0.3, f64::NAN, 0.1, 0.2]), "0.20 [0.11, 0.29]");
    let values: Vec<f64> = (0..=40).map(f64::from).collect();
    assert_eq!(spread_with(&values, count), "20 [1, 39]");
    assert_eq!(spread(&[]), "—");
    assert_eq!(spread_with(&[60.0, 50.0], count), "55 [50.2, 59.8]");
    assert_eq!(counts(&[155, 155]), "155");
    assert_eq!(counts(&[150, 155, 160]), "155 [150.2, 159.8]");
}
