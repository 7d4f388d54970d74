//! `analysis/multilevel.R` fits both models on the run's regression input.

use std::process::Command;

use retest_test_support::workspace_dir;

use crate::smoke_run;

/// `analysis/multilevel.R` fits both models on the regression input. Skipped where R with lme4
/// is not installed (Debian: r-cran-lme4 r-cran-performance); `.ci/run` installs them.
#[test]
fn the_multilevel_regression_fits() {
    let run = smoke_run();
    let csv = run.tables_dir().join("regression.csv");
    let out_dir = run.results.join("multilevel");
    let has_lme4 = Command::new("Rscript")
        .args(["-e", "quit(status = !requireNamespace('lme4', quietly = TRUE))"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !has_lme4 {
        return;
    }
    let out = Command::new("Rscript")
        .arg(workspace_dir().join("analysis/multilevel.R"))
        .arg(&csv)
        .arg("--out")
        .arg(&out_dir)
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
