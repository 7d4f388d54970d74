//! The crate's error type: one variant per thing that can be wrong with an input, each saying
//! where (line, row, byte offset) and what was expected.

use std::io;

/// Everything that can go wrong while reading a corpus, a vocabulary or an encoded corpus.
///
/// Line numbers are 1-based and count lines of the decompressed input stream given to one
/// `read_*` call.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CorpusError {
    /// The input stream failed (I/O error, or corrupt compressed data detected by the decoder).
    #[error("cannot read line {line} of the input")]
    Read {
        /// Line that was being read.
        line: u64,
        /// Underlying I/O or decoder error.
        #[source]
        source: io::Error,
    },

    /// A line is not valid UTF-8.
    #[error(
        "line {line}: invalid UTF-8 at byte {byte} of the line (expected UTF-8 text; \
         convert the file, e.g. with iconv)"
    )]
    InvalidUtf8 {
        /// Line holding the bad bytes.
        line: u64,
        /// Byte offset of the first invalid byte within the line.
        byte: usize,
    },

    /// A Reddit JSON line could not be parsed or lacks a required field.
    #[error("line {line}: {message}")]
    RedditRecord {
        /// Line of the bad record.
        line: u64,
        /// What was found and what was expected.
        message: String,
    },

    /// The `tokenizers` normaliser or pre-tokeniser failed.
    #[error("tokenizer failed on a text starting {start:?}: {message}")]
    Tokenizer {
        /// First characters of the text.
        start: String,
        /// Error reported by `tokenizers`.
        message: String,
    },

    /// The Parquet reader failed (bad file, unsupported encoding, I/O).
    #[error("cannot read parquet file{}", match .row_group { Some(g) => format!(" (row group {g})"), None => String::new() })]
    Parquet {
        /// Row group being read, if the file metadata was already read.
        row_group: Option<usize>,
        /// Error from the `parquet` crate.
        #[source]
        source: parquet::errors::ParquetError,
    },

    /// A Parquet file has no top-level `text` column.
    #[error(
        "parquet file has no `text` column (expected a Hugging Face WikiText export); columns found: {found}"
    )]
    MissingTextColumn {
        /// Comma-separated column paths of the file.
        found: String,
    },

    /// The `text` column of a Parquet file is not a string column.
    #[error("parquet column `text` has physical type {found}, expected a string (BYTE_ARRAY) column")]
    TextColumnType {
        /// Physical type found.
        found: String,
    },

    /// A Parquet `text` value is not valid UTF-8.
    #[error("parquet row {row}: `text` value is not valid UTF-8")]
    ParquetUtf8 {
        /// 1-based row number in the file.
        row: u64,
    },

    /// A vocabulary file line is malformed.
    #[error("vocabulary line {line}: {message}")]
    Vocab {
        /// Offending line.
        line: u64,
        /// What was found and what was expected.
        message: String,
    },

    /// The buffer does not start with the encoded-corpus magic bytes.
    #[error("not an encoded corpus: expected magic bytes \"RTCORPUS\", found {found:?}")]
    BadMagic {
        /// The first (up to 8) bytes, lossily decoded.
        found: String,
    },

    /// The encoded corpus was written by a different format version.
    #[error(
        "unsupported encoded corpus format version {found} (this build reads version {expected}); prepare the corpus again"
    )]
    UnsupportedVersion {
        /// Version in the header.
        found: u32,
        /// Version this build reads and writes.
        expected: u32,
    },

    /// The buffer is shorter than the header says.
    #[error("truncated encoded corpus: {what} needs {needed} bytes, the buffer has {available}")]
    Truncated {
        /// The part that does not fit.
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes present.
        available: u64,
    },

    /// Header fields or arrays are inconsistent.
    #[error("corrupt encoded corpus: {0}")]
    Corrupt(String),

    /// The buffer is not 8-byte aligned, so the arrays cannot be viewed in place.
    #[error(
        "encoded corpus buffer is not 8-byte aligned (address {address:#x}); \
         memory-map the file or load it with AlignedBytes"
    )]
    Misaligned {
        /// Start address of the buffer.
        address: usize,
    },
}
