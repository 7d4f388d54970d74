//! Gonen & Goldberg's residual-bias tables of the smoke run: every configuration and seed has its
//! tests, and the debiased SGNS seeds are labelled by the SGNS seeds before debiasing (the ICC of
//! the labels is the same), as Gonen & Goldberg test a debiased model.

use crate::csv::{Csv, num};
use crate::smoke_run;

#[test]
fn the_debiased_seeds_are_tested_with_their_models_labels() {
    let run = smoke_run();
    let tables = run.tables_dir();
    let seeds = Csv::read(&tables.join("residual_bias.csv"));
    let seeds = seeds.records();
    for algorithm in ["sgns", "sgns+hard", "glove"] {
        let rows: Vec<_> = seeds.iter().filter(|r| r["algorithm"] == algorithm).collect();
        assert_eq!(rows.len(), 3, "{algorithm}");
        for r in rows {
            for column in ["cluster_accuracy", "svm_accuracy"] {
                assert!(
                    (0.5..=1.0).contains(&num(r[column])),
                    "{algorithm} {column} {r:?}"
                );
            }
            assert_eq!(num(r["n_trained"]), 500.0);
        }
    }
    let reliability = Csv::read(&tables.join("residual_bias_reliability.csv"));
    let reliability = reliability.records();
    let labels = |algorithm: &str| {
        (reliability.iter())
            .find(|r| r["algorithm"] == algorithm && r["statistic"] == "cluster_accuracy")
            .map(|r| (r["subjects"].to_owned(), r["icc"].to_owned()))
            .unwrap()
    };
    assert_eq!(labels("sgns"), labels("sgns+hard"));
    assert_eq!(labels("sgns").0, "projection_bias");
    assert_ne!(labels("sgns"), labels("glove"));
}
