//! Reading one YAML document into a raw serde type, with positions for every later check.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::error::{Location, SpecError};
use crate::locate::PathIndex;

/// A parsed spec file: its raw contents plus where each field sits, for error messages.
#[derive(Debug)]
pub(crate) struct Document<T> {
    pub raw: T,
    pub file: PathBuf,
    index: PathIndex,
}

impl<T: DeserializeOwned> Document<T> {
    pub fn read(path: &Path) -> Result<Self, SpecError> {
        let text = std::fs::read_to_string(path).map_err(|source| SpecError::Read {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses `text`; `file` names it in errors. Unknown keys and wrong types are errors
    /// carrying line, column and field path.
    pub fn parse(text: &str, file: &Path) -> Result<Self, SpecError> {
        let index = PathIndex::new(text);
        let deserializer = serde_yaml::Deserializer::from_str(text);
        let raw = serde_path_to_error::deserialize(deserializer).map_err(|error| {
            let field = clean_path(&error.path().to_string());
            let inner = error.into_inner();
            let message = clean_message(&inner.to_string(), &field);
            // serde_yaml places a repeated key at the start of its mapping; the index knows
            // the line of the repetition.
            let repeated = repeated_key(&message)
                .and_then(|key| index.repeated_key(&join(&field, key)))
                .map(|p| (p.line, p.column));
            let line_column = repeated
                .or_else(|| inner.location().map(|l| (l.line(), l.column())))
                .or_else(|| index.find(&field).map(|p| (p.line, p.column)));
            SpecError::Invalid {
                location: Location {
                    file: file.to_owned(),
                    line_column,
                    field,
                },
                message,
            }
        })?;
        Ok(Document {
            raw,
            file: file.to_owned(),
            index,
        })
    }
}

impl<T> Document<T> {
    /// An error about the field at `field`, located in the file.
    pub fn error(&self, field: &str, message: impl Into<String>) -> SpecError {
        SpecError::Invalid {
            location: Location {
                file: self.file.clone(),
                line_column: self.index.find(field).map(|p| (p.line, p.column)),
                field: field.to_owned(),
            },
            message: message.into(),
        }
    }
}

/// serde_path_to_error writes `.` for the root and `?` for a node it could not name (a
/// syntax error); we use the path of the nearest named ancestor, empty for the root.
fn clean_path(path: &str) -> String {
    let named = match path.find('?') {
        Some(cut) => &path[..cut],
        None => path,
    };
    named.trim_end_matches('.').to_owned()
}

/// `key` of the mapping at `field`.
fn join(field: &str, key: &str) -> String {
    if field.is_empty() {
        key.to_owned()
    } else {
        format!("{field}.{key}")
    }
}

/// The key of a `duplicate field `key`` message.
fn repeated_key(message: &str) -> Option<&str> {
    message.strip_prefix("duplicate field `")?.strip_suffix('`')
}

/// What serde calls the Rust types it expected, in the words of a YAML file. An unsigned
/// field's least value is its own check's to say (most refuse 0), so only its largest is named.
const EXPECTED: [(&str, &str); 11] = [
    ("u8", "a whole number up to 255"),
    ("u16", "a whole number up to 65535"),
    ("u32", "a whole number up to 4294967295"),
    ("u64", "a whole number up to 18446744073709551615"),
    ("usize", "a whole number up to 18446744073709551615"),
    ("i32", "a whole number"),
    ("i64", "a whole number"),
    ("f32", "a number"),
    ("f64", "a number"),
    ("a YAML tag starting with '!'", "a plain value"),
    ("a map", "a mapping"),
];

/// serde_yaml writes the field path before and " at line L column C" after its messages; the
/// location already says both. Rust type names (`u32`, `struct RawSgns`, `as u128`) are
/// replaced by what the YAML should hold.
fn clean_message(message: &str, field: &str) -> String {
    let message = match message.split_once(": ") {
        Some((prefix, rest)) if !prefix.is_empty() && field.starts_with(prefix) => rest,
        _ => message,
    };
    let message = match message.find(" at line ") {
        Some(cut) => &message[..cut],
        None => message,
    };
    let message = message
        .replace("` as u128", "`")
        .replace("` as i128", "`")
        .replace("invalid type: map,", "invalid type: mapping,")
        .replace("floating point `", "number `");
    match message.split_once(", expected ") {
        Some((found, expected)) => {
            let expected = if expected.starts_with("struct ") {
                "a mapping"
            } else {
                EXPECTED
                    .iter()
                    .find(|(rust, _)| *rust == expected)
                    .map_or(expected, |(_, yaml)| yaml)
            };
            format!("{found}, expected {expected}")
        }
        None => message,
    }
}
