//! `retest run smoke` end to end on a real corpus (WikiText-103 valid): two independent runs give
//! byte-identical tables (the regression input included) and reports, a run killed during training resumes
//! without redoing finished jobs, and a rerun of a finished pipeline does nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use retest_test_support::{data_dir, data_file, workspace_dir};

fn retest(results: &Path) -> Command {
    let mirror = data_dir();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_retest"));
    cmd.current_dir(workspace_dir())
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

/// The names of the files under `dir` (relative, sorted) whose name ends in `suffix`, read while
/// a run may be renaming files there: entries that vanish are skipped.
fn names_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                out.push(path.strip_prefix(dir).unwrap().to_owned());
            }
        }
    }
    out.sort();
    out
}

/// The SGNS seed files of the smoke run in `results`, in seed order.
fn sgns_seeds(results: &Path) -> Vec<PathBuf> {
    let mut seeds: Vec<PathBuf> = fifu_files(&results.join("smoke/embeddings"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("/sgns-"))
        .map(|p| results.join("smoke/embeddings").join(p))
        .collect();
    seeds.sort();
    seeds
}

fn fifu_files(dir: &Path) -> Vec<PathBuf> {
    names_ending(dir, ".fifu")
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

    tables_have_the_study_shape(&a.path().join("smoke/tables"));
    retest_score_reproduces_the_pipeline(a.path());
    set_level_tables_agree_with_retest_weat_and_direct_bias(a.path());
    analogy_tables_agree_with_retest_analogies(a.path());
    base_pair_tables_agree_with_retest_base_pairs(a.path());
    manifest_times_every_job(&a.path().join("smoke/manifest.json"));

    // A second run kept apart: interrupted (SIGINT, as Ctrl-C; retest installs no handler, so it
    // ends the process as SIGKILL does) once it has trained a seed, resumed and killed (SIGKILL)
    // once it has trained another, then resumed to the end. No finished embedding is rewritten
    // by a later run, and no temporary is left.
    let b = tempfile::tempdir().unwrap();
    let embeddings = b.path().join("smoke/embeddings");
    let first = interrupt_after(b.path(), 1, "-INT");
    assert!(
        (1..6).contains(&first.len()),
        "interrupted during training: {first:?}"
    );
    let stamps = stamps_of(&embeddings, &first);
    let second = interrupt_after(b.path(), first.len() + 1, "-KILL");
    assert!(second.len() > first.len(), "{second:?}");
    assert_eq!(
        stamps_of(&embeddings, &first),
        stamps,
        "the resumed run rewrote a finished seed"
    );
    // Every file with a final name is complete: it loads.
    for path in &second {
        retest_embeddings_loads(&embeddings.join(path));
    }
    let stamps = stamps_of(&embeddings, &second);
    let log = run_smoke(b.path(), &[]);
    assert!(
        log.contains(&format!("{} training jobs already done, skipped", second.len())),
        "the resumed run should skip the {} finished seeds:\n{log}",
        second.len()
    );
    assert_eq!(
        stamps_of(&embeddings, &second),
        stamps,
        "the last run rewrote a finished seed"
    );
    let leftovers = names_ending(b.path(), ".tmp");
    assert!(leftovers.is_empty(), "temporaries left behind: {leftovers:?}");
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

/// Starts `retest run smoke --jobs 1` in `results`, waits until at least `n` embeddings exist,
/// sends it `signal` (with kill(1)) and returns the embeddings that exist once it has stopped.
fn interrupt_after(results: &Path, n: usize, signal: &str) -> Vec<PathBuf> {
    let embeddings = results.join("smoke/embeddings");
    let mut child = retest(results)
        .args(["run", "smoke", "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while fifu_files(&embeddings).len() < n {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be interrupted"
        );
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "fewer than {n} embeddings after 300 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} failed");
    let exit = child.wait().unwrap();
    assert!(
        !exit.success(),
        "the run was stopped by {signal}, not finished: {exit:?}"
    );
    fifu_files(&embeddings)
}

/// (inode, modification time) of each file: unchanged when nothing rewrote it.
fn stamps_of(dir: &Path, files: &[PathBuf]) -> Vec<(u64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    files
        .iter()
        .map(|f| {
            let m = std::fs::metadata(dir.join(f)).unwrap();
            (m.ino(), m.mtime(), m.mtime_nsec())
        })
        .collect()
}

/// A CSV file written by the tables crate: its header and rows (fields may be quoted).
struct Csv {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn read(path: &Path) -> Csv {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines().map(split_csv_line);
        let header = lines.next().unwrap();
        Csv {
            header,
            rows: lines.collect(),
        }
    }

    /// The rows as maps from column name to field.
    fn records(&self) -> Vec<std::collections::BTreeMap<&str, &str>> {
        self.rows
            .iter()
            .map(|row| {
                assert_eq!(row.len(), self.header.len(), "{row:?}");
                self.header
                    .iter()
                    .map(String::as_str)
                    .zip(row.iter().map(String::as_str))
                    .collect()
            })
            .collect()
    }
}

fn split_csv_line(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

fn num(field: &str) -> f64 {
    field.parse().unwrap_or_else(|_| panic!("not a number: {field}"))
}

/// Every reliability row has the subjects and raters of reference §5: test-retest ICC per word
/// is base pairs × seeds and per pair is the list's words × seeds; inter-rater ICC is the same
/// subjects × the three rules; alpha per query has the query's words as items and the base pairs
/// as cases, and the base-pair ensemble the pairs as items over the Google10K words.
fn tables_have_the_study_shape(tables: &Path) {
    let (n_seeds, n_rules) = (3.0, 3.0);
    let coverage = Csv::read(&tables.join("coverage.csv"));
    let coverage = coverage.records();
    let kept = |list: &str| {
        let row = coverage
            .iter()
            .find(|r| r["list"] == list)
            .unwrap_or_else(|| panic!("no coverage row for {list}"));
        num(row["n_in_vocabulary"])
    };
    let n_pairs = num(coverage.iter().find(|r| r["kind"] == "base_pairs").unwrap()["n_in_vocabulary"]);
    assert!(n_pairs >= 5.0, "{n_pairs} base pairs in the vocabulary");
    let subjects = |r: &std::collections::BTreeMap<&str, &str>| num(r["n_subjects"]) + num(r["n_dropped"]);
    for (table, raters) in [("test_retest", n_seeds), ("inter_rater", n_rules)] {
        let words = Csv::read(&tables.join(format!("{table}_words.csv")));
        let words = words.records();
        assert!(!words.is_empty());
        for r in &words {
            assert_eq!(num(r["n_raters"]), raters, "{table}_words {r:?}");
            assert_eq!(subjects(r), n_pairs, "{table}_words {r:?}");
        }
        let pairs = Csv::read(&tables.join(format!("{table}_pairs.csv")));
        let pairs = pairs.records();
        assert!(!pairs.is_empty());
        for r in &pairs {
            assert_eq!(num(r["n_raters"]), raters, "{table}_pairs {r:?}");
            assert_eq!(subjects(r), kept(r["list"]), "{table}_pairs {r:?}");
        }
        // One row per listed word (per pair) for each configuration, rule (scale) and list.
        for list in ["occ16", "occ18", "adj", "google10k"] {
            let configurations = if table == "test_retest" {
                2.0 * n_rules
            } else {
                2.0 * 2.0
            };
            let n = words.iter().filter(|r| r["list"] == list).count() as f64;
            assert_eq!(n, configurations * kept(list), "{table}_words, list {list}");
            let n = pairs.iter().filter(|r| r["list"] == list).count() as f64;
            assert_eq!(n, configurations * n_pairs, "{table}_pairs, list {list}");
        }
    }
    let alpha = Csv::read(&tables.join("internal_consistency.csv"));
    let alpha = alpha.records();
    assert_eq!(
        alpha.len(),
        2 * 3 * 7,
        "six queries and the ensemble, per rule and algorithm"
    );
    for r in &alpha {
        let cases = num(r["n_cases"]) + num(r["n_dropped"]);
        if r["items"] == "base_pairs" {
            assert_eq!(num(r["n_items"]), n_pairs, "{r:?}");
            assert_eq!(cases, kept("google10k"), "{r:?}");
        } else {
            assert_eq!(num(r["n_items"]), kept(r["query"]), "{r:?}");
            assert_eq!(cases, n_pairs, "{r:?}");
        }
    }
}

/// `retest score` on the pipeline's own embeddings gives the scores the pipeline measured:
/// the test-retest ICC of a word recomputed from its scores (base pairs × seeds) and its
/// inter-rater ICC (base pairs × rules, on seed means) equal the tables' values. The same
/// seed exported as word2vec text, word2vec binary and GloVe text scores the same within the
/// text formats' rounding.
fn retest_score_reproduces_the_pipeline(results: &Path) {
    let work = results.join("score-check");
    std::fs::create_dir_all(&work).unwrap();
    let seeds = sgns_seeds(results);
    assert_eq!(seeds.len(), 3, "{seeds:?}");
    let table = Csv::read(&results.join("smoke/tables/test_retest_words.csv"));
    let table = table.records();
    // The first occupation of the vocabulary.
    let word = table.iter().find(|r| r["list"] == "occ16").unwrap()["word"];
    let row_of = |rule: &str| {
        table
            .iter()
            .find(|r| {
                r["algorithm"] == "sgns" && r["rule"] == rule && r["list"] == "occ16" && r["word"] == word
            })
            .unwrap_or_else(|| panic!("no {rule} row for {word}"))
            .clone()
    };
    let words = work.join("words.txt");
    std::fs::write(&words, format!("# one occupation\n{word}\n")).unwrap();
    let pairs = workspace_dir().join("wordlists/du2021/base-pairs.txt");
    let scores = retest_score(&seeds, "dbwa,ripa,nbm", &pairs, &words, &work.join("scores.csv"));
    assert_eq!(
        scores.header,
        ["embedding", "rule", "male", "female", "word", "score", "status"]
    );
    let scores = scores.records();
    // rule → pair → one score per seed, in seed order.
    let mut by_rule: std::collections::BTreeMap<&str, Vec<(String, Vec<f64>)>> = Default::default();
    for seed in &seeds {
        let name = seed.display().to_string();
        for r in scores.iter().filter(|r| r["embedding"] == name) {
            let pairs = by_rule.entry(r["rule"]).or_default();
            let pair = format!("{}:{}", r["male"], r["female"]);
            match pairs.iter_mut().find(|(p, _)| *p == pair) {
                Some((_, values)) => values.push(num(r["score"])),
                None => pairs.push((pair, vec![num(r["score"])])),
            }
        }
    }
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(1.0);
    for rule in ["dbwa", "ripa", "nbm"] {
        let matrix: Vec<f64> = by_rule[rule].iter().flat_map(|(_, v)| v.clone()).collect();
        let n_pairs = by_rule[rule].len();
        let icc = retest_reliability::icc2_1(retest_reliability::Matrix::new(&matrix, n_pairs, 3).unwrap());
        let expected = num(row_of(rule)["icc"]);
        assert!(
            close(icc.value, expected),
            "{rule}: {} vs the table's {expected}",
            icc.value
        );
    }
    let means: Vec<f64> = (0..by_rule["dbwa"].len())
        .flat_map(|p| ["dbwa", "ripa", "nbm"].map(|rule| by_rule[rule][p].1.iter().sum::<f64>() / 3.0))
        .collect();
    let inter =
        retest_reliability::icc3_1(retest_reliability::Matrix::new(&means, means.len() / 3, 3).unwrap());
    let inter_table = Csv::read(&results.join("smoke/tables/inter_rater_words.csv"));
    let expected = inter_table
        .records()
        .iter()
        .find(|r| {
            r["algorithm"] == "sgns" && r["scale"] == "raw" && r["list"] == "occ16" && r["word"] == word
        })
        .map(|r| num(r["icc"]))
        .unwrap();
    assert!(
        close(inter.value, expected),
        "inter-rater: {} vs {expected}",
        inter.value
    );

    // Every format scores alike.
    let mut files = vec![seeds[0].clone()];
    for (format, name) in [
        ("word2vec-text", "seed.vec"),
        ("word2vec-binary", "seed.bin"),
        ("glove-text", "seed-glove.txt"),
    ] {
        let path = work.join(name);
        let status = Command::new(env!("CARGO_BIN_EXE_retest"))
            .args(["embeddings", "export"])
            .arg(&seeds[0])
            .args(["--format", format, "--output"])
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success(), "export as {format}");
        files.push(path);
    }
    let scores = retest_score(&files, "dbwa,ripa", &pairs, &words, &work.join("formats.csv"));
    let scores = scores.records();
    let per_file = scores.len() / files.len();
    assert_eq!(per_file, 2 * by_rule["dbwa"].len());
    for (i, file) in files.iter().enumerate() {
        let rows = &scores[i * per_file..(i + 1) * per_file];
        assert!(rows.iter().all(|r| r["embedding"] == file.display().to_string()));
        for (r, reference) in rows.iter().zip(&scores[..per_file]) {
            assert_eq!(
                (r["rule"], r["male"], r["word"]),
                (reference["rule"], reference["male"], reference["word"])
            );
            let (a, b) = (num(r["score"]), num(reference["score"]));
            assert!(
                (a - b).abs() < 1e-4 * b.abs().max(1.0),
                "{}: {a} vs {b}",
                file.display()
            );
        }
    }
}

/// The base-pair tables of the SGNS configuration hold what `retest base-pairs` gives on the
/// pipeline's own seeds, row for row (the random baselines draw from other streams).
fn base_pair_tables_agree_with_retest_base_pairs(results: &Path) {
    let seeds = sgns_seeds(results);
    let out = results.join("base-pairs-check");
    let output = Command::new(env!("CARGO_BIN_EXE_retest"))
        .arg("base-pairs")
        .args(&seeds)
        .arg("--out")
        .arg(&out)
        .current_dir(workspace_dir())
        .env("RETEST_DATA_DIR", data_dir())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tables = results.join("smoke/tables");
    for name in [
        "base_pair_summary",
        "base_pair_agreement",
        "base_pair_kappa",
        "base_pair_directions",
        "base_pair_correlations",
        "base_pair_flips",
        "base_pair_examples",
        "base_pair_scores",
        "base_pair_seeds",
        "base_pair_variance",
    ] {
        // Every column but corpus and algorithm, in file order.
        let fields = |csv: &Csv, keep: &dyn Fn(&[String]) -> bool| -> Vec<Vec<String>> {
            (csv.rows.iter())
                .filter(|row| keep(row))
                .map(|row| row[2..].to_vec())
                .collect()
        };
        let pipeline = Csv::read(&tables.join(format!("{name}.csv")));
        assert_eq!(pipeline.header[..2], ["corpus", "algorithm"]);
        let pipeline = fields(&pipeline, &|row| row[1] == "sgns");
        let cli = fields(&Csv::read(&out.join(format!("{name}.csv"))), &|_| true);
        assert!(!pipeline.is_empty(), "{name} has no SGNS rows");
        assert_eq!(pipeline, cli, "{name}");
    }
}

/// The analogy tables hold what `retest analogies` gives on the pipeline's own seeds (3CosMul,
/// constrained and not), each reported answer ranked where the answers table has it, and the
/// κ of the top-1 answers is Fleiss' κ of those answers.
fn analogy_tables_agree_with_retest_analogies(results: &Path) {
    let work = results.join("analogy-check");
    std::fs::create_dir_all(&work).unwrap();
    let seeds = sgns_seeds(results);
    let tables = results.join("smoke/tables");
    let answers = Csv::read(&tables.join("analogy_answers.csv"));
    let answers = answers.records();
    let find = |seed: usize, query: &str, constraint: &str, rank: &str| {
        answers.iter().find(|r| {
            r["algorithm"] == "sgns"
                && r["seed"] == seed.to_string()
                && r["query"] == query
                && r["solver"] == "cosmul"
                && r["constraint"] == constraint
                && r["rank"] == rank
        })
    };
    for (flag, constraint) in [(None, "constrained"), (Some("--unconstrained"), "unconstrained")] {
        let out = work.join(format!("{constraint}.csv"));
        let output = Command::new(env!("CARGO_BIN_EXE_retest"))
            .args([
                "analogies",
                "--queries",
                "wordlists/analogies/family.txt",
                "--solver",
                "cosmul",
            ])
            .args(flag)
            .args(&seeds)
            .arg("--out")
            .arg(&out)
            .current_dir(workspace_dir())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let cli = Csv::read(&out);
        let mut compared = 0;
        for row in cli.records().iter().filter(|r| r["status"] == "ok") {
            let seed = seeds
                .iter()
                .position(|p| p.display().to_string() == row["embedding"])
                .unwrap();
            let query = format!("{}:{}::{}", row["a"], row["b"], row["c"]);
            let table = find(seed, &query, constraint, row["rank"]).unwrap();
            assert_eq!(
                (row["answer"], row["score"]),
                (table["answer"], table["score"]),
                "{query}"
            );
            compared += 1;
        }
        // 12 of the 14 queries in vocabulary, 10 answers each, 3 seeds.
        assert_eq!(compared, 12 * 10 * 3, "{constraint}");
    }
    let reported = Csv::read(&tables.join("analogy_reported.csv"));
    let mut checked = 0;
    for r in reported.records() {
        let rank: u32 = r["rank"].parse().unwrap();
        if r["algorithm"] != "sgns" || r["solver"] != "cosmul" || r["status"] != "ok" || rank > 10 {
            continue;
        }
        let seed: usize = r["seed"].parse().unwrap();
        let row = find(seed, r["query"], r["constraint"], r["rank"]).unwrap();
        assert_eq!(row["answer"], r["reported"]);
        checked += 1;
    }
    assert!(checked > 0);

    // A cell of the sweep (the whole vocabulary, δ = 0.9) is the unconstrained Bolukbasi answer.
    let query = work.join("sweep.txt");
    std::fs::write(&query, "man king woman\n").unwrap();
    let out = work.join("sweep.csv");
    let output = Command::new(env!("CARGO_BIN_EXE_retest"))
        .args([
            "analogies",
            "--solver",
            "bolukbasi",
            "--unconstrained",
            "--delta",
            "0.9",
            "--top-n",
            "1",
        ])
        .arg("--queries")
        .arg(&query)
        .args(&seeds)
        .arg("--out")
        .arg(&out)
        .current_dir(workspace_dir())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let sweep = Csv::read(&tables.join("analogy_sweep.csv"));
    let sweep = sweep.records();
    let full = sweep
        .iter()
        .filter(|r| r["algorithm"] == "sgns")
        .map(|r| r["restrict_vocab"].parse::<u32>().unwrap())
        .max()
        .unwrap();
    for row in Csv::read(&out).records() {
        let seed = seeds
            .iter()
            .position(|p| p.display().to_string() == row["embedding"])
            .unwrap();
        let cell = sweep
            .iter()
            .find(|r| {
                r["algorithm"] == "sgns"
                    && r["seed"] == seed.to_string()
                    && r["restrict_vocab"] == full.to_string()
                    && r["delta"] == "0.9"
            })
            .unwrap();
        assert_eq!((cell["answer"], cell["score"]), (row["answer"], row["score"]));
    }

    // Fleiss' κ of the top-1 answers, queries × seeds, from the answers table.
    let mut labels: Vec<i64> = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    let queries: Vec<&str> = {
        let mut q: Vec<&str> = answers.iter().map(|r| r["query"]).collect();
        q.dedup();
        q.truncate(12);
        q
    };
    for query in &queries {
        for seed in 0..3 {
            let word = find(seed, query, "constrained", "1").unwrap()["answer"];
            let label = words.iter().position(|w| *w == word).unwrap_or_else(|| {
                words.push(word);
                words.len() - 1
            });
            labels.push(label as i64);
        }
    }
    let counts = retest_reliability::aggregate_raters(&labels, queries.len(), 3).unwrap();
    let kappa = retest_reliability::fleiss_kappa(&counts.table);
    let reliability = Csv::read(&tables.join("analogy_reliability.csv"));
    let row = reliability
        .records()
        .into_iter()
        .find(|r| {
            r["algorithm"] == "sgns"
                && r["solver"] == "cosmul"
                && r["constraint"] == "constrained"
                && r["measure"] == "top1_kappa"
        })
        .unwrap()
        .clone();
    assert!(
        (num(row["value"]) - kappa.value).abs() < 1e-12,
        "{} vs {}",
        row["value"],
        kappa.value
    );
}

/// The set-level tables hold what `retest weat` and `retest direct-bias` give on the pipeline's
/// own seeds (a Caliskan test with its exact p-value, the `pca` and `he:she` directions), and
/// their spreads and ICCs are those of the per-seed rows.
fn set_level_tables_agree_with_retest_weat_and_direct_bias(results: &Path) {
    let work = results.join("set-level-check");
    std::fs::create_dir_all(&work).unwrap();
    let seeds = sgns_seeds(results);
    let tables = results.join("smoke/tables");
    let weat = Csv::read(&tables.join("weat.csv"));
    let weat = weat.records();
    let sgns = |r: &&std::collections::BTreeMap<&str, &str>| r["algorithm"] == "sgns";
    let run = |args: &[&str], out: &Path| {
        let output = Command::new(env!("CARGO_BIN_EXE_retest"))
            .args(args)
            .args(&seeds)
            .arg("--out")
            .arg(out)
            .current_dir(workspace_dir())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Csv::read(out)
    };
    let cli = run(
        &[
            "weat",
            "--tests",
            "wordlists/weat/caliskan.yaml",
            "--tests-only",
            "weat7",
        ],
        &work.join("weat.csv"),
    );
    let cli = cli.records();
    assert_eq!(cli.len(), 3);
    for (s, row) in cli.iter().enumerate() {
        let table = weat
            .iter()
            .filter(sgns)
            .find(|r| r["test"] == "weat7" && r["seed"] == s.to_string())
            .unwrap();
        for column in [
            "n_x",
            "n_y",
            "n_a",
            "n_b",
            "statistic",
            "effect_size",
            "p_value",
            "p_method",
            "n_partitions",
        ] {
            assert_eq!(row[column], table[column], "weat7 seed {s}: {column}");
        }
        assert_eq!(row["p_method"], "exact");
    }
    let cli = run(
        &[
            "direct-bias",
            "--pairs",
            "wordlists/bolukbasi/definitional-pairs.txt",
            "--words",
            "wordlists/du2021/occ16.txt",
        ],
        &work.join("direct-bias.csv"),
    );
    let cli = cli.records();
    let directions = Csv::read(&tables.join("directions.csv"));
    let directions = directions.records();
    for (s, seed) in seeds.iter().enumerate() {
        for direction in ["pca", "he:she"] {
            let table = directions
                .iter()
                .filter(sgns)
                .find(|r| r["direction"] == direction && r["seed"] == s.to_string())
                .unwrap();
            let row = cli
                .iter()
                .find(|r| r["embedding"] == seed.display().to_string() && r["direction"] == direction)
                .unwrap();
            assert_eq!(row["direct_bias"], table["direct_bias"], "{direction} seed {s}");
            assert_eq!(row["n_words"], table["n_words"]);
        }
    }

    // The stereotype test is `retest weat` on the professions split by the sign of their
    // stereotype score (words with |definitional| ≥ 0.5 left out), every base pair's words as
    // attributes (the p-values are sampled from different streams).
    let professions: Vec<(String, f64, f64)> = serde_json::from_str(
        &std::fs::read_to_string(data_file("word_lists/debiaswe/professions.json")).unwrap(),
    )
    .unwrap();
    let side = |masculine: bool| -> Vec<&str> {
        (professions.iter())
            .filter(|(_, d, s)| d.abs() < 0.5 && *s != 0.0 && (*s > 0.0) == masculine)
            .map(|(w, _, _)| w.as_str())
            .collect()
    };
    let base_pairs =
        std::fs::read_to_string(workspace_dir().join("wordlists/du2021/base-pairs.txt")).unwrap();
    let coverage = Csv::read(&tables.join("coverage.csv"));
    let coverage = coverage.records();
    let dropped: Vec<&str> = (coverage.iter()).find(|r| r["kind"] == "base_pairs").unwrap()["dropped"]
        .split(' ')
        .collect();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for line in base_pairs
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if dropped.contains(&line.replace(' ', ":").as_str()) {
            continue;
        }
        let (m, f) = line.split_once(' ').unwrap();
        for (set, word) in [(&mut a, m), (&mut b, f)] {
            if !set.contains(&word) {
                set.push(word);
            }
        }
    }
    let tests = work.join("professions.yaml");
    let list = |words: &[&str]| serde_json::to_string(words).unwrap();
    std::fs::write(
        &tests,
        format!(
            "tests:\n  professions: {{x: {}, y: {}, a: {}, b: {}}}\n",
            list(&side(true)),
            list(&side(false)),
            list(&a),
            list(&b)
        ),
    )
    .unwrap();
    let cli = run(
        &["weat", "--tests", tests.to_str().unwrap()],
        &work.join("professions.csv"),
    );
    for (s, row) in cli.records().iter().enumerate() {
        let table = weat
            .iter()
            .filter(sgns)
            .find(|r| r["test"] == "professions" && r["seed"] == s.to_string())
            .unwrap();
        assert_eq!((table["family"], table["attributes"]), ("stereotype", "ensemble"));
        for column in ["n_x", "n_y", "n_a", "n_b", "statistic", "effect_size", "p_method"] {
            assert_eq!(row[column], table[column], "professions seed {s}: {column}");
        }
    }

    // The effect sizes of the single-pair tests career/family (base pairs × seeds) give the
    // table's ICC, and weat7's p-values its share of significant seeds.
    let mut pairs: Vec<(&str, Vec<f64>)> = Vec::new();
    for r in weat.iter().filter(sgns) {
        if r["family"] != "single_pair"
            || !r["test"].starts_with("career/family ")
            || r["attributes"] == "ensemble"
        {
            continue;
        }
        match pairs.iter_mut().find(|(a, _)| *a == r["attributes"]) {
            Some((_, values)) => values.push(num(r["effect_size"])),
            None => pairs.push((r["attributes"], vec![num(r["effect_size"])])),
        }
    }
    let matrix: Vec<f64> = pairs.iter().flat_map(|(_, v)| v.clone()).collect();
    let icc = retest_reliability::icc2_1(retest_reliability::Matrix::new(&matrix, pairs.len(), 3).unwrap());
    let reliability = Csv::read(&tables.join("set_level_reliability.csv"));
    let row = reliability
        .records()
        .into_iter()
        .find(|r| {
            r["algorithm"] == "sgns" && r["measure"] == "weat_effect_size" && r["scope"] == "career/family"
        })
        .unwrap()
        .clone();
    assert_eq!(row["subjects"], "base_pairs");
    assert_eq!(row["n_subjects"], pairs.len().to_string());
    assert!(
        (icc.value - num(row["icc"])).abs() < 1e-12,
        "{} vs {}",
        icc.value,
        row["icc"]
    );
    let p: Vec<f64> = (weat.iter().filter(sgns))
        .filter(|r| r["test"] == "weat7")
        .map(|r| num(r["p_value"]))
        .collect();
    let spread = Csv::read(&tables.join("seed_spread.csv"));
    let row = spread
        .records()
        .into_iter()
        .find(|r| r["algorithm"] == "sgns" && r["measure"] == "weat_p_value" && r["subject"] == "weat7")
        .unwrap()
        .clone();
    let share = p.iter().filter(|&&p| p < 0.05).count() as f64 / 3.0;
    assert_eq!(num(row["share_significant"]), share);
    assert_eq!(row["n_seeds"], "3");

    // OS and GD rank the seeds as the detectors table says.
    let detectors = Csv::read(&tables.join("detectors.csv"));
    let detectors = detectors.records();
    let series = |d: &str| -> Vec<f64> {
        (detectors.iter().filter(sgns))
            .filter(|r| r["detector"] == d)
            .map(|r| num(r["value"]))
            .collect()
    };
    let rho = retest_reliability::spearman(&series("os"), &series("gd"));
    let agreement = Csv::read(&tables.join("agreement.csv"));
    let row = agreement
        .records()
        .into_iter()
        .find(|r| r["algorithm"] == "sgns" && r["measure_a"] == "os" && r["measure_b"] == "gd")
        .unwrap()
        .clone();
    assert_eq!(num(row["spearman"]), rho.value);
}

/// `retest score FILES --rules RULES --pairs PAIRS --words WORDS --out OUT`, read back.
fn retest_score(files: &[PathBuf], rules: &str, pairs: &Path, words: &Path, out: &Path) -> Csv {
    let status = Command::new(env!("CARGO_BIN_EXE_retest"))
        .arg("score")
        .args(files)
        .args(["--rules", rules, "--pairs"])
        .arg(pairs)
        .arg("--words")
        .arg(words)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "retest score {files:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    Csv::read(out)
}

/// The manifest times every training job (from the timing file beside each embedding) and
/// every measure job.
fn manifest_times_every_job(path: &Path) {
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let training = manifest["jobs"]["training"].as_array().unwrap();
    assert_eq!(training.len(), 6, "{training:?}");
    for job in training {
        assert!(job["seconds"].as_f64().is_some_and(|s| s > 0.0), "{job}");
    }
    let measure = manifest["jobs"]["measure"].as_array().unwrap();
    assert_eq!(measure.len(), 2);
    for job in measure {
        assert!(job["summary"]["seconds_scoring"].as_f64().is_some(), "{job}");
    }
    assert!(manifest.get("git_commit").is_some(), "{manifest}");
    assert!(
        manifest["corpora"][0]["prepared"]["sources"][0]["sha256"].is_string(),
        "{manifest}"
    );
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
        .arg(workspace_dir().join("analysis/multilevel.R"))
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

    // ΔR² of Tables 2 and 3: one row per group and analysis (the scoring rule in test-retest
    // only), finite where the refit gave both R²s, and the difference of its two R² columns.
    let delta = std::fs::read_to_string(out_dir.join("multilevel_delta_r2.csv")).unwrap();
    let mut lines = delta.lines();
    let header: Vec<&str> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|h| h.trim_matches('"'))
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name} missing from {header:?}"))
    };
    let rows: Vec<Vec<&str>> = lines
        .map(|line| line.split(',').map(|f| f.trim_matches('"')).collect())
        .collect();
    // R writes a missing value as NA, which parses as NaN here.
    let number = |row: &[&str], name: &str| row[col(name)].parse::<f64>().unwrap_or(f64::NAN);
    let groups = [
        "scoring rule",
        "log freq",
        "log^2 freq",
        "log #senses",
        "PoS",
        "NN Sim",
        "L2 norm",
        "ES",
    ];
    for (analysis, expected) in [("test_retest", &groups[..]), ("inter_rater", &groups[1..])] {
        let found: Vec<&str> = rows
            .iter()
            .filter(|row| row[col("analysis")] == analysis)
            .map(|row| row[col("group")])
            .collect();
        assert_eq!(found, expected, "{delta}");
    }
    for row in &rows {
        let row = row.as_slice();
        assert_eq!(row.len(), header.len(), "{delta}");
        if row[col("status")] == "ok" {
            for name in ["delta_r2_marginal", "delta_r2_conditional"] {
                assert!(number(row, name).is_finite(), "{name} in {row:?}");
            }
        }
        let (full, reduced) = (
            number(row, "r2_marginal_full"),
            number(row, "r2_marginal_reduced"),
        );
        if full.is_finite() && reduced.is_finite() {
            let difference = full - reduced - number(row, "delta_r2_marginal");
            assert!(difference.abs() < 1e-12, "{row:?}");
        }
    }
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
