//! `retest base-pairs` against an independent reference: `zhang_reference.py` (NumPy, SciPy,
//! scikit-learn's `cohen_kappa_score`, statsmodels' `fleiss_kappa`) computed the scores, Zhang
//! et al.'s Tables 1–6, Figure 2 and the RIPA flips on two models and wrote
//! `crates/retest-pipeline/tests/data/zhang_reference.json`: the 3,000-word WikiText-103 model
//! of retest-eval's tests, and a synthetic model holding every list's words and forms. Every κ
//! must equal the reference's (to 1e-12), Table 1 to 1e-9, the scores to f32 precision; bad
//! input gives one line, compared in full.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_tables::{
    BasePairAgreementRow, BasePairCorrelationRow, BasePairDirectionRow, BasePairFlipRow, BasePairKappaRow,
    BasePairScoreRow, BasePairSummaryRow, CoverageRow, Row, Table,
};
use retest_test_support::{arg, output, stderr, with_zero_row, workspace_dir};
use serde_json::Value;

/// `retest ARGS` in the workspace.
fn retest(args: &[&str]) -> Output {
    output(retest_test_support::retest(env!("CARGO_BIN_EXE_retest")).args(args))
}

fn fixture() -> Value {
    let path = workspace_dir().join("crates/retest-pipeline/tests/data/zhang_reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn rows<R: Row<Layout = ()>>(dir: &Path, name: &'static str) -> Vec<R> {
    let path = dir.join(format!("{name}.parquet"));
    Table::read(name, &path).unwrap().rows().unwrap()
}

/// `value` equals the reference `expected` (null for NaN) within `tolerance`.
fn close(what: &str, value: f64, expected: &Value, tolerance: f64) {
    match expected.as_f64() {
        Some(e) => assert!(
            (value - e).abs() <= tolerance,
            "{what}: {value} against the reference's {e}"
        ),
        None => assert!(value.is_nan(), "{what}: {value} against the reference's null"),
    }
}

/// Runs `retest base-pairs` on the reference's model `key` and compares every table.
fn check(key: &str) {
    let reference = fixture();
    let m = &reference["models"][key];
    let model = workspace_dir().join(m["model_file"].as_str().unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("tables");
    let run = retest(&["base-pairs", arg(&model), "--out", arg(&out)]);
    assert!(run.status.success(), "{}", stderr(&run));

    let coverage: Vec<CoverageRow> = rows(&out, "coverage");
    let pool = coverage.iter().find(|c| c.kind == "nbm_pool").unwrap();
    assert_eq!(
        pool.n_in_vocabulary as u64,
        m["pool_size"].as_u64().unwrap(),
        "{key}: pool size"
    );

    let summary: Vec<BasePairSummaryRow> = rows(&out, "base_pair_summary");
    for row in &summary {
        let t1 = &m["table1"][&row.rule];
        assert_eq!(row.n_words as u64, m["limited_vocabulary"].as_u64().unwrap());
        assert_eq!(row.n_scores as u64, t1["n"].as_u64().unwrap());
        close(
            &format!("{key} table 1 {} mean", row.rule),
            row.mean,
            &t1["mean"],
            1e-9,
        );
        close(&format!("{key} table 1 {} sd", row.rule), row.sd, &t1["sd"], 1e-9);
    }
    assert_eq!(summary.len(), 3);

    let scores: Vec<BasePairScoreRow> = rows(&out, "base_pair_scores");
    let professions = m["professions_in_vocabulary"].as_array().unwrap().len();
    assert_eq!(
        scores.len(),
        3 * m["pairs"].as_array().unwrap().len() * professions
    );
    for s in &scores {
        let e = &m["scores"][&s.rule][&s.pair][&s.word];
        close(
            &format!("{key} score {} {} {}", s.rule, s.pair, s.word),
            s.score,
            e,
            1e-6,
        );
    }

    let agreement: Vec<BasePairAgreementRow> = rows(&out, "base_pair_agreement");
    for row in &agreement {
        let t2 = &m["table2"][&row.rule];
        let what = format!("{key} table 2 {}", row.rule);
        assert_eq!(row.n_words as u64, t2["n_words"].as_u64().unwrap(), "{what}");
        close(&what, row.kappa, &t2["fleiss_kappa"], 1e-12);
        close(&what, row.magnitude_changed, &t2["magnitude_changed"], 1e-12);
        close(&what, row.magnitude_within, &t2["magnitude_within"], 1e-12);
        close(&what, row.same_label, &t2["same_label"], 1e-12);
    }

    let kappas: Vec<BasePairKappaRow> = rows(&out, "base_pair_kappa");
    let mut checked = [0usize; 5];
    for k in &kappas {
        let what = format!(
            "{key} {} {} {} {} {} {}",
            k.analysis, k.list, k.rule, k.rule_b, k.pair, k.pair_b
        );
        let expected = match k.analysis.as_str() {
            "capitalised" if k.status == "out_of_vocabulary" => {
                assert!(m["table3"][&k.rule].get(&k.pair).is_none(), "{what}");
                continue;
            }
            "capitalised" => {
                checked[0] += 1;
                &m["table3"][&k.rule][&k.pair]
            }
            "plural" | "capital" | "upper" => {
                checked[1] += 1;
                let words = m["table4_words"].as_array().unwrap().len();
                assert_eq!(k.n_words as usize, words, "{what}");
                if words == 0 {
                    assert!(k.kappa.is_nan(), "{what}");
                    continue;
                }
                &m["table4"][&k.analysis][&k.rule][&k.pair]
            }
            "truth" => {
                checked[2] += 1;
                let words = m["table5_words"][&k.list].as_array().unwrap().len();
                assert_eq!(k.n_words as usize, words, "{what}");
                if words < 2 {
                    // One word's κ is 0 or undefined, whatever the labels (scikit-learn returns
                    // those); retest reports too few subjects.
                    assert_eq!(k.status, "too_few_subjects", "{what}");
                    continue;
                }
                &m["table5"][&k.list][&k.rule][&k.pair]
            }
            "rules" => {
                checked[3] += 1;
                &m["table6"][format!("{}&{}", k.rule, k.rule_b)][&k.pair]
            }
            "pairs" => {
                checked[4] += 1;
                &m["pair_kappas"][&k.pair][&k.pair_b]
            }
            other => panic!("unexpected analysis {other}"),
        };
        close(&what, k.kappa, expected, 1e-12);
    }
    let n_pairs = m["pairs"].as_array().unwrap().len();
    let capitalised = m["capitalised_pairs"].as_array().unwrap().len();
    assert_eq!(
        checked,
        [
            3 * capitalised,
            9 * n_pairs,
            6 * n_pairs,
            3 * n_pairs,
            n_pairs * (n_pairs - 1) / 2
        ],
        "{key}: κ rows per analysis"
    );

    let directions: Vec<BasePairDirectionRow> = rows(&out, "base_pair_directions");
    assert_eq!(directions.len(), n_pairs * n_pairs);
    for d in &directions {
        let e = &m["difference_cosines"][&d.pair][&d.pair_b];
        close(
            &format!("{key} cosine {} {}", d.pair, d.pair_b),
            d.cosine,
            e,
            1e-9,
        );
    }
    let correlations: Vec<BasePairCorrelationRow> = rows(&out, "base_pair_correlations");
    assert_eq!(correlations.len(), 2 * n_pairs);
    for c in &correlations {
        let e = &m[format!("fig2_r_{}", c.reading)][&c.pair];
        close(
            &format!("{key} figure 2 r {} {}", c.reading, c.pair),
            c.r,
            e,
            1e-9,
        );
    }

    let flips: Vec<BasePairFlipRow> = rows(&out, "base_pair_flips");
    match m["ripa_flip"].as_object() {
        Some(f) => {
            assert_eq!(flips[0].status, "ok");
            assert_eq!(flips[0].n_words as u64, f["n_words"].as_u64().unwrap());
            assert_eq!(flips[0].flipped as u64, f["flipped"].as_u64().unwrap());
        }
        None => assert_eq!(flips[0].status, "out_of_vocabulary"),
    }
}

#[test]
fn every_table_equals_the_reference_on_the_synthetic_model() {
    check("synthetic");
}

#[test]
fn every_table_equals_the_reference_on_the_wikitext_model() {
    check("wt103_3000");
}

/// The synthetic model twice: the seeds agree perfectly and every seed component is 0.
#[test]
fn two_copies_of_a_model_agree_across_seeds() {
    let model = model_path();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("tables");
    // What a killed run for the same --out left, beside a folder of a similar name.
    let (stale, kept) = (
        tmp.path().join(".tables.Ab3xY9.tmp"),
        tmp.path().join(".tables.notes"),
    );
    for dir in [&stale, &kept] {
        std::fs::create_dir(dir).unwrap();
        std::fs::write(dir.join("coverage.csv"), "half").unwrap();
    }
    let run = retest(&["base-pairs", &model, &model, "--out", arg(&out)]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(!stale.exists() && kept.exists());
    assert_eq!(
        stderr(&run).lines().last(),
        Some(format!("12 tables → {}", out.display()).as_str())
    );
    let seeds: Vec<retest_tables::BasePairSeedsRow> = rows(&out, "base_pair_seeds");
    assert_eq!(seeds.len(), 30);
    assert!(
        seeds
            .iter()
            .all(|s| s.n_seeds == 2 && (s.kappa == 1.0 || s.status == "zero_variance"))
    );
    let variance: Vec<retest_tables::BasePairVarianceRow> = rows(&out, "base_pair_variance");
    for v in variance.iter().filter(|v| v.component.contains("seed")) {
        assert!(
            v.variance < 1e-20,
            "{} {} {}: {}",
            v.rule,
            v.scale,
            v.component,
            v.variance
        );
    }
}

/// A profession whose row is all zeros (a padding row) has no direction: it is left out of
/// the vocabulary with a warning and a `zero_vector` coverage row, and never scored.
#[test]
fn a_zero_vector_is_left_out_and_named() {
    let zeroed = with_zero_row(&std::fs::read_to_string(model_path()).unwrap(), "actor");
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("zero.vec");
    std::fs::write(&model, zeroed).unwrap();
    let out = tmp.path().join("tables");
    let run = retest(&["base-pairs", arg(&model), "--out", arg(&out)]);
    assert!(run.status.success(), "{}", stderr(&run));
    let name = model.display();
    assert_eq!(
        stderr(&run).lines().next(),
        Some(
            format!(
                "warning: embedding `{name}`: 1 word has an all-zero vector (no direction) and is left \
                 out: actor"
            )
            .as_str()
        )
    );
    let coverage: Vec<CoverageRow> = rows(&out, "coverage");
    let zero = coverage.iter().find(|c| c.kind == "zero_vector").unwrap();
    assert_eq!((zero.n_dropped, zero.dropped.as_str()), (1, "actor"));
    let scores: Vec<BasePairScoreRow> = rows(&out, "base_pair_scores");
    assert!(!scores.is_empty() && scores.iter().all(|s| s.word != "actor"));
}

fn model_path() -> String {
    let path: PathBuf = workspace_dir().join("crates/retest-pipeline/tests/data/zhang_synthetic.w2v.txt");
    arg(&path).to_owned()
}

#[test]
fn bad_input_gets_one_line() {
    let model = model_path();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("tables");
    let out = arg(&out);
    let write = |name: &str, text: &str| {
        let path = tmp.path().join(name);
        std::fs::write(&path, text).unwrap();
        arg(&path).to_owned()
    };
    let one_pair = write("one.txt", "he she\nzzqq qqzz\n");
    let run = retest(&["base-pairs", &model, "--pairs", &one_pair, "--out", out]);
    assert_eq!(
        stderr(&run),
        format!(
            "error: embedding `{model}`: 1 of the 2 pairs of `{one_pair}` (--pairs) is in the vocabulary; \
             comparing pairs needs at least 2\n"
        )
    );
    let targets = write("targets.txt", "zzqq\nqqzz\n");
    let run = retest(&["base-pairs", &model, "--targets", &targets, "--out", out]);
    assert_eq!(
        stderr(&run),
        format!(
            "error: embedding `{model}`: none of the 2 words of `{targets}` (--targets) is in the vocabulary\n"
        )
    );
    // Too small a neutral pool names both options that size it.
    let run = retest(&["base-pairs", &model, "--most-frequent", "10", "--out", out]);
    assert_eq!(
        stderr(&run),
        format!(
            "error: embedding `{model}`: NBM's neutral pool has 5 words (the gender-neutral ones among the 10 \
             most frequent, --most-frequent), --nbm-k is 100: the pool must be larger than k\n"
        )
    );
    let truth = write("truth.txt", "lion m\nlioness x\n");
    let run = retest(&["base-pairs", &model, "--truth", &truth, "--out", out]);
    assert_eq!(
        stderr(&run),
        format!(
            "error: truth list `{truth}`, line 2: expected a word and its gender `m` or `f`, found `lioness x`\n"
        )
    );
    std::fs::create_dir(out).unwrap();
    let run = retest(&["base-pairs", &model, "--out", out]);
    assert_eq!(
        stderr(&run),
        format!("error: --out {out}: it exists; name a new folder (the tables are written into it)\n")
    );
}
