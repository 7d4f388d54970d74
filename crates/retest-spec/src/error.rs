//! Errors of spec loading: every one names the file, the line and the field path.

use std::fmt;
use std::path::PathBuf;

/// Where in a spec file something went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    /// 1-based line and column, when known.
    pub line_column: Option<(usize, usize)>,
    /// Field path such as `sgns.window` or `corpora[1].recipe`; empty for the whole document.
    pub field: String,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some((line, column)) = self.line_column {
            write!(f, ":{line}:{column}")?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        Ok(())
    }
}

/// A spec that cannot be read or is not valid.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{location}: {message}")]
    Invalid { location: Location, message: String },
}

impl SpecError {
    /// The location of an [`SpecError::Invalid`] error.
    pub fn location(&self) -> Option<&Location> {
        match self {
            SpecError::Invalid { location, .. } => Some(location),
            SpecError::Read { .. } => None,
        }
    }
}
