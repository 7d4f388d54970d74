//! The CSV tables of a run, read back: a header and rows of fields, and numbers from fields.

use std::collections::BTreeMap;
use std::path::Path;

/// One row as a map from column name to field.
pub type Record<'a> = BTreeMap<&'a str, &'a str>;

/// A CSV file written by the tables crate: its header and rows (fields may be quoted).
pub struct Csv {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Csv {
    pub fn read(path: &Path) -> Csv {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines().map(split_csv_line);
        let header = lines.next().unwrap();
        Csv {
            header,
            rows: lines.collect(),
        }
    }

    /// The rows as maps from column name to field.
    pub fn records(&self) -> Vec<Record<'_>> {
        self.rows
            .iter()
            .map(|row| {
                assert_eq!(row.len(), self.header.len(), "{row:?}");
                self.header
                    .iter()
                    .map(String::as_str)
                    .zip(row.iter().map(String::as_str))
                    .collect()
            })
            .collect()
    }
}

fn split_csv_line(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

pub fn num(field: &str) -> f64 {
    field.parse().unwrap_or_else(|_| panic!("not a number: {field}"))
}
