//! `retest run smoke` end to end on a real corpus (WikiText-103 valid): two independent runs give
//! byte-identical tables (the regression input included) and reports, a run killed during training resumes
//! without redoing finished jobs, and a rerun of a finished pipeline does nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn retest(results: &Path) -> Command {
    let mirror = std::env::var_os("RETEST_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| project().join("../shared/data"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retest"));
    cmd.current_dir(project())
        .env("RETEST_RESULTS_DIR", results)
        .env("RETEST_DATA_DIR", mirror)
        .env("RETEST_CACHE_DIR", results.join("cache"))
        .env("RETEST_OFFLINE", "1")
        .env_remove("RETEST_CORPORA_DIR")
        .env_remove("RETEST_WORDLISTS_DIR");
    cmd
}

fn run_smoke(results: &Path, extra: &[&str]) -> String {
    let out = retest(results)
        .args(["run", "smoke"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "retest run smoke failed:\n{stderr}");
    stderr
}

/// Every file under `dir`, relative path → bytes, sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((
                    path.strip_prefix(dir).unwrap().to_owned(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn fifu_files(dir: &Path) -> Vec<PathBuf> {
    if !dir.is_dir() {
        return Vec::new();
    }
    files(dir)
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| p.extension().is_some_and(|e| e == "fifu"))
        .collect()
}

#[test]
fn smoke_pipeline_is_reproducible_resumable_and_idempotent() {
    let a = tempfile::tempdir().unwrap();
    let log = run_smoke(a.path(), &[]);
    assert!(log.contains("regression input: "), "{log}");
    let tables_a = files(&a.path().join("smoke/tables"));
    let names: Vec<String> = tables_a.iter().map(|(p, _)| p.display().to_string()).collect();
    for expected in [
        "coverage.csv",
        "bias_scores/wikitext-103-valid-sgns.parquet",
        "bias_scores/wikitext-103-valid-glove.parquet",
        "test_retest_words.parquet",
        "test_retest_pairs.csv",
        "inter_rater_words.parquet",
        "inter_rater_pairs.parquet",
        "internal_consistency.csv",
        "word_properties.parquet",
        "regression.parquet",
        "regression.csv",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    // The regression input has rows, with the lexical features filled in.
    let regression =
        retest_tables::Table::read("regression", &a.path().join("smoke/tables/regression.parquet")).unwrap();
    assert!(regression.height() > 0, "the regression input is empty");
    let csv = std::fs::read_to_string(a.path().join("smoke/tables/regression.csv")).unwrap();
    assert!(
        csv.starts_with("analysis,corpus,algorithm,metric,scale,word,score,"),
        "{csv:.200}"
    );
    assert!(
        csv.contains(",NOUN,") && csv.contains("inter_rater"),
        "{csv:.2000}"
    );
    let manifest = std::fs::read_to_string(a.path().join("smoke/manifest.json")).unwrap();
    assert!(manifest.contains("\"retest_version\""), "{manifest}");

    // The report: its pages, and every figure as SVG and PNG.
    let report_a = files(&a.path().join("smoke/report"));
    let report_names: Vec<String> = report_a.iter().map(|(p, _)| p.display().to_string()).collect();
    for expected in [
        "index.html",
        "report.md",
        "fig2_test_retest_words.svg",
        "fig2_test_retest_words.png",
    ] {
        assert!(
            report_names.iter().any(|n| n == expected),
            "{expected} missing from {report_names:?}"
        );
    }
    let markdown = std::fs::read_to_string(a.path().join("smoke/report/report.md")).unwrap();
    assert!(
        markdown.contains("## Comparison with the paper"),
        "{markdown:.500}"
    );

    multilevel_regression_fits(
        &a.path().join("smoke/tables/regression.csv"),
        &a.path().join("multilevel"),
    );

    // A second run kept apart, killed once it has trained something, then resumed.
    let b = tempfile::tempdir().unwrap();
    let embeddings = b.path().join("smoke/embeddings");
    let mut child = retest(b.path())
        .args(["run", "smoke", "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while fifu_files(&embeddings).is_empty() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be killed"
        );
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no embedding after 300 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = fifu_files(&embeddings);
    assert!(!kept.is_empty());
    // Every file with a final name is complete: it loads.
    for path in &kept {
        retest_embeddings_loads(&embeddings.join(path));
    }
    let log = run_smoke(b.path(), &[]);
    assert!(
        log.contains(&format!("{} training jobs already done, skipped", kept.len())),
        "the resumed run should skip the {} finished seeds:\n{log}",
        kept.len()
    );
    let tables_b = files(&b.path().join("smoke/tables"));
    assert_eq!(tables_a.len(), tables_b.len());
    for ((pa, xa), (pb, xb)) in tables_a.iter().zip(&tables_b) {
        assert_eq!(pa, pb);
        assert!(xa == xb, "{} differs between two runs", pa.display());
    }
    assert!(
        files(&b.path().join("smoke/report")) == report_a,
        "the report differs between two runs"
    );

    // A finished pipeline reruns nothing and rewrites the same tables.
    let log = run_smoke(a.path(), &[]);
    assert!(log.contains("training jobs already done, skipped"), "{log}");
    assert!(log.contains("already done"), "{log}");
    assert_eq!(files(&a.path().join("smoke/tables")), tables_a);
}

/// `analysis/multilevel.R` fits both models on the regression input. Skipped where R with lme4
/// is not installed (Debian: r-cran-lme4 r-cran-performance); `.ci/run` installs them.
fn multilevel_regression_fits(csv: &Path, out_dir: &Path) {
    let has_lme4 = Command::new("Rscript")
        .args(["-e", "quit(status = !requireNamespace('lme4', quietly = TRUE))"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !has_lme4 {
        return;
    }
    let out = Command::new("Rscript")
        .arg(project().join("analysis/multilevel.R"))
        .arg(csv)
        .arg("--out")
        .arg(out_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "analysis/multilevel.R failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for analysis in ["== test_retest", "== inter_rater", "(1 | corpus) dropped"] {
        assert!(stdout.contains(analysis), "{analysis} missing from:\n{stdout}");
    }
    let r2 = std::fs::read_to_string(out_dir.join("multilevel_r2.csv")).unwrap();
    assert!(r2.contains("\"test_retest\",\"fixed\""), "{r2}");
}

fn retest_embeddings_loads(path: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_retest"))
        .args(["embeddings", "info"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} does not load: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}
