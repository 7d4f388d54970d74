//! The result tables of retest: row types with stable snake_case columns, written as Parquet
//! (zstd) and CSV through Polars. This is the only crate that depends on Polars; the schemas
//! are documented in `docs/tables.md`.
//!
//! A row type states its table's columns once, by implementing [`Row`]: the columns' names and
//! types in file order, how a row pushes its values and how it is read back. Every table is
//! then written, read and concatenated by the same generic code: [`Table::from_rows`],
//! [`Table::rows`], [`Table::concat`]. Most row types are plain structs declared through the
//! crate's `table_row!` macro, where each field is a column (name, type and order); a trait
//! rather than a derive macro keeps the crate free of a proc-macro dependency and lets a row
//! type with several layouts ([`IccRow`]: a `word` column or `male` and `female` columns) state
//! them by hand. The bias-score tensor is the exception: it is written column by column from
//! the tensor ([`bias_scores_table`], [`write_bias_scores`]), never as one struct per score.
//!
//! ```
//! use retest_tables::{CoverageRow, Table};
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
//! let mut table = Table::from_rows("coverage", &rows).unwrap();
//! assert_eq!(table.height(), 1);
//! assert_eq!(table.rows::<CoverageRow>().unwrap(), rows);
//! let dir = tempfile::tempdir().unwrap();
//! let files = table.write(dir.path(), true).unwrap();
//! assert!(files[0].ends_with("coverage.parquet") && files[1].ends_with("coverage.csv"));
//! ```

mod analogies;
mod base_pairs;
mod format;
pub mod names;
mod read;
mod residual;
mod rows;
mod schema;
mod set_level;
mod subspace;
mod validity;
mod write;

pub use analogies::{
    AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow, AnalogyReportedRow,
    AnalogyStabilityRow, AnalogySweepRow, AnalogyZhangRow,
};
pub use base_pairs::{
    BasePairAgreementRow, BasePairBaselineRow, BasePairCorrelationRow, BasePairDirectionRow,
    BasePairExampleRow, BasePairFlipRow, BasePairKappaRow, BasePairScoreRow, BasePairSeedsRow,
    BasePairSummaryRow, BasePairVarianceRow,
};
pub use format::TableFormat;
pub use names::TableName;
pub use read::parquet_path;
pub use residual::{ResidualReliabilityRow, ResidualSeedRow};
pub use rows::{
    AlphaRow, AnalogyRow, CorrelationRow, CoverageRow, DirectBiasRow, EvalRow, IccRow, IccStats, QueryRow,
    RegressionRow, ScoreRow, ShareRow, SpreadStats, Subject, SubjectKind, WeatRow, WordPropertyRow,
};
pub use schema::{ColumnDef, ColumnType, Row, RowReader, RowWriter};
pub use set_level::{
    AgreementRow, DetectorRow, DirectionRow, QualityRow, SeedSpreadRow, SetIccRow, SetLevelStatistic,
    WeatSeedRow, WeatStats, WeatWordRow, selection_of, stereotype_selection,
};
pub use subspace::{IndirectBiasRow, LeaveOneOutRow, SubspaceReliabilityRow, SubspaceSeedRow};
pub use validity::{ValidityReliabilityRow, ValidityRow, ValiditySeedRow, ValidityStats};
pub use write::{BiasTensor, Table, TableError, bias_scores_table, write_bias_scores};
