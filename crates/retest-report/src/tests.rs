//! Writing whole reports from small synthetic tables.

use std::path::Path;

use retest_tables::{AlphaRow, IccRow, IccStats, RegressionRow, Subject, SubjectKind, Table};
use retest_test_support::sources::{crate_paths, source_files};

use super::*;

const PAIRS: [(&str, &str); 4] = [
    ("boy", "girl"),
    ("boys", "girls"),
    ("man", "woman"),
    ("men", "women"),
];
const LISTS: [&str; 2] = ["occ16", "full"];

/// A spread across `n_seeds` seeds around `mean`, `half` either side.
pub(crate) fn spread(n_seeds: u32, mean: f64, half: f64) -> retest_tables::SpreadStats {
    retest_tables::SpreadStats {
        n_seeds,
        n_undefined: 0,
        mean,
        sd: half / 2.0,
        low: mean - half,
        high: mean + half,
    }
}

pub(crate) fn stats(icc: f64, status: &str) -> IccStats {
    IccStats {
        icc,
        f_stat: 2.0,
        df1: 3.0,
        df2: 9.0,
        p_value: 0.1,
        ci_low: icc - 0.1,
        ci_high: icc + 0.1,
        n_subjects: 4,
        n_raters: 32,
        n_dropped: 0,
        status: status.to_owned(),
    }
}

/// A deterministic spread of values in [lo, lo + width).
fn value(i: usize, lo: f64, width: f64) -> f64 {
    lo + width * ((i as f64 * 0.618_033_988_75).fract())
}

fn icc_rows(kind: SubjectKind, rules: &[&str], scales: &[&str], lo: f64) -> Vec<IccRow> {
    let mut rows = Vec::new();
    let mut i = 0;
    for algorithm in ["glove", "sgns"] {
        for rule in rules {
            for scale in scales {
                for list in LISTS {
                    let subjects: Vec<Subject> = match kind {
                        SubjectKind::Word => (0..12).map(|w| Subject::Word(format!("w{w}"))).collect(),
                        SubjectKind::Pair => PAIRS
                            .iter()
                            .map(|(m, f)| Subject::Pair {
                                male: (*m).into(),
                                female: (*f).into(),
                            })
                            .collect(),
                    };
                    for subject in subjects {
                        i += 1;
                        let status = if i % 17 == 0 { "zero_variance" } else { "ok" };
                        let icc = if status == "ok" {
                            value(i, lo, 0.3)
                        } else {
                            f64::NAN
                        };
                        rows.push(IccRow {
                            corpus: "tiny".into(),
                            algorithm: algorithm.into(),
                            rule: (*rule).into(),
                            scale: (*scale).into(),
                            list: list.into(),
                            subject,
                            stats: stats(icc, status),
                        });
                    }
                }
            }
        }
    }
    rows
}

fn alpha_rows() -> Vec<AlphaRow> {
    let mut rows = Vec::new();
    for (i, (query, items)) in [
        ("career", "query_words"),
        ("math", "query_words"),
        ("google10k", "base_pairs"),
    ]
    .iter()
    .enumerate()
    {
        for (j, rule) in ["dbwa", "ripa", "nbm"].iter().enumerate() {
            rows.push(alpha_row("tiny", rule, query, items, 0.5 + 0.1 * (i + j) as f64));
        }
    }
    rows
}

/// An `ok` α row of SGNS on `corpus` (CI [0, 1], 8 items, 23 cases), also for the findings'
/// tests.
pub(crate) fn alpha_row(corpus: &str, rule: &str, query: &str, items: &str, alpha: f64) -> AlphaRow {
    AlphaRow {
        corpus: corpus.into(),
        algorithm: "sgns".into(),
        rule: rule.into(),
        query: query.into(),
        items: items.into(),
        alpha,
        ci_low: 0.0,
        ci_high: 1.0,
        n_items: 8,
        n_cases: 23,
        n_dropped: 0,
        status: "ok".into(),
    }
}

