//! The analogy tables against `retest analogies` on the run's own seeds, and the κ of their
//! top-1 answers.

use std::path::PathBuf;

use retest_test_support::write_file;

use crate::csv::{Csv, Record, num};
use crate::{command, sgns_seeds, smoke_run, succeed};

/// The SGNS row of the answers table for a seed, query, 3CosMul constraint and rank.
fn answer<'a, 'r>(
    answers: &'a [Record<'r>],
    seed: usize,
    query: &str,
    constraint: &str,
    rank: &str,
) -> Option<&'a Record<'r>> {
    answers.iter().find(|r| {
        r["algorithm"] == "sgns"
            && r["seed"] == seed.to_string()
            && r["query"] == query
            && r["solver"] == "cosmul"
            && r["constraint"] == constraint
            && r["rank"] == rank
    })
}

/// The position of `embedding` among the seed files.
fn seed_of(seeds: &[PathBuf], embedding: &str) -> usize {
    seeds
        .iter()
        .position(|p| p.display().to_string() == embedding)
        .unwrap()
}

/// The analogy tables hold what `retest analogies` gives on the pipeline's own seeds (3CosMul,
/// constrained and not), and each reported answer is ranked where the answers table has it.
#[test]
fn analogy_answers_agree_with_retest_analogies() {
    let run = smoke_run();
    let work = run.work_dir("analogy-check");
    let seeds = sgns_seeds(&run.results);
    let tables = run.tables_dir();
    let answers = Csv::read(&tables.join("analogy_answers.csv"));
    let answers = answers.records();
    for (flag, constraint) in [(None, "constrained"), (Some("--unconstrained"), "unconstrained")] {
        let out = work.join(format!("{constraint}.csv"));
        succeed(
            command()
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
                .arg(&out),
        );
        let cli = Csv::read(&out);
        let mut compared = 0;
        for row in cli.records().iter().filter(|r| r["status"] == "ok") {
            let seed = seed_of(&seeds, row["embedding"]);
            let query = format!("{}:{}::{}", row["a"], row["b"], row["c"]);
            let table = answer(&answers, seed, &query, constraint, row["rank"]).unwrap();
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
        let row = answer(&answers, seed, r["query"], r["constraint"], r["rank"]).unwrap();
        assert_eq!(row["answer"], r["reported"]);
        checked += 1;
    }
    assert!(checked > 0);
}

/// A cell of the sweep (the whole vocabulary, δ = 0.9) is the unconstrained Bolukbasi answer.
#[test]
fn a_sweep_cell_is_the_unconstrained_bolukbasi_answer() {
    let run = smoke_run();
    let work = run.work_dir("analogy-sweep-check");
    let seeds = sgns_seeds(&run.results);
    let query = write_file(&work, "sweep.txt", "man king woman\n");
    let out = work.join("sweep.csv");
    succeed(
        command()
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
            .arg(&out),
    );
    let sweep = Csv::read(&run.tables_dir().join("analogy_sweep.csv"));
    let sweep = sweep.records();
    let full = sweep
        .iter()
        .filter(|r| r["algorithm"] == "sgns")
        .map(|r| r["restrict_vocab"].parse::<u32>().unwrap())
        .max()
        .unwrap();
    for row in Csv::read(&out).records() {
        let seed = seed_of(&seeds, row["embedding"]);
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
}

/// The κ of the top-1 answers is Fleiss' κ of the answers table's top-1 answers, queries × seeds.
#[test]
fn the_top1_kappa_is_fleiss_kappa_of_the_answers() {
    let run = smoke_run();
    let tables = run.tables_dir();
    let answers = Csv::read(&tables.join("analogy_answers.csv"));
    let answers = answers.records();
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
            let word = answer(&answers, seed, query, "constrained", "1").unwrap()["answer"];
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
