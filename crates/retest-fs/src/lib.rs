//! Atomic, durable file output: a file with its final name is complete.
//!
//! [`write_atomic_with`] writes to a temporary file in the target's folder (`.<name>.XXXXXX.tmp`),
//! flushes and fsyncs it, renames it over the target and then fsyncs the folder (on Unix), so
//! that neither a failed write nor a crash leaves a partial file under the final name, and a
//! finished write survives a power cut. A failed write removes its temporary. [`publish_dir`] is
//! the same move for a folder of files. A process killed mid-write cannot remove its temporary;
//! [`temporary_target`] recognises one by its name, for whoever may remove it safely.
//!
//! **Permissions.** Every file and folder retest publishes gets the permissions a new file or
//! folder gets from the process umask, as [`File::create`] and `mkdir` give them: a file
//! `0666` less the umask (`0644` under the usual umask `022`), a folder `0777` less the umask
//! (`0755`). [`write_atomic_with`] creates its temporary with mode `0666` (`tempfile` would make
//! it `0600`), and the folders handed to [`publish_dir`] are made by `tempfile::Builder` or
//! `create_dir_all`, which create them with `0777`; no writer sets modes of its own.

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Buffer size of the writer handed to [`write_atomic_with`]'s closure.
const BUFFER: usize = 1 << 20;

/// A failed atomic write or folder rename, naming the final path.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}", path.display())]
pub struct WriteError {
    /// The final path (never the temporary).
    pub path: PathBuf,
    /// What the operating system reported.
    #[source]
    pub source: std::io::Error,
}

impl WriteError {
    fn at(path: &Path) -> impl FnOnce(std::io::Error) -> WriteError {
        let path = path.to_owned();
        move |source| WriteError { path, source }
    }
}

/// For an error enum with a variant `Io { path: PathBuf, source: std::io::Error }` (the file at
/// fault and what the operating system reported): `From<WriteError>`, a failed write becoming
/// `Io` at its final path, and, given `io` after the type, the crate-private constructor
/// `fn io(path) -> impl FnOnce(std::io::Error) -> Self` for `map_err` on an operation on `path`.
#[macro_export]
macro_rules! io_variant {
    ($error:ident) => {
        impl From<$crate::WriteError> for $error {
            fn from(e: $crate::WriteError) -> $error {
                $error::Io {
                    path: e.path,
                    source: e.source,
                }
            }
        }
    };
    ($error:ident, io) => {
        $crate::io_variant!($error);

        impl $error {
            pub(crate) fn io(path: impl Into<std::path::PathBuf>) -> impl FnOnce(std::io::Error) -> $error {
                let path = path.into();
                move |source| $error::Io { path, source }
            }
        }
    };
}

/// Writes `bytes` to `path` atomically (see [`write_atomic_with`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_atomic_with(path, |w| w.write_all(bytes).map_err(WriteError::at(path)))
}

/// Runs `write` on a buffered temporary file in `path`'s folder, then flushes it, fsyncs it,
/// renames it to `path` (replacing a file there) and fsyncs the folder. The folder must exist.
///
/// An error of `write` is returned as it is; the file system's own errors become
/// [`WriteError`]s naming `path`. On any error the temporary is removed and `path` is left as
/// it was.
pub fn write_atomic_with<E>(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), E>,
) -> Result<(), E>
where
    E: From<WriteError>,
{
    let dir = parent(path);
    let name = path.file_name().ok_or_else(|| WriteError {
        path: path.to_owned(),
        source: std::io::Error::new(ErrorKind::InvalidInput, "the path names no file"),
    })?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp").rand_bytes(RANDOM_LEN);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let (file, temporary) = builder
        .tempfile_in(dir)
        .map_err(WriteError::at(path))?
        .into_parts();
    // From here on, dropping `temporary` (on any early return) deletes the file.
    let mut writer = BufWriter::with_capacity(BUFFER, file);
    write(&mut writer)?;
    let file = writer
        .into_inner()
        .map_err(|e| WriteError::at(path)(e.into_error()))?;
    file.sync_all().map_err(WriteError::at(path))?;
    drop(file);
    temporary
        .persist(path)
        .map_err(|e| WriteError::at(path)(e.error))?;
    sync_dir(dir).map_err(WriteError::at(path))?;
    Ok(())
}

/// The name of the file a temporary of [`write_atomic_with`] was to become, if `name` is one:
/// `.<target>.XXXXXX.tmp`, six ASCII letters or digits chosen at random, exactly as the writer
/// names them. Any other name gives `None`, so a caller removing temporaries by this test
/// removes nothing a user made.
pub fn temporary_target(name: &str) -> Option<&str> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (target, random) = rest.rsplit_once('.')?;
    let random_ok = random.len() == RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric());
    (random_ok && !target.is_empty()).then_some(target)
}

/// Removes the temporaries that writes of `path` killed mid-way left beside it (the names
/// [`temporary_target`] maps to `path`'s file name). Best effort: what cannot be removed stays.
/// Call it only where no other process may be writing `path` at the same time, as a running
/// write's temporary has the same form.
pub fn remove_temporaries_of(path: &Path) {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(parent(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        let entry_name = entry.file_name();
        if is_file && entry_name.to_str().and_then(temporary_target) == Some(name) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Length of the random part of a temporary's name (`tempfile`'s default).
const RANDOM_LEN: usize = 6;

/// Renames the folder `from` to `to` and fsyncs `from` before and `to`'s parent after, so the
/// folder appears under its final name complete and the rename is durable.
///
/// The files inside `from` must already be synced (as [`File::sync_all`] does); `to` must not
/// exist or be an empty folder. Errors name `to`.
pub fn publish_dir(from: &Path, to: &Path) -> Result<(), WriteError> {
    sync_dir(from).map_err(WriteError::at(to))?;
    std::fs::rename(from, to).map_err(WriteError::at(to))?;
    sync_dir(parent(to)).map_err(WriteError::at(to))
}

/// The folder of `path`: its parent, or `.` for a bare file name.
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Fsyncs a folder so that the entries created or renamed in it are durable. A file system
/// that cannot fsync folders (it answers "invalid input" or "unsupported") is not an error;
/// other platforms than Unix have no folder handles to sync.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        match File::open(dir)?.sync_all() {
            Err(e) if matches!(e.kind(), ErrorKind::InvalidInput | ErrorKind::Unsupported) => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
