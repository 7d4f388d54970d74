//! The checksum lock of sources whose recipe publishes no SHA-256: `retest corpus prepare`
//! keeps it beside the recipe (never in the current folder), records a checksum only once its
//! file was read, and a later mismatch says where the recorded checksum is and how to refresh it;
//! a declared file of one's own (a WEAT tests file's `sets`) has its lock beside the tests file
//! and is refreshed with `retest lock --refresh`.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_test_support::{arg, checked_stderr, data_dir, output};

const LOCK_HEADER: &str =
    "# SHA-256 of files whose recipe or declaration names none, recorded on first use (retest).\n";

/// `retest corpus prepare <recipe>` run in `cwd`, outputs in `results`.
fn prepare(cwd: &Path, recipe: &str, results: &Path) -> Output {
    output(
        retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
            .current_dir(cwd)
            .args(["--results", arg(results), "corpus", "prepare", recipe])
            .env("RETEST_CACHE_DIR", results.join("cache")),
    )
}

/// A folder `dir/study/recipes/` holding recipe `dump.yaml`: a Reddit dump at `path: dump.bz2`
/// without a checksum; returns the recipes folder.
fn recipes(dir: &Path) -> PathBuf {
    let recipes = dir.join("study/recipes");
    std::fs::create_dir_all(&recipes).unwrap();
    std::fs::write(
        recipes.join("dump.yaml"),
        "name: dump\nreader: {format: reddit}\nsources:\n  - {file: RC_2005-12.bz2, path: dump.bz2}\n",
    )
    .unwrap();
    recipes
}

#[test]
fn corpus_prepare_keeps_the_lock_beside_the_recipe() {
    let dir = tempfile::tempdir().unwrap();
    let recipes = recipes(dir.path());
    std::fs::copy(
        data_dir().join("reddit/pushshift_monthly/RC_2005-12.bz2"),
        recipes.join("dump.bz2"),
    )
    .unwrap();
    let cwd = dir.path().join("elsewhere");
    std::fs::create_dir(&cwd).unwrap();
    let out = prepare(&cwd, "../study/recipes/dump.yaml", &dir.path().join("results"));
    assert!(out.status.success(), "{}", checked_stderr(&out));
    let sha = sha256(&recipes.join("dump.bz2"));
    assert_eq!(
        std::fs::read_to_string(recipes.join("checksums.lock")).unwrap(),
        format!("{LOCK_HEADER}{sha}  dump/RC_2005-12.bz2\n")
    );
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "nothing is written into the current folder"
    );
}

/// A truncated copy fails and is not recorded, so the good copy that replaces it prepares;
/// once recorded, a different copy fails with one line naming the lock file and the command
/// that records the new copy.
#[test]
fn a_truncated_copy_is_never_locked_in_and_a_recorded_mismatch_says_how_to_refresh_it() {
    let dir = tempfile::tempdir().unwrap();
    let recipes = recipes(dir.path());
    let results = dir.path().join("results");
    let lock = recipes.join("checksums.lock");
    let source = recipes.join("dump.bz2");
    let good = std::fs::read(data_dir().join("reddit/pushshift_monthly/RC_2005-12.bz2")).unwrap();

    std::fs::write(&source, &good[..good.len() / 2]).unwrap();
    let out = prepare(dir.path(), "study/recipes/dump.yaml", &results);
    assert!(!out.status.success());
    assert!(!lock.exists(), "the truncated copy's checksum is recorded");

    std::fs::write(&source, &good).unwrap();
    let out = prepare(dir.path(), "study/recipes/dump.yaml", &results);
    assert!(out.status.success(), "{}", checked_stderr(&out));
    let recorded = sha256(&source);
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        format!("{LOCK_HEADER}{recorded}  dump/RC_2005-12.bz2\n")
    );

    let other = std::fs::read(data_dir().join("reddit/pushshift_monthly/RC_2006-01.bz2")).unwrap();
    std::fs::write(&source, other).unwrap();
    let found = sha256(&source);
    let out = prepare(dir.path(), "study/recipes/dump.yaml", &results);
    assert!(!out.status.success());
    let lock_shown = Path::new("./study/recipes/checksums.lock");
    assert_eq!(
        checked_stderr(&out),
        format!(
            "error: corpus `dump`: ./study/recipes/dump.bz2: checksum mismatch: expected sha256 \
             {recorded} (recorded in {lock} when the file was first used), found {found}: if the \
             file changed on purpose, run `retest lock --refresh ./study/recipes/dump.yaml`\n",
            lock = lock_shown.display()
        )
    );
}

