//! `retest run`, `retest measure` and `retest train` on this machine: the work is
//! `retest_pipeline::run`'s; this module prints where the results are.

use std::io::Write;

use anyhow::Result;
use retest_pipeline::{Folders, run_pipeline};

use crate::cli::RunArgs;

/// `retest run`: every stage, then the manifest.
pub fn run(folders: &Folders, pipeline: &str, args: &RunArgs) -> Result<()> {
    let finished = run_pipeline(folders, pipeline, &args.options())?;
    crate::report::print_summary(&finished.report, &finished.summary)?;
    writeln!(
        std::io::stderr(),
        "pipeline `{}` done: {} files in {}, report in {}",
        finished.pipeline,
        finished.written.len(),
        finished.tables.display(),
        finished.report.display()
    )?;
    Ok(())
}
