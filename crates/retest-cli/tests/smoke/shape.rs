//! The reliability tables have the subjects and raters of the study's design.

use crate::csv::{Csv, Record, num};
use crate::smoke_run;

/// The smoke run's configurations: `sgns`, its seeds hard-debiased (`sgns+hard`) and `glove`.
const N_CONFIGURATIONS: f64 = 3.0;

/// Every reliability row has the subjects and raters of reference §5: test-retest ICC per word
/// is base pairs × seeds and per pair is the list's words × seeds; inter-rater ICC is the same
/// subjects × the three rules; alpha per query has the query's words as items and the base pairs
/// as cases, and the base-pair ensemble the pairs as items over the Google10K words.
#[test]
fn tables_have_the_study_shape() {
    let run = smoke_run();
    let tables = run.tables_dir();
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
    let subjects = |r: &Record<'_>| num(r["n_subjects"]) + num(r["n_dropped"]);
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
                N_CONFIGURATIONS * n_rules
            } else {
                N_CONFIGURATIONS * 2.0
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
        N_CONFIGURATIONS as usize * 3 * 7,
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
