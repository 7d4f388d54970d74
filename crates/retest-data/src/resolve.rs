//! Resolving a recipe's source files: explicit path → mirror folder → download cache.
//!
//! 1. `path` in the recipe (relative to the recipe file): used as it is; its checksum is
//!    verified when one is known.
//! 2. The mirror folder (`RETEST_DATA_DIR`): searched recursively for a file of the same name;
//!    a candidate is used only if its checksum matches (or none is known yet).
//! 3. The download cache (`RETEST_CACHE_DIR`, default `.cache/downloads`, one folder per corpus): a file downloaded
//!    earlier, verified again; else the source's `url` is downloaded into it with a progress bar.
//!
//! A known checksum comes from the recipe or, failing that, from the lock file: the resolver's
//! (beside the recipes) for a corpus, the one beside the declaring file for a declaration
//! ([`LockPlace`]). A file whose
//! checksum was unknown has it learnt, not recorded: the caller records it with
//! [`Resolver::record_learnt`] once the file has been read without error, so a truncated download
//! that fails to read never has its checksum locked in.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use retest_spec::{CorpusRecipe, SourceSpec};
use sha2::{Digest, Sha256};

use crate::checksum::sha256_file;
use crate::error::DataError;
use crate::lock::{LearntChecksum, LockFile, by_lock, lock_beside, lock_key};
use crate::progress::bytes_bar;

/// Where a resolved file was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    ExplicitPath,
    Mirror,
    Cache,
    Download,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::ExplicitPath => "path",
            Origin::Mirror => "mirror",
            Origin::Cache => "cache",
            Origin::Download => "download",
        }
    }
}

/// What declares a source file: a corpus recipe or a declaration (a word list, a lexicon file,
/// a WEAT tests file's sets). Its name keys the cache folder and the lock file; its file is named
/// in errors, anchors relative paths and is what `retest lock --refresh` is given.
#[derive(Clone, Copy, Debug)]
pub struct Owner<'a> {
    /// `corpus` or `word list`, for messages.
    pub kind: &'a str,
    pub name: &'a str,
    pub file: &'a Path,
    /// The lock file that records the checksums learnt for its files.
    pub lock: LockPlace,
}

/// Which lock file records the checksums learnt for an owner's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockPlace {
    /// The resolver's own ([`Resolver::lock`]): a project's recipes share the one beside them.
    Resolver,
    /// `checksums.lock` beside the owner's file ([`lock_beside`]), wherever the command runs.
    BesideFile,
}

impl Owner<'_> {
    fn describe(&self) -> String {
        format!("{} `{}`", self.kind, self.name)
    }
}

/// A source file found on disk and verified.
#[derive(Clone, Debug)]
pub struct ResolvedFile {
    pub file: String,
    pub path: PathBuf,
    pub sha256: String,
    pub origin: Origin,
}

/// Finds source files; see the module documentation for the order.
#[derive(Debug)]
pub struct Resolver {
    /// The mirror folder, if any (`RETEST_DATA_DIR`).
    pub mirror: Option<PathBuf>,
    /// The download cache folder.
    pub cache: PathBuf,
    /// Checksums recorded on first use.
    pub lock: LockFile,
    /// Never download (`RETEST_OFFLINE` set): a file not found locally is an error.
    pub offline: bool,
    /// Checksums of files the lock does not know yet, not recorded until the file is read.
    learnt: Vec<LearntChecksum>,
    /// The lock files beside declaring files ([`LockPlace::BesideFile`]), read on first use.
    beside: BTreeMap<PathBuf, LockFile>,
}

/// A source file found again by [`Resolver::declared_for_lock`].
#[derive(Clone, Debug)]
pub struct Refreshed {
    pub resolved: ResolvedFile,
    /// The checksum the lock recorded before, if any.
    pub previous: Option<String>,
    /// The checksum is given in the declaring file: verified, not recorded.
    pub published: bool,
    /// The lock file the checksum is recorded in.
    pub lock: PathBuf,
    /// The entry's key there (`owner/file`).
    pub key: String,
}

/// Where the checksum a file is verified against comes from.
enum Expected {
    /// The recipe or declaration gives it.
    Published(String),
    /// The lock file recorded it on first use.
    Recorded(String),
}

