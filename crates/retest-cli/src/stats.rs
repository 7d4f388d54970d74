//! `retest stats`: reliability statistics on any CSV matrix, printed as JSON.
//!
//! The CSV has one row per subject (ICC), case (alpha) or rated item (kappa), and one column per
//! rater or item. A first row that is not all numbers is a header; a first column that is not
//! all numbers holds row labels. Empty cells, `NA`, `nan` and `NaN` are missing values.

use std::path::Path;

use anyhow::{Context, Result, bail};
use retest_reliability::Matrix;
use serde_json::Value;

/// A numeric matrix read from CSV, with where each value came from for error messages.
#[derive(Debug)]
pub struct CsvMatrix {
    pub columns: Vec<String>,
    pub n_rows: usize,
    pub values: Vec<f64>,
    /// The file, the line of each row and the file's column of the matrix's first column
    /// (1-based).
    path: std::path::PathBuf,
    lines: Vec<usize>,
    first_column: usize,
}

/// Delimiters a one-column file may really use, with how to pass them.
const OTHER_DELIMITERS: [(char, &str, &str); 4] = [
    (';', "semicolons", "--delimiter ';'"),
    ('\t', "tabs", "--delimiter $'\\t'"),
    ('|', "vertical bars", "--delimiter '|'"),
    (',', "commas", "--delimiter ','"),
];

/// Reads `path` as a CSV matrix (see the module documentation).
pub fn read_csv_matrix(path: &Path, delimiter: char) -> Result<CsvMatrix> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let rows: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            (
                i + 1,
                line.split(delimiter)
                    .map(|cell| cell.trim().trim_matches('"'))
                    .collect(),
            )
        })
        .collect();
    let Some((_, first)) = rows.first() else {
        bail!("{}: the file is empty", path.display())
    };
    if first.len() == 1 {
        let line = rows[0].1[0];
        if let Some((_, name, option)) = OTHER_DELIMITERS
            .iter()
            .find(|(c, ..)| *c != delimiter && line.contains(*c))
        {
            bail!(
                "{}:{}: one column only, whose cells hold {name}: pass {option}",
                path.display(),
                rows[0].0
            );
        }
    }
    let has_header = first.iter().any(|cell| parse_cell(cell).is_none());
    let body = &rows[usize::from(has_header)..];
    let has_labels = !body.is_empty()
        && body
            .iter()
            .all(|(_, row)| !row.is_empty() && parse_cell(row[0]).is_none());
    let skip = usize::from(has_labels);
    let width = first.len();
    let columns = if has_header {
        first[skip..].iter().map(|s| (*s).to_owned()).collect()
    } else {
        (1..=width - skip).map(|j| format!("column_{j}")).collect()
    };
    let mut values = Vec::with_capacity(body.len() * (width - skip));
    for (line, row) in body {
        if row.len() != width {
            bail!(
                "{}:{line}: expected {width} columns like the first row, found {}",
                path.display(),
                row.len()
            );
        }
        for (j, cell) in row.iter().enumerate().skip(skip) {
            let value = parse_cell(cell).with_context(|| {
                format!(
                    "{}:{line}: column {}: `{cell}` is not a number (missing values: empty, NA, NaN)",
                    path.display(),
                    j + 1
                )
            })?;
            values.push(value);
        }
    }
    if body.is_empty() || width == skip {
        bail!("{}: no numeric rows or columns", path.display());
    }
    Ok(CsvMatrix {
        columns,
        n_rows: body.len(),
        values,
        path: path.to_owned(),
        lines: body.iter().map(|(line, _)| *line).collect(),
        first_column: skip + 1,
    })
}

fn parse_cell(cell: &str) -> Option<f64> {
    match cell {
        "" | "NA" | "nan" | "NaN" => Some(f64::NAN),
        _ => cell.parse().ok(),
    }
}

impl CsvMatrix {
    fn matrix(&self) -> Result<Matrix<'_>> {
        Ok(Matrix::new(&self.values, self.n_rows, self.columns.len())?)
    }
}

/// All six ICC forms, or one.
pub fn icc_json(m: &CsvMatrix, form: Option<&str>) -> Result<Value> {
    retest_pipeline::icc_report(m.matrix()?, form)
}

/// Cronbach's alpha with columns as items.
pub fn alpha_json(m: &CsvMatrix) -> Result<Value> {
    Ok(retest_pipeline::alpha_report(m.matrix()?))
}

/// Fleiss' kappa over all columns, and Cohen's kappa when there are exactly two.
pub fn kappa_json(m: &CsvMatrix) -> Result<Value> {
    let cell = |row: usize, column: usize| {
        format!(
            "{}:{}: column {}",
            m.path.display(),
            m.lines[row],
            m.first_column + column
        )
    };
    retest_pipeline::kappa_report(m.matrix()?, &cell)
}
