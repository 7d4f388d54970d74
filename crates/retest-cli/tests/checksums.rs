//! The checksum lock of sources whose recipe publishes no SHA-256: `retest corpus prepare`
//! keeps it beside the recipe (never in the current folder), records a checksum only once its
//! file was read, and a later mismatch says where the recorded checksum is and how to reset it.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_test_support::{arg, checked_stderr, data_dir, output};

const LOCK_HEADER: &str =
    "# SHA-256 of corpus files whose recipe names none, recorded on first use (retest).\n";

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
/// once recorded, a different copy fails with one line naming the lock file and the entry.
#[test]
fn a_truncated_copy_is_never_locked_in_and_a_recorded_mismatch_says_how_to_reset_it() {
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
            "error: corpus `dump`: ./study/recipes/dump.bz2: checksum mismatch: expected \
             sha256 {recorded}, found {found}; the expected one is not published but was recorded \
             in {lock} when the file was first used: if this file is the right one, remove the line \
             for dump/RC_2005-12.bz2 from {lock} and run again\n",
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
