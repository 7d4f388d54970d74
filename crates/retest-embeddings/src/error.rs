//! The error type of this crate: every message names the file and the place in it.

use std::path::PathBuf;

use crate::Format;

/// Why embeddings could not be built, read or written.
#[derive(Debug, thiserror::Error)]
pub enum EmbeddingsError {
    /// The matrix does not have `n_words × dim` values.
    #[error("embedding matrix has {len} values, but {n_words} words × {dim} dimensions need {expected}")]
    Shape {
        n_words: usize,
        dim: usize,
        len: usize,
        expected: usize,
    },
    /// A dimension of 0 was given.
    #[error("embedding dimension is 0: a word vector needs at least one value")]
    ZeroDim,
    /// A word occurs twice in the vocabulary.
    #[error("duplicate word `{word}` at rows {first} and {second}: every word must be unique")]
    DuplicateWord {
        word: String,
        first: usize,
        second: usize,
    },
    /// A word is empty or contains ASCII whitespace (text formats could not represent it).
    #[error("word at row {row} ({word:?}) {problem}")]
    InvalidWord {
        row: usize,
        word: String,
        problem: &'static str,
    },
    /// A vector holds NaN or an infinity.
    #[error("word `{word}` (row {row}) has the non-finite value {value} in dimension {component}")]
    NonFinite {
        row: usize,
        word: String,
        component: usize,
        value: f32,
    },
    /// A format name that is not one of [`crate::Format`]'s.
    #[error(
        "unknown embedding format `{0}`: expected one of fifu, word2vec-text, word2vec-binary, glove-text"
    )]
    UnknownFormat(String),
    /// The operating system refused a read or write.
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A malformed line of a text format (word2vec text, GloVe text).
    #[error("{}:{line}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A malformed record of a word2vec binary file (records are counted from 1).
    #[error("{}: word {record} (byte offset {offset}): {message}", path.display())]
    Binary {
        path: PathBuf,
        record: usize,
        offset: u64,
        message: String,
    },
    /// A finalfusion file this crate cannot read or finalfusion could not write.
    #[error("{}: {message}", path.display())]
    Fifu { path: PathBuf, message: String },
    /// Format detection found nothing it recognises.
    #[error("{}: cannot tell the embedding format: {reason}; pass the format explicitly (`--format`, for `embeddings export` `--input-format`)", path.display())]
    UnknownContent { path: PathBuf, reason: String },
    /// A text file that starts with a UTF-8 byte-order mark, which would join the first word.
    #[error("{}: starts with a UTF-8 byte-order mark (bytes EF BB BF), which no embedding format has: save the file without it", path.display())]
    ByteOrderMark { path: PathBuf },
    /// A file read in the format asked for failed, and its content looks like another format.
    #[error("{error} (read as {given}, as asked; its content looks like {detected})")]
    Contradicts {
        error: Box<EmbeddingsError>,
        given: Format,
        detected: Format,
    },
    /// The file parsed, but what it holds is not a valid embedding (e.g. duplicate words).
    #[error("{}", path.display())]
    InvalidContent {
        path: PathBuf,
        #[source]
        source: Box<EmbeddingsError>,
    },
}

retest_fs::io_variant!(EmbeddingsError, io);
