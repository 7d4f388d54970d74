//! Runs of the smoke pipeline stopped while they prepare the corpus, while they count its
//! co-occurrences and while they measure, by SIGKILL and by SIGINT (Ctrl-C; retest installs no
//! handler, so it ends the process as SIGKILL does): the stopped run leaves its temporaries, the
//! next run removes them, and after a run to the end no temporary is left anywhere under the
//! results folder. A preparation running beside a stopped one leaves the stopped one's
//! temporaries alone, and two pipelines preparing one corpus at once both finish with it whole.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The smoke pipeline's corpus, and its folder name's start under `results/corpora/`.
const CORPUS: &str = "wikitext-103-valid";

/// Attempts at stopping a run while a stage's temporary exists: the signal may land after the
/// stage finished (it takes tens of milliseconds for preparation), and then the test tries again.
const ATTEMPTS: usize = 20;

/// `retest` in the workspace with results (and the download cache) in `results`.
fn retest(results: &Path) -> Command {
    let mut cmd = retest_test_support::retest(env!("CARGO_BIN_EXE_retest"));
    cmd.env("RETEST_RESULTS_DIR", results)
        .env("RETEST_CACHE_DIR", results.join("cache"));
    cmd
}

fn start(results: &Path, args: &[&str]) -> Child {
    retest(results)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn finish(results: &Path, args: &[&str]) -> String {
    let Output { status, stderr, .. } = retest(results).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    assert!(status.success(), "retest {args:?} failed:\n{stderr}");
    stderr
}

fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} failed");
}

/// Waits until the kernel reports `child` stopped (state `T` in `/proc/<pid>/stat`).
fn wait_until_stopped(child: &Child) {
    let stat = format!("/proc/{}/stat", child.id());
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(&stat).unwrap();
        // The state follows the command name, which is in parentheses.
        let state = text.rsplit_once(") ").map(|(_, rest)| rest.chars().next());
        if state == Some(Some('T')) {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "not stopped: {text}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Every entry under `dir` (relative paths, sorted), read while a run may be renaming there.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(entry.path());
            }
            out.push(entry.path().strip_prefix(dir).unwrap().to_owned());
        }
    }
    out.sort();
    out
}

/// The temporaries under `dir`: every hidden entry but the two lock files (retest names every
/// temporary with a leading dot and nothing else so).
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    entries(dir)
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with('.') && name != ".lock" && name != ".prepare.lock"
        })
        .collect()
}

/// A preparation's temporary folder: `corpora/.tmp-<corpus>-XXXXXX`.
fn is_preparation(p: &Path) -> bool {
    p.parent() == Some(Path::new("corpora"))
        && p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(&format!(".tmp-{CORPUS}-")))
}

/// A counting's temporaries in the prepared corpus's folder: its spill folder and the table.
fn is_counting(p: &Path) -> bool {
    let name = p.file_name().unwrap().to_string_lossy();
    p.parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d.to_string_lossy().starts_with(&format!("{CORPUS}-")))
        && (name.starts_with(".spill-") || name.starts_with(".cooccurrence-window15.bin."))
}

/// A measure job's temporary folder: `smoke/measure/<corpus>/.measure-XXXXXX`.
fn is_measuring(p: &Path) -> bool {
    p.parent() == Some(&Path::new("smoke/measure").join(CORPUS))
        && p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".measure-"))
}

