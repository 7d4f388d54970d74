//! Row types → Polars frames → Parquet and CSV files, written atomically.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::rows::{
    AlphaRow, CorrelationRow, CoverageRow, IccRow, RegressionRow, ScoreRow, ShareRow, Subject,
    WordPropertyRow,
};

/// Why a table could not be built or written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Polars { path: PathBuf, source: PolarsError },
    #[error("table `{table}`: {message}")]
    Shape { table: String, message: String },
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

    /// Writes the table to `path`, as CSV when its extension is `csv` and as Parquet
    /// otherwise, atomically.
    ///
    /// # Errors
    ///
    /// As [`Table::write`].
    pub fn write_file(&mut self, path: &Path) -> Result<(), TableError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
                path: dir.to_owned(),
                source,
            })?;
        }
        let frame = &mut self.frame;
        if path.extension().is_some_and(|e| e == "csv") {
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

/// Runs `write` on a temporary file beside `path`, syncs it, and renames it to `path`.
fn atomic_write(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>, PathBuf) -> Result<(), TableError>,
) -> Result<(), TableError> {
    let io = |source| TableError::Io {
        path: path.to_owned(),
        source,
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp = path.with_file_name(format!(".{name}.partial"));
    let mut file = BufWriter::new(File::create(&tmp).map_err(io)?);
    write(&mut file, path.to_owned())?;
    file.flush().map_err(io)?;
    file.into_inner()
        .map_err(|e| io(e.into_error()))?
        .sync_all()
        .map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Builds a frame column by column.
struct Columns {
    table: &'static str,
    columns: Vec<Column>,
}

impl Columns {
    fn new(table: &'static str) -> Self {
        Columns {
            table,
            columns: Vec::new(),
        }
    }

    fn str<'r, R: 'r>(mut self, name: &str, rows: &'r [R], get: impl Fn(&'r R) -> &'r str) -> Self {
        let values: Vec<&str> = rows.iter().map(get).collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    fn f64<R>(mut self, name: &str, rows: &[R], get: impl Fn(&R) -> f64) -> Self {
        let values: Vec<f64> = rows.iter().map(get).collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    fn u32<R>(mut self, name: &str, rows: &[R], get: impl Fn(&R) -> u32) -> Self {
        let values: Vec<u32> = rows.iter().map(get).collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    fn u64<R>(mut self, name: &str, rows: &[R], get: impl Fn(&R) -> u64) -> Self {
        let values: Vec<u64> = rows.iter().map(get).collect();
        self.columns.push(Column::new(name.into(), values));
        self
    }

    fn push(mut self, column: Column) -> Self {
        self.columns.push(column);
        self
    }

    fn finish(self) -> Result<Table, TableError> {
        let frame = DataFrame::new_infer_height(self.columns).map_err(|e| TableError::Shape {
            table: self.table.to_owned(),
            message: e.to_string(),
        })?;
        Ok(Table {
            name: self.table,
            frame,
        })
    }
}

/// Whether the rows of an ICC table are about words or base pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubjectKind {
    Word,
    Pair,
}

/// An ICC table (`test_retest_words`, `inter_rater_pairs`, …). Word tables have a `word`
/// column, pair tables `male` and `female` columns, in place of the subject.
///
/// # Errors
///
/// A row whose subject is not of `kind`.
pub fn icc_table(name: &'static str, kind: SubjectKind, rows: &[IccRow]) -> Result<Table, TableError> {
    let mismatch = rows.iter().position(|r| {
        !matches!(
            (&r.subject, kind),
            (Subject::Word(_), SubjectKind::Word) | (Subject::Pair { .. }, SubjectKind::Pair)
        )
    });
    if let Some(i) = mismatch {
        return Err(TableError::Shape {
            table: name.to_owned(),
            message: format!("row {i} is not about a {kind:?}"),
        });
    }
    let word = |r: &IccRow| -> (String, String) {
        match &r.subject {
            Subject::Word(w) => (w.clone(), String::new()),
            Subject::Pair { male, female } => (male.clone(), female.clone()),
        }
    };
    let mut cols = Columns::new(name)
        .str("corpus", rows, |r| &r.corpus)
        .str("algorithm", rows, |r| &r.algorithm)
        .str("rule", rows, |r| &r.rule)
        .str("scale", rows, |r| &r.scale)
        .str("list", rows, |r| &r.list);
    let subjects: Vec<(String, String)> = rows.iter().map(word).collect();
    cols = match kind {
        SubjectKind::Word => cols.str("word", &subjects, |s| &s.0),
        SubjectKind::Pair => cols
            .str("male", &subjects, |s| &s.0)
            .str("female", &subjects, |s| &s.1),
    };
    cols.f64("icc", rows, |r| r.stats.icc)
        .f64("f_stat", rows, |r| r.stats.f_stat)
        .f64("df1", rows, |r| r.stats.df1)
        .f64("df2", rows, |r| r.stats.df2)
        .f64("p_value", rows, |r| r.stats.p_value)
        .f64("ci_low", rows, |r| r.stats.ci_low)
        .f64("ci_high", rows, |r| r.stats.ci_high)
        .u32("n_subjects", rows, |r| r.stats.n_subjects)
        .u32("n_raters", rows, |r| r.stats.n_raters)
        .u32("n_dropped", rows, |r| r.stats.n_dropped)
        .str("status", rows, |r| &r.stats.status)
        .finish()
}

/// The `internal_consistency` table.
///
/// # Errors
///
/// Never in practice (all columns have the same length); kept for a uniform signature.
pub fn alpha_table(rows: &[AlphaRow]) -> Result<Table, TableError> {
    Columns::new("internal_consistency")
        .str("corpus", rows, |r| &r.corpus)
        .str("algorithm", rows, |r| &r.algorithm)
        .str("rule", rows, |r| &r.rule)
        .str("query", rows, |r| &r.query)
        .str("items", rows, |r| &r.items)
        .f64("alpha", rows, |r| r.alpha)
        .f64("ci_low", rows, |r| r.ci_low)
        .f64("ci_high", rows, |r| r.ci_high)
        .u32("n_items", rows, |r| r.n_items)
        .u32("n_cases", rows, |r| r.n_cases)
        .u32("n_dropped", rows, |r| r.n_dropped)
        .str("status", rows, |r| &r.status)
        .finish()
}

/// The `rule_correlations` table.
///
/// # Errors
///
/// As [`alpha_table`].
pub fn correlation_table(rows: &[CorrelationRow]) -> Result<Table, TableError> {
    Columns::new("rule_correlations")
        .str("corpus", rows, |r| &r.corpus)
        .str("algorithm", rows, |r| &r.algorithm)
        .str("list", rows, |r| &r.list)
        .str("rule_a", rows, |r| &r.rule_a)
        .str("rule_b", rows, |r| &r.rule_b)
        .f64("r", rows, |r| r.r)
        .f64("p_value", rows, |r| r.p_value)
        .u64("n_cells", rows, |r| r.n_cells)
        .str("status", rows, |r| &r.status)
        .finish()
}

/// The `low_reliability` table.
///
/// # Errors
///
/// As [`alpha_table`].
pub fn share_table(rows: &[ShareRow]) -> Result<Table, TableError> {
    Columns::new("low_reliability")
        .str("corpus", rows, |r| &r.corpus)
        .str("algorithm", rows, |r| &r.algorithm)
        .str("analysis", rows, |r| &r.analysis)
        .str("rule", rows, |r| &r.rule)
        .str("scale", rows, |r| &r.scale)
        .str("list", rows, |r| &r.list)
        .str("subject", rows, |r| &r.subject)
        .f64("threshold", rows, |r| r.threshold)
        .u32("n_rated", rows, |r| r.n_rated)
        .u32("n_below", rows, |r| r.n_below)
        .f64("share_below", rows, |r| r.share_below)
        .u32("n_undefined", rows, |r| r.n_undefined)
        .finish()
}

/// The `coverage` table: list entries found in and dropped from each corpus's vocabulary.
///
/// # Errors
///
/// As [`alpha_table`].
pub fn coverage_table(rows: &[CoverageRow]) -> Result<Table, TableError> {
    Columns::new("coverage")
        .str("corpus", rows, |r| &r.corpus)
        .str("list", rows, |r| &r.list)
        .str("kind", rows, |r| &r.kind)
        .u32("n_listed", rows, |r| r.n_listed)
        .u32("n_in_vocabulary", rows, |r| r.n_in_vocabulary)
        .u32("n_dropped", rows, |r| r.n_dropped)
        .str("dropped", rows, |r| &r.dropped)
        .finish()
}

/// The `word_properties` table.
///
/// # Errors
///
/// As [`alpha_table`].
pub fn word_properties_table(rows: &[WordPropertyRow]) -> Result<Table, TableError> {
    Columns::new("word_properties")
        .str("corpus", rows, |r| &r.corpus)
        .str("algorithm", rows, |r| &r.algorithm)
        .str("word", rows, |r| &r.word)
        .u64("frequency", rows, |r| r.frequency)
        .f64("nn_sim", rows, |r| r.nn_sim)
        .f64("l2_norm", rows, |r| r.l2_norm)
        .f64("es", rows, |r| r.es)
        .finish()
}

/// A regression-input table (`regression`: test-retest and inter-rater rows, told apart by
/// `analysis`).
///
/// # Errors
///
/// As [`alpha_table`].
pub fn regression_table(name: &'static str, rows: &[RegressionRow]) -> Result<Table, TableError> {
    Columns::new(name)
        .str("analysis", rows, |r| &r.analysis)
        .str("corpus", rows, |r| &r.corpus)
        .str("algorithm", rows, |r| &r.algorithm)
        .str("metric", rows, |r| &r.metric)
        .str("scale", rows, |r| &r.scale)
        .str("word", rows, |r| &r.word)
        .f64("score", rows, |r| r.score)
        .u64("frequency", rows, |r| r.frequency)
        .f64("log_freq", rows, |r| r.log_freq)
        .f64("log_freq_sq", rows, |r| r.log_freq_sq)
        .u32("n_senses", rows, |r| r.n_senses)
        .f64("log_senses", rows, |r| r.log_senses)
        .str("pos", rows, |r| &r.pos)
        .f64("nn_sim", rows, |r| r.nn_sim)
        .f64("l2_norm", rows, |r| r.l2_norm)
        .f64("es", rows, |r| r.es)
        .finish()
}

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
/// columns `corpus, algorithm, rule, male, female, word, seed, score`.
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
    Columns::new(name)
        .push(Column::new("corpus".into(), corpus))
        .push(Column::new("algorithm".into(), algorithm))
        .push(Column::new("rule".into(), rule))
        .push(Column::new("male".into(), male))
        .push(Column::new("female".into(), female))
        .push(Column::new("word".into(), word))
        .push(Column::new("seed".into(), seed))
        .push(Column::new("score".into(), score))
        .finish()
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

/// The table of `retest score`: columns `embedding, rule, male, female, word, score`.
///
/// # Errors
///
/// As [`alpha_table`].
pub fn score_table(rows: &[ScoreRow]) -> Result<Table, TableError> {
    Columns::new("scores")
        .str("embedding", rows, |r| &r.embedding)
        .str("rule", rows, |r| &r.rule)
        .str("male", rows, |r| &r.male)
        .str("female", rows, |r| &r.female)
        .str("word", rows, |r| &r.word)
        .f64("score", rows, |r| r.score)
        .finish()
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