impl Expected {
    fn sha256(&self) -> &str {
        match self {
            Expected::Published(sha) | Expected::Recorded(sha) => sha,
        }
    }
}

impl Resolver {
    /// A resolver with the given mirror, cache, lock file and download switch.
    pub fn new(mirror: Option<PathBuf>, cache: PathBuf, lock: LockFile, offline: bool) -> Resolver {
        Resolver {
            mirror,
            cache,
            lock,
            offline,
            learnt: Vec::new(),
            beside: BTreeMap::new(),
        }
    }

    /// Records in their lock files the checksums learnt for the files of `owner` (a corpus or
    /// a declaration name); call it once they have been read without error.
    pub fn record_learnt(&mut self, owner: &str) -> Result<(), DataError> {
        for (path, entries) in by_lock(&self.take_learnt(owner)) {
            if path == self.lock.path() {
                self.lock.record(&entries)?;
            } else {
                self.lock_of_path(&path)?.record(&entries)?;
            }
        }
        Ok(())
    }

    /// The lock file beside a declaring file, read once.
    fn lock_of_path(&mut self, path: &Path) -> Result<&mut LockFile, DataError> {
        if !self.beside.contains_key(path) {
            let lock = LockFile::load(path)?;
            self.beside.insert(path.to_owned(), lock);
        }
        Ok(self.beside.get_mut(path).expect("inserted above"))
    }

    /// The path of the lock file that records the checksums learnt for `owner`'s files.
    pub fn lock_path(&self, owner: &Owner<'_>) -> PathBuf {
        match owner.lock {
            LockPlace::Resolver => self.lock.path().to_owned(),
            LockPlace::BesideFile => lock_beside(owner.file),
        }
    }

    /// The checksum the owner's lock file recorded for `file`.
    fn recorded(&mut self, owner: &Owner<'_>, file: &str) -> Result<Option<String>, DataError> {
        let lock = match owner.lock {
            LockPlace::Resolver => &self.lock,
            LockPlace::BesideFile => &*self.lock_of_path(&lock_beside(owner.file))?,
        };
        Ok(lock.get(owner.name, file).map(str::to_owned))
    }

    /// The checksums learnt for the files of `owner`, handed over to be recorded later (with
    /// [`LockFile::record`]) and forgotten here.
    pub fn take_learnt(&mut self, owner: &str) -> Vec<LearntChecksum> {
        let (taken, kept) = std::mem::take(&mut self.learnt)
            .into_iter()
            .partition(|l| l.owner == owner);
        self.learnt = kept;
        taken
    }

    /// Finds and verifies every source of `recipe`, in recipe order.
    pub fn resolve_all(&mut self, recipe: &CorpusRecipe) -> Result<Vec<ResolvedFile>, DataError> {
        recipe
            .sources
            .iter()
            .map(|source| self.resolve(recipe, source))
            .collect()
    }

    /// Finds and verifies one source file of `recipe`.
    pub fn resolve(&mut self, recipe: &CorpusRecipe, source: &SourceSpec) -> Result<ResolvedFile, DataError> {
        let owner = Owner {
            kind: "corpus",
            name: &recipe.name,
            file: &recipe.file,
            lock: LockPlace::Resolver,
        };
        self.resolve_declared(&owner, source)
    }

    /// Finds `source` of `owner` for `retest lock`, with the checksum its lock recorded before.
    /// A checksum the owner's file gives is verified, never replaced. Otherwise, with `refresh`
    /// the file's checksum is learnt as it is now, to be recorded in place of the lock's;
    /// without, the file is verified against the lock's (or learnt, the first time). Record
    /// what was learnt with [`Resolver::record_learnt`].
    ///
    /// # Errors
    ///
    /// The file cannot be found, or differs from the checksum its owner's file gives (or,
    /// without `refresh`, the one the lock records).
    pub fn declared_for_lock(
        &mut self,
        owner: &Owner<'_>,
        source: &SourceSpec,
        refresh: bool,
    ) -> Result<Refreshed, DataError> {
        let previous = self.recorded(owner, &source.file)?;
        let published = source.sha256.is_some();
        let expected = match (&source.sha256, &previous) {
            (Some(sha), _) => Some(Expected::Published(sha.clone())),
            (None, Some(sha)) if !refresh => Some(Expected::Recorded(sha.clone())),
            (None, _) => None,
        };
        let resolved = self.resolve_with(owner, source, expected)?;
        Ok(Refreshed {
            resolved,
            previous,
            published,
            lock: self.lock_path(owner),
            key: lock_key(owner.name, &source.file),
        })
    }

