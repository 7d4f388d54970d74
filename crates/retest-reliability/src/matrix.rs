//! The input table (a borrowed row-major matrix), its validation and listwise deletion.

use std::error::Error;
use std::fmt;

/// A borrowed, row-major table of scores.
///
/// Rows are subjects (ICC: the targets being rated) or cases (Cronbach's alpha: the observations);
/// columns are raters (ICC) or items (alpha). Du, Fang & Nguyen (2021) use, for example, gender
/// base pairs × seeds for the test-retest ICC of one target word.
///
/// NaN marks a missing score. Every estimator drops the rows that contain one (listwise deletion,
/// as pingouin's `nan_policy="omit"`) and reports how many it dropped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix<'a> {
    data: &'a [f64],
    n_rows: usize,
    n_cols: usize,
}

impl<'a> Matrix<'a> {
    /// A view of `data` as `n_rows` rows of `n_cols` scores each (row-major).
    ///
    /// Fails when `data.len() != n_rows * n_cols`. Empty shapes (0 rows or 0 columns) are
    /// accepted; estimators report them through their status.
    pub fn new(data: &'a [f64], n_rows: usize, n_cols: usize) -> Result<Self, MatrixError> {
        check_shape(data.len(), n_rows, n_cols)?;
        Ok(Matrix { data, n_rows, n_cols })
    }

    /// Number of rows (subjects or cases).
    pub fn n_rows(&self) -> usize {
        self.n_rows
    }

    /// Number of columns (raters or items).
    pub fn n_cols(&self) -> usize {
        self.n_cols
    }

    /// The scores, row-major.
    pub fn data(&self) -> &'a [f64] {
        self.data
    }

    /// Row `i`, or `None` when `i >= n_rows`.
    pub fn row(&self, i: usize) -> Option<&'a [f64]> {
        row_of(self.data, self.n_rows, self.n_cols, i)
    }

    /// The rows without a NaN (listwise deletion), in their original order.
    pub(crate) fn complete_rows(&self) -> CompleteRows<'a> {
        let rows: Vec<&'a [f64]> = (0..self.n_rows)
            .filter_map(|i| self.row(i))
            .filter(|row| !row.iter().any(|x| x.is_nan()))
            .collect();
        let n_dropped = self.n_rows - rows.len();
        CompleteRows {
            rows,
            n_cols: self.n_cols,
            n_dropped,
        }
    }
}

/// Checks that `len` values are `n_rows` rows of `n_cols` (row-major): fails when
/// `n_rows * n_cols` overflows or differs from `len`.
pub(crate) fn check_shape(len: usize, n_rows: usize, n_cols: usize) -> Result<(), MatrixError> {
    let expected = n_rows
        .checked_mul(n_cols)
        .ok_or(MatrixError::SizeOverflow { n_rows, n_cols })?;
    if len != expected {
        return Err(MatrixError::LengthMismatch { len, n_rows, n_cols });
    }
    Ok(())
}

/// Row `i` of `data` read as `n_rows` rows of `n_cols` (row-major), or `None` when
/// `i >= n_rows`.
pub(crate) fn row_of<T>(data: &[T], n_rows: usize, n_cols: usize, i: usize) -> Option<&[T]> {
    if i >= n_rows {
        return None;
    }
    let start = i * n_cols;
    data.get(start..start + n_cols)
}

/// The rows of a [`Matrix`] that survive listwise deletion.
#[derive(Debug)]
pub(crate) struct CompleteRows<'a> {
    pub(crate) rows: Vec<&'a [f64]>,
    pub(crate) n_cols: usize,
    pub(crate) n_dropped: usize,
}

impl CompleteRows<'_> {
    /// Whether any remaining score is infinite.
    pub(crate) fn has_infinite(&self) -> bool {
        self.rows.iter().any(|row| row.iter().any(|x| x.is_infinite()))
    }

    /// The largest absolute score (0 for an empty table).
    pub(crate) fn max_abs(&self) -> f64 {
        self.rows
            .iter()
            .flat_map(|row| row.iter())
            .fold(0.0_f64, |m, x| m.max(x.abs()))
    }
}

/// A table whose declared shape does not match its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatrixError {
    /// The data length is not rows × columns.
    LengthMismatch {
        len: usize,
        n_rows: usize,
        n_cols: usize,
    },
    /// rows × columns does not fit in `usize`.
    SizeOverflow { n_rows: usize, n_cols: usize },
}

impl fmt::Display for MatrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatrixError::LengthMismatch { len, n_rows, n_cols } => write!(
                f,
                "table has {len} values but its shape {n_rows} rows × {n_cols} columns needs {}",
                n_rows * n_cols
            ),
            MatrixError::SizeOverflow { n_rows, n_cols } => {
                write!(f, "table shape {n_rows} rows × {n_cols} columns is too large")
            }
        }
    }
}

impl Error for MatrixError {}

/// Compensated (Kahan–Babuška–Neumaier) summation: the error does not grow with the count.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sum {
    sum: f64,
    compensation: f64,
}

impl Sum {
    pub(crate) fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.compensation += (self.sum - t) + x;
        } else {
            self.compensation += (x - t) + self.sum;
        }
        self.sum = t;
    }

    pub(crate) fn value(self) -> f64 {
        self.sum + self.compensation
    }

    pub(crate) fn of(values: impl IntoIterator<Item = f64>) -> f64 {
        let mut s = Sum::default();
        for x in values {
            s.add(x);
        }
        s.value()
    }
}

/// The rounding floor of a sum of `count` squared deviations of numbers of magnitude up to
/// `magnitude`: a sum of squares at or below it is indistinguishable from zero.
///
/// Each deviation carries a rounding error of a few ulps of `magnitude`, so the floor is
/// `count · (4 ε · magnitude)²`.
pub(crate) fn rounding_floor(count: usize, magnitude: f64) -> f64 {
    let ulps = 4.0 * f64::EPSILON * magnitude;
    count as f64 * ulps * ulps
}
