//! `retest run smoke` end to end on a real corpus (WikiText-103 valid), one focused test per
//! claim over one shared run: the run writes every table, the report and the manifest; its
//! tables have the study's shape and hold what the single-purpose commands (`retest score`,
//! `weat`, `direct-bias`, `analogies`, `base-pairs`) give on its own seeds; the regression input
//! fits in R; a second run, interrupted and resumed, redoes no finished job and gives
//! byte-identical tables and report; and a rerun of a finished pipeline does nothing.
//!
//! The shared run is made once per test binary, by the first test that asks for it, in
//! `target/tmp/smoke-<process id>/` (kept after the tests, to look at; the folders of processes
//! that have ended are removed by the next run).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{OnceLock, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

mod analogies;
mod base_pairs;
mod csv;
mod debias;
mod models;
mod multilevel;
mod outputs;
mod residual;
mod resume;
mod score;
mod set_level;
mod shape;
mod subspace;
mod validity;

/// The first run of the smoke pipeline, and its tables and report as it left them.
struct SmokeRun {
    /// The folder of this test binary's runs.
    root: PathBuf,
    /// The results folder of the run (`RETEST_RESULTS_DIR`).
    results: PathBuf,
    /// What the run said on stderr.
    log: String,
    /// Every file under `smoke/tables`, relative path → bytes.
    tables: Vec<(PathBuf, Vec<u8>)>,
    /// Every file under `smoke/report`, relative path → bytes.
    report: Vec<(PathBuf, Vec<u8>)>,
}

impl SmokeRun {
    fn start() -> SmokeRun {
        let root = fresh_root();
        let results = root.join("a");
        let log = run_smoke(&results, &[]);
        let tables = files(&results.join("smoke/tables"));
        let report = files(&results.join("smoke/report"));
        SmokeRun {
            root,
            results,
            log,
            tables,
            report,
        }
    }

    /// The run's `smoke/tables` folder.
    fn tables_dir(&self) -> PathBuf {
        self.results.join("smoke/tables")
    }

    /// A folder of the results folder for a test's own files, created empty.
    fn work_dir(&self, name: &str) -> PathBuf {
        let dir = self.results.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

/// The shared run, or why it failed (then every test that needs it fails with that reason).
static SHARED: OnceLock<Result<RwLock<SmokeRun>, String>> = OnceLock::new();

fn shared() -> &'static RwLock<SmokeRun> {
    let run = SHARED.get_or_init(|| {
        std::panic::catch_unwind(SmokeRun::start)
            .map(RwLock::new)
            .map_err(|payload| {
                (payload.downcast_ref::<String>().cloned())
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default()
            })
    });
    run.as_ref()
        .unwrap_or_else(|reason| panic!("the shared smoke run failed: {reason}"))
}

/// The shared run, to read; made by the first caller.
fn smoke_run() -> RwLockReadGuard<'static, SmokeRun> {
    shared().read().unwrap_or_else(PoisonError::into_inner)
}

/// The shared run, for a test that runs the pipeline again in it while no other test reads it.
fn smoke_run_alone() -> RwLockWriteGuard<'static, SmokeRun> {
    shared().write().unwrap_or_else(PoisonError::into_inner)
}

/// `target/tmp/smoke-<process id>/`, created empty; the folders of ended processes are removed.
fn fresh_root() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for entry in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ended = name
            .strip_prefix("smoke-")
            .and_then(|pid| pid.parse::<u32>().ok())
            .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
        if ended {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let root = tmp.join(format!("smoke-{}", std::process::id()));
    if root.exists() {
        std::fs::remove_dir_all(&root).unwrap();
    }
    std::fs::create_dir_all(&root).unwrap();
    root
}

/// The `retest` binary, hermetic (the workspace as working folder, the data mirror, offline).
fn command() -> Command {
    retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
}

/// The `retest` binary with results (and the download cache) in `results`.
fn retest(results: &Path) -> Command {
    let mut cmd = command();
    cmd.env("RETEST_RESULTS_DIR", results)
        .env("RETEST_CACHE_DIR", results.join("cache"));
    cmd
}

/// `retest run smoke EXTRA` in `results`, which must succeed; what it said on stderr.
fn run_smoke(results: &Path, extra: &[&str]) -> String {
    let out = retest(results)
        .args(["run", "smoke"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "retest run smoke failed:\n{stderr}");
    stderr
}

/// Every file under `dir`, relative path → bytes, sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((
                    path.strip_prefix(dir).unwrap().to_owned(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// The names of the files under `dir` (relative, sorted) whose name ends in `suffix`, read while
/// a run may be renaming files there: entries that vanish are skipped.
fn names_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                out.push(path.strip_prefix(dir).unwrap().to_owned());
            }
        }
    }
    out.sort();
    out
}

/// The SGNS seed files of the smoke run in `results`, in seed order.
fn sgns_seeds(results: &Path) -> Vec<PathBuf> {
    let mut seeds: Vec<PathBuf> = fifu_files(&results.join("embeddings"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("/sgns-"))
        .map(|p| results.join("embeddings").join(p))
        .collect();
    seeds.sort();
    seeds
}

fn fifu_files(dir: &Path) -> Vec<PathBuf> {
    names_ending(dir, ".fifu")
}

/// What a command said on stderr.
fn stderr(output: &std::process::Output) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(&output.stderr)
}

/// Runs `command`, failing the test with its standard error unless it succeeds.
fn succeed(command: &mut Command) {
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}