    /// Finds and verifies one source file declared by `owner` (a corpus recipe or a word-list
    /// declaration): same order and checks as [`Resolver::resolve`].
    pub fn resolve_declared(
        &mut self,
        owner: &Owner<'_>,
        source: &SourceSpec,
    ) -> Result<ResolvedFile, DataError> {
        let expected = match &source.sha256 {
            Some(sha) => Some(Expected::Published(sha.clone())),
            None => self.recorded(owner, &source.file)?.map(Expected::Recorded),
        };
        self.resolve_with(owner, source, expected)
    }

    /// Finds `source` of `owner` and verifies it against `expected`, if any; without, its
    /// checksum is learnt.
    fn resolve_with(
        &mut self,
        owner: &Owner<'_>,
        source: &SourceSpec,
        expected: Option<Expected>,
    ) -> Result<ResolvedFile, DataError> {
        let recipe = owner;
        let mut looked = Vec::new();

        if let Some(path) = &source.path {
            let path = recipe.file.parent().unwrap_or(Path::new(".")).join(path);
            if !path.is_file() {
                let what = if path.is_dir() {
                    "a folder, not a file"
                } else {
                    "no such file"
                };
                looked.push(format!(
                    "    - explicit path {} (the recipe's `path`): {what}",
                    path.display()
                ));
                return Err(not_found(recipe, source, looked));
            }
            return self.accept(recipe, source, path, expected.as_ref(), Origin::ExplicitPath);
        }
        looked.push("    - explicit path: none given (`path` in the recipe)".to_owned());

        match &self.mirror {
            None => looked.push("    - mirror folder: RETEST_DATA_DIR is not set".to_owned()),
            Some(mirror) if !mirror.is_dir() => looked.push(format!(
                "    - mirror folder {} (RETEST_DATA_DIR): {}",
                mirror.display(),
                if mirror.exists() {
                    "not a folder"
                } else {
                    "no such folder"
                }
            )),
            Some(mirror) => {
                let candidates = find_by_name(mirror, &source.file);
                if candidates.is_empty() {
                    looked.push(format!(
                        "    - mirror folder {}: no file named `{}`",
                        mirror.display(),
                        source.file
                    ));
                }
                let mut mismatch = None;
                for candidate in candidates {
                    let found = sha256_file(&candidate)?;
                    match &expected {
                        Some(want) if want.sha256() != found => {
                            if mismatch.is_none() {
                                mismatch = Some(self.mismatch(recipe, candidate, want, found));
                            }
                        }
                        _ => {
                            return self.verified(
                                recipe,
                                source,
                                candidate,
                                found,
                                expected.is_none(),
                                Origin::Mirror,
                            );
                        }
                    }
                }
                if let Some(error) = mismatch {
                    return Err(error);
                }
            }
        }

        let cached = self.cache.join(recipe.name).join(&source.file);
        if cached.is_file() {
            return self.accept(recipe, source, cached, expected.as_ref(), Origin::Cache);
        }
        looked.push(format!(
            "    - download cache {}: not there yet",
            cached.display()
        ));

        match &source.url {
            Some(_) if self.offline => {
                looked.push("    - download: disabled (RETEST_OFFLINE is set)".to_owned());
                Err(not_found(recipe, source, looked))
            }
            Some(url) => {
                let found = download(recipe, url, &cached)?;
                if let Some(want) = &expected
                    && want.sha256() != found
                {
                    let bad = cached.with_extension("rejected");
                    let _ = std::fs::rename(&cached, &bad);
                    return Err(self.mismatch(recipe, bad, want, found));
                }
                self.verified(
                    recipe,
                    source,
                    cached,
                    found,
                    expected.is_none(),
                    Origin::Download,
                )
            }
            None => {
                looked.push("    - download: the recipe gives no `url`".to_owned());
                Err(not_found(recipe, source, looked))
            }
        }
    }

