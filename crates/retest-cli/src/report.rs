//! `retest report`, and the report summary `retest run` prints.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use retest_pipeline::{Folders, report_folder, report_meta, run_name, write_report};
use retest_report::ReportSummary;

/// `retest report PIPELINE`: rebuilds the report from the tables a run left, without running
/// anything else. `tables` and `out` override `<results>/<pipeline>/tables` and `…/report`.
pub fn report_command(
    folders: &Folders,
    pipeline: &str,
    tables: Option<&Path>,
    out: Option<&Path>,
) -> Result<()> {
    let name = run_name(pipeline);
    let run_dir = folders.results.join(&name);
    let tables = tables.map_or_else(|| run_dir.join("tables"), Path::to_owned);
    let out = out.map_or_else(|| run_dir.join("report"), Path::to_owned);
    report_folder(&out, &tables)?;
    let summary = write_report(&tables, &out, &report_meta(&run_dir, &name))?;
    print_summary(&out, &summary)
}

/// One line per finding and where the report is, on stderr.
pub fn print_summary(out: &Path, summary: &ReportSummary) -> Result<()> {
    let mut err = std::io::stderr().lock();
    for f in &summary.findings {
        writeln!(err, "  {:<19}  {}", f.verdict.as_str(), f.claim)?;
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