fn regression_rows() -> Vec<RegressionRow> {
    (0..60)
        .map(|w| {
            let lf = value(w, 1.0, 8.0);
            let es = value(w * 3 + 1, 0.5, 0.5);
            RegressionRow {
                analysis: "test_retest".into(),
                corpus: "tiny".into(),
                algorithm: "sgns".into(),
                metric: "dbwa".into(),
                scale: "raw".into(),
                word: format!("w{w}"),
                score: 0.2 + 0.5 * es + 0.01 * lf + value(w * 7, 0.0, 0.01),
                frequency: 10,
                log_freq: lf,
                log_freq_sq: lf * lf,
                n_senses: 2,
                log_senses: value(w * 5, 0.0, 2.0),
                pos: "NOUN".into(),
                nn_sim: f64::NAN,
                l2_norm: value(w * 11, 1.0, 2.0),
                es,
            }
        })
        .collect()
}

fn write_tables(dir: &Path, with_regression: bool) {
    let trw = icc_rows(SubjectKind::Word, &["dbwa", "ripa", "nbm"], &["raw"], 0.6);
    let trp = icc_rows(SubjectKind::Pair, &["dbwa", "ripa", "nbm"], &["raw"], 0.7);
    let irw = icc_rows(SubjectKind::Word, &["dbwa+ripa+nbm"], &["raw", "zscore"], 0.1);
    let irp = icc_rows(SubjectKind::Pair, &["dbwa+ripa+nbm"], &["raw", "zscore"], 0.1);
    Table::from_rows_in("test_retest_words", SubjectKind::Word, &trw)
        .unwrap()
        .write(dir, false)
        .unwrap();
    Table::from_rows_in("test_retest_pairs", SubjectKind::Pair, &trp)
        .unwrap()
        .write(dir, false)
        .unwrap();
    Table::from_rows_in("inter_rater_words", SubjectKind::Word, &irw)
        .unwrap()
        .write(dir, false)
        .unwrap();
    Table::from_rows_in("inter_rater_pairs", SubjectKind::Pair, &irp)
        .unwrap()
        .write(dir, false)
        .unwrap();
    Table::from_rows("internal_consistency", &alpha_rows())
        .unwrap()
        .write(dir, false)
        .unwrap();
    if with_regression {
        Table::from_rows("regression", &regression_rows())
            .unwrap()
            .write(dir, false)
            .unwrap();
    }
}

fn meta() -> ReportMeta {
    ReportMeta {
        pipeline: "tiny".into(),
        variants: Vec::new(),
        debiased: Vec::new(),
        corpus_tokens: Vec::new(),
        corpus_words: Vec::new(),
        dims: Vec::new(),
        model_files: Vec::new(),
        commit: None,
    }
}

#[test]
fn report_files_are_written_and_identical_on_rewrite() {
    let tmp = tempfile::tempdir().unwrap();
    let tables = tmp.path().join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    write_tables(&tables, false);
    let out = tmp.path().join("report");
    let summary = write_report(&tables, &out, &meta()).unwrap();
    let names: Vec<String> = summary
        .files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for stem in [
        "fig2_test_retest_words",
        "fig2_test_retest_pairs",
        "fig3_inter_rater_words",
        "fig3_inter_rater_pairs",
        "fig4_internal_consistency",
        "fig5a_pairs_test_retest",
        "fig5b_pairs_inter_rater",
    ] {
        assert!(names.contains(&format!("{stem}.svg")), "{names:?}");
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{stem}"
        );
        let png = std::fs::read(out.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}");
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.starts_with("# retest report: tiny\n"));
    assert!(holds_report(&out));
    assert!(!holds_report(tmp.path()), "no report.md");
    assert!(md.contains("Regression input not available"));
    assert!(
        md.contains("| test_retest_words | 144 | 136 | 8 (zero_variance 8) |"),
        "{md}"
    );
    assert!(md.contains("zero_variance"));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.contains("<img src=\"fig4_internal_consistency.svg\"")
    );
    assert!(!html.contains("<script"));

    let first: Vec<Vec<u8>> = summary.files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let again = write_report(&tables, &out, &meta()).unwrap();
    assert_eq!(again.files, summary.files);
    let second: Vec<Vec<u8>> = again.files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(first == second, "a rewrite changed some file");
    assert!(
        !std::fs::read_dir(&out).unwrap().any(|e| e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".partial"))
    );
}

