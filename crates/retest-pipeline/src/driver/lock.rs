//! One run at a time per results folder, and the shared use of the prepared corpora.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// How long [`RunLock::acquire`] waits out a lock held by a probe of [`RunLock::holder`].
const PROBE_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// An exclusive lock on `results/<pipeline>/.lock`, held until dropped. The operating system
/// releases it when the process ends, however it ends, so a killed run never leaves a stale
/// lock behind.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
    pub path: PathBuf,
}

impl RunLock {
    /// Takes the lock of the run folder `run`, creating the folder if needed.
    ///
    /// # Errors
    ///
    /// Another process holds the lock, or the lock file cannot be created.
    pub fn acquire(run: &Path) -> Result<RunLock> {
        let (file, path) = open_lock_file(run, ".lock")?;
        // `retest status` holds the lock shared for an instant ([`RunLock::holder`]): a lock
        // still held after `PROBE_GRACE` is another run's.
        let deadline = std::time::Instant::now() + PROBE_GRACE;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(RunLock { _file: file, path }),
                Err(TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(TryLockError::WouldBlock) => bail!(
                    "{} is in use by another retest run (it holds {}); wait for it to finish",
                    run.display(),
                    path.display()
                ),
                Err(TryLockError::Error(e)) => {
                    return Err(e).with_context(|| format!("cannot lock {}", path.display()));
                }
            }
        }
    }
}

impl RunLock {
    /// The lock file of run folder `run` when another process holds it (a run in progress),
    /// checked without creating anything; `None` when no process does.
    pub fn holder(run: &Path) -> Option<PathBuf> {
        let path = run.join(".lock");
        let file = File::open(&path).ok()?;
        // The lock taken here, if any, is released when `file` closes.
        matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock)).then_some(path)
    }
}

/// A shared lock on `results/corpora/.prepare.lock`, held by every process that may prepare a
/// corpus or count co-occurrences there, for as long as it may.
///
/// The prepared corpora are shared by every pipeline of a results folder, so the run lock (one
/// per pipeline) does not keep two processes from writing there at once: `retest run` of two
/// pipelines, `retest prepare` and `retest corpus prepare` may. Each holds this lock shared
/// while it works. A temporary of a preparation or a counting is therefore stale exactly when
/// no process holds the lock: a process that can take it exclusively is alone, and removes the
/// temporaries killed processes left (see [`CorporaLock::acquire`]); one that cannot leaves them
/// for a later run, since they may be another's work in progress. The operating system releases
/// the lock when its holder ends, however it ends.
#[derive(Debug)]
pub struct CorporaLock {
    _file: File,
}

/// The lock file in `results/corpora/` (not `.lock`, the name of a run lock, so that a run
/// folder and the corpora folder never share one).
const CORPORA_LOCK: &str = ".prepare.lock";

impl CorporaLock {
    /// Takes the lock of the corpora folder `corpora` shared, creating the folder if needed.
    /// When no other process holds it, it first takes it exclusively and removes the stale
    /// temporaries of preparations and countings (one line on stderr says how many), then
    /// shares it. Waits only while another process removes temporaries.
    ///
    /// # Errors
    ///
    /// The folder or the lock file cannot be created, or the lock cannot be taken.
    pub fn acquire(corpora: &Path) -> Result<CorporaLock> {
        let (file, path) = open_lock_file(corpora, CORPORA_LOCK)?;
        let cannot_lock = || format!("cannot lock {}", path.display());
        match file.try_lock() {
            Ok(()) => {
                remove_stale_temporaries(corpora)?;
                // Releasing before sharing lets another process clean in between, which is
                // harmless: this one has written nothing yet.
                file.unlock().with_context(cannot_lock)?;
            }
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(e).with_context(cannot_lock),
        }
        file.lock_shared().with_context(cannot_lock)?;
        Ok(CorporaLock { _file: file })
    }
}

