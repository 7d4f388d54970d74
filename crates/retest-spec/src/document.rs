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
            let line_column = inner
                .location()
                .map(|l| (l.line(), l.column()))
                .or_else(|| index.find(&field).map(|p| (p.line, p.column)));
            let message = clean_message(&inner.to_string(), &field);
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

/// serde_path_to_error writes `.` for the root; we use the empty path.
fn clean_path(path: &str) -> String {
    if path == "." {
        String::new()
    } else {
        path.to_owned()
    }
}

/// serde_yaml writes the field path before and " at line L column C" after its messages; the
/// location already says both.
fn clean_message(message: &str, field: &str) -> String {
    let message = match message.split_once(": ") {
        Some((prefix, rest)) if !prefix.is_empty() && field.starts_with(prefix) => rest,
        _ => message,
    };
    match message.find(" at line ") {
        Some(cut) => message[..cut].to_owned(),
        None => message.to_owned(),
    }
}
