//! The report of a retest run: figures mirroring Du, Fang & Nguyen (2021) figs. 2–5 (SVG and
//! PNG), a comparison of this run's results with the paper's findings, the set-level measures
//! (WEAT, Direct Bias, Bakarov's detectors), the analogies and the base-pair analyses across
//! seeds, and the rows each table left out, written as `index.html` and `report.md`.
//!
//! The report depends only on the tables and on [`ReportMeta`]: the same tables give
//! byte-identical files (fixed ordering, no timestamps, PNGs without time chunks).

use std::path::{Path, PathBuf};

use retest_tables::{
    AlphaRow, AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow,
    AnalogyReportedRow, AnalogySweepRow, AnalogyZhangRow, BasePairAgreementRow, BasePairBaselineRow,
    BasePairCorrelationRow, BasePairDirectionRow, BasePairExampleRow, BasePairFlipRow, BasePairKappaRow,
    BasePairSeedsRow, BasePairSummaryRow, BasePairVarianceRow, CorrelationRow, CoverageRow, DirectionRow,
    IccRow, RegressionRow, Row, SeedSpreadRow, SetIccRow, ShareRow, Table, TableError, WeatSeedRow,
    WeatWordRow, parquet_path,
};

mod analogies;
mod assemble;
mod base_pairs;
pub mod compare;
pub mod data;
pub mod document;
pub mod figures;
pub mod regression;
mod set_level;
pub mod stats;

pub use compare::{Finding, Verdict};

/// Errors of writing a report.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("cannot read table {path}")]
    Table {
        path: PathBuf,
        #[source]
        source: TableError,
    },
    #[error(
        "no result tables in {0} (expected test_retest_words.parquet and the other tables of `retest run`)"
    )]
    NoTables(PathBuf),
    #[error("cannot write {path}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot draw figure {figure}: {message}")]
    Plot { figure: String, message: String },
}

/// What the report says about the run that the tables do not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportMeta {
    /// The pipeline name (the report's title).
    pub pipeline: String,
    /// The pipeline's variants as (model, algorithm): configurations named `model` in the tables
    /// that change some parameters of `algorithm`'s configuration. With any, the report
    /// compares each with its algorithm's (the paper's Appendix E).
    pub variants: Vec<(String, String)>,
    /// The tokens of each corpus (after `min_count`), for the findings that relate a measure to
    /// corpus size; empty when unknown.
    pub corpus_tokens: Vec<(String, u64)>,
}

/// What [`write_report`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportSummary {
    /// Every file written, sorted.
    pub files: Vec<PathBuf>,
    /// The comparison with the paper, in report order.
    pub findings: Vec<Finding>,
}

/// The tables a report is drawn from; `None` for a table the run did not write.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunTables {
    pub test_retest_words: Option<Vec<IccRow>>,
    pub test_retest_pairs: Option<Vec<IccRow>>,
    pub inter_rater_words: Option<Vec<IccRow>>,
    pub inter_rater_pairs: Option<Vec<IccRow>>,
    pub internal_consistency: Option<Vec<AlphaRow>>,
    pub rule_correlations: Option<Vec<CorrelationRow>>,
    pub low_reliability: Option<Vec<ShareRow>>,
    pub coverage: Option<Vec<CoverageRow>>,
    pub regression: Option<Vec<RegressionRow>>,
    pub seed_spread: Option<Vec<SeedSpreadRow>>,
    pub set_level_reliability: Option<Vec<SetIccRow>>,
    pub directions: Option<Vec<DirectionRow>>,
    pub weat: Option<Vec<WeatSeedRow>>,
    pub weat_words: Option<Vec<WeatWordRow>>,
    pub analogy_answers: Option<Vec<AnalogyAnswerRow>>,
    pub analogy_reported: Option<Vec<AnalogyReportedRow>>,
    pub analogy_accuracy: Option<Vec<AnalogyAccuracyRow>>,
    pub analogy_reliability: Option<Vec<AnalogyReliabilityRow>>,
    pub analogy_pairs: Option<Vec<AnalogyPairRow>>,
    pub analogy_sweep: Option<Vec<AnalogySweepRow>>,
    pub analogy_zhang: Option<Vec<AnalogyZhangRow>>,
    pub base_pair_summary: Option<Vec<BasePairSummaryRow>>,
    pub base_pair_agreement: Option<Vec<BasePairAgreementRow>>,
    pub base_pair_kappa: Option<Vec<BasePairKappaRow>>,
    pub base_pair_directions: Option<Vec<BasePairDirectionRow>>,
    pub base_pair_correlations: Option<Vec<BasePairCorrelationRow>>,
    pub base_pair_baselines: Option<Vec<BasePairBaselineRow>>,
    pub base_pair_flips: Option<Vec<BasePairFlipRow>>,
    pub base_pair_examples: Option<Vec<BasePairExampleRow>>,
    pub base_pair_seeds: Option<Vec<BasePairSeedsRow>>,
    pub base_pair_variance: Option<Vec<BasePairVarianceRow>>,
}

