//! The set-level tables against `retest weat` and `retest direct-bias` on the run's own seeds
//! (a Caliskan test with its exact p-value, the `pca` and `he:she` directions, the stereotype
//! test), and their spreads, ICCs and detector agreement against the per-seed rows.

use std::path::{Path, PathBuf};

use retest_test_support::{data_file, workspace_dir};

use crate::csv::{Csv, Record, num};
use crate::{command, smoke_run, stderr};

fn sgns(r: &&Record<'_>) -> bool {
    r["algorithm"] == "sgns"
}

/// `retest ARGS SEEDS --out OUT`, which must succeed, read back.
fn run_on_seeds(args: &[&str], seeds: &[PathBuf], out: &Path) -> Csv {
    let output = command()
        .args(args)
        .args(seeds)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    Csv::read(out)
}

/// Caliskan's weat7 with its exact p-value, and the direct bias of the `pca` and `he:she`
/// directions, are in the tables as `retest weat` and `retest direct-bias` give them.
#[test]
fn weat7_and_direct_bias_agree_with_the_commands() {
    let run = smoke_run();
    let work = run.work_dir("set-level-check");
    let seeds = crate::sgns_seeds(&run.results);
    let tables = run.tables_dir();
    let weat = Csv::read(&tables.join("weat.csv"));
    let weat = weat.records();
    let cli = run_on_seeds(
        &[
            "weat",
            "--tests",
            "wordlists/weat/caliskan.yaml",
            "--tests-only",
            "weat7",
        ],
        &seeds,
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
    let cli = run_on_seeds(
        &[
            "direct-bias",
            "--pairs",
            "wordlists/bolukbasi/definitional-pairs.txt",
            "--words",
            "wordlists/du2021/occ16.txt",
        ],
        &seeds,
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
}

/// The stereotype test is `retest weat` on the professions split by the sign of their
/// stereotype score (words with |definitional| ≥ 0.5 left out), every base pair's words as
/// attributes (the p-values are sampled from different streams).
#[test]
fn the_stereotype_test_is_weat_on_the_professions() {
    let run = smoke_run();
    let work = run.work_dir("stereotype-check");
    let seeds = crate::sgns_seeds(&run.results);
    let tables = run.tables_dir();
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
    let cli = run_on_seeds(
        &["weat", "--tests", tests.to_str().unwrap()],
        &seeds,
        &work.join("professions.csv"),
    );
    let weat = Csv::read(&tables.join("weat.csv"));
    let weat = weat.records();
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
}

/// The effect sizes of the single-pair tests career/family (base pairs × seeds) give the
/// table's ICC, and weat7's p-values its share of significant seeds.
#[test]
fn the_set_level_icc_and_spread_come_from_the_seed_rows() {
    let run = smoke_run();
    let tables = run.tables_dir();
    let weat = Csv::read(&tables.join("weat.csv"));
    let weat = weat.records();
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
}

/// OS and GD rank the seeds as the detectors table says.
#[test]
fn os_and_gd_agree_as_the_detectors_table_says() {
    let run = smoke_run();
    let tables = run.tables_dir();
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
