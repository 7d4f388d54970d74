//! The result tables of retest: row types with stable snake_case columns, written as Parquet
//! (zstd) and CSV through Polars. This is the only crate that depends on Polars; the schemas
//! are documented in `docs/tables.md`.
//!
//! ```
//! use retest_tables::{CoverageRow, coverage_table};
//!
//! let rows = [CoverageRow {
//!     corpus: "wikitext-103".into(),
//!     list: "occ16".into(),
//!     kind: "target_words".into(),
//!     n_listed: 3,
//!     n_in_vocabulary: 2,
//!     n_dropped: 1,
//!     dropped: "adjunct_professor".into(),
//! }];
//! let mut table = coverage_table(&rows).unwrap();
//! assert_eq!(table.height(), 1);
//! let dir = tempfile::tempdir().unwrap();
//! let files = table.write(dir.path(), true).unwrap();
//! assert!(files[0].ends_with("coverage.parquet") && files[1].ends_with("coverage.csv"));
//! ```

mod read;
mod rows;
mod schema;
mod write;

pub use read::parquet_path;
pub use rows::{
    AlphaRow, CorrelationRow, CoverageRow, IccRow, IccStats, RegressionRow, ScoreRow, ShareRow, Subject,
    SubjectKind, WordPropertyRow,
};
pub use schema::{ColumnDef, ColumnType, Row, RowReader, RowWriter};
pub use write::{
    BiasTensor, Table, TableError, bias_scores_table, regression_table, score_table, write_bias_scores,
};
