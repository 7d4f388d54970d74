//! Rows → Polars frames → Parquet and CSV files, written atomically; the bias-score tensor in
//! long form, streamed.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::format::TableFormat;
use crate::names::TableName;
use crate::schema::{Row, RowWriter};

/// Why a table could not be built or written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}", path.display())]
    Polars { path: PathBuf, source: PolarsError },
    #[error("table `{table}`: {message}")]
    Shape { table: String, message: String },
    /// A file name that ends in neither `.parquet` nor `.csv`.
    #[error("{}: a table file's name ends in .parquet or .csv", path.display())]
    Extension { path: PathBuf },
}

/// A table ready to write: its file stem (`test_retest_words`, …) and its frame.
#[derive(Debug, Clone)]
pub struct Table {
    pub name: &'static str,
    pub(crate) frame: DataFrame,
}

impl Table {
    pub(crate) fn from_frame(name: &'static str, frame: DataFrame) -> Table {
        Table { name, frame }
    }

    /// The run's table `name` of `rows`, in order ([`crate::names`]).
    ///
    /// # Errors
    ///
    /// As [`Table::from_rows_in`].
    pub fn of<R: Row<Layout = ()>>(name: TableName<R>, rows: &[R]) -> Result<Table, TableError> {
        Table::from_rows_in(name.name(), (), rows)
    }

    /// The run's table `name` of `rows`, in order, with the columns `R` states for `layout`.
    ///
    /// # Errors
    ///
    /// As [`Table::from_rows_in`].
    pub fn of_in<R: Row>(name: TableName<R>, layout: R::Layout, rows: &[R]) -> Result<Table, TableError> {
        Table::from_rows_in(name.name(), layout, rows)
    }

    /// The table `name` of `rows`, in order, with the columns `R` states.
    ///
    /// # Errors
    ///
    /// As [`Table::from_rows_in`].
    pub fn from_rows<R: Row<Layout = ()>>(name: &'static str, rows: &[R]) -> Result<Table, TableError> {
        Table::from_rows_in(name, (), rows)
    }

    /// The table `name` of `rows`, in order, with the columns `R` states for `layout`.
    ///
    /// # Errors
    ///
    /// A row that does not fit `layout` (an ICC row about a pair in a word table), or a row
    /// type whose values do not match its columns.
    pub fn from_rows_in<R: Row>(
        name: &'static str,
        layout: R::Layout,
        rows: &[R],
    ) -> Result<Table, TableError> {
        let shape = |message| TableError::Shape {
            table: name.to_owned(),
            message,
        };
        let misfit = rows
            .iter()
            .enumerate()
            .find_map(|(i, r)| Some((i, r.misfit(layout)?)));
        if let Some((i, why)) = misfit {
            return Err(shape(format!("row {i} {why}")));
        }
        let mut out = RowWriter::new(&R::columns(layout), rows.len());
        for (i, row) in rows.iter().enumerate() {
            row.push(layout, &mut out);
            out.end_row().map_err(|why| shape(format!("row {i}: {why}")))?;
        }
        let frame = DataFrame::new_infer_height(out.finish()).map_err(|e| shape(e.to_string()))?;
        Ok(Table { name, frame })
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.frame.height()
    }

    /// Column names, in order.
    pub fn columns(&self) -> Vec<String> {
        self.frame
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    /// Writes `<dir>/<name>.parquet` and, when `csv` is set, `<dir>/<name>.csv`. Each file is
    /// written beside its destination under a temporary name and renamed into place, so a
    /// killed run never leaves a partial table under the final name. Output bytes depend only
    /// on the rows (single-threaded encoder, zstd, no timestamps).
    ///
    /// # Errors
    ///
    /// I/O failures and encoder errors, naming the file.
    pub fn write(&mut self, dir: &Path, csv: bool) -> Result<Vec<PathBuf>, TableError> {
        let mut written = vec![dir.join(format!("{}.parquet", self.name))];
        if csv {
            written.push(dir.join(format!("{}.csv", self.name)));
        }
        for path in &written {
            self.write_file(path)?;
        }
        Ok(written)
    }

    /// Writes the table to `path` atomically, in the format its name ends in
    /// ([`TableFormat::from_path`]: `.parquet` or `.csv`).
    ///
    /// # Errors
    ///
    /// A name with another extension; otherwise as [`Table::write`].
    pub fn write_file(&mut self, path: &Path) -> Result<(), TableError> {
        let Some(format) = TableFormat::from_path(path) else {
            return Err(TableError::Extension {
                path: path.to_owned(),
            });
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
                path: dir.to_owned(),
                source,
            })?;
        }
        let frame = &mut self.frame;
        if format == TableFormat::Csv {
            atomic_write(path, |file, path| {
                CsvWriter::new(file)
                    .include_header(true)
                    .n_threads(1)
                    .finish(frame)
                    .map_err(|source| TableError::Polars { path, source })
            })
        } else {
            atomic_write(path, |file, path| {
                ParquetWriter::new(file)
                    .with_compression(ParquetCompression::Zstd(None))
                    .set_parallel(false)
                    .finish(frame)
                    .map(drop)
                    .map_err(|source| TableError::Polars { path, source })
            })
        }
    }
}

