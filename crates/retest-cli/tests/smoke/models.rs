//! A plan whose `models` are the smoke run's own seed files gives the smoke run's reliability
//! tables, labels aside, beside the trained configurations: the seeds a user brings are measured
//! exactly as the seeds retest trains.

use std::path::Path;

use retest_test_support::with_zero_row;

use crate::csv::{Csv, num};
use crate::{retest, smoke_run, stderr};

/// The reliability tables a plan of models must reproduce.
const RELIABILITY_TABLES: [&str; 6] = [
    "test_retest_words",
    "test_retest_pairs",
    "inter_rater_words",
    "inter_rater_pairs",
    "internal_consistency",
    "rule_correlations",
];

/// The rows of `table` in `tables` (those of configurations named `algorithm`, when given) with
/// the `corpus` and `algorithm` columns left out.
fn unlabelled(tables: &Path, table: &str, algorithm: Option<&str>) -> (Vec<String>, Vec<Vec<String>>) {
    let csv = Csv::read(&tables.join(format!("{table}.csv")));
    let column = |name: &str| csv.header.iter().position(|h| h == name);
    let keep: Vec<usize> = (0..csv.header.len())
        .filter(|&i| !["corpus", "algorithm"].contains(&csv.header[i].as_str()))
        .collect();
    let pick = |row: &[String]| keep.iter().map(|&i| row[i].clone()).collect::<Vec<_>>();
    let chosen =
        |row: &&Vec<String>| algorithm.is_none_or(|a| column("algorithm").is_some_and(|i| row[i] == a));
    (
        pick(&csv.header),
        csv.rows.iter().filter(chosen).map(|r| pick(r)).collect(),
    )
}

/// Whether two fields agree: equal text, or numbers within 1e-12 (relative above 1).
fn agree(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => (x - y).abs() <= 1e-12 * x.abs().max(1.0),
        _ => false,
    }
}

#[test]
fn models_from_the_runs_own_seed_files_reproduce_its_reliability_tables() {
    let run = smoke_run();
    // Outside the results folder, whose `corpora/` holds prepared corpora, not recipes.
    let dir = run.root.join("study");
    std::fs::create_dir_all(&dir).unwrap();
    let embeddings = run.results.join("embeddings/wikitext-103-valid");
    let corpus = std::fs::read_dir(run.results.join("corpora"))
        .unwrap()
        .flatten()
        .find(|e| e.path().join("vocab.tsv").is_file())
        .expect("the prepared corpus")
        .path();
    let glob = |algorithm: &str| {
        let folder = std::fs::read_dir(&embeddings)
            .unwrap()
            .flatten()
            .find(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("{algorithm}-"))
            })
            .expect("the seeds' folder")
            .path();
        folder.join("seed-*.fifu").display().to_string()
    };
    // smoke.yaml under another name, with the same seeds again as models beside its own.
    let smoke =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pipelines/smoke.yaml"))
            .unwrap();
    let counts = corpus.join("vocab.tsv").display().to_string();
    let plan = format!(
        "{}\nmodels:\n  - {{name: own-sgns, corpus: own, files: \"{}\", counts: \"{counts}\"}}\n  \
         - {{name: own-glove, corpus: own, files: \"{}\", counts: \"{counts}\"}}\n",
        smoke.replace("name: smoke\n", "name: mine\n"),
        glob("sgns"),
        glob("glove")
    );
    let file = dir.join("mine.yaml");
    std::fs::write(&file, plan).unwrap();
    let out = retest(&run.results)
        .args(["run", file.to_str().unwrap(), "--jobs", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Nothing was trained again: the trained configurations are the smoke run's.
    assert!(
        stderr(&out).contains("training: 0 trained, 6 already done, 0 failed"),
        "{}",
        stderr(&out)
    );
    let mine = run.results.join("mine/tables");
    for table in RELIABILITY_TABLES {
        let (header, rows) = unlabelled(&run.tables_dir(), table, None);
        let (own_header, both) = unlabelled(&mine, table, None);
        assert_eq!(header, own_header, "{table}");
        assert!(!rows.is_empty(), "{table}");
        // The trained configurations' rows first, the smoke run's; then each model's rows, its
        // algorithm's in the smoke run.
        assert_eq!(both[..rows.len()], rows[..], "{table}");
        let mut n_own = 0;
        for (algorithm, model) in [("sgns", "own-sgns"), ("glove", "own-glove")] {
            let (_, trained) = unlabelled(&run.tables_dir(), table, Some(algorithm));
            let (_, own) = unlabelled(&mine, table, Some(model));
            assert_eq!(own.len(), trained.len(), "{table} {model}");
            for (row, own) in trained.iter().zip(&own) {
                let agrees = row.iter().zip(own).all(|(a, b)| agree(a, b));
                assert!(agrees, "{table}:\n  smoke {row:?}\n  files {own:?}");
            }
            n_own += own.len();
        }
        assert_eq!(both.len(), rows.len() + n_own, "{table}");
    }
    // The labels are the plan's; each model's files shared the whole vocabulary.
    let icc = Csv::read(&mine.join("test_retest_words.csv"));
    let labels: Vec<(&str, &str)> = (icc.records().into_iter())
        .map(|r| (r["corpus"], r["algorithm"]))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        labels,
        [
            ("own", "own-glove"),
            ("own", "own-sgns"),
            ("wikitext-103-valid", "glove"),
            ("wikitext-103-valid", "sgns"),
            ("wikitext-103-valid", "sgns+hard")
        ]
    );
    let coverage = Csv::read(&mine.join("coverage.csv"));
    let shared: Vec<_> = (coverage.records().into_iter())
        .filter(|r| r["kind"] == "model_vocabulary")
        .map(|r| (r["list"].to_owned(), num(r["n_dropped"])))
        .collect();
    assert_eq!(
        shared,
        [("own-sgns".to_owned(), 0.0), ("own-glove".to_owned(), 0.0)]
    );
}

