//! The training stage on a real corpus: byte-identical reruns, skip-if-done (across pipelines of
//! one results folder too), metadata.

use std::path::{Path, PathBuf};

use retest_data::{LockFile, Resolver, prepare_corpus};
use retest_pipeline::{Layout, LoadedCorpus, train_all};
use retest_spec::{Plan, RecipeFolder};
use retest_test_support::{data_dir, workspace_dir};

const PIPELINE: &str = "\
name: tiny-train
seed: 11
n_seeds: 2
corpora:
  - recipe: wikitext-103-valid
    max_tokens: 40000
algorithms: [sgns, glove]
sgns: {dim: 8, epochs: 1}
glove: {dim: 8, iterations: 2, memory_mb: 16}
";

fn plan() -> Plan {
    plan_of(PIPELINE)
}

fn plan_of(text: &str) -> Plan {
    let recipes = RecipeFolder {
        dir: workspace_dir().join("corpora"),
    };
    Plan::parse(text, Path::new("pipelines/tiny-train.yaml"), &recipes).unwrap()
}

fn corpora(plan: &Plan, results: &Path) -> Vec<LoadedCorpus> {
    let mut resolver = Resolver::new(
        Some(data_dir()),
        results.join("cache"),
        LockFile::load(&results.join("lock")).unwrap(),
        true,
    );
    plan.corpora
        .iter()
        .map(|recipe| {
            LoadedCorpus::load(
                prepare_corpus(recipe, &mut resolver, &results.join("corpora"), false)
                    .unwrap()
                    .0,
            )
            .unwrap()
        })
        .collect()
}

fn fifu_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "fifu") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn training_is_byte_identical_across_runs_and_job_counts_and_skips_finished_work() {
    let plan = plan();
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let corpora_a = corpora(&plan, a.path());
    let summary = train_all(&plan, &Layout::new(a.path(), &plan), &corpora_a, 1, false).unwrap();
    assert_eq!(
        (summary.trained, summary.skipped, summary.failed.len()),
        (4, 0, 0),
        "{:?}",
        summary.failed
    );
    let corpora_b = corpora(&plan, b.path());
    train_all(&plan, &Layout::new(b.path(), &plan), &corpora_b, 2, false).unwrap();
    let files_a = fifu_files(a.path());
    let files_b = fifu_files(b.path());
    assert_eq!(files_a.len(), 4);
    for (fa, fb) in files_a.iter().zip(&files_b) {
        assert_eq!(
            fa.strip_prefix(a.path()).unwrap(),
            fb.strip_prefix(b.path()).unwrap()
        );
        assert_eq!(
            std::fs::read(fa).unwrap(),
            std::fs::read(fb).unwrap(),
            "{}",
            fa.display()
        );
    }
    // files: glove seed-00, seed-01, sgns seed-00, seed-01 (sorted paths).
    assert_ne!(
        std::fs::read(&files_a[0]).unwrap(),
        std::fs::read(&files_a[1]).unwrap(),
        "seeds differ"
    );
    assert_ne!(
        std::fs::read(&files_a[2]).unwrap(),
        std::fs::read(&files_a[3]).unwrap(),
        "seeds differ"
    );
    // A rerun trains nothing.
    let again = train_all(&plan, &Layout::new(a.path(), &plan), &corpora_a, 2, false).unwrap();
    assert_eq!((again.trained, again.skipped), (0, 4));
    // Another pipeline of the same results folder finds the seeds of every configuration it
    // shares: all of them under another name, the first two of three seeds, none under another
    // pipeline seed.
    for (from, to, trained_skipped) in [
        ("name: tiny-train", "name: other", (0, 4)),
        ("n_seeds: 2", "n_seeds: 3", (2, 4)),
        ("seed: 11", "seed: 12", (4, 0)),
    ] {
        let other = plan_of(
            &PIPELINE
                .replace("name: tiny-train", "name: other")
                .replace(from, to),
        );
        let run = train_all(&other, &Layout::new(a.path(), &other), &corpora_a, 2, false).unwrap();
        assert_eq!((run.trained, run.skipped), trained_skipped, "{to}");
    }
    // The metadata says what produced the file.
    let glove = retest_embeddings::read(&files_a[0], None).unwrap();
    let costs = glove.metadata().unwrap()["cost_per_iteration"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(costs.len(), 2);
    assert!(
        costs[1].as_float() < costs[0].as_float(),
        "GloVe cost decreases: {costs:?}"
    );
    let emb = retest_embeddings::read(&files_a[3], None).unwrap();
    let meta = emb.metadata().unwrap();
    assert_eq!(meta["job"]["seed_idx"].as_integer(), Some(1));
    assert_eq!(meta["job"]["corpus"].as_str(), Some("wikitext-103-valid"));
    assert_eq!(meta["sgns"]["dim"].as_integer(), Some(8));
    assert_eq!(emb.dim(), 8);
}