impl Table {
    /// The table as the bytes of a Parquet file (for the Python package, which reads them into a
    /// polars table: the same columns and types as the file `write_file` writes).
    ///
    /// # Errors
    ///
    /// polars cannot encode the table (its error names `<table>.parquet`).
    pub fn parquet_bytes(&mut self) -> Result<Vec<u8>, TableError> {
        let mut bytes = Vec::new();
        ParquetWriter::new(&mut bytes)
            .set_parallel(false)
            .finish(&mut self.frame)
            .map_err(|source| TableError::Polars {
                path: PathBuf::from(format!("{}.parquet", self.name)),
                source,
            })?;
        Ok(bytes)
    }
}

/// Runs `write` on a temporary file beside `path`, syncs it, and renames it to `path`
/// (`retest_fs::write_atomic_with`).
fn atomic_write(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>, PathBuf) -> Result<(), TableError>,
) -> Result<(), TableError> {
    retest_fs::write_atomic_with(path, |file| write(file, path.to_owned()))
}

retest_fs::io_variant!(TableError);

/// The bias scores of one (corpus, algorithm) configuration in long form: one row per
/// (rule, pair, word, seed).
#[derive(Debug, Clone, Copy)]
pub struct BiasTensor<'a> {
    pub corpus: &'a str,
    pub algorithm: &'a str,
    pub rules: &'a [&'a str],
    /// Base pairs `(male, female)`.
    pub pairs: &'a [(String, String)],
    pub words: &'a [String],
    /// Seed indices, the last axis.
    pub seeds: &'a [u32],
    /// `[rule][pair][word][seed]`, row-major.
    pub values: &'a [f32],
}

/// The `bias_scores` table of one or more configurations, in the order given:
/// columns `corpus, algorithm, rule, male, female, word, seed` (u32), `score` (f32).
///
/// Unlike the other tables this one has no [`Row`] type: it is the long form of a dense tensor,
/// built column by column straight from the tensor's axes. A row struct per score would hold
/// eight fields (six of them repeated labels) for each of up to hundreds of millions of scores
/// before the columns are built, and [`write_bias_scores`] streams it in slices instead.
///
/// # Errors
///
/// A tensor whose `values` length is not the product of its axes.
pub fn bias_scores_table(name: &'static str, tensors: &[BiasTensor<'_>]) -> Result<Table, TableError> {
    let mut corpus = Vec::new();
    let mut algorithm = Vec::new();
    let mut rule = Vec::new();
    let mut male = Vec::new();
    let mut female = Vec::new();
    let mut word = Vec::new();
    let mut seed = Vec::new();
    let mut score = Vec::new();
    for t in tensors {
        check_shape(name, t)?;
        let mut values = t.values.iter();
        for r in t.rules {
            for (m, f) in t.pairs {
                for w in t.words {
                    for &s in t.seeds {
                        corpus.push(t.corpus);
                        algorithm.push(t.algorithm);
                        rule.push(*r);
                        male.push(m.as_str());
                        female.push(f.as_str());
                        word.push(w.as_str());
                        seed.push(s);
                        score.push(*values.next().expect("length checked"));
                    }
                }
            }
        }
    }
    let columns = vec![
        Column::new("corpus".into(), corpus),
        Column::new("algorithm".into(), algorithm),
        Column::new("rule".into(), rule),
        Column::new("male".into(), male),
        Column::new("female".into(), female),
        Column::new("word".into(), word),
        Column::new("seed".into(), seed),
        Column::new("score".into(), score),
    ];
    let frame = DataFrame::new_infer_height(columns).map_err(|e| TableError::Shape {
        table: name.to_owned(),
        message: e.to_string(),
    })?;
    Ok(Table { name, frame })
}

