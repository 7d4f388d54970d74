//! `retest validity` end to end: on a small committed model and criterion, every rule's
//! correlation with the criterion equals numpy's scores and scipy's correlations
//! (`data/validity_reference.py`); Garg et al.'s census criterion is the logit of the share of
//! women, read from the data mirror; bad input gives one line, compared in full.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_tables::{Table, ValidityRow, ValidityStats};
use retest_test_support::{arg, data_file, stderr, workspace_dir};

/// `retest ARGS` in the workspace, offline, with the data mirror and a cache in `dir`.
fn retest(args: &[&str], dir: &Path) -> Output {
    retest_test_support::run_cached(env!("CARGO_BIN_EXE_retest"), args, dir)
}

fn data(name: &str) -> PathBuf {
    workspace_dir().join("crates/retest-cli/tests/data").join(name)
}

/// The rows of `retest validity MODEL --pairs PAIRS EXTRA… --out DIR/v.parquet`.
fn validity(dir: &Path, extra: &[&str]) -> Vec<ValidityStats> {
    let pairs = dir.join("pairs.txt");
    std::fs::write(&pairs, "he she\nman woman\n").unwrap();
    let out = dir.join("v.parquet");
    let model = data("validity_model.vec");
    let mut args = vec!["validity", arg(&model), "--pairs", arg(&pairs)];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", arg(&out)]);
    let done = retest(&args, dir);
    assert!(done.status.success(), "{}", stderr(&done));
    (Table::read("validity", &out)
        .unwrap()
        .rows::<ValidityRow>()
        .unwrap())
    .into_iter()
    .map(|r| r.validity)
    .collect()
}

#[test]
fn validity_equals_numpy_scores_and_scipy_correlations() {
    let dir = tempfile::tempdir().unwrap();
    let criterion = data("validity_criterion.csv");
    let rows = validity(
        dir.path(),
        &["--criterion", arg(&criterion), "--rules", "dbwa,ripa"],
    );
    let reference = std::fs::read_to_string(data("validity_reference.csv")).unwrap();
    let want: Vec<Vec<&str>> = (reference.lines())
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), want.len());
    for (row, want) in rows.iter().zip(&want) {
        assert_eq!((row.rule.as_str(), row.reference.as_str()), (want[0], want[1]));
        assert_eq!(row.criterion, "validity_criterion");
        assert_eq!(row.n_words.to_string(), want[2]);
        for (got, want, what) in [
            (row.pearson_r, want[3], "pearson_r"),
            (row.spearman_r, want[4], "spearman_r"),
            (row.p_value, want[5], "p_value"),
        ] {
            let want: f64 = want.parse().unwrap();
            assert!(
                (got - want).abs() < 1e-9,
                "{} {}: {what} {got} against {want}",
                row.rule,
                row.reference
            );
        }
    }
}

/// The census criterion of 1900 from the mirror: the occupations of the model correlate with
/// the logit of their share of women.
#[test]
fn the_census_criterion_comes_from_the_mirror() {
    let dir = tempfile::tempdir().unwrap();
    let rows = validity(
        dir.path(),
        &[
            "--criterion",
            "census",
            "--census-year",
            "1900",
            "--rules",
            "dbwa",
        ],
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].criterion, "census-1900");
    // nurse, engineer, teacher, pilot, clerk, doctor, baker, judge: those of the 1900 census.
    assert!(rows[0].n_words >= 3, "{rows:?}");
    assert!(rows[0].pearson_r.is_finite());
}

#[test]
fn bad_criteria_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let model = data("validity_model.vec");
    let (out, pairs, none) = (
        dir.path().join("v.csv"),
        dir.path().join("pairs.txt"),
        dir.path().join("none.csv"),
    );
    std::fs::write(&pairs, "he she\n").unwrap();
    std::fs::write(&none, "word,value\nzzqq,1\nqqzz,2\n").unwrap();
    let census = data_file("word_lists/garg_pnas18/occupation_percentages_gender_occ1950.csv");
    let years = "1850, 1860, 1870, 1880, 1900, 1910, 1920, 1930, 1940, 1950, 1960, 1970, 1980, 1990, 2000, \
                 2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009, 2010, 2011, 2012, 2013, 2014, 2015";
    let cases: [(&[&str], String); 3] = [
        (
            &["--criterion", arg(&none)],
            format!(
                "error: {}: none of the 2 words of criterion `none` is in the vocabulary\n",
                model.display()
            ),
        ),
        (
            &["--criterion", "mturk", "--census-year", "1900"],
            "error: --census-year applies to --criterion census only\n".to_owned(),
        ),
        (
            &["--criterion", "census", "--census-year", "1901"],
            format!(
                "error: {}: no census line of 1901 (the years are {years})\n",
                census.display()
            ),
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec!["validity", arg(&model), "--pairs", arg(&pairs)];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", arg(&out)]);
        let done = retest(&args, dir.path());
        assert!(!done.status.success());
        assert_eq!(stderr(&done), want);
    }
}
