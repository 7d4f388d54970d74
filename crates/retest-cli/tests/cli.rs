//! The `retest` binary end to end: plans, corpus preparation and error output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn mirror() -> PathBuf {
    let dir = std::env::var_os("RETEST_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| project().join("../shared/data"));
    assert!(
        dir.join("MANIFEST.md").is_file(),
        "data mirror missing at {}: set RETEST_DATA_DIR",
        dir.display()
    );
    dir
}

/// Runs `retest` in the project folder with results going to `results`.
fn retest(args: &[&str], results: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retest"))
        .current_dir(project())
        .args(args)
        .env("RETEST_RESULTS_DIR", results)
        .env("RETEST_DATA_DIR", mirror())
        .env("RETEST_CACHE_DIR", results.join("cache"))
        .env("RETEST_OFFLINE", "1")
        .env_remove("RETEST_CORPORA_DIR")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn plan_prints_resolved_plan_and_jobs() {
    let results = tempfile::tempdir().unwrap();
    let out = retest(&["plan", "smoke"], results.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("n_seeds: 3"), "{stdout}");
    assert!(
        stdout.contains("ns_exponent: 0.75"),
        "defaults are printed: {stdout}"
    );
    assert!(stdout.contains("# Jobs (11), in dependency order"), "{stdout}");
    assert!(
        stdout.contains("train          wikitext-103-valid glove seed-02"),
        "{stdout}"
    );
}

#[test]
fn every_shipped_pipeline_is_valid() {
    let results = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(project().join("pipelines")).unwrap() {
        let path = entry.unwrap().path();
        let out = retest(
            &["plan", "--format", "json", path.to_str().unwrap()],
            results.path(),
        );
        assert!(out.status.success(), "{}: {}", path.display(), text(&out.stderr));
    }
}

#[test]
fn invalid_pipeline_gives_one_line_with_file_line_and_field() {
    let results = tempfile::tempdir().unwrap();
    let pipeline = results.path().join("bad.yaml");
    std::fs::write(
        &pipeline,
        "name: bad\ncorpora:\n  - recipe: wikitext-103-valid\nsgns:\n  window: 0\n",
    )
    .unwrap();
    let out = retest(
        &["--corpora", "corpora", "plan", pipeline.to_str().unwrap()],
        results.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}:5:11: field `sgns.window`: 0 is too small: must be at least 1\n",
            pipeline.display()
        )
    );
}

#[test]
fn corpus_prepare_writes_the_encoded_corpus_and_reuses_it() {
    let results = tempfile::tempdir().unwrap();
    let out = retest(&["corpus", "prepare", "wikitext-103-valid"], results.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = PathBuf::from(text(&out.stdout).trim());
    assert!(dir.starts_with(results.path().join("corpora")));
    for file in ["corpus.bin", "vocab.tsv", "stats.json"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    assert!(
        text(&out.stderr).contains("corpus wikitext-103-valid: prepared in"),
        "{}",
        text(&out.stderr)
    );
    let again = retest(&["corpus", "prepare", "wikitext-103-valid"], results.path());
    assert!(
        text(&again.stderr).contains("already prepared"),
        "{}",
        text(&again.stderr)
    );
}

#[test]
fn corpus_that_cannot_be_found_says_where_it_looked() {
    let results = tempfile::tempdir().unwrap();
    let out = retest(&["corpus", "prepare", "wikitext-2"], results.path());
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: preparing corpus `wikitext-2`: corpus `wikitext-2`: "),
        "{stderr}"
    );
    assert!(stderr.contains("file `train-00000-of-00001.parquet`"), "{stderr}");
    assert!(
        stderr.contains(&format!("mirror folder {}: no file named", mirror().display())),
        "{stderr}"
    );
    assert!(
        stderr.contains("download: disabled (RETEST_OFFLINE is set)"),
        "{stderr}"
    );
}

#[test]
fn corpus_list_shows_every_recipe() {
    let results = tempfile::tempdir().unwrap();
    let out = retest(&["corpus", "list"], results.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for name in [
        "wikitext-103 ",
        "wikitext-2 ",
        "reddit-askscience-2014",
        "reddit-askhistorians-2014",
        "gutenberg ",
    ] {
        assert!(stdout.contains(name), "{name} missing from:\n{stdout}");
    }
}
