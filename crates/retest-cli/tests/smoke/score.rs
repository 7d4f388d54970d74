//! `retest score` on the run's own embeddings gives the scores the pipeline measured, in every
//! embedding format.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use retest_test_support::{workspace_dir, write_file};

use crate::csv::{Csv, num};
use crate::{SmokeRun, command, sgns_seeds, smoke_run, stderr};

/// rule → pair (`male:female`) → one score per file, in file order.
type ScoresByRule = BTreeMap<String, Vec<(String, Vec<f64>)>>;

/// What `retest score` gives in `work` on the run's SGNS seeds for the first occupation of the
/// vocabulary: the seeds, the word, the base pairs file, a words file holding the word, and the
/// scores of the three rules.
struct SeedScores {
    seeds: Vec<PathBuf>,
    word: String,
    pairs: PathBuf,
    words: PathBuf,
    by_rule: ScoresByRule,
}

fn seed_scores(run: &SmokeRun, work: &Path) -> SeedScores {
    let seeds = sgns_seeds(&run.results);
    assert_eq!(seeds.len(), 3, "{seeds:?}");
    let table = Csv::read(&run.tables_dir().join("test_retest_words.csv"));
    let table = table.records();
    // The first occupation of the vocabulary.
    let word = table.iter().find(|r| r["list"] == "occ16").unwrap()["word"].to_owned();
    let words = write_file(work, "words.txt", format!("# one occupation\n{word}\n"));
    let pairs = workspace_dir().join("wordlists/du2021/base-pairs.txt");
    let scores = retest_score(&seeds, "dbwa,ripa,nbm", &pairs, &words, &work.join("scores.csv"));
    assert_eq!(
        scores.header,
        ["embedding", "rule", "male", "female", "word", "score", "status"]
    );
    let scores = scores.records();
    let mut by_rule = ScoresByRule::new();
    for seed in &seeds {
        let name = seed.display().to_string();
        for r in scores.iter().filter(|r| r["embedding"] == name) {
            let pairs = by_rule.entry(r["rule"].to_owned()).or_default();
            let pair = format!("{}:{}", r["male"], r["female"]);
            match pairs.iter_mut().find(|(p, _)| *p == pair) {
                Some((_, values)) => values.push(num(r["score"])),
                None => pairs.push((pair, vec![num(r["score"])])),
            }
        }
    }
    SeedScores {
        seeds,
        word,
        pairs,
        words,
        by_rule,
    }
}

/// The test-retest ICC of a word recomputed from its scores (base pairs × seeds) and its
/// inter-rater ICC (base pairs × rules, on seed means) equal the tables' values.
#[test]
fn retest_score_reproduces_the_pipelines_iccs() {
    let run = smoke_run();
    let SeedScores { word, by_rule, .. } = seed_scores(&run, &run.work_dir("score-check"));
    let table = Csv::read(&run.tables_dir().join("test_retest_words.csv"));
    let table = table.records();
    let row_of = |rule: &str| {
        table
            .iter()
            .find(|r| {
                r["algorithm"] == "sgns" && r["rule"] == rule && r["list"] == "occ16" && r["word"] == word
            })
            .unwrap_or_else(|| panic!("no {rule} row for {word}"))
            .clone()
    };
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
    let inter_table = Csv::read(&run.tables_dir().join("inter_rater_words.csv"));
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
}

/// The same seed exported as word2vec text, word2vec binary and GloVe text scores the same
/// within the text formats' rounding.
#[test]
fn every_embedding_format_scores_alike() {
    let run = smoke_run();
    let work = run.work_dir("score-formats-check");
    let SeedScores {
        seeds,
        pairs,
        words,
        by_rule,
        ..
    } = seed_scores(&run, &work);
    let mut files = vec![seeds[0].clone()];
    for (format, name) in [
        ("word2vec-text", "seed.vec"),
        ("word2vec-binary", "seed.bin"),
        ("glove-text", "seed-glove.txt"),
    ] {
        let path = work.join(name);
        let status = command()
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

/// `retest score FILES --rules RULES --pairs PAIRS --words WORDS --out OUT`, read back.
fn retest_score(files: &[PathBuf], rules: &str, pairs: &Path, words: &Path, out: &Path) -> Csv {
    let status = command()
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
        stderr(&status)
    );
    Csv::read(out)
}