#[test]
fn below_the_seeds_floor_no_finding_is_judged() {
    let tmp = tempfile::tempdir().unwrap();
    write_tables(tmp.path(), true);
    let mut trw = icc_rows(SubjectKind::Word, &["dbwa", "ripa", "nbm"], &["raw"], 0.6);
    for row in &mut trw {
        row.stats.n_raters = 3;
    }
    Table::from_rows_in("test_retest_words", SubjectKind::Word, &trw)
        .unwrap()
        .write(tmp.path(), false)
        .unwrap();
    let summary = write_report(tmp.path(), &tmp.path().join("report"), &meta()).unwrap();
    let verdicts: Vec<Verdict> = summary.findings.iter().map(|f| f.verdict).collect();
    assert!(verdicts.contains(&Verdict::NotEnoughEvidence), "{verdicts:?}");
    assert!(
        verdicts
            .iter()
            .all(|v| matches!(v, Verdict::NotEnoughEvidence | Verdict::NotAvailable)),
        "{verdicts:?}"
    );
    let report = std::fs::read_to_string(tmp.path().join("report/report.md")).unwrap();
    assert!(
        report.contains("0 of 0 findings judged replicate in this run"),
        "{report:.3000}"
    );
    assert!(report.contains("This run has 3 seeds per configuration; a verdict needs at least 5"));
}

#[test]
fn report_with_regression_compares_directions() {
    let tmp = tempfile::tempdir().unwrap();
    write_tables(tmp.path(), true);
    let summary = write_report(tmp.path(), &tmp.path().join("report"), &meta()).unwrap();
    let es = summary
        .findings
        .iter()
        .find(|f| f.claim.starts_with("Higher ES goes with higher test-retest"))
        .unwrap();
    assert_eq!(es.verdict, Verdict::Replicates, "{es:?}");
    let ir = summary
        .findings
        .iter()
        .find(|f| f.claim.contains("inter-rater consistency (Table 2)"))
        .unwrap();
    assert_eq!(ir.verdict, Verdict::NotAvailable);
    let md = std::fs::read_to_string(tmp.path().join("report/report.md")).unwrap();
    assert!(md.contains("NN sim: no finite values"), "{md}");
}

#[test]
fn a_folder_without_tables_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let err = write_report(tmp.path(), &tmp.path().join("report"), &meta()).unwrap_err();
    assert!(err.to_string().starts_with("no result tables in"), "{err}");
}