/// The lock file `name` in `folder` and its path, opened for writing without truncating it; the
/// folder and the file are created if needed.
fn open_lock_file(folder: &Path, name: &str) -> Result<(File, PathBuf)> {
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let path = folder.join(name);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    Ok((file, path))
}

/// Removes what preparations (`retest_data::stale_preparations`) and countings
/// (`cooccurrence::stale_temporaries`) killed mid-way left in `corpora`. The caller holds the
/// corpora lock exclusively.
fn remove_stale_temporaries(corpora: &Path) -> Result<()> {
    let mut stale = retest_data::stale_preparations(corpora);
    for dir in retest_data::prepared_dirs(corpora) {
        stale.extend(crate::driver::cooccurrence::stale_temporaries(&dir));
    }
    crate::driver::stale::remove(&stale, corpora)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("p");
        let first = RunLock::acquire(&run).unwrap();
        let refused = RunLock::acquire(&run).unwrap_err().to_string();
        assert_eq!(
            refused,
            format!(
                "{} is in use by another retest run (it holds {}); wait for it to finish",
                run.display(),
                run.join(".lock").display()
            )
        );
        assert_eq!(RunLock::holder(&run), Some(run.join(".lock")));
        drop(first);
        assert_eq!(RunLock::holder(&run), None);
        assert_eq!(RunLock::holder(&dir.path().join("never-run")), None);
        RunLock::acquire(&run).expect("the lock is free once its holder is gone");
    }

    /// The temporaries killed preparations and countings left, in the corpora folder and in a
    /// prepared corpus's folder, with a user's file of a similar name beside them.
    fn leave_temporaries(corpora: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let prepared = corpora.join("demo-0123456789abcdef");
        std::fs::create_dir_all(prepared.join(".spill-aB3xY9")).unwrap();
        std::fs::create_dir_all(corpora.join(".tmp-demo-Q1w2E3")).unwrap();
        std::fs::write(corpora.join(".tmp-demo-Q1w2E3/corpus.bin"), "half").unwrap();
        std::fs::write(prepared.join(".cooccurrence-window5.bin.Zz9Zz9.tmp"), "half").unwrap();
        std::fs::write(prepared.join(".tmpK8j7H6"), "half").unwrap();
        let stale = vec![
            corpora.join(".tmp-demo-Q1w2E3"),
            prepared.join(".spill-aB3xY9"),
            prepared.join(".cooccurrence-window5.bin.Zz9Zz9.tmp"),
            prepared.join(".tmpK8j7H6"),
        ];
        let kept = vec![
            corpora.join(".tmp-demo-notes.txt"),
            prepared.join("cooccurrence-window5.bin"),
            prepared.join(".spill-notes"),
        ];
        for path in &kept {
            std::fs::write(path, "mine").unwrap();
        }
        (stale, kept)
    }

    #[test]
    fn the_first_holder_removes_stale_temporaries_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let corpora = dir.path().join("corpora");
        let (stale, kept) = leave_temporaries(&corpora);
        let lock = CorporaLock::acquire(&corpora).unwrap();
        for path in &stale {
            assert!(!path.exists(), "{} is left", path.display());
        }
        for path in &kept {
            assert!(path.exists(), "{} was removed", path.display());
        }
        drop(lock);
    }

    /// While another process may be writing (it holds the lock), temporaries are left alone,
    /// and the lock is still shared at once; the first holder after both removes them.
    #[test]
    fn temporaries_are_kept_while_another_holder_works() {
        let dir = tempfile::tempdir().unwrap();
        let corpora = dir.path().join("corpora");
        let working = CorporaLock::acquire(&corpora).unwrap();
        let (stale, _) = leave_temporaries(&corpora);
        let second = CorporaLock::acquire(&corpora).unwrap();
        for path in &stale {
            assert!(path.exists(), "{} of a running job was removed", path.display());
        }
        drop((working, second));
        let _third = CorporaLock::acquire(&corpora).unwrap();
        for path in &stale {
            assert!(!path.exists(), "{} is left", path.display());
        }
    }
}
