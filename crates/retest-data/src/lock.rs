//! The checksum lock file: SHA-256s learnt on first use, verified on every later use.
//!
//! A recipe or a declaration may name a source whose checksum is not published. The first time
//! such a file is used and read without error (its corpus prepared, its list read), its SHA-256
//! is recorded in `checksums.lock`, keyed by owner (recipe or declaration) and file name, one
//! `sha256  owner/file` line each, sorted, like `sha256sum` output. Later resolutions verify
//! against it, so a changed file is noticed; `retest lock --refresh FILE` records a file that
//! changed on purpose. A corpus's lock is the one beside its recipes; a declaration's is the one
//! beside the declaring file ([`lock_beside`]). Commit the lock file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::DataError;

/// Recorded checksums, keyed by `corpus/file`.
#[derive(Debug)]
pub struct LockFile {
    path: PathBuf,
    entries: BTreeMap<String, String>,
}

/// A SHA-256 computed for a file the lock does not know yet, waiting to be recorded until the
/// file has been read without error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearntChecksum {
    /// The recipe or declaration that names the file (its `name`).
    pub owner: String,
    /// The file name, as the recipe gives it.
    pub file: String,
    pub sha256: String,
    /// The lock file that records it.
    pub lock: PathBuf,
}

impl LearntChecksum {
    /// The entry's key in the lock file: `owner/file`.
    pub fn key(&self) -> String {
        lock_key(&self.owner, &self.file)
    }
}

/// The name of a checksum lock file.
pub const LOCK_FILE: &str = "checksums.lock";

/// The lock file beside `file` (in its folder): where the checksums learnt for the files a
/// declaration or a recipe names are recorded.
pub fn lock_beside(file: &Path) -> PathBuf {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(LOCK_FILE),
        _ => PathBuf::from(LOCK_FILE),
    }
}

/// Records every checksum of `learnt`, each in its own lock file.
///
/// # Errors
///
/// A lock file that cannot be read or written.
pub fn record_learnt_checksums(learnt: &[LearntChecksum]) -> Result<(), DataError> {
    for (lock, entries) in by_lock(learnt) {
        LockFile::load(&lock)?.record(&entries)?;
    }
    Ok(())
}

/// `learnt` grouped by the lock file that records each, in path order.
pub(crate) fn by_lock(learnt: &[LearntChecksum]) -> BTreeMap<PathBuf, Vec<LearntChecksum>> {
    let mut groups: BTreeMap<PathBuf, Vec<LearntChecksum>> = BTreeMap::new();
    for entry in learnt {
        groups.entry(entry.lock.clone()).or_default().push(entry.clone());
    }
    groups
}

/// The key of `file` of `owner` in the lock file.
pub(crate) fn lock_key(owner: &str, file: &str) -> String {
    format!("{owner}/{file}")
}

impl LockFile {
    /// Reads the lock file at `path`; a missing file is an empty lock.
    pub fn load(path: &Path) -> Result<Self, DataError> {
        Ok(LockFile {
            path: path.to_owned(),
            entries: read_entries(path)?,
        })
    }

    /// Where the lock file is (or will be written).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The recorded SHA-256 of `file` of `corpus`.
    pub fn get(&self, corpus: &str, file: &str) -> Option<&str> {
        self.entries.get(&lock_key(corpus, file)).map(String::as_str)
    }

    /// Records `learnt` (replacing an entry of the same key) and rewrites the lock file
    /// atomically. The file is read again first, so
    /// entries another process recorded since [`LockFile::load`] are kept. Nothing to record
    /// writes nothing.
    pub fn record(&mut self, learnt: &[LearntChecksum]) -> Result<(), DataError> {
        if learnt.is_empty() {
            return Ok(());
        }
        let mut entries = read_entries(&self.path)?;
        for entry in learnt {
            entries.insert(entry.key(), entry.sha256.clone());
        }
        let mut text = String::from(
            "# SHA-256 of files whose recipe or declaration names none, recorded on first use (retest).\n",
        );
        for (key, sha) in &entries {
            text.push_str(&format!("{sha}  {key}\n"));
        }
        crate::prepare::write_atomic(&self.path, text.as_bytes())?;
        self.entries = entries;
        Ok(())
    }
}

/// The entries of the lock file at `path`; a missing file has none.
fn read_entries(path: &Path) -> Result<BTreeMap<String, String>, DataError> {
    let mut entries = BTreeMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(DataError::Io {
                path: path.to_owned(),
                source: e,
            });
        }
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: &str| DataError::LockFile {
            path: path.to_owned(),
            line: i + 1,
            message: message.to_owned(),
        };
        let (sha, key) = line
            .split_once("  ")
            .ok_or_else(|| bad("expected `<sha256>  <corpus>/<file>`"))?;
        if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad("expected a 64-digit hex SHA-256 at the start of the line"));
        }
        entries.insert(key.trim().to_owned(), sha.to_ascii_lowercase());
    }
    Ok(entries)
}
