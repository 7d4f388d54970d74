//! `retest lock`: records the checksums of the files a declaring file names (a WEAT tests
//! file's `sets`, a word-list or lexicon declaration, a corpus recipe) in the lock beside it,
//! the first time or, with `--refresh`, again after a file changed on purpose.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use retest_data::{DataError, LockPlace, Owner, lock_beside};
use retest_spec::{DeclaringFile, SourceSpec, parse_named_sets};

use crate::driver::project::resolver;
use crate::lists::declaration_name;

/// What `retest lock` does with a checksum the lock already records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockMode {
    /// Verify the file against it (a file not recorded yet is recorded).
    Verify,
    /// Record the file as it is now in its place (`--refresh`).
    Refresh,
}

/// One source file `retest lock` handled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockOutcome {
    /// Its declaring file gives its checksum, which it matches; nothing recorded.
    Published {
        declaring: PathBuf,
        file: String,
        sha256: String,
    },
    /// Recorded in `lock` under `key`; `previous` is the checksum recorded before, if any.
    Recorded {
        lock: PathBuf,
        key: String,
        sha256: String,
        previous: Option<String>,
    },
}

impl std::fmt::Display for LockOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockOutcome::Published {
                declaring,
                file,
                sha256,
            } => write!(
                f,
                "{}: {file}: sha256 {sha256} as the file gives it",
                declaring.display()
            ),
            LockOutcome::Recorded {
                lock,
                key,
                sha256,
                previous,
            } => match previous {
                None => write!(f, "{}: {key}: recorded sha256 {sha256}", lock.display()),
                Some(old) if old == sha256 => {
                    write!(f, "{}: {key}: sha256 {sha256} already recorded", lock.display())
                }
                Some(old) => write!(
                    f,
                    "{}: {key}: recorded sha256 {sha256} (was {old})",
                    lock.display()
                ),
            },
        }
    }
}

/// Finds every source file `declaring` names and records its checksum in the lock beside
/// `declaring` (a checksum the file gives is verified instead). A WEAT tests file's sets are
/// parsed first, so a broken file is not recorded.
///
/// # Errors
///
/// `declaring` is not a WEAT tests file with `sets`, a declaration or a recipe; a file cannot
/// be found or read; a file differs from the checksum its declaring file gives, or (without
/// [`LockMode::Refresh`]) from the one the lock records.
pub fn lock_declared(declaring: &Path, mode: LockMode) -> Result<Vec<LockOutcome>> {
    let mut resolver = resolver(&lock_beside(declaring))?;
    let name;
    let (kind, sources, lock): (&str, Vec<SourceSpec>, LockPlace) = match DeclaringFile::read(declaring)? {
        DeclaringFile::WeatTests(tests) => {
            let Some(sets) = tests.sets else {
                bail!(
                    "{}: declares no `sets`: its tests list their words, so there is no file to lock",
                    declaring.display()
                );
            };
            name = declaration_name(declaring);
            ("WEAT sets", vec![sets.source], LockPlace::BesideFile)
        }
        DeclaringFile::Declaration(declaration) => {
            name = declaration_name(declaring);
            ("declared file", vec![declaration.source], LockPlace::BesideFile)
        }
        DeclaringFile::Recipe(recipe) => {
            name = recipe.name.clone();
            ("corpus", recipe.sources, LockPlace::Resolver)
        }
    };
    let owner = Owner {
        kind,
        name: &name,
        file: declaring,
        lock,
    };
    let mut outcomes = Vec::new();
    for source in &sources {
        let found = resolver.declared_for_lock(&owner, source, mode == LockMode::Refresh);
        let found = found.map_err(|error| match error {
            DataError::ChecksumMismatch { path, found, .. } if mode == LockMode::Refresh => anyhow::anyhow!(
                "{}: `{}` ({}, sha256 {found}) differs from the sha256 given in this file, which --refresh \
                 leaves as it is: edit `sha256:` there if the file changed on purpose",
                declaring.display(),
                source.file,
                path.display()
            ),
            other => anyhow::Error::new(other),
        })?;
        if kind == "WEAT sets" {
            let path = &found.resolved.path;
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            parse_named_sets(&text, path)?;
        }
        outcomes.push(if found.published {
            LockOutcome::Published {
                declaring: declaring.to_owned(),
                file: source.file.clone(),
                sha256: found.resolved.sha256,
            }
        } else {
            LockOutcome::Recorded {
                lock: found.lock,
                key: found.key,
                sha256: found.resolved.sha256,
                previous: found.previous,
            }
        });
    }
    resolver.record_learnt(&name)?;
    Ok(outcomes)
}
