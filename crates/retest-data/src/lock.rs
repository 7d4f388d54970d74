//! The checksum lock file: SHA-256s learnt on first download, verified on every later use.
//!
//! A recipe may name a source whose upstream checksum is not published. The first time such a
//! file is downloaded (or found in a mirror), its SHA-256 is recorded here, keyed by recipe and
//! file name, one `sha256  corpus/file` line each, sorted, like `sha256sum` output. Later
//! resolutions verify against it, so a changed upstream file is noticed. Commit the lock file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::DataError;

/// Recorded checksums, keyed by `corpus/file`.
#[derive(Debug)]
pub struct LockFile {
    path: PathBuf,
    entries: BTreeMap<String, String>,
}

impl LockFile {
    /// Reads the lock file at `path`; a missing file is an empty lock.
    pub fn load(path: &Path) -> Result<Self, DataError> {
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
        Ok(LockFile {
            path: path.to_owned(),
            entries,
        })
    }

    /// The recorded SHA-256 of `file` of `corpus`.
    pub fn get(&self, corpus: &str, file: &str) -> Option<&str> {
        self.entries.get(&format!("{corpus}/{file}")).map(String::as_str)
    }

    /// Records a SHA-256 and rewrites the lock file atomically.
    pub fn record(&mut self, corpus: &str, file: &str, sha256: &str) -> Result<(), DataError> {
        self.entries.insert(format!("{corpus}/{file}"), sha256.to_owned());
        let mut text = String::from(
            "# SHA-256 of corpus files whose recipe names none, recorded on first use (retest).\n",
        );
        for (key, sha) in &self.entries {
            text.push_str(&format!("{sha}  {key}\n"));
        }
        crate::prepare::write_atomic(&self.path, text.as_bytes())
    }
}
