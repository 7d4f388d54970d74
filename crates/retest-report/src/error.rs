//! The errors of reading tables and writing a report.

use std::path::PathBuf;

use retest_tables::TableError;

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
