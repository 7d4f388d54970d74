//! The error type of this crate: benchmark files that cannot be read (with file and line).

use std::path::PathBuf;

/// Why a benchmark file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The operating system refused the read (a missing file shows up here, with its path).
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A malformed line.
    #[error("{}:{line}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

impl EvalError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> EvalError {
        let path = path.into();
        move |source| EvalError::Io { path, source }
    }
}
