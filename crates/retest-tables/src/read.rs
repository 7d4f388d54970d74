//! Reading tables back: whole Parquet files, concatenation, and rows of any [`Row`] type.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::schema::{Row, RowReader};
use crate::write::{Table, TableError};

impl Table {
    /// Reads `path` (a Parquet file this crate wrote) as table `name`.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or decoded.
    pub fn read(name: &'static str, path: &Path) -> Result<Table, TableError> {
        let file = File::open(path).map_err(|source| TableError::Io {
            path: path.to_owned(),
            source,
        })?;
        let frame = ParquetReader::new(file)
            .set_rechunk(true)
            .finish()
            .map_err(|source| TableError::Polars {
                path: path.to_owned(),
                source,
            })?;
        Ok(Table::from_frame(name, frame))
    }

    /// The rows of `tables`, in order, as one table `name`, whatever their row type. The tables
    /// must have the same columns (names, types and order).
    ///
    /// # Errors
    ///
    /// No tables, or a table whose columns differ from the first one's.
    pub fn concat(name: &'static str, tables: &[Table]) -> Result<Table, TableError> {
        let shape = |message: String| TableError::Shape {
            table: name.to_owned(),
            message,
        };
        let Some((first, rest)) = tables.split_first() else {
            return Err(shape("nothing to concatenate".into()));
        };
        let mut frame = first.frame.clone();
        for (i, t) in rest.iter().enumerate() {
            if t.column_types() != first.column_types() {
                return Err(shape(format!(
                    "part {} has columns ({}), part 1 has ({})",
                    i + 2,
                    t.column_types(),
                    first.column_types()
                )));
            }
            frame.vstack_mut(&t.frame).map_err(|e| shape(e.to_string()))?;
        }
        frame.rechunk_mut();
        Ok(Table::from_frame(name, frame))
    }

    /// `name: type` of every column, in order, separated by `, `.
    fn column_types(&self) -> String {
        let columns = self.frame.columns().iter();
        let typed: Vec<String> = columns.map(|c| format!("{}: {}", c.name(), c.dtype())).collect();
        typed.join(", ")
    }

    /// The rows of this table, with the columns `R` states for the layout the table's column
    /// names imply. Columns the row type does not state are ignored.
    ///
    /// # Errors
    ///
    /// A column that is missing or of another type, in one line: ``table `coverage`: no column
    /// `n_listed` (u32)``, ``table `coverage`: column `n_listed` is str, expected u32``.
    pub fn rows<R: Row>(&self) -> Result<Vec<R>, TableError> {
        let shape = |message| TableError::Shape {
            table: self.name.to_owned(),
            message,
        };
        let names: Vec<&str> = self
            .frame
            .get_column_names()
            .into_iter()
            .map(|n| n.as_str())
            .collect();
        let layout = R::layout_of(&names);
        let mut cells = RowReader::new(&self.frame, &R::columns(layout)).map_err(shape)?;
        let mut rows = Vec::with_capacity(self.height());
        for i in 0..self.height() {
            rows.push(R::read(layout, &mut cells));
            cells.end_row().map_err(|why| shape(format!("row {i}: {why}")))?;
        }
        Ok(rows)
    }
}

/// `<dir>/<name>.parquet`.
pub fn parquet_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.parquet"))
}
