//! One run at a time per results folder.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

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
        std::fs::create_dir_all(run).with_context(|| format!("cannot create {}", run.display()))?;
        let path = run.join(".lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(RunLock { _file: file, path }),
            Err(TryLockError::WouldBlock) => bail!(
                "{} is in use by another retest run (it holds {}); wait for it to finish",
                run.display(),
                path.display()
            ),
            Err(TryLockError::Error(e)) => Err(e).with_context(|| format!("cannot lock {}", path.display())),
        }
    }
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
        drop(first);
        RunLock::acquire(&run).expect("the lock is free once its holder is gone");
    }
}
