//! Reading tables back: whole Parquet files, concatenation, and conversion to row types.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::rows::{
    AlphaRow, CorrelationRow, CoverageRow, IccRow, IccStats, RegressionRow, ShareRow, Subject,
    WordPropertyRow,
};
use crate::write::{SubjectKind, Table, TableError};

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

    /// The rows of `tables`, in order, as one table `name`. The tables must have the same
    /// columns.
    ///
    /// # Errors
    ///
    /// Columns that differ.
    pub fn concat(name: &'static str, tables: &[Table]) -> Result<Table, TableError> {
        let shape = |e: PolarsError| TableError::Shape {
            table: name.to_owned(),
            message: e.to_string(),
        };
        let mut iter = tables.iter();
        let Some(first) = iter.next() else {
            return Err(TableError::Shape {
                table: name.to_owned(),
                message: "nothing to concatenate".into(),
            });
        };
        let mut frame = first.frame.clone();
        for t in iter {
            frame.vstack_mut(&t.frame).map_err(shape)?;
        }
        frame.rechunk_mut();
        Ok(Table::from_frame(name, frame))
    }

    fn strs(&self, column: &str) -> Result<Vec<String>, TableError> {
        let c = self.column(column)?;
        let s = c.str().map_err(|e| self.shape(e))?;
        Ok(s.iter().map(|v| v.unwrap_or_default().to_owned()).collect())
    }

    fn f64s(&self, column: &str) -> Result<Vec<f64>, TableError> {
        let c = self.column(column)?;
        let s = c.f64().map_err(|e| self.shape(e))?;
        Ok(s.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
    }

    fn u32s(&self, column: &str) -> Result<Vec<u32>, TableError> {
        let c = self.column(column)?;
        let s = c.u32().map_err(|e| self.shape(e))?;
        Ok(s.iter().map(|v| v.unwrap_or_default()).collect())
    }

    fn u64s(&self, column: &str) -> Result<Vec<u64>, TableError> {
        let c = self.column(column)?;
        let s = c.u64().map_err(|e| self.shape(e))?;
        Ok(s.iter().map(|v| v.unwrap_or_default()).collect())
    }

    fn column(&self, column: &str) -> Result<&Column, TableError> {
        self.frame.column(column).map_err(|e| self.shape(e))
    }

    fn shape(&self, e: PolarsError) -> TableError {
        TableError::Shape {
            table: self.name.to_owned(),
            message: e.to_string(),
        }
    }

    /// The rows of an ICC table (see [`crate::icc_table`]).
    ///
    /// # Errors
    ///
    /// A missing column or one of the wrong type.
    pub fn icc_rows(&self) -> Result<Vec<IccRow>, TableError> {
        let kind = if self.frame.column("word").is_ok() {
            SubjectKind::Word
        } else {
            SubjectKind::Pair
        };
        let (corpus, algorithm, rule) = (self.strs("corpus")?, self.strs("algorithm")?, self.strs("rule")?);
        let (scale, list, status) = (self.strs("scale")?, self.strs("list")?, self.strs("status")?);
        let subjects: Vec<Subject> = match kind {
            SubjectKind::Word => self.strs("word")?.into_iter().map(Subject::Word).collect(),
            SubjectKind::Pair => self
                .strs("male")?
                .into_iter()
                .zip(self.strs("female")?)
                .map(|(male, female)| Subject::Pair { male, female })
                .collect(),
        };
        let (icc, f_stat, df1, df2) = (
            self.f64s("icc")?,
            self.f64s("f_stat")?,
            self.f64s("df1")?,
            self.f64s("df2")?,
        );
        let (p_value, ci_low, ci_high) = (self.f64s("p_value")?, self.f64s("ci_low")?, self.f64s("ci_high")?);
        let (n_subjects, n_raters, n_dropped) = (
            self.u32s("n_subjects")?,
            self.u32s("n_raters")?,
            self.u32s("n_dropped")?,
        );
        Ok(subjects
            .into_iter()
            .enumerate()
            .map(|(i, subject)| IccRow {
                corpus: corpus[i].clone(),
                algorithm: algorithm[i].clone(),
                rule: rule[i].clone(),
                scale: scale[i].clone(),
                list: list[i].clone(),
                subject,
                stats: IccStats {
                    icc: icc[i],
                    f_stat: f_stat[i],
                    df1: df1[i],
                    df2: df2[i],
                    p_value: p_value[i],
                    ci_low: ci_low[i],
                    ci_high: ci_high[i],
                    n_subjects: n_subjects[i],
                    n_raters: n_raters[i],
                    n_dropped: n_dropped[i],
                    status: status[i].clone(),
                },
            })
            .collect())
    }

    /// The rows of the `internal_consistency` table.
    ///
    /// # Errors
    ///
    /// As [`Table::icc_rows`].
    pub fn alpha_rows(&self) -> Result<Vec<AlphaRow>, TableError> {
        let (corpus, algorithm, rule) = (self.strs("corpus")?, self.strs("algorithm")?, self.strs("rule")?);
        let (query, items, status) = (self.strs("query")?, self.strs("items")?, self.strs("status")?);
        let (alpha, ci_low, ci_high) = (self.f64s("alpha")?, self.f64s("ci_low")?, self.f64s("ci_high")?);
        let (n_items, n_cases, n_dropped) = (
            self.u32s("n_items")?,
            self.u32s("n_cases")?,
            self.u32s("n_dropped")?,
        );
        Ok((0..self.height())
            .map(|i| AlphaRow {
                corpus: corpus[i].clone(),
                algorithm: algorithm[i].clone(),
                rule: rule[i].clone(),
                query: query[i].clone(),
                items: items[i].clone(),
                alpha: alpha[i],
                ci_low: ci_low[i],
                ci_high: ci_high[i],
                n_items: n_items[i],
                n_cases: n_cases[i],
                n_dropped: n_dropped[i],
                status: status[i].clone(),
            })
            .collect())
    }

    /// The rows of the `coverage` table.
    ///
    /// # Errors
    ///
    /// As [`Table::icc_rows`].
    pub fn coverage_rows(&self) -> Result<Vec<CoverageRow>, TableError> {
        let (corpus, list, kind, dropped) = (
            self.strs("corpus")?,
            self.strs("list")?,
            self.strs("kind")?,
            self.strs("dropped")?,
        );
        let (n_listed, n_in, n_dropped) = (
            self.u32s("n_listed")?,
            self.u32s("n_in_vocabulary")?,
            self.u32s("n_dropped")?,
        );
        Ok((0..self.height())
            .map(|i| CoverageRow {
                corpus: corpus[i].clone(),
                list: list[i].clone(),
                kind: kind[i].clone(),
                n_listed: n_listed[i],
                n_in_vocabulary: n_in[i],
                n_dropped: n_dropped[i],
                dropped: dropped[i].clone(),
            })
            .collect())
    }

    /// The rows of the `word_properties` table.
    ///
    /// # Errors
    ///
    /// As [`Table::icc_rows`].
    pub fn word_property_rows(&self) -> Result<Vec<WordPropertyRow>, TableError> {
        let (corpus, algorithm, word) = (self.strs("corpus")?, self.strs("algorithm")?, self.strs("word")?);
        let frequency = self.u64s("frequency")?;
        let (nn_sim, l2_norm, es) = (self.f64s("nn_sim")?, self.f64s("l2_norm")?, self.f64s("es")?);
        Ok((0..self.height())
            .map(|i| WordPropertyRow {
                corpus: corpus[i].clone(),
                algorithm: algorithm[i].clone(),
                word: word[i].clone(),
                frequency: frequency[i],
                nn_sim: nn_sim[i],
                l2_norm: l2_norm[i],
                es: es[i],
            })
            .collect())
    }

    /// The rows of the `rule_correlations` table.
    ///
    /// # Errors
    ///
    /// As [`Table::icc_rows`].
    pub fn correlation_rows(&self) -> Result<Vec<CorrelationRow>, TableError> {
        let (corpus, algorithm, list) = (self.strs("corpus")?, self.strs("algorithm")?, self.strs("list")?);
        let (rule_a, rule_b, status) = (self.strs("rule_a")?, self.strs("rule_b")?, self.strs("status")?);
        let (r, p_value, n_cells) = (self.f64s("r")?, self.f64s("p_value")?, self.u64s("n_cells")?);
        Ok((0..self.height())
            .map(|i| CorrelationRow {
                corpus: corpus[i].clone(),
                algorithm: algorithm[i].clone(),
                list: list[i].clone(),
                rule_a: rule_a[i].clone(),
                rule_b: rule_b[i].clone(),
                r: r[i],
                p_value: p_value[i],
                n_cells: n_cells[i],
                status: status[i].clone(),
            })
            .collect())
    }

    /// The rows of the `low_reliability` table.
    ///
    /// # Errors
    ///
    /// As [`Table::icc_rows`].
    pub fn share_rows(&self) -> Result<Vec<ShareRow>, TableError> {
        let (corpus, algorithm, analysis) = (
            self.strs("corpus")?,
            self.strs("algorithm")?,
            self.strs("analysis")?,
        );
        let (rule, scale, list) = (self.strs("rule")?, self.strs("scale")?, self.strs("list")?);
        let (subject, threshold, share_below) = (
            self.strs("subject")?,
            self.f64s("threshold")?,
            self.f64s("share_below")?,
        );
        let (n_rated, n_below, n_undefined) = (
            self.u32s("n_rated")?,
            self.u32s("n_below")?,
            self.u32s("n_undefined")?,
        );
        Ok((0..self.height())
            .map(|i| ShareRow {
                corpus: corpus[i].clone(),
                algorithm: algorithm[i].clone(),
                analysis: analysis[i].clone(),
                rule: rule[i].clone(),
                scale: scale[i].clone(),
                list: list[i].clone(),
                subject: subject[i].clone(),
                threshold: threshold[i],
                n_rated: n_rated[i],
                n_below: n_below[i],
                share_below: share_below[i],
                n_undefined: n_undefined[i],
            })
            .collect())
    }

    /// The rows of the `regression` table.
    ///
    /// # Errors
    ///
    /// As [`Table::icc_rows`].
    pub fn regression_rows(&self) -> Result<Vec<RegressionRow>, TableError> {
        let (analysis, corpus, algorithm) = (
            self.strs("analysis")?,
            self.strs("corpus")?,
            self.strs("algorithm")?,
        );
        let (metric, scale, word, pos) = (
            self.strs("metric")?,
            self.strs("scale")?,
            self.strs("word")?,
            self.strs("pos")?,
        );
        let (score, log_freq, log_freq_sq) = (
            self.f64s("score")?,
            self.f64s("log_freq")?,
            self.f64s("log_freq_sq")?,
        );
        let (log_senses, nn_sim, l2_norm, es) = (
            self.f64s("log_senses")?,
            self.f64s("nn_sim")?,
            self.f64s("l2_norm")?,
            self.f64s("es")?,
        );
        let (frequency, n_senses) = (self.u64s("frequency")?, self.u32s("n_senses")?);
        Ok((0..self.height())
            .map(|i| RegressionRow {
                analysis: analysis[i].clone(),
                corpus: corpus[i].clone(),
                algorithm: algorithm[i].clone(),
                metric: metric[i].clone(),
                scale: scale[i].clone(),
                word: word[i].clone(),
                score: score[i],
                frequency: frequency[i],
                log_freq: log_freq[i],
                log_freq_sq: log_freq_sq[i],
                n_senses: n_senses[i],
                log_senses: log_senses[i],
                pos: pos[i].clone(),
                nn_sim: nn_sim[i],
                l2_norm: l2_norm[i],
                es: es[i],
            })
            .collect())
    }
}

/// `<dir>/<name>.parquet`.
pub fn parquet_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.parquet"))
}
