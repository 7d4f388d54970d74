//! The report of a retest run: figures mirroring Du, Fang & Nguyen (2021) figs. 2–5 (SVG and
//! PNG), a comparison of this run's results with the paper's findings, the set-level measures
//! (WEAT, Direct Bias, Bakarov's detectors), the analogies and the base-pair analyses across
//! seeds, and the rows each table left out, written as `index.html` and `report.md`.
//!
//! The report depends only on the tables and on [`ReportMeta`]: the same tables give
//! byte-identical files (fixed ordering, no timestamps, PNGs without time chunks).

use std::path::{Path, PathBuf};

mod analogies;
mod assemble;
mod base_pairs;
mod beside;
pub mod compare;
pub mod data;
mod debias;
pub mod document;
mod error;
mod exclusions;
pub mod figures;
pub mod finding;
mod input;
pub mod numbers;
mod page;
pub mod regression;
mod reliability;
mod residual;
mod set_level;
pub mod stats;
mod subspace;
mod validity;
mod variants;
mod word_effects;

pub use error::ReportError;
pub use finding::{Finding, Verdict};
pub use input::{
    AnalogyTables, BasePairTables, ModelFilesMeta, ReportMeta, RuleTables, RunTables, SetLevelTables,
    SubspaceTables, read_tables,
};
use page::TITLE;

/// What [`write_report`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportSummary {
    /// Every file written, sorted.
    pub files: Vec<PathBuf>,
    /// The comparison with the paper, in report order.
    pub findings: Vec<Finding>,
}

/// Reads the tables of `tables_dir` and writes the report into `out_dir`
/// (`results/<pipeline>/report/`): `index.html`, `report.md` and each figure as `.svg` and
/// `.png`.
///
/// # Errors
///
/// As [`read_tables`] and [`write_report_from`].
pub fn write_report(
    tables_dir: &Path,
    out_dir: &Path,
    meta: &ReportMeta,
) -> Result<ReportSummary, ReportError> {
    let tables = read_tables(tables_dir)?;
    write_report_from(&tables, out_dir, meta)
}

/// Writes the report of `tables` into `out_dir`. Each file is written to a temporary name and
/// renamed into place.
///
/// # Errors
///
/// A file that cannot be written or a figure that cannot be drawn.
pub fn write_report_from(
    tables: &RunTables,
    out_dir: &Path,
    meta: &ReportMeta,
) -> Result<ReportSummary, ReportError> {
    std::fs::create_dir_all(out_dir).map_err(|source| ReportError::Io {
        path: out_dir.to_owned(),
        source,
    })?;
    let report = assemble::assemble(tables, meta);
    let mut files = Vec::new();
    for figure in &report.figures {
        let svg = figures::svg(&figure.figure).map_err(|message| ReportError::Plot {
            figure: figure.stem.clone(),
            message,
        })?;
        files.push(write_file(
            out_dir,
            &format!("{}.svg", figure.stem),
            svg.as_bytes(),
        )?);
        let png = figures::png(&figure.figure).map_err(|message| ReportError::Plot {
            figure: figure.stem.clone(),
            message,
        })?;
        files.push(write_file(out_dir, &format!("{}.png", figure.stem), &png)?);
    }
    let title = format!("{TITLE}{}", meta.pipeline);
    files.push(write_file(
        out_dir,
        "report.md",
        document::markdown(&report.blocks).as_bytes(),
    )?);
    files.push(write_file(
        out_dir,
        "index.html",
        document::html(&title, &report.blocks).as_bytes(),
    )?);
    files.sort();
    Ok(ReportSummary {
        files,
        findings: report.findings,
    })
}

/// Whether `dir` holds a report: a `report.md` starting with the report's title.
pub fn holds_report(dir: &Path) -> bool {
    let mut head = [0u8; 2 + TITLE.len()];
    std::fs::File::open(dir.join("report.md"))
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut head))
        .is_ok_and(|()| head[..2] == *b"# " && head[2..] == *TITLE.as_bytes())
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, ReportError> {
    let path = dir.join(name);
    retest_fs::write_atomic(&path, bytes).map_err(|e| ReportError::Io {
        path: e.path,
        source: e.source,
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests;
