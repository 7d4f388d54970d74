//! Bad input to `retest run`: one clear error naming what is wrong, and no finished work lost.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_test_support::{arg, assert_message, data_dir, output, stderr, workspace_dir, write_file};

/// A study folder with its own pipeline and word lists (two seeds of a tiny SGNS on
/// WikiText-103 valid) whose target list is `target`.
fn study(dir: &Path, target: &str, n_seeds: u32) -> PathBuf {
    let lists = dir.join("wordlists/t");
    std::fs::create_dir_all(lists.join("queries")).unwrap();
    std::fs::create_dir_all(dir.join("pipelines")).unwrap();
    let du2021 = workspace_dir().join("wordlists/du2021");
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
    let pipeline = format!(
        "name: p\nn_seeds: {n_seeds}\ncorpora:\n  - recipe: wikitext-103-valid\nalgorithms: [sgns]\n\
         sgns:\n  dim: 10\n  epochs: 1\nmeasures:\n  target_lists: [{target}]\n  queries: [career]\n"
    );
    write_file(dir, "pipelines/p.yaml", pipeline)
}

fn run(pipeline: &Path, results: &Path) -> Output {
    run_in(&workspace_dir(), pipeline, results)
}

/// `retest run` with `cwd` as the current folder.
fn run_in(cwd: &Path, pipeline: &Path, results: &Path) -> Output {
    output(
        retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
            .current_dir(cwd)
            .args(["--results", arg(results), "run", arg(pipeline)])
            .env("RETEST_CACHE_DIR", results.join("cache")),
    )
}

/// What a failed run says about its failures — each `FAILED` line and the final error — compared
/// in full with `tests/messages/errors/<name>.txt`; the study folder reads `[STUDY]`.
fn assert_failure(name: &str, out: &Output, study: &Path) {
    assert!(!out.status.success(), "the run succeeded:\n{}", stderr(out));
    let err = stderr(out);
    let lines: Vec<&str> = err.lines().collect();
    let last = lines
        .iter()
        .position(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line:\n{err}"));
    let mut said: Vec<&str> = lines[..last]
        .iter()
        .copied()
        .filter(|l| l.starts_with("FAILED "))
        .collect();
    said.extend(&lines[last..]);
    let said = said.join("\n") + "\n";
    assert_message(
        env!("CARGO_MANIFEST_DIR"),
        &format!("errors/{name}"),
        &said,
        &[(study, "[STUDY]")],
    );
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

/// Runs the study's pipeline into `<dir>/results`, expects it to fail as
/// `tests/messages/errors/<name>.txt` says with `n_trained` seeds trained and kept (`why`), and
/// returns the results folder.
fn assert_run_fails(name: &str, dir: &Path, pipeline: &Path, n_trained: usize, why: &str) -> PathBuf {
    let results = dir.join("results");
    let out = run(pipeline, &results);
    assert_failure(name, &out, dir);
    assert_eq!(fifu_count(&results), n_trained, "{why}");
    results
}

/// Rewrites the pipeline file through `edit`.
fn edit_pipeline(pipeline: &Path, edit: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(pipeline).unwrap();
    std::fs::write(pipeline, edit(text)).unwrap();
}

/// Runs the pipeline again, expects `part` on its stderr and returns what the run did.
fn assert_rerun_says(pipeline: &Path, results: &Path, part: &str) -> Output {
    let out = run(pipeline, results);
    assert!(stderr(&out).contains(part), "{}", stderr(&out));
    out
}

#[test]
fn a_missing_word_list_fails_before_training_and_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "nosuch", 2);
    assert_run_fails(
        "missing_list",
        dir.path(),
        &pipeline,
        0,
        "nothing is trained for a pipeline that cannot finish",
    );
}