/// The SHA-256 of `path`, in hex.
fn sha256(path: &Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}

/// `args` of `retest` run in `cwd`, outputs in `dir/results`.
fn retest_in(cwd: &Path, dir: &Path, args: &[&str]) -> Output {
    output(
        retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
            .current_dir(cwd)
            .args(args)
            .env("RETEST_RESULTS_DIR", dir.join("results"))
            .env("RETEST_CACHE_DIR", dir.join("cache")),
    )
}

/// A tests file declaring its own sets (`path:`, no checksum, no licence): the checksum learnt
/// on first use goes beside the tests file, an edited sets file fails with the command that
/// refreshes it, `retest lock --refresh` records the new one, and the run passes again.
#[test]
fn own_weat_sets_are_locked_beside_the_tests_file_and_refreshed_by_retest_lock() {
    let dir = tempfile::tempdir().unwrap();
    let study = dir.path().join("study");
    let cwd = dir.path().join("elsewhere");
    std::fs::create_dir_all(&study).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::write(
        study.join("my-tests.yaml"),
        "sets:\n  source: {file: my-sets.json, path: my-sets.json}\ntests:\n  t1: {x: xs, y: ys, a: as, b: bs}\n",
    )
    .unwrap();
    let sets = study.join("my-sets.json");
    std::fs::write(
        &sets,
        r#"{"xs": ["he"], "ys": ["she"], "as": ["nurse"], "bs": ["pad"]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("e.vec"),
        "4 2\nhe 1 0\nshe 0 1\nnurse 0.2 0.9\npad 0.5 0.5\n",
    )
    .unwrap();
    let weat = [
        "weat",
        "../e.vec",
        "--tests",
        "../study/my-tests.yaml",
        "--out",
        "../w.csv",
        "--force",
    ];
    let lock = study.join("checksums.lock");

    let out = retest_in(&cwd, dir.path(), &weat);
    assert!(out.status.success(), "{}", checked_stderr(&out));
    let first = sha256(&sets);
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        format!("{LOCK_HEADER}{first}  my-tests/my-sets.json\n")
    );
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "nothing is written into the current folder"
    );

    std::fs::write(
        &sets,
        r#"{"xs": ["he", "nurse"], "ys": ["she"], "as": ["pad"], "bs": ["she"]}"#,
    )
    .unwrap();
    let edited = sha256(&sets);
    let out = retest_in(&cwd, dir.path(), &weat);
    assert!(!out.status.success());
    assert_eq!(
        checked_stderr(&out),
        format!(
            "error: ../study/my-sets.json: checksum mismatch: expected sha256 {first} (recorded in \
             ../study/checksums.lock when the file was first used), found {edited}: if the file \
             changed on purpose, run `retest lock --refresh ../study/my-tests.yaml`\n"
        )
    );

    let out = retest_in(&cwd, dir.path(), &["lock", "--refresh", "../study/my-tests.yaml"]);
    assert!(out.status.success(), "{}", checked_stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("../study/checksums.lock: my-tests/my-sets.json: recorded sha256 {edited} (was {first})\n")
    );
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        format!("{LOCK_HEADER}{edited}  my-tests/my-sets.json\n")
    );
    let out = retest_in(&cwd, dir.path(), &weat);
    assert!(out.status.success(), "{}", checked_stderr(&out));
}

/// A broken sets file is not recorded by `retest lock --refresh`: the lock keeps the old entry.
#[test]
fn retest_lock_refresh_never_records_sets_that_fail_to_parse() {
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("t.yaml");
    std::fs::write(
        &tests,
        "sets:\n  source: {file: s.json, path: s.json}\ntests:\n  t1: {x: xs, y: ys, a: as, b: bs}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("s.json"), r#"{"xs": ["he"]}"#).unwrap();
    let out = retest_in(dir.path(), dir.path(), &["lock", "t.yaml"]);
    assert!(out.status.success(), "{}", checked_stderr(&out));
    let lock = std::fs::read_to_string(dir.path().join("checksums.lock")).unwrap();
    std::fs::write(dir.path().join("s.json"), r#"{"xs": ["he"#).unwrap();
    let out = retest_in(dir.path(), dir.path(), &["lock", "--refresh", "t.yaml"]);
    assert!(!out.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("checksums.lock")).unwrap(),
        lock
    );
}
