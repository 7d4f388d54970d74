//! The gender-subspace tables of the smoke run: Direct Bias on one component is the set-level
//! stage's Direct Bias along `pca` (same neutral words, pairs and exponent) on every seed, more
//! components never lower it, a hard-debiased model's equalised pairs span one component (Direct
//! Bias on more is undefined), each definitional pair in vocabulary is left out once per seed,
//! and the reliability table has a row per number of components.

use crate::csv::{Csv, num};
use crate::smoke_run;

#[test]
fn one_component_is_the_set_level_pca_direction() {
    let run = smoke_run();
    let tables = run.tables_dir();
    let subspace = Csv::read(&tables.join("bias_subspace.csv"));
    let subspace = subspace.records();
    let directions = Csv::read(&tables.join("directions.csv"));
    let directions = directions.records();
    for algorithm in ["sgns", "sgns+hard", "glove"] {
        for seed in ["0", "1", "2"] {
            let rows: Vec<_> = (subspace.iter())
                .filter(|r| r["algorithm"] == algorithm && r["seed"] == seed)
                .collect();
            assert_eq!(rows.len(), 3, "{algorithm} {seed}");
            let pca = (directions.iter())
                .find(|r| r["algorithm"] == algorithm && r["seed"] == seed && r["direction"] == "pca")
                .unwrap();
            assert_eq!(rows[0]["direct_bias"], pca["direct_bias"], "{algorithm} {seed}");
            assert_eq!(rows[0]["direct_bias_summed"], pca["direct_bias"]);
            assert_eq!(rows[0]["explained_variance"], pca["explained_variance"]);
            assert_eq!(rows[1]["explained_variance"], pca["explained_variance_2"]);
            if algorithm == "sgns+hard" {
                assert!(num(rows[1]["explained_variance"]) < 1e-12, "{:?}", rows[1]);
                assert!(rows[1..].iter().all(|r| num(r["direct_bias"]).is_nan()));
                continue;
            }
            for pair in rows.windows(2) {
                assert!(
                    num(pair[1]["direct_bias"]) >= num(pair[0]["direct_bias"]),
                    "{pair:?}"
                );
                assert!(num(pair[1]["direct_bias_summed"]) >= num(pair[1]["direct_bias"]));
            }
        }
    }
    let left_out = Csv::read(&tables.join("pca_leave_one_out.csv"));
    let left_out = left_out.records();
    let n_pairs = num(subspace[0]["n_pairs"]) as usize;
    assert!(n_pairs >= 3, "{n_pairs}");
    for algorithm in ["sgns", "sgns+hard", "glove"] {
        let rows: Vec<_> = left_out.iter().filter(|r| r["algorithm"] == algorithm).collect();
        assert_eq!(rows.len(), 3 * n_pairs, "{algorithm}");
        for r in rows {
            assert!((0.0..=1.0 + 1e-12).contains(&num(r["cos_pca"])), "{r:?}");
        }
    }
    let reliability = Csv::read(&tables.join("bias_subspace_reliability.csv"));
    let reliability = reliability.records();
    let scopes: Vec<(&str, &str)> = (reliability.iter())
        .filter(|r| r["algorithm"] == "glove")
        .map(|r| (r["statistic"], r["scope"]))
        .collect();
    assert_eq!(
        scopes[..4],
        [
            ("direct_bias", "1"),
            ("direct_bias", "2"),
            ("direct_bias", "3"),
            ("pca_leave_one_out", "pca")
        ]
    );
}
