//! Errors of data resolution and corpus preparation.

use std::path::PathBuf;

/// A data file that cannot be found, verified, downloaded or read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{owner}: file `{file}` not found.\n  looked in:\n{looked}\n  {hint}")]
    NotFound {
        /// What declares the file, e.g. ``corpus `gutenberg` ``.
        owner: String,
        file: String,
        looked: String,
        hint: String,
    },
    #[error("{}: checksum mismatch: expected sha256 {expected}, found {found}", path.display())]
    ChecksumMismatch {
        path: PathBuf,
        expected: String,
        found: String,
    },
    /// The file differs from the SHA-256 the lock file recorded when it was first used (its
    /// recipe or declaration publishes none): it was edited, the upstream changed, or a broken
    /// copy was used then.
    #[error(
        "{}: checksum mismatch: expected sha256 {expected} (recorded in {} when the file was first \
         used), found {found}: if the file changed on purpose, run `{refresh}`",
        path.display(),
        lock.display()
    )]
    RecordedChecksumMismatch {
        path: PathBuf,
        expected: String,
        found: String,
        /// The lock file holding `expected`.
        lock: PathBuf,
        /// The command that records the file as it is now.
        refresh: String,
    },
    #[error("{owner}: downloading {url} failed: {message}")]
    Download {
        owner: String,
        url: String,
        message: String,
    },
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", path.display())]
    Corpus {
        path: PathBuf,
        #[source]
        source: retest_corpus::CorpusError,
    },
    #[error("{}:{line}: {message}", path.display())]
    LockFile {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("corpus `{corpus}`: nothing to train on: {}", empty_corpus_cause(*min_count, *max_tokens))]
    EmptyCorpus {
        corpus: String,
        min_count: u64,
        max_tokens: Option<u64>,
    },
}

retest_fs::io_variant!(DataError, io);

/// Why a corpus has no token, naming the recipe fields that made it so.
fn empty_corpus_cause(min_count: u64, max_tokens: Option<u64>) -> String {
    let read = match max_tokens {
        Some(n) => format!("its first {n} tokens (max_tokens)"),
        None => "its sources".to_owned(),
    };
    match min_count {
        0 | 1 => format!("{read} hold no token"),
        n => format!("no word of {read} occurs at least {n} times (min_count)"),
    }
}
