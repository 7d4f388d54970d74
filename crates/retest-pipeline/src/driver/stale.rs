//! Temporaries that a run killed mid-write (kill -9, Ctrl-C, SIGTERM: retest installs no signal
//! handler, so none of them lets it clean up) leaves behind, found by the exact names their
//! writers give them and removed by the next run that can tell no process is still writing them.
//!
//! * In `results/corpora/`, shared by every pipeline: preparations' and countings' temporaries,
//!   removed by the first process to take the corpora lock while no other holds it
//!   ([`crate::CorporaLock`]).
//! * In `results/<pipeline>/`, written only by the run holding that pipeline's run lock:
//!   measurement folders (`measure/<corpus>/.measure-XXXXXX/`) and the temporaries of the
//!   tables, the report and the manifest, removed once the lock is taken ([`run_temporaries`]).
//! * In `results/embeddings/`, shared by every pipeline and written by Slurm training tasks
//!   without any lock: each embedding's and timing's own writer removes its earlier temporaries.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::driver::layout::Layout;

/// The temporaries in `layout`'s run folder that a killed run left, sorted: measurement folders
/// (`crate::stages::job::is_temporary_name`) in each corpus's measure folder, `retest_fs` temporaries
/// in `tables/` and `report/`, and the manifest's. Removing them is safe only under the run lock.
pub(crate) fn run_temporaries(layout: &Layout) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for corpus_dir in entries(&layout.run.join("measure")) {
        if corpus_dir.is_dir {
            found.extend(
                entries(&corpus_dir.path)
                    .into_iter()
                    .filter(|e| e.is_dir && crate::stages::job::is_temporary_name(&e.name))
                    .map(|e| e.path),
            );
        }
    }
    for dir in [layout.tables(), layout.report()] {
        found.extend(
            entries(&dir)
                .into_iter()
                .filter(|e| e.is_file && retest_fs::temporary_target(&e.name).is_some())
                .map(|e| e.path),
        );
    }
    let manifest = layout.manifest();
    let manifest_name = manifest.file_name().and_then(|n| n.to_str());
    found.extend(
        entries(&layout.run)
            .into_iter()
            .filter(|e| e.is_file && retest_fs::temporary_target(&e.name) == manifest_name)
            .map(|e| e.path),
    );
    found.sort();
    found
}

/// Removes the temporaries `stale` found in `place`, folders with their content; prints one line
/// on stderr saying how many, and one per temporary that cannot be removed (it is left).
pub(crate) fn remove(stale: &[PathBuf], place: &Path) -> Result<()> {
    let mut removed = 0;
    let mut err = std::io::stderr().lock();
    for path in stale {
        let result = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
            Ok(_) => std::fs::remove_file(path),
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => removed += 1,
            Err(e) => writeln!(
                err,
                "warning: cannot remove {}, left by an interrupted run: {e}",
                path.display()
            )?,
        }
    }
    if removed > 0 {
        writeln!(
            err,
            "removed {removed} temporar{} left in {} by interrupted runs",
            if removed == 1 { "y" } else { "ies" },
            place.display()
        )?;
    }
    Ok(())
}

/// One entry of a folder, its kind read without following a symbolic link.
struct Entry {
    path: PathBuf,
    name: String,
    is_dir: bool,
    is_file: bool,
}

/// The entries of `dir` with a UTF-8 name; none if it cannot be read.
fn entries(dir: &Path) -> Vec<Entry> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    read.flatten()
        .filter_map(|entry| {
            let kind = entry.file_type().ok()?;
            Some(Entry {
                path: entry.path(),
                name: entry.file_name().into_string().ok()?,
                is_dir: kind.is_dir(),
                is_file: kind.is_file(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_temporaries_are_the_writers_names_only() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("p");
        let measure = run.join("measure/demo");
        std::fs::create_dir_all(measure.join(".measure-aB3xY9")).unwrap();
        std::fs::write(
            measure.join(".measure-aB3xY9/.coverage.parquet.Zz9Zz9.tmp"),
            "half",
        )
        .unwrap();
        std::fs::create_dir_all(measure.join("sgns-0123456789ab")).unwrap();
        std::fs::create_dir_all(measure.join(".measure-notes")).unwrap();
        std::fs::create_dir_all(run.join("tables")).unwrap();
        std::fs::create_dir_all(run.join("report")).unwrap();
        for file in [
            "tables/.coverage.csv.Q1w2E3.tmp",
            "tables/coverage.csv",
            "tables/.notes.tmp",
            "report/.index.html.K8j7H6.tmp",
            ".manifest.json.P0o9I8.tmp",
            ".notes.json.P0o9I8.tmp",
        ] {
            std::fs::write(run.join(file), "x").unwrap();
        }
        let plan_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pipelines/smoke.yaml");
        let recipes = retest_spec::RecipeFolder {
            dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora"),
        };
        let mut plan = retest_spec::Plan::load(&plan_file, &recipes).unwrap();
        plan.name = "p".to_owned();
        let layout = Layout::new(dir.path(), &plan);
        assert_eq!(
            run_temporaries(&layout),
            [
                run.join(".manifest.json.P0o9I8.tmp"),
                run.join("measure/demo/.measure-aB3xY9"),
                run.join("report/.index.html.K8j7H6.tmp"),
                run.join("tables/.coverage.csv.Q1w2E3.tmp"),
            ]
        );
    }
}
