//! What the run leaves: every table (the regression input filled in), the report with its
//! figures, and a manifest that times every job.

use crate::smoke_run;

#[test]
fn the_run_writes_every_table_and_a_filled_regression_input() {
    let run = smoke_run();
    assert!(run.log.contains("regression input: "), "{}", run.log);
    let names: Vec<String> = run.tables.iter().map(|(p, _)| p.display().to_string()).collect();
    for expected in [
        "coverage.csv",
        "bias_scores/wikitext-103-valid-sgns.parquet",
        "bias_scores/wikitext-103-valid-glove.parquet",
        "test_retest_words.parquet",
        "test_retest_pairs.csv",
        "inter_rater_words.parquet",
        "inter_rater_pairs.parquet",
        "internal_consistency.csv",
        "word_properties.parquet",
        "regression.parquet",
        "regression.csv",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    // The regression input has rows, with the lexical features filled in.
    let regression =
        retest_tables::Table::read("regression", &run.tables_dir().join("regression.parquet")).unwrap();
    assert!(regression.height() > 0, "the regression input is empty");
    let csv = std::fs::read_to_string(run.tables_dir().join("regression.csv")).unwrap();
    assert!(
        csv.starts_with("analysis,corpus,algorithm,metric,scale,word,score,"),
        "{csv:.200}"
    );
    assert!(
        csv.contains(",NOUN,") && csv.contains("inter_rater"),
        "{csv:.2000}"
    );
}

#[test]
fn the_report_has_its_pages_and_every_figure_as_svg_and_png() {
    let run = smoke_run();
    let report_names: Vec<String> = run.report.iter().map(|(p, _)| p.display().to_string()).collect();
    for expected in [
        "index.html",
        "report.md",
        "fig2_test_retest_words.svg",
        "fig2_test_retest_words.png",
    ] {
        assert!(
            report_names.iter().any(|n| n == expected),
            "{expected} missing from {report_names:?}"
        );
    }
    let markdown = std::fs::read_to_string(run.results.join("smoke/report/report.md")).unwrap();
    assert!(
        markdown.contains("## Comparison with the paper"),
        "{markdown:.500}"
    );
}

/// The manifest times every training job (from the timing file beside each embedding) and
/// every measure job, records how each seed's neighbour search ran, the version, the commit
/// and the corpus' checksums.
#[test]
fn the_manifest_times_every_job() {
    let run = smoke_run();
    let text = std::fs::read_to_string(run.results.join("smoke/manifest.json")).unwrap();
    assert!(text.contains("\"retest_version\""), "{text}");
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    let training = manifest["jobs"]["training"].as_array().unwrap();
    assert_eq!(training.len(), 6, "{training:?}");
    for job in training {
        assert!(job["seconds"].as_f64().is_some_and(|s| s > 0.0), "{job}");
    }
    let measure = manifest["jobs"]["measure"].as_array().unwrap();
    // sgns, sgns+hard (the same seeds, debiased), glove.
    assert_eq!(measure.len(), 3);
    for job in measure {
        assert!(job["summary"]["seconds_rules"].as_f64().is_some(), "{job}");
        // NBM's neighbour search of every seed: the filter that ran, chosen by `Auto` (by
        // timing both filters where the CPU has both).
        let searches = job["summary"]["neighbour_search"].as_array().unwrap();
        assert_eq!(searches.len(), 3, "{job}");
        for search in searches {
            assert!(
                ["f32", "bf16"].contains(&search["filter"].as_str().unwrap()),
                "{search}"
            );
            if let Some(timing) = search["chosen_by_timing"].as_object() {
                let (f32, bf16) = (
                    timing["f32_ns_per_row"].as_f64(),
                    timing["bf16_ns_per_row"].as_f64(),
                );
                let chosen = if bf16 < f32 { "bf16" } else { "f32" };
                assert_eq!(search["filter"], chosen, "{search}");
            }
        }
    }
    assert!(manifest.get("git_commit").is_some(), "{manifest}");
    assert!(
        manifest["corpora"][0]["prepared"]["sources"][0]["sha256"].is_string(),
        "{manifest}"
    );
}

#[test]
fn the_readmes_first_look_opens_what_the_smoke_run_writes() {
    let run = smoke_run();
    let readme = std::fs::read_to_string(retest_test_support::workspace_dir().join("README.md")).unwrap();
    let block = (readme.split("```sh\n"))
        .find(|b| b.starts_with("just reproduce-du2021 smoke "))
        .expect("a first-look block running smoke")
        .split("```")
        .next()
        .unwrap();
    // `just reproduce-du2021 smoke` is `retest run smoke`, as the smoke run ran it.
    let justfile = std::fs::read_to_string(retest_test_support::workspace_dir().join("justfile")).unwrap();
    assert!(justfile.contains("reproduce-du2021 pipeline=\"du2021\":\n    {{retest}} run {{pipeline}}\n"));
    let paths: Vec<&str> = block
        .split_whitespace()
        .filter_map(|w| w.trim_matches(['`', ';', ')', '(']).strip_prefix("results/"))
        .collect();
    assert!(paths.contains(&"smoke/report/index.html"), "{block}");
    for path in paths {
        assert!(
            run.results.join(path).exists(),
            "the first look opens {path}, which the run did not write"
        );
    }
}

#[test]
fn a_three_seed_run_claims_no_finding_replicates_and_says_what_it_ran() {
    let run = smoke_run();
    let report = run
        .report
        .iter()
        .find(|(p, _)| p.as_os_str() == "report.md")
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
        .unwrap();
    assert!(
        report.contains("0 of 0 findings judged replicate in this run"),
        "{report:.2000}"
    );
    assert!(!report.contains("| replicates |") && !report.contains("| does not replicate |"));
    assert!(report.contains("| not enough evidence |"));
    // The run at a glance, and the contents.
    for line in [
        "| seeds per configuration | 3 |",
        "| configurations | wikitext-103-valid · GloVe (dim 25); wikitext-103-valid · SGNS (dim 25); \
         wikitext-103-valid · SGNS + hard debiasing (dim 25) |",
        "**Contents**",
        "- [Comparison with the paper](#comparison-with-the-paper)",
    ] {
        assert!(
            report.lines().any(|l| l == line),
            "no line `{line}` in {report:.3000}"
        );
    }
    assert!(
        report.contains("| corpora | wikitext-103-valid: 190,646 tokens, "),
        "{report:.3000}"
    );
}