#[test]
fn retest_reliability_runs_the_study_on_files_given_on_the_command_line() {
    let run = smoke_run();
    let seeds = crate::sgns_seeds(&run.results);
    let lists = ["occ16", "occ18", "adj", "google10k"].join(",");
    let mut args = vec!["reliability".to_owned()];
    args.extend(seeds.iter().map(|p| p.display().to_string()));
    let flags = [
        "--name",
        "rel",
        "--lists",
        &lists,
        "--bias-subspace",
        "--debias",
        "--jobs",
        "1",
    ];
    args.extend(flags.map(str::to_owned));
    let out = retest(&run.results).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let pipeline = std::fs::read_to_string(run.results.join("rel/pipeline.yaml")).unwrap();
    assert!(pipeline.contains("models:\n  - name: \"rel\"\n"), "{pipeline}");
    // The SGNS rows of the smoke run, labelled `rel`, and its debiased rows, labelled `rel+hard`,
    // in Du et al.'s study and in the gender subspace.
    for table in ["test_retest_words", "bias_subspace"] {
        for (smoke, ours) in [("sgns", "rel"), ("sgns+hard", "rel+hard")] {
            let (_, expected) = unlabelled(&run.tables_dir(), table, Some(smoke));
            let (_, found) = unlabelled(&run.results.join("rel/tables"), table, Some(ours));
            assert!(!expected.is_empty());
            assert_eq!(expected.len(), found.len(), "{table} {ours}");
            for (a, b) in expected.iter().zip(&found) {
                assert!(
                    a.iter().zip(b).all(|(x, y)| agree(x, y)),
                    "{table} {ours}: {a:?}\n{b:?}"
                );
            }
        }
    }
    assert!(run.results.join("rel/report/index.html").is_file());
}

/// A word one file gives an all-zero vector (a padding row) has no direction: it is left out of
/// the model's vocabulary with a warning and a `zero_vector` coverage row, never scored.
#[test]
fn a_word_with_a_zero_vector_in_one_file_is_left_out_and_named() {
    let run = smoke_run();
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, seed) in crate::sgns_seeds(&run.results).iter().enumerate() {
        let file = dir.path().join(format!("seed-{i}.vec"));
        let out = retest(&run.results)
            .args(["embeddings", "export", &seed.display().to_string(), "--output"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        files.push(file);
    }
    // `soldier`'s row of the second file, all zeros.
    let zeroed = with_zero_row(&std::fs::read_to_string(&files[1]).unwrap(), "soldier");
    std::fs::write(&files[1], zeroed).unwrap();
    let mut args = vec!["reliability".to_owned()];
    args.extend(files.iter().map(|p| p.display().to_string()));
    args.extend(["--name", "zero", "--lists", "occ16", "--jobs", "1"].map(str::to_owned));
    let out = retest(&run.results).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let warning = "warning: model `zero`: 1 word has an all-zero vector in some file (no direction) \
                   and is left out: soldier";
    assert!(
        stderr(&out).lines().any(|l| l.ends_with(warning)),
        "{}",
        stderr(&out)
    );
    let tables = run.results.join("zero/tables");
    let coverage = Csv::read(&tables.join("coverage.csv"));
    let zero: Vec<_> = (coverage.records().into_iter())
        .filter(|r| r["kind"] == "zero_vector")
        .map(|r| (r["list"].to_owned(), r["dropped"].to_owned()))
        .collect();
    assert_eq!(zero, [("zero".to_owned(), "soldier".to_owned())]);
    let words = Csv::read(&tables.join("test_retest_words.csv"));
    assert!(!words.records().is_empty());
    assert!(words.records().iter().all(|r| r["word"] != "soldier"));
}
