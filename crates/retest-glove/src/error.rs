//! The crate's error type: invalid configurations, spill-file I/O and malformed co-occurrence
//! files.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong while counting, reading, writing or training.
#[derive(Debug, thiserror::Error)]
pub enum GloveError {
    /// A configuration value is out of its domain.
    #[error("invalid GloVe configuration: {what}")]
    InvalidConfig {
        /// Which value, and what was expected.
        what: String,
    },

    /// The window is too wide for exact accumulation of this corpus in 64-bit weight units.
    #[error(
        "window {window} is too wide for exact co-occurrence counting of {n_tokens} tokens: the \
         weights 1/d are summed exactly in units of 1/lcm(1..={window}) and the total would \
         overflow 64 bits (use a window of at most 20)"
    )]
    WindowTooWide {
        /// The configured window.
        window: usize,
        /// Tokens in the corpus.
        n_tokens: u64,
    },

    /// Reading or writing a spill run failed.
    #[error("co-occurrence spill file {}", path.display())]
    Spill {
        /// The run file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },

    /// Reading a co-occurrence file failed at the I/O level (other than an early end).
    #[error("reading co-occurrence file")]
    Read(#[source] io::Error),

    /// The stream does not start with the co-occurrence magic bytes.
    #[error("not a retest co-occurrence file: expected magic bytes \"RTGLCOOC\", found {found:?}")]
    BadMagic {
        /// The first bytes found, lossily decoded.
        found: String,
    },

    /// The file was written by an unknown format version.
    #[error("unsupported co-occurrence file version {found} (this build reads version {expected})")]
    UnsupportedVersion {
        /// Version in the header.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },

    /// The stream ended before the header or the announced records were complete.
    #[error(
        "co-occurrence file is truncated: the header announces {expected} records but the data \
         ends after {complete} complete records"
    )]
    Truncated {
        /// Records announced by the header (0 if the header itself is incomplete).
        expected: u64,
        /// Complete records read.
        complete: u64,
    },

    /// Bytes follow the announced records.
    #[error("co-occurrence file has trailing data after its {n_records} records")]
    TrailingData {
        /// Records announced by the header.
        n_records: u64,
    },

    /// A record breaks an invariant of the table (ids below the vocabulary size, strictly
    /// increasing `(i, j)`, finite positive weight).
    #[error("invalid co-occurrence record {index} (i = {i}, j = {j}, x = {x}): {reason}")]
    InvalidRecord {
        /// Position of the record (0-based).
        index: u64,
        /// Its row.
        i: u32,
        /// Its column.
        j: u32,
        /// Its weight.
        x: f64,
        /// The broken invariant.
        reason: &'static str,
    },

    /// The co-occurrence table was built for another vocabulary.
    #[error(
        "co-occurrences were counted over a vocabulary of {cooccurrences} words but training was \
         asked for {requested} words"
    )]
    VocabMismatch {
        /// Vocabulary size stored with the co-occurrences.
        cooccurrences: usize,
        /// Vocabulary size passed to training.
        requested: usize,
    },

    /// Training needs at least one co-occurrence record.
    #[error(
        "cannot train GloVe on an empty co-occurrence table (the corpus has no word pairs within the window)"
    )]
    NoCooccurrences,
}