/// The crate's modules by layer, lowest first. A module may import from the modules of the
/// layers below its own and from its own submodules, never from its layer or one above, so the
/// imports have no circle and no section reaches into another:
///
/// 0. numbers, tables, documents and statistics that know nothing of the report;
/// 1. figures (drawn from statistics) and the input tables;
/// 2. `page`: the parts every section is built from (title, header cells, figures with
///    captions, findings as a table);
/// 3. the paper comparison's parts and the base-pair section's number formats;
/// 4. the paper comparison and the base-pair κ columns;
/// 5. the parts of a section kept in its folder, and what the sections that put one
///    configuration beside another share (`beside`);
/// 6. the sections;
/// 7. `assemble`, which puts the sections in order;
/// 8. the crate root, which writes the files.
const LAYERS: [&[&str]; 9] = [
    &[
        "data",
        "document",
        "error",
        "finding",
        "numbers",
        "regression",
        "stats",
    ],
    &["figures", "input"],
    &["page"],
    &[
        "base_pairs::cells",
        "compare::alpha",
        "compare::effects",
        "compare::pairs",
        "compare::words",
    ],
    &["base_pairs::columns", "compare"],
    &[
        "base_pairs::agreement",
        "base_pairs::directions",
        "base_pairs::example",
        "base_pairs::findings",
        "base_pairs::kappa",
        "base_pairs::variance",
        "beside",
        "set_level::bakarov",
        "set_level::contrast",
    ],
    &[
        "analogies",
        "base_pairs",
        "debias",
        "exclusions",
        "reliability",
        "residual",
        "set_level",
        "subspace",
        "validity",
        "variants",
        "word_effects",
    ],
    &["assemble"],
    &["crate"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// Every `.rs` file under `src` but the test modules, as (module path, source); the crate root
/// is `crate`.
fn product_modules(src: &Path) -> Vec<(String, String)> {
    source_files(src)
        .into_iter()
        .filter(|file| file.path.file_stem().is_none_or(|stem| stem != "tests"))
        .map(|file| {
            let module = if file.module.is_empty() {
                "crate".to_owned()
            } else {
                file.module.join("::")
            };
            (module, file.text)
        })
        .collect()
}

/// The source before an inline `mod tests`, without comments.
fn product_code(source: &str) -> String {
    let code = source
        .split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or_default();
    code.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules `module`'s code imports through `crate::` and `super::` paths: for each path the
/// longest prefix that is a module, else the crate root.
fn imported_modules(module: &str, code: &str, modules: &[String]) -> Vec<String> {
    let own: Vec<String> = if module == "crate" {
        Vec::new()
    } else {
        module.split("::").map(str::to_owned).collect()
    };
    let mut out = Vec::new();
    for named in crate_paths(&own, code) {
        let full: Vec<String> = named.start.into_iter().chain(named.names).collect();
        let target = (1..=full.len())
            .rev()
            .map(|n| full[..n].join("::"))
            .find(|m| modules.contains(m))
            .unwrap_or_else(|| "crate".to_owned());
        let inside = target == module || target.starts_with(&format!("{module}::"));
        if !inside && !out.contains(&target) {
            out.push(target);
        }
    }
    out.sort();
    out
}

/// The module imports of the product code that break the layers of [`LAYERS`].
fn layer_violations(sources: &[(String, String)]) -> Vec<String> {
    let modules: Vec<String> = sources.iter().map(|(m, _)| m.clone()).collect();
    let mut violations = Vec::new();
    for (module, source) in sources {
        let Some(layer) = layer_of(module) else {
            violations.push(format!("{module} is in no layer of LAYERS"));
            continue;
        };
        for target in imported_modules(module, &product_code(source), &modules) {
            let target_layer = layer_of(&target).unwrap_or(LAYERS.len());
            if target_layer >= layer {
                violations.push(format!(
                    "{module} (layer {layer}) imports {target} (layer {target_layer})"
                ));
            }
        }
    }
    violations
}

#[test]
fn modules_import_only_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = product_modules(&src);
    for layer in LAYERS {
        for module in layer {
            assert!(
                sources.iter().any(|(m, _)| m == module),
                "{module} of LAYERS has no file"
            );
        }
    }
    let violations = layer_violations(&sources);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn a_section_importing_the_assembly_breaks_the_layers() {
    let sources = vec![
        ("page".to_owned(), "use crate::data::rule_label;\n".to_owned()),
        (
            "analogies".to_owned(),
            "use crate::{assemble::Assembled, page::{row_cells, push_figure}};\n".to_owned(),
        ),
        ("assemble".to_owned(), "use crate::analogies;\n".to_owned()),
        ("base_pairs".to_owned(), String::new()),
        (
            "base_pairs::kappa".to_owned(),
            "use super::cells::spread;\nfn f() { super::blocks() }\n".to_owned(),
        ),
        ("base_pairs::cells".to_owned(), "use crate::TITLE;\n".to_owned()),
        ("data".to_owned(), String::new()),
    ];
    assert_eq!(
        layer_violations(&sources),
        [
            "analogies (layer 6) imports assemble (layer 7)",
            "base_pairs::kappa (layer 5) imports base_pairs (layer 6)",
            "base_pairs::cells (layer 3) imports crate (layer 8)",
        ]
    );
}
