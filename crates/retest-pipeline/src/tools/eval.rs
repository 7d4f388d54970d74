//! Intrinsic quality of any embedding files (`retest eval`): retest-eval's standard suite on
//! each file, printed as a text table or JSON, and written, when asked, as one table with a row
//! per (embedding, benchmark, section, metric).

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use retest_embeddings::Embeddings;
use retest_eval::{AnalogyResult, Availability, EvalReport};
use retest_tables::{EvalRow, names};

use crate::stages::columns::ZERO_VECTOR;
use crate::tools::inputs::{EmbeddingFiles, TableFile};

/// What `retest eval` was asked to do.
#[derive(Debug)]
pub struct EvalRequest<'a> {
    /// `lowercase` is not read: the suite matches words case-insensitively, as gensim does.
    pub embeddings: EmbeddingFiles<'a>,
    /// The folder holding the benchmark files (the data mirror's `benchmarks/`).
    pub benchmarks: &'a Path,
    /// Print JSON instead of a text table.
    pub json: bool,
    /// The table to write, if any.
    pub out: Option<TableFile<'a>>,
}

/// Runs the standard suite on every embedding file, printing each report on stdout, then
/// writes the table when asked.
///
/// # Errors
///
/// `--out` is refused by the output policy; a file cannot be read; a benchmark file is missing
/// or malformed; the table cannot be written.
pub fn eval_files(req: &EvalRequest<'_>) -> Result<()> {
    if let Some(out) = &req.out {
        out.check(&req.embeddings.and(&[]))?;
    }
    let mut stdout = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let mut rows = Vec::new();
    for path in req.embeddings.paths {
        let name = path.display().to_string();
        let (report, report_rows) = evaluate(&name, &req.embeddings.read(path)?, req.benchmarks, &mut err)?;
        if req.json {
            let value = serde_json::json!({ "embeddings": path, "report": report });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
        } else {
            writeln!(stdout, "# {name}\n{report}")?;
        }
        rows.extend(report_rows);
    }
    match &req.out {
        Some(out) => out.write(names::EVAL_FILE, &rows, "eval rows"),
        None => Ok(()),
    }
}

/// The standard suite on `embeddings` (`name` in the rows' `embedding` column): the report and
/// its table rows. Words with an all-zero vector are named in a warning on `warn`.
///
/// # Errors
///
/// A benchmark file is missing or malformed; `warn` cannot be written.
pub fn evaluate(
    name: &str,
    embeddings: &Embeddings,
    benchmarks: &Path,
    warn: &mut dyn Write,
) -> Result<(EvalReport, Vec<EvalRow>)> {
    let report = retest_eval::standard_suite(benchmarks, embeddings)?;
    if !report.zero_vectors.is_empty() {
        let n = report.zero_vectors.len();
        writeln!(
            warn,
            "warning: {name}: {n} {} an all-zero vector, whose cosine with every word is 0 as in \
             gensim (the figures' rows say `zero_vector`): {}",
            if n == 1 { "word has" } else { "words have" },
            report.zero_vectors.join(" ")
        )?;
    }
    let rows = eval_rows(name, &report);
    Ok((report, rows))
}

/// The rows of one report: per similarity set its Spearman and Pearson correlations; per
/// analogy set the accuracy of every section and in total (`google`, then `msr`, one
/// `not_available` row when its file is absent).
fn eval_rows(embedding: &str, report: &EvalReport) -> Vec<EvalRow> {
    let row = |benchmark: &str, section: &str, metric: &str, value: f64, counts: [usize; 3]| EvalRow {
        embedding: embedding.to_owned(),
        benchmark: benchmark.to_owned(),
        section: section.to_owned(),
        metric: metric.to_owned(),
        value,
        n_correct: counts[0] as u32,
        n_used: counts[1] as u32,
        n_skipped: counts[2] as u32,
        status: "ok".to_owned(),
    };
    let mut rows = Vec::new();
    // Figures computed with zero vectors among the words: a similarity benchmark when one of
    // its pairs has one, the analogy sets (every row is a candidate answer) when any row has one.
    let analogy_status = if report.zero_vectors.is_empty() {
        "ok"
    } else {
        ZERO_VECTOR
    };
    for s in &report.similarity {
        let status = match s.undefined() {
            Some(why) => why.as_str(),
            None if s.pairs_zero_vector > 0 => ZERO_VECTOR,
            None => "ok",
        };
        for (metric, value) in [("spearman", s.spearman), ("pearson", s.pearson)] {
            rows.push(EvalRow {
                status: status.to_owned(),
                ..row(&s.name, "", metric, value, [0, s.pairs_used, s.pairs_skipped])
            });
        }
    }
    let analogies = |benchmark: &str, a: &AnalogyResult| {
        let sections = (a.sections.iter()).map(|s| {
            row(
                benchmark,
                &s.name,
                "accuracy",
                s.accuracy(),
                [s.correct, s.attempted, s.skipped],
            )
        });
        let total = row(
            benchmark,
            "total",
            "accuracy",
            a.total_accuracy,
            [a.correct, a.attempted, a.skipped],
        );
        (sections.chain([total]))
            .map(|r| EvalRow {
                status: analogy_status.to_owned(),
                ..r
            })
            .collect::<Vec<_>>()
    };
    rows.extend(analogies("google", &report.analogy));
    for optional in &report.optional_analogy {
        match (&optional.status, &optional.result) {
            (Availability::Available, Some(result)) => rows.extend(analogies(&optional.name, result)),
            _ => rows.push(EvalRow {
                status: "not_available".to_owned(),
                ..row(&optional.name, "total", "accuracy", f64::NAN, [0, 0, 0])
            }),
        }
    }
    rows
}
