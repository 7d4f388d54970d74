//! Finding data files (explicit path, mirror folder, download cache) by checksum, and preparing
//! corpora from their recipes.
//!
//! This is the crate that touches the file system and the network for corpora: the readers in
//! `retest-corpus` only see byte streams.

mod checksum;
mod error;
mod lock;
mod prepare;
mod progress;
mod resolve;

pub use checksum::sha256_file;
pub use error::DataError;
pub use lock::{LOCK_FILE, LearntChecksum, LockFile, lock_beside, record_learnt_checksums};
pub use prepare::{
    CORPUS_FILE, PrepareOutcome, PreparedCorpus, STATS_FILE, VOCAB_FILE, find_prepared, prepare_corpus,
    prepared_dirs, stale_preparations,
};
pub use resolve::{LockPlace, Origin, Owner, Refreshed, ResolvedFile, Resolver};