#[test]
fn a_list_entirely_out_of_vocabulary_is_named_before_training() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "oov", 2);
    let results = assert_run_fails(
        "list_out_of_vocabulary",
        dir.path(),
        &pipeline,
        0,
        "the lists are checked once the corpus is prepared, before training",
    );
    assert_plan_fails("list_out_of_vocabulary_plan", dir.path(), &pipeline, &results);
    // Fixing the list runs the study.
    let pipeline = study(dir.path(), "jobs", 2);
    let out = assert_rerun_says(&pipeline, &results, "2 trained, 0 already done");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_slice_too_small_for_min_count_names_both_fields() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "jobs", 2);
    edit_pipeline(&pipeline, |text| {
        text.replace(
            "recipe: wikitext-103-valid\n",
            "recipe: wikitext-103-valid\n    max_tokens: 50\n",
        )
    });
    assert_run_fails(
        "empty_slice",
        dir.path(),
        &pipeline,
        0,
        "an empty corpus trains nothing",
    );
}

#[test]
fn one_seed_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "jobs", 1);
    let out = run(&pipeline, &dir.path().join("results"));
    assert_failure("one_seed", &out, dir.path());
    assert_eq!(stderr(&out).lines().count(), 1, "one line");
}

#[test]
fn an_unknown_rule_is_named_with_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "jobs", 2);
    edit_pipeline(&pipeline, |text| format!("{text}  rules: [dbwa, weat]\n"));
    let out = run(&pipeline, &dir.path().join("results"));
    assert_failure("unknown_rule", &out, dir.path());
    let out = retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
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
    assert_message(
        env!("CARGO_MANIFEST_DIR"),
        "errors/unknown_rule_score",
        &stderr(&out),
        &[],
    );
}

/// A study whose pipeline trains two seeds of a tiny SGNS on WikiText-103 valid and on further
/// corpora given by their recipes (name, YAML), from the study's own `corpora/` folder.
fn multi_corpus_study(dir: &Path, more: &[(&str, &str)]) -> PathBuf {
    let pipeline = study(dir, "jobs", 2);
    // Words a small Reddit month has too: every corpus's lists must resolve before training.
    std::fs::write(
        dir.join("wordlists/t/jobs.txt"),
        "teacher\nnurse\nengineer\npeople\nman\n",
    )
    .unwrap();
    let corpora = dir.join("corpora");
    std::fs::create_dir_all(&corpora).unwrap();
    std::fs::copy(
        workspace_dir().join("corpora/wikitext-103-valid.yaml"),
        corpora.join("wikitext-103-valid.yaml"),
    )
    .unwrap();
    let mut listed = "  - recipe: wikitext-103-valid\n".to_owned();
    for (name, recipe) in more {
        std::fs::write(corpora.join(format!("{name}.yaml")), recipe).unwrap();
        listed.push_str(&format!("  - recipe: {name}\n"));
    }
    edit_pipeline(&pipeline, |text| {
        text.replace("  - recipe: wikitext-103-valid\n", &listed)
    });
    pipeline
}

/// A recipe `name` of one WikiText file that is nowhere to be found.
fn absent_recipe(name: &str) -> String {
    format!(
        "name: {name}\nreader: {{format: wikitext}}\nsources:\n  - file: absent.tokens\n    \
         sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
    )
}

#[test]
fn a_study_folder_outside_the_project_uses_the_projects_lexicon() {
    // The study holds pipelines/, corpora/ and wordlists/ but no lexicon/, and the run starts
    // in it, away from the project.
    let dir = tempfile::tempdir().unwrap();
    let pipeline = multi_corpus_study(dir.path(), &[]);
    assert!(!dir.path().join("lexicon").exists());
    let results = dir.path().join("results");
    let out = run_in(dir.path(), &pipeline, &results);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(results.join("p/tables/regression.csv").is_file());
}

#[test]
fn a_corpus_file_that_cannot_be_found_says_where_it_looked_and_the_other_corpus_trains() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = multi_corpus_study(dir.path(), &[("second", &absent_recipe("second"))]);
    assert_run_fails(
        "corpus_not_found",
        dir.path(),
        &pipeline,
        2,
        "the corpus that was found trains",
    );
}