/// Starts `retest run smoke` in `results`, sends it `sig` as soon as a temporary that `stage`
/// picks exists, and returns the temporaries left once it has stopped; `None` when the run got
/// past the stage before the signal landed (`past` holds for the results folder, or the run
/// finished).
fn stop_during(
    results: &Path,
    sig: &str,
    stage: fn(&Path) -> bool,
    past: fn(&Path) -> bool,
) -> Option<Vec<PathBuf>> {
    let mut child = start(results, &["run", "smoke", "--jobs", "1"]);
    let started = Instant::now();
    loop {
        if entries(results).iter().any(|p| stage(p)) {
            break;
        }
        if let Some(exit) = child.try_wait().unwrap() {
            assert!(exit.success(), "the run failed: {exit:?}");
            return None;
        }
        if past(results) || started.elapsed() > Duration::from_secs(120) {
            // The stage went by between two looks.
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
    }
    signal(&child, sig);
    let exit = child.wait().unwrap();
    assert!(
        !exit.success(),
        "the run was stopped by {sig}, not finished: {exit:?}"
    );
    let left = temporaries(results);
    left.iter().any(|p| stage(p)).then_some(left)
}

/// A fresh results folder in `base` whose run was stopped by `sig` during preparation, with the
/// preparation's temporary left.
fn stopped_in_preparation(base: &Path, sig: &str) -> (PathBuf, Vec<PathBuf>) {
    for attempt in 0..ATTEMPTS {
        let results = base.join(format!("attempt-{attempt}"));
        if let Some(left) = stop_during(&results, sig, is_preparation, training_started) {
            return (results, left);
        }
    }
    panic!("no run stopped by {sig} during preparation in {ATTEMPTS} attempts");
}

/// [`stop_during`] on the results folder until a run is stopped during `stage` (`doing`: what
/// the stage does, for the message), at most `ATTEMPTS` times; `undo` removes what a run that
/// got past the stage finished, before the next attempt.
fn stopped_while(
    results: &Path,
    sig: &str,
    doing: &str,
    stage: fn(&Path) -> bool,
    past: fn(&Path) -> bool,
    undo: impl Fn(),
) -> Vec<PathBuf> {
    (0..ATTEMPTS)
        .find_map(|_| {
            let left = stop_during(results, sig, stage, past);
            if left.is_none() {
                undo();
            }
            left
        })
        .unwrap_or_else(|| panic!("no run stopped by {sig} while {doing} in {ATTEMPTS} attempts"))
}

fn stopped_and_resumed(sig: &str) {
    let base = tempfile::tempdir().unwrap();
    let (results, left) = stopped_in_preparation(base.path(), sig);
    assert!(
        left.iter().all(|p| is_preparation(p)),
        "stopped during preparation: {left:?}"
    );

    // The next run removes the preparation's temporary, prepares, and is stopped while it
    // counts (a finished count is removed and the run tried again).
    let counting = stopped_while(&results, sig, "counting", is_counting, training_started, || {
        for p in entries(&results) {
            if p.file_name().is_some_and(|n| n == "cooccurrence-window15.bin") {
                std::fs::remove_file(results.join(p)).unwrap();
            }
        }
    });
    assert!(
        counting.iter().all(|p| is_counting(p)),
        "the preparation's temporary is removed; the counting's are left: {counting:?}"
    );

    // The next run removes them, trains, and is stopped while it measures (finished
    // measurements are removed and the run tried again).
    let measuring = stopped_while(
        &results,
        sig,
        "measuring",
        is_measuring,
        aggregation_started,
        || {
            std::fs::remove_dir_all(results.join("smoke/measure")).unwrap();
        },
    );
    assert!(
        !measuring.is_empty() && measuring.iter().all(|p| p.starts_with(&measuring[0])),
        "the counting's temporaries are removed; one measure folder is left: {measuring:?}"
    );
    assert!(is_measuring(&measuring[0]), "{measuring:?}");

    // A run to the end removes it too and leaves none.
    let log = finish(&results, &["run", "smoke"]);
    let removed = format!(
        "removed 1 temporary left in {} by interrupted runs",
        results.join("smoke").display()
    );
    assert!(
        log.lines().any(|l| l == removed),
        "no line `{removed}` in:\n{log}"
    );
    assert_eq!(temporaries(&results), Vec::<PathBuf>::new());
}

/// Training has started: preparation and counting are over.
fn training_started(results: &Path) -> bool {
    results.join("embeddings").exists()
}

/// The tables are being aggregated: measurement is over.
fn aggregation_started(results: &Path) -> bool {
    results.join("smoke/tables").exists()
}

#[test]
fn a_run_killed_while_preparing_counting_or_measuring_leaves_no_temporary_behind() {
    stopped_and_resumed("-KILL");
}

#[test]
fn a_run_interrupted_while_preparing_counting_or_measuring_leaves_no_temporary_behind() {
    stopped_and_resumed("-INT");
}

/// A run stopped (SIGSTOP) while it counts still holds the corpora folder: a preparation in
/// the same results folder leaves its temporaries alone, and the run, continued, finishes.
#[test]
fn a_concurrent_preparation_leaves_a_running_counts_temporaries_alone() {
    let base = tempfile::tempdir().unwrap();
    let results = base.path();
    finish(results, &["corpus", "prepare", CORPUS]);
    let mut child = start(results, &["prepare", "smoke"]);
    let started = Instant::now();
    while !entries(results).iter().any(|p| is_counting(p)) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the counting ended before it could be stopped"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no counting after 60 s"
        );
    }
    signal(&child, "-STOP");
    wait_until_stopped(&child);
    let live = temporaries(results);
    assert!(
        live.iter().any(|p| is_counting(p)),
        "stopped after the counting: {live:?}"
    );
    let log = finish(results, &["corpus", "prepare", CORPUS]);
    assert!(!log.contains("removed"), "{log}");
    let kept = temporaries(results);
    signal(&child, "-CONT");
    let exit = child.wait().unwrap();
    assert_eq!(kept, live, "a live temporary was removed");
    assert!(exit.success(), "the stopped counting failed: {exit:?}");
    assert_eq!(temporaries(results), Vec::<PathBuf>::new());
}

/// Two pipelines sharing one results folder, prepared at once (`retest prepare a & retest
/// prepare b`): both finish, and the corpus folder they share is whole, with the same bytes in
/// each of 20 rounds, and nothing else is left.
#[test]
fn two_pipelines_preparing_one_corpus_at_once_both_finish_with_the_same_folder() {
    let base = tempfile::tempdir().unwrap();
    for name in ["a", "b"] {
        let pipeline = format!(
            "name: {name}\nn_seeds: 2\ncorpora:\n  - recipe: {CORPUS}\nalgorithms: [glove]\n\
             glove: {{dim: 10, iterations: 1}}\nmeasures:\n  target_lists: [occ16]\n"
        );
        std::fs::write(base.path().join(format!("{name}.yaml")), pipeline).unwrap();
    }
    let mut first: Option<Vec<(PathBuf, Vec<u8>)>> = None;
    for round in 0..20 {
        let results = base.path().join(format!("results-{round}"));
        let children: Vec<Child> = ["a", "b"]
            .map(|name| {
                let pipeline = base.path().join(format!("{name}.yaml"));
                retest(&results)
                    .arg("prepare")
                    .arg(&pipeline)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .into();
        for child in children {
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "round {round}:\n{stderr}");
        }
        let corpora = results.join("corpora");
        // Beside the corpus folder, only the preparations' lock file.
        let files: Vec<(PathBuf, Vec<u8>)> = (entries(&corpora).into_iter())
            .filter(|p| corpora.join(p).is_file() && *p != Path::new(".prepare.lock"))
            .map(|p| (p.clone(), std::fs::read(corpora.join(&p)).unwrap()))
            .collect();
        let names: Vec<String> = files
            .iter()
            .map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "cooccurrence-window15.bin",
                "corpus.bin",
                "stats.json",
                "vocab.tsv"
            ],
            "round {round}"
        );
        match &first {
            None => first = Some(files),
            Some(first) => assert!(*first == files, "round {round}: other bytes"),
        }
    }
}
