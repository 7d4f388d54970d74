//! The error types of this crate: benchmark files that cannot be read (with file and line), and
//! solver or pair-generator input out of range.

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

/// Why an analogy solver or the pair generator refused its input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// No answer was asked for.
    #[error("top_n must be at least 1")]
    ZeroTopN,
    /// No pair was asked for.
    #[error("n_pairs must be at least 1")]
    ZeroPairs,
    /// 3CosMul's ε is not a finite positive number.
    #[error("3CosMul's epsilon must be a finite number > 0, found {0}")]
    Epsilon(f64),
    /// Bolukbasi et al.'s δ is negative or not finite.
    #[error("Bolukbasi's delta must be a finite number ≥ 0, found {0}")]
    Delta(f64),
    /// An empty space was asked for.
    #[error("restrict_vocab must be at least 1")]
    RestrictZero,
    /// More rows than the embedding has were asked for.
    #[error("restrict_vocab {restrict_vocab} is larger than the vocabulary ({n_words} words)")]
    RestrictTooLarge { restrict_vocab: usize, n_words: usize },
    /// A query names a row outside the space searched.
    #[error("query {query}: row {row} is not among the {n_rows} rows searched")]
    RowOutOfRange { query: usize, row: u32, n_rows: usize },
    /// A seed word of the pair generator is outside the space searched.
    #[error("seed row {row} is not among the {n_rows} rows searched")]
    SeedOutOfRange { row: u32, n_rows: usize },
}
