//! The one way tests start the `retest` binary: a command whose environment holds only what the
//! test gives it, whatever the shell that runs the tests has set.
//!
//! The policy, applied by [`hermetic`]:
//!
//! * every `RETEST_*` variable of the test process is removed (a developer's
//!   `RETEST_RESULTS_DIR`, `RETEST_CORPORA_DIR`, `RETEST_WORDLISTS_DIR`, `RETEST_CACHE_DIR`, …);
//! * `RETEST_DATA_DIR` names the data mirror the tests read ([`data_dir`]);
//! * `RETEST_OFFLINE=1`: a file not found in the mirror or the cache is an error, never a
//!   download;
//! * `NO_COLOR=1`, and `CLICOLOR_FORCE` and `CLICOLOR` removed: messages are plain text, as the
//!   golden files hold them;
//! * `RUST_BACKTRACE` and `RUST_LIB_BACKTRACE` removed: errors capture no backtrace;
//! * the working folder is the workspace ([`workspace_dir`]), where the shipped pipelines,
//!   recipes and word lists are found.
//!
//! A test then sets what it is about with `Command::env` and `Command::current_dir`: the
//! results folder and download cache it writes to, a working folder of its own, or a
//! `RETEST_DATA_DIR` that is missing on purpose; runs it with [`output`] and reads what it said
//! with [`stderr`] or [`checked_stderr`] (paths given as arguments with [`arg`]).

use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::{Command, Output};

use crate::{DATA_DIR_VAR, assert_each_clause_once, data_dir, workspace_dir};

/// Variables outside `RETEST_*` that change what the binary prints, removed from every command.
pub const REMOVED_VARS: &[&str] = &[
    "CLICOLOR_FORCE",
    "CLICOLOR",
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
];

/// The prefix of the variables the binary reads; all of them are removed before the policy's own
/// are set.
pub const RETEST_PREFIX: &str = "RETEST_";

/// The binary `bin` (`env!("CARGO_BIN_EXE_retest")` in the CLI's tests) under the
/// [module's policy](self).
pub fn retest(bin: impl AsRef<OsStr>) -> Command {
    let mut command = Command::new(bin);
    hermetic(&mut command);
    command
}

/// Applies the [module's policy](self) to `command`: for a command that starts the binary
/// through another program (`sh -c 'umask 027 && exec "$0" "$@"' retest …`).
pub fn hermetic(command: &mut Command) -> &mut Command {
    hermetic_from(command, std::env::vars_os().map(|(name, _)| name))
}

/// [`hermetic`] in a process whose variables are named `parent`.
fn hermetic_from(command: &mut Command, parent: impl IntoIterator<Item = OsString>) -> &mut Command {
    for name in parent {
        if name.as_encoded_bytes().starts_with(RETEST_PREFIX.as_bytes()) {
            command.env_remove(name);
        }
    }
    for name in REMOVED_VARS {
        command.env_remove(name);
    }
    command
        .current_dir(workspace_dir())
        .env(DATA_DIR_VAR, data_dir())
        .env("RETEST_OFFLINE", "1")
        .env("NO_COLOR", "1")
}

/// Runs `command` to its end and returns its exit status and what it said.
///
/// # Panics
/// If the command cannot be started.
pub fn output(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", command.get_program().display()))
}

/// `bin ARGS` under the [module's policy](self), its download cache in `dir/cache`, run to its
/// end: how a test runs a command that resolves declared files.
pub fn run_cached(bin: impl AsRef<OsStr>, args: &[&str], dir: &Path) -> Output {
    output(retest(bin).args(args).env("RETEST_CACHE_DIR", dir.join("cache")))
}

/// What the command said on stderr (bytes that are not UTF-8 replaced).
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// [`stderr`], checked to say each clause once ([`assert_each_clause_once`]).
pub fn checked_stderr(out: &Output) -> String {
    let text = stderr(out);
    assert_each_clause_once(&text);
    text
}

/// `path` as a command-line argument.
///
/// # Panics
/// If the path is not UTF-8 (a test's paths are).
pub fn arg(path: &Path) -> &str {
    path.to_str()
        .unwrap_or_else(|| panic!("{} is not UTF-8", path.display()))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// The variables `command` sets (`Some`) or removes (`None`).
    fn changes(command: &Command) -> BTreeMap<OsString, Option<OsString>> {
        command
            .get_envs()
            .map(|(k, v)| (k.to_owned(), v.map(OsStr::to_owned)))
            .collect()
    }

    #[test]
    fn the_policy_sets_the_mirror_offline_and_plain_text_and_removes_the_rest() {
        let command = retest("retest");
        let changes = changes(&command);
        assert_eq!(
            changes[OsStr::new(DATA_DIR_VAR)],
            Some(data_dir().into_os_string())
        );
        assert_eq!(changes[OsStr::new("RETEST_OFFLINE")], Some("1".into()));
        assert_eq!(changes[OsStr::new("NO_COLOR")], Some("1".into()));
        for name in REMOVED_VARS {
            assert_eq!(changes[OsStr::new(name)], None, "{name}");
        }
        assert_eq!(command.get_current_dir(), Some(workspace_dir().as_path()));
    }

    #[test]
    fn every_retest_variable_of_the_parent_is_removed_and_no_other() {
        let parent = [
            "RETEST_RESULTS_DIR",
            "RETEST_CORPORA_DIR",
            "RETEST_NEW",
            "PATH",
            "HOME",
        ];
        let mut command = Command::new("retest");
        let changes = changes(hermetic_from(&mut command, parent.map(OsString::from)));
        for name in ["RETEST_RESULTS_DIR", "RETEST_CORPORA_DIR", "RETEST_NEW"] {
            assert_eq!(changes.get(OsStr::new(name)), Some(&None), "{name}");
        }
        for name in ["PATH", "HOME"] {
            assert_eq!(changes.get(OsStr::new(name)), None, "{name}");
        }
    }

    #[test]
    fn a_wrapped_command_gets_the_same_policy() {
        let mut sh = Command::new("sh");
        hermetic(sh.args(["-c", "exec \"$0\"", "retest"]));
        assert_eq!(changes(&sh), changes(&retest("retest")));
    }
}
