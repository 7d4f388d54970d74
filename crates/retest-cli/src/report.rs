//! `retest report`, and the report step of `retest run`: figures and the comparison with
//! Du et al. (2021) from a run's tables, written to `<results>/<pipeline>/report/`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retest_report::{ReportMeta, ReportSummary, Verdict, write_report};

use crate::cli::Dirs;

/// Writes the report of the run in `run_dir` (its `tables/` into its `report/`).
pub fn write_run_report(run_dir: &Path, pipeline: &str) -> Result<(PathBuf, ReportSummary)> {
    report_into(&run_dir.join("tables"), &run_dir.join("report"), pipeline)
}

fn report_into(tables: &Path, out: &Path, pipeline: &str) -> Result<(PathBuf, ReportSummary)> {
    let meta = ReportMeta {
        pipeline: pipeline.to_owned(),
    };
    let summary = write_report(tables, out, &meta)
        .with_context(|| format!("pipeline `{pipeline}`: writing the report into {}", out.display()))?;
    Ok((out.to_owned(), summary))
}

/// The results folder name of `reference`: a pipeline name, or a pipeline file whose stem is
/// the name (`pipelines/du2021.yaml` → `du2021`).
fn pipeline_name(reference: &str) -> String {
    let path = Path::new(reference);
    if reference.ends_with(".yaml") || reference.contains('/') {
        path.file_stem()
            .map_or_else(|| reference.to_owned(), |s| s.to_string_lossy().into_owned())
    } else {
        reference.to_owned()
    }
}

/// `retest report PIPELINE`: rebuilds the report from the tables a run left, without running
/// anything else. `tables` and `out` override `<results>/<pipeline>/tables` and `…/report`.
pub fn report_command(dirs: &Dirs, pipeline: &str, tables: Option<&Path>, out: Option<&Path>) -> Result<()> {
    let name = pipeline_name(pipeline);
    let run_dir = dirs.results.join(&name);
    let tables = tables.map_or_else(|| run_dir.join("tables"), Path::to_owned);
    let out = out.map_or_else(|| run_dir.join("report"), Path::to_owned);
    let (out, summary) = report_into(&tables, &out, &name)?;
    print_summary(&out, &summary)
}

/// One line per finding and where the report is, on stderr.
pub fn print_summary(out: &Path, summary: &ReportSummary) -> Result<()> {
    let mut err = std::io::stderr().lock();
    for f in &summary.findings {
        let mark = match f.verdict {
            Verdict::Replicates => "replicates        ",
            Verdict::DoesNotReplicate => "does not replicate",
            Verdict::NotAvailable => "not available     ",
        };
        writeln!(err, "  {mark}  {}", f.claim)?;
    }
    writeln!(
        err,
        "report: {} files in {} (open {})",
        summary.files.len(),
        out.display(),
        out.join("index.html").display()
    )?;
    Ok(())
}