#[test]
fn a_failed_run_lists_every_failure_in_its_last_lines() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = multi_corpus_study(
        dir.path(),
        &[
            ("second", &absent_recipe("second")),
            (
                "third",
                "name: third\nreader: {format: wikitext}\nsources:\n  - {file: t.tokens, path: .}\n",
            ),
        ],
    );
    assert_run_fails(
        "two_corpora_fail",
        dir.path(),
        &pipeline,
        2,
        "the corpus that was found trains",
    );
}

#[test]
fn a_corrupt_compressed_corpus_fails_alone_and_keeps_every_finished_job() {
    let dir = tempfile::tempdir().unwrap();
    // A Reddit dump cut in the middle of its bzip2 stream.
    let bytes = std::fs::read(data_dir().join("reddit/pushshift_monthly/RC_2005-12.bz2")).unwrap();
    let broken = dir.path().join("corpora/RC_2005-12-cut.bz2");
    std::fs::create_dir_all(broken.parent().unwrap()).unwrap();
    std::fs::write(&broken, &bytes[..bytes.len() / 2]).unwrap();
    let pipeline = multi_corpus_study(
        dir.path(),
        &[(
            "second",
            "name: second\nreader: {format: reddit}\nsources:\n  - {file: RC_2005-12-cut.bz2, path: RC_2005-12-cut.bz2}\n",
        )],
    );
    let results = assert_run_fails(
        "corrupt_corpus",
        dir.path(),
        &pipeline,
        2,
        "the other corpus's seeds are trained and kept",
    );
    // The cut file's checksum is not recorded, so once the file is whole the rerun prepares it,
    // trains its seeds and reuses the finished ones.
    assert!(
        !dir.path().join("corpora/checksums.lock").exists(),
        "the cut file's checksum is recorded"
    );
    std::fs::write(&broken, &bytes).unwrap();
    assert_rerun_says(
        &pipeline,
        &results,
        "training: 2 trained, 2 already done, 0 failed",
    );
}

#[test]
fn analogy_queries_entirely_out_of_vocabulary_fail_before_training_and_in_plan() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "jobs", 2);
    std::fs::write(
        dir.path().join("wordlists/t/nonsense.txt"),
        "zzqqzz qqxxqq xxzzyy\nman woman qqxxqq\n",
    )
    .unwrap();
    edit_pipeline(&pipeline, |plan| {
        plan + "analogies:\n  queries: nonsense\n  google: false\n  pairs: false\n  sweep: null\n"
    });
    let results = assert_run_fails(
        "queries_out_of_vocabulary",
        dir.path(),
        &pipeline,
        0,
        "the lists are checked once the corpus is prepared, before training",
    );
    // The corpus is prepared now: `retest plan` finds the same.
    assert_plan_fails("queries_out_of_vocabulary_plan", dir.path(), &pipeline, &results);
}

/// `retest plan` of the pipeline with results in `results` fails as
/// `tests/messages/errors/<name>.txt` says.
fn assert_plan_fails(name: &str, dir: &Path, pipeline: &Path, results: &Path) {
    let out = output(
        retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
            .args(["--results", arg(results), "plan", arg(pipeline)])
            .env("RETEST_CACHE_DIR", results.join("cache")),
    );
    assert_failure(name, &out, dir);
}

#[test]
fn an_nbm_k_beyond_the_vocabulary_fails_before_training_and_names_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = study(dir.path(), "jobs", 2);
    edit_pipeline(&pipeline, |text| {
        text.replace("measures:\n", "measures:\n  nbm_k: 1000000\n")
    });
    let results = assert_run_fails(
        "nbm_k_beyond_vocabulary",
        dir.path(),
        &pipeline,
        0,
        "nothing is trained",
    );
    assert_plan_fails("nbm_k_beyond_vocabulary_plan", dir.path(), &pipeline, &results);
}
