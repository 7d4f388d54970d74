//! The debiased configuration (`sgns+hard`) measures the seeds `retest debias` writes: its Direct
//! Bias and WEAT rows equal `retest direct-bias` and `retest weat` on those files, and Direct Bias
//! along the definitional pairs falls on every seed.

use std::path::PathBuf;

use crate::csv::{Csv, num};
use crate::{command, smoke_run, stderr};

#[test]
fn the_debiased_configuration_measures_what_retest_debias_writes() {
    let run = smoke_run();
    let work = run.work_dir("debias-check");
    let tables = run.tables_dir();
    let seeds = crate::sgns_seeds(&run.results);
    let debiased: Vec<PathBuf> = (seeds.iter().enumerate())
        .map(|(s, seed)| {
            let out = work.join(format!("seed-{s:02}-hard.fifu"));
            let done = command()
                .args(["debias", seed.to_str().unwrap(), "--force", "--output"])
                .arg(&out)
                .output()
                .unwrap();
            assert!(done.status.success(), "{}", stderr(&done));
            out
        })
        .collect();
    let command_table = |args: &[&str], out: &str| {
        let out = work.join(out);
        let done = command()
            .args(args)
            .args(&debiased)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(done.status.success(), "{args:?}: {}", stderr(&done));
        Csv::read(&out)
    };
    let bias = command_table(
        &[
            "direct-bias",
            "--pairs",
            "wordlists/bolukbasi/definitional-pairs.txt",
            "--words",
            "wordlists/du2021/occ16.txt",
        ],
        "direct-bias.csv",
    );
    let weat = command_table(
        &[
            "weat",
            "--tests",
            "wordlists/weat/caliskan.yaml",
            "--tests-only",
            "weat7",
        ],
        "weat.csv",
    );
    let (bias, weat) = (bias.records(), weat.records());
    let directions = Csv::read(&tables.join("directions.csv"));
    let directions = directions.records();
    let weat_table = Csv::read(&tables.join("weat.csv"));
    let weat_table = weat_table.records();
    for (s, file) in debiased.iter().enumerate() {
        let seed = s.to_string();
        let of = |algorithm: &str| {
            (directions.iter())
                .find(|r| r["algorithm"] == algorithm && r["direction"] == "pca" && r["seed"] == seed)
                .unwrap()
        };
        let (before, after) = (of("sgns"), of("sgns+hard"));
        let row = (bias.iter())
            .find(|r| r["embedding"] == file.display().to_string() && r["direction"] == "pca")
            .unwrap();
        assert_eq!(row["direct_bias"], after["direct_bias"], "seed {s}");
        assert!(num(after["direct_bias"]) < num(before["direct_bias"]), "seed {s}");
        let table = (weat_table.iter())
            .find(|r| r["algorithm"] == "sgns+hard" && r["test"] == "weat7" && r["seed"] == seed)
            .unwrap();
        for column in ["statistic", "effect_size", "p_value"] {
            assert_eq!(weat[s][column], table[column], "weat7 seed {s}: {column}");
        }
    }
}
