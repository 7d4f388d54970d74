//! A second run kept apart, interrupted and resumed, redoes no finished job and gives the shared
//! run's tables and report byte for byte; a rerun of the finished shared run does nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{
    command, fifu_files, files, names_ending, retest, run_smoke, smoke_run, smoke_run_alone, stderr,
};

/// A second run: interrupted (SIGINT, as Ctrl-C; retest installs no handler, so it ends the
/// process as SIGKILL does) once it has trained a seed, resumed and killed (SIGKILL) once it has
/// trained another, then resumed to the end. No finished embedding is rewritten by a later run,
/// no temporary is left, and the tables and report equal the shared run's.
#[test]
fn an_interrupted_run_resumes_without_redoing_jobs_and_gives_the_same_bytes() {
    // The shared run is read only at the end, so that the other tests go on meanwhile.
    let b = smoke_run().root.join("b");
    let embeddings = b.join("embeddings");
    let first = interrupt_after(&b, 1, "-INT");
    assert!(
        (1..6).contains(&first.len()),
        "interrupted during training: {first:?}"
    );
    let stamps = stamps_of(&embeddings, &first);
    let second = interrupt_after(&b, first.len() + 1, "-KILL");
    assert!(second.len() > first.len(), "{second:?}");
    assert_eq!(
        stamps_of(&embeddings, &first),
        stamps,
        "the resumed run rewrote a finished seed"
    );
    // Every file with a final name is complete: it loads.
    for path in &second {
        retest_embeddings_loads(&embeddings.join(path));
    }
    let stamps = stamps_of(&embeddings, &second);
    let log = run_smoke(&b, &[]);
    assert!(
        log.contains(&format!("{} training jobs already done, skipped", second.len())),
        "the resumed run should skip the {} finished seeds:\n{log}",
        second.len()
    );
    assert_eq!(
        stamps_of(&embeddings, &second),
        stamps,
        "the last run rewrote a finished seed"
    );
    let leftovers = names_ending(&b, ".tmp");
    assert!(leftovers.is_empty(), "temporaries left behind: {leftovers:?}");
    let tables_b = files(&b.join("smoke/tables"));
    let run = smoke_run();
    assert_eq!(run.tables.len(), tables_b.len());
    for ((pa, xa), (pb, xb)) in run.tables.iter().zip(&tables_b) {
        assert_eq!(pa, pb);
        assert!(xa == xb, "{} differs between two runs", pa.display());
    }
    assert!(
        files(&b.join("smoke/report")) == run.report,
        "the report differs between two runs"
    );
}

/// A finished pipeline reruns nothing and rewrites the same tables.
#[test]
fn a_finished_pipeline_reruns_nothing() {
    let run = smoke_run_alone();
    let log = run_smoke(&run.results, &[]);
    assert!(log.contains("training jobs already done, skipped"), "{log}");
    assert!(log.contains("already done"), "{log}");
    assert_eq!(files(&run.tables_dir()), run.tables);
}

/// Starts `retest run smoke --jobs 1` in `results`, waits until at least `n` embeddings exist,
/// sends it `signal` (with kill(1)) and returns the embeddings that exist once it has stopped.
fn interrupt_after(results: &Path, n: usize, signal: &str) -> Vec<PathBuf> {
    let embeddings = results.join("embeddings");
    let mut child = retest(results)
        .args(["run", "smoke", "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while fifu_files(&embeddings).len() < n {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be interrupted"
        );
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "fewer than {n} embeddings after 300 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} failed");
    let exit = child.wait().unwrap();
    assert!(
        !exit.success(),
        "the run was stopped by {signal}, not finished: {exit:?}"
    );
    fifu_files(&embeddings)
}

/// (inode, modification time) of each file: unchanged when nothing rewrote it.
fn stamps_of(dir: &Path, files: &[PathBuf]) -> Vec<(u64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    files
        .iter()
        .map(|f| {
            let m = std::fs::metadata(dir.join(f)).unwrap();
            (m.ino(), m.mtime(), m.mtime_nsec())
        })
        .collect()
}

fn retest_embeddings_loads(path: &Path) {
    let out = command().args(["embeddings", "info"]).arg(path).output().unwrap();
    assert!(
        out.status.success(),
        "{} does not load: {}",
        path.display(),
        stderr(&out)
    );
}
