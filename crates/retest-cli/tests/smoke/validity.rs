//! The validity tables against `retest validity` on the run's own seeds: every SGNS seed's
//! correlations are the command's, and the spread across seeds is that of the per-seed rows.

use crate::csv::{Csv, num};
use crate::{command, smoke_run, stderr};

#[test]
fn validity_agrees_with_the_command_on_every_seed() {
    let run = smoke_run();
    let work = run.work_dir("validity-check");
    let seeds = crate::sgns_seeds(&run.results);
    let out = work.join("validity.csv");
    let output = command()
        .args(["validity", "--criterion", "census", "--census-year", "1990"])
        .args(["--pairs", "wordlists/du2021/base-pairs.txt"])
        .args(&seeds)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let cli = Csv::read(&out);
    let cli = cli.records();
    let tables = run.tables_dir();
    let table = Csv::read(&tables.join("validity.csv"));
    let table: Vec<_> = table
        .records()
        .into_iter()
        .filter(|r| r["algorithm"] == "sgns")
        .collect();
    assert_eq!(table.len(), cli.len());
    for row in &table {
        let seed: usize = row["seed"].parse().unwrap();
        let embedding = seeds[seed].display().to_string();
        let command_row = (cli.iter())
            .find(|c| {
                c["embedding"] == embedding && c["rule"] == row["rule"] && c["reference"] == row["reference"]
            })
            .unwrap_or_else(|| panic!("no command row for {row:?}"));
        for column in ["criterion", "n_words", "pearson_r", "spearman_r", "p_value"] {
            assert_eq!(
                command_row[column], row[column],
                "seed {seed} {} {}: {column}",
                row["rule"], row["reference"]
            );
        }
        assert_eq!(row["criterion"], "census-1990");
    }
    // The spread of r across the seeds is the per-seed rows'.
    let reliability = Csv::read(&tables.join("validity_reliability.csv"));
    let he_she = (reliability.records().into_iter())
        .find(|r| r["algorithm"] == "sgns" && r["rule"] == "ripa" && r["reference"] == "he:she")
        .unwrap();
    let r: Vec<f64> = (table.iter())
        .filter(|t| t["rule"] == "ripa" && t["reference"] == "he:she")
        .map(|t| num(t["pearson_r"]))
        .collect();
    assert_eq!(r.len(), 3);
    let mean = r.iter().sum::<f64>() / 3.0;
    assert!((num(he_she["mean_r"]) - mean).abs() < 1e-12);
    assert!(num(he_she["icc"]).is_finite());
}