/// An error unless `t.values` has one value per (rule, pair, word, seed).
fn check_shape(name: &str, t: &BiasTensor<'_>) -> Result<(), TableError> {
    let n = t.rules.len() * t.pairs.len() * t.words.len() * t.seeds.len();
    if t.values.len() == n {
        return Ok(());
    }
    Err(TableError::Shape {
        table: name.to_owned(),
        message: format!(
            "{} {}: {} values for {} rules × {} pairs × {} words × {} seeds",
            t.corpus,
            t.algorithm,
            t.values.len(),
            t.rules.len(),
            t.pairs.len(),
            t.words.len(),
            t.seeds.len()
        ),
    })
}

/// Writes the `bias_scores` table of one configuration as `<dir>/<name>.parquet`, atomically,
/// with the rows of [`bias_scores_table`] in the same order, built and encoded about a million
/// rows at a time: a full-vocabulary tensor has hundreds of millions of rows, whose long-form
/// columns would not fit in memory at once. Each slice is one row group.
///
/// # Errors
///
/// A tensor whose `values` length is not the product of its axes; I/O and encoder errors.
pub fn write_bias_scores(
    dir: &Path,
    name: &'static str,
    tensor: &BiasTensor<'_>,
) -> Result<PathBuf, TableError> {
    write_bias_scores_in_slices(dir, name, tensor, 1 << 20)
}

fn write_bias_scores_in_slices(
    dir: &Path,
    name: &'static str,
    t: &BiasTensor<'_>,
    rows_per_slice: usize,
) -> Result<PathBuf, TableError> {
    let (n_words, n_seeds) = (t.words.len(), t.seeds.len());
    check_shape(name, t)?;
    let empty = BiasTensor {
        words: &[],
        values: &[],
        ..*t
    };
    let schema = bias_scores_table(name, &[empty])?.frame.schema().as_ref().clone();
    let path = dir.join(format!("{name}.parquet"));
    std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let words_per_slice = (rows_per_slice / n_seeds.max(1)).max(1);
    atomic_write(&path, |file, path| {
        let polars = |source| TableError::Polars {
            path: path.clone(),
            source,
        };
        let mut writer = ParquetWriter::new(file)
            .with_compression(ParquetCompression::Zstd(None))
            .set_parallel(false)
            .batched(&schema)
            .map_err(polars)?;
        let block = n_words * n_seeds;
        for (r, rule) in t.rules.iter().enumerate() {
            for (p, pair) in t.pairs.iter().enumerate() {
                let start = (r * t.pairs.len() + p) * block;
                for first in (0..n_words).step_by(words_per_slice) {
                    let last = (first + words_per_slice).min(n_words);
                    let slice = BiasTensor {
                        rules: std::slice::from_ref(rule),
                        pairs: std::slice::from_ref(pair),
                        words: &t.words[first..last],
                        values: &t.values[start + first * n_seeds..start + last * n_seeds],
                        ..*t
                    };
                    let table = bias_scores_table(name, &[slice])?;
                    writer.write_batch(&table.frame).map_err(polars)?;
                }
            }
        }
        writer.finish().map(drop).map_err(polars)
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bias_scores_written_in_slices_equal_the_whole_table() {
        let pairs = vec![("he".into(), "she".into()), ("man".into(), "woman".into())];
        let words: Vec<String> = (0..7).map(|i| format!("w{i}")).collect();
        let values: Vec<f32> = (0..3 * 2 * 7 * 2).map(|i| i as f32 * 0.25).collect();
        let tensor = BiasTensor {
            corpus: "c",
            algorithm: "sgns",
            rules: &["dbwa", "ripa", "nbm"],
            pairs: &pairs,
            words: &words,
            seeds: &[0, 1],
            values: &values,
        };
        let dir = tempfile::tempdir().unwrap();
        // Slices of 3 words (6 rows): three per (rule, pair), the last one short.
        let path = write_bias_scores_in_slices(dir.path(), "bias_scores", &tensor, 6).unwrap();
        let read = ParquetReader::new(File::open(&path).unwrap()).finish().unwrap();
        let whole = bias_scores_table("bias_scores", &[tensor]).unwrap().frame;
        assert!(read.equals(&whole), "{read}\n{whole}");
        let again = tempfile::tempdir().unwrap();
        let other = write_bias_scores_in_slices(again.path(), "bias_scores", &tensor, 6).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(other).unwrap());
        let short = BiasTensor {
            values: &values[1..],
            ..tensor
        };
        assert!(write_bias_scores(dir.path(), "short", &short).is_err());
        assert!(!dir.path().join("short.parquet").exists());
    }
}
