//! Bad input to `retest run`: one clear error naming what is wrong, and no finished work lost.

use std::path::{Path, PathBuf};
use std::process::Output;

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn mirror() -> PathBuf {
    std::env::var_os("RETEST_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| project().join("../shared/data"))
}

/// A study folder with its own pipeline and word lists (two seeds of a tiny SGNS on
/// WikiText-103 valid) whose target list is `target`.
fn study(dir: &Path, target: &str, n_seeds: u32) -> PathBuf {
    let lists = dir.join("wordlists/t");
    std::fs::create_dir_all(lists.join("queries")).unwrap();
    std::fs::create_dir_all(dir.join("pipelines")).unwrap();
    let du2021 = project().join("wordlists/du2021");
    std::fs::copy(du2021.join("base-pairs.txt"), lists.join("base-pairs.txt")).unwrap();
    std::fs::copy(
        du2021.join("queries/career.txt"),
        lists.join("queries/career.txt"),
    )
    .unwrap();
    std::fs::write(
        lists.join("oov.txt"),
        "# none of these is a word\nzzqqzz\nqqxxqq\n",
    )
    .unwrap();
    std::fs::write(lists.join("jobs.txt"), "teacher\nnurse\nengineer\n").unwrap();
    let pipeline = dir.join("pipelines/p.yaml");
    std::fs::write(
        &pipeline,
        format!(
            "name: p\nn_seeds: {n_seeds}\ncorpora:\n  - recipe: wikitext-103-valid\nalgorithms: [sgns]\n\
             sgns:\n  dim: 10\n  epochs: 1\nmeasures:\n  target_lists: [{target}]\n  queries: [career]\n"
        ),
    )
    .unwrap();
    pipeline
}

fn run(pipeline: &Path, results: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_retest"))
        .current_dir(project())
        .args([
            "--results",
            results.to_str().unwrap(),
            "run",
            pipeline.to_str().unwrap(),
        ])
        .env("RETEST_DATA_DIR", mirror())
        .env("RETEST_CACHE_DIR", results.join("cache"))
        .env("RETEST_OFFLINE", "1")
        .env_remove("RETEST_CORPORA_DIR")
        .env_remove("RETEST_WORDLISTS_DIR")
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn fifu_count(results: &Path) -> usize {
    fn walk(dir: &Path, n: &mut usize) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, n);
            } else if path.extension().is_some_and(|e| e == "fifu") {
                *n += 1;
            }
        }
    }
    let mut n = 0;
    walk(results, &mut n);
    n
}

#[test]
fn a_missing_word_list_fails_before_training_and_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "nosuch", 2);
    let results = dir.path().join("results");
    let out = run(&pipeline, &results);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("target list `nosuch`: no file `nosuch.txt` or `nosuch.yaml` in"),
        "{err}"
    );
    assert_eq!(
        fifu_count(&results),
        0,
        "nothing is trained for a pipeline that cannot finish"
    );
}

#[test]
fn a_list_entirely_out_of_vocabulary_is_named_and_training_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "oov", 2);
    let results = dir.path().join("results");
    let out = run(&pipeline, &results);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("corpus `wikitext-103-valid`")
            && err.contains("word list `oov`: all 2 words are out of vocabulary"),
        "{err}"
    );
    assert_eq!(fifu_count(&results), 2, "the trained seeds are kept");
    // Fixing the list reuses them.
    let pipeline = study(dir.path(), "jobs", 2);
    let out = run(&pipeline, &results);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("0 trained, 2 already done"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn one_seed_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "jobs", 1);
    let out = run(&pipeline, &dir.path().join("results"));
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("field `n_seeds`") && err.contains("at least 2 seeds"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn an_unknown_rule_is_named_with_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "jobs", 2);
    let text = std::fs::read_to_string(&pipeline).unwrap();
    std::fs::write(&pipeline, format!("{text}  rules: [dbwa, weat]\n")).unwrap();
    let out = run(&pipeline, &dir.path().join("results"));
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains(
            "field `measures.rules[1]`: unknown variant `weat`, expected one of `dbwa`, `ripa`, `nbm`"
        ),
        "{err}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retest"))
        .args([
            "score",
            "x.fifu",
            "--rules",
            "dbwa,weat",
            "--pairs",
            "p",
            "--words",
            "w",
            "--out",
            "o.csv",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("unknown scoring rule 'weat': expected one of dbwa, ripa, nbm"),
        "{}",
        stderr(&out)
    );
}