fn read_optional<R: Row>(dir: &Path, name: &'static str) -> Result<Option<Vec<R>>, ReportError> {
    let path = parquet_path(dir, name);
    if !path.is_file() {
        return Ok(None);
    }
    let table = Table::read(name, &path).map_err(|source| ReportError::Table {
        path: path.clone(),
        source,
    })?;
    table
        .rows()
        .map(Some)
        .map_err(|source| ReportError::Table { path, source })
}

/// Reads the tables of `tables_dir` (`results/<pipeline>/tables/`); missing tables are `None`.
///
/// # Errors
///
/// A table that exists but cannot be read, or a folder without any ICC table.
pub fn read_tables(tables_dir: &Path) -> Result<RunTables, ReportError> {
    let tables = RunTables {
        test_retest_words: read_optional(tables_dir, "test_retest_words")?,
        test_retest_pairs: read_optional(tables_dir, "test_retest_pairs")?,
        inter_rater_words: read_optional(tables_dir, "inter_rater_words")?,
        inter_rater_pairs: read_optional(tables_dir, "inter_rater_pairs")?,
        internal_consistency: read_optional(tables_dir, "internal_consistency")?,
        rule_correlations: read_optional(tables_dir, "rule_correlations")?,
        low_reliability: read_optional(tables_dir, "low_reliability")?,
        coverage: read_optional(tables_dir, "coverage")?,
        regression: read_optional(tables_dir, "regression")?,
        seed_spread: read_optional(tables_dir, "seed_spread")?,
        set_level_reliability: read_optional(tables_dir, "set_level_reliability")?,
        directions: read_optional(tables_dir, "directions")?,
        weat: read_optional(tables_dir, "weat")?,
        weat_words: read_optional(tables_dir, "weat_words")?,
        analogy_answers: read_optional(tables_dir, "analogy_answers")?,
        analogy_reported: read_optional(tables_dir, "analogy_reported")?,
        analogy_accuracy: read_optional(tables_dir, "analogy_accuracy")?,
        analogy_reliability: read_optional(tables_dir, "analogy_reliability")?,
        analogy_pairs: read_optional(tables_dir, "analogy_pairs")?,
        analogy_sweep: read_optional(tables_dir, "analogy_sweep")?,
        analogy_zhang: read_optional(tables_dir, "analogy_zhang")?,
        base_pair_summary: read_optional(tables_dir, "base_pair_summary")?,
        base_pair_agreement: read_optional(tables_dir, "base_pair_agreement")?,
        base_pair_kappa: read_optional(tables_dir, "base_pair_kappa")?,
        base_pair_directions: read_optional(tables_dir, "base_pair_directions")?,
        base_pair_correlations: read_optional(tables_dir, "base_pair_correlations")?,
        base_pair_baselines: read_optional(tables_dir, "base_pair_baselines")?,
        base_pair_flips: read_optional(tables_dir, "base_pair_flips")?,
        base_pair_examples: read_optional(tables_dir, "base_pair_examples")?,
        base_pair_seeds: read_optional(tables_dir, "base_pair_seeds")?,
        base_pair_variance: read_optional(tables_dir, "base_pair_variance")?,
    };
    if tables.test_retest_words.is_none() && tables.test_retest_pairs.is_none() {
        return Err(ReportError::NoTables(tables_dir.to_owned()));
    }
    Ok(tables)
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

/// The report's title before the pipeline's name: the first heading of `report.md` and the
/// title of `index.html`.
pub(crate) const TITLE: &str = "retest report: ";

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