    fn accept(
        &mut self,
        recipe: &Owner<'_>,
        source: &SourceSpec,
        path: PathBuf,
        expected: Option<&Expected>,
        origin: Origin,
    ) -> Result<ResolvedFile, DataError> {
        let found = sha256_file(&path)?;
        if let Some(want) = expected
            && want.sha256() != found
        {
            return Err(self.mismatch(recipe, path, want, found));
        }
        self.verified(recipe, source, path, found, expected.is_none(), origin)
    }

    /// The error for `path` whose SHA-256 `found` is not the `expected` one: a recorded
    /// checksum names the lock file and the command that records the file as it is now.
    fn mismatch(&self, recipe: &Owner<'_>, path: PathBuf, expected: &Expected, found: String) -> DataError {
        match expected {
            Expected::Published(sha) => DataError::ChecksumMismatch {
                path,
                expected: sha.clone(),
                found,
            },
            Expected::Recorded(sha) => DataError::RecordedChecksumMismatch {
                path,
                expected: sha.clone(),
                found,
                lock: self.lock_path(recipe),
                refresh: refresh_command(recipe.file),
            },
        }
    }

    fn verified(
        &mut self,
        recipe: &Owner<'_>,
        source: &SourceSpec,
        path: PathBuf,
        sha256: String,
        learn: bool,
        origin: Origin,
    ) -> Result<ResolvedFile, DataError> {
        if learn {
            self.learnt
                .retain(|l| (l.owner.as_str(), l.file.as_str()) != (recipe.name, &source.file));
            self.learnt.push(LearntChecksum {
                owner: recipe.name.to_owned(),
                file: source.file.clone(),
                sha256: sha256.clone(),
                lock: self.lock_path(recipe),
            });
        }
        Ok(ResolvedFile {
            file: source.file.clone(),
            path,
            sha256,
            origin,
        })
    }
}

/// The command that records the files `declaring` names as they are now, its path quoted for a
/// shell when it needs to be.
fn refresh_command(declaring: &Path) -> String {
    let path = declaring.display().to_string();
    let plain = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@".contains(&b));
    if plain {
        format!("retest lock --refresh {path}")
    } else {
        format!("retest lock --refresh '{}'", path.replace('\'', "'\\''"))
    }
}

fn not_found(recipe: &Owner<'_>, source: &SourceSpec, looked: Vec<String>) -> DataError {
    DataError::NotFound {
        owner: recipe.describe(),
        file: source.file.clone(),
        looked: looked.join("\n"),
        hint: format!(
            "to provide it, put `{}` in a folder named by RETEST_DATA_DIR, or set `path:` for it in {}",
            source.file,
            recipe.file.display()
        ),
    }
}

/// Files named `name` anywhere below `dir`, in sorted path order.
fn find_by_name(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if entry.file_name() == name {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Downloads `url` to `dest` (atomically: `retest_fs::write_atomic_with`) and returns its SHA-256.
fn download(recipe: &Owner<'_>, url: &str, dest: &Path) -> Result<String, DataError> {
    let failed = |message: String| DataError::Download {
        owner: recipe.describe(),
        url: url.to_owned(),
        message,
    };
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir).map_err(DataError::io(dir))?;
    }
    let response = ureq::get(url).call().map_err(|e| failed(e.to_string()))?;
    let body = response.into_body();
    let bar = bytes_bar(body.content_length(), format!("download {}", dest.display()));
    let mut reader = body.into_reader();
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    retest_fs::write_atomic_with(dest, |file| {
        loop {
            let n = reader.read(&mut buffer).map_err(|e| failed(e.to_string()))?;
            if n == 0 {
                return Ok::<(), DataError>(());
            }
            hasher.update(&buffer[..n]);
            file.write_all(&buffer[..n]).map_err(DataError::io(dest))?;
            bar.inc(n as u64);
        }
    })?;
    bar.finish_and_clear();
    Ok(hex::encode(hasher.finalize()))
}
