//! Golden error messages: what a user reads, compared in full with a committed file.
//!
//! [`assert_message`] replaces the paths that differ between machines (temporary folders, the
//! workspace, the data mirror) with placeholders, checks that no line says a clause twice, and
//! compares the text with `tests/messages/<name>.txt` of the calling crate. `RETEST_BLESS=1`
//! writes the files instead of comparing (review the diff before committing).

use std::path::Path;

use crate::{data_dir, workspace_dir};

/// Compares `text` (after redaction) with `<crate_dir>/tests/messages/<name>.txt`; each
/// `(path, placeholder)` of `redact` is replaced before the workspace (`[WORKSPACE]`) and the
/// data mirror (`[DATA]`).
///
/// # Panics
/// When a line repeats a clause, or the text differs from the file (or the file is missing),
/// showing both.
pub fn assert_message(crate_dir: &str, name: &str, text: &str, redact: &[(&Path, &str)]) {
    let text = redacted(text, redact);
    assert_each_clause_once(&text);
    let file = Path::new(crate_dir)
        .join("tests/messages")
        .join(format!("{name}.txt"));
    if std::env::var_os("RETEST_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(file.parent().expect("a file in a folder")).expect("messages folder");
        std::fs::write(&file, &text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e}\nthe message was:\n{text}\n(RETEST_BLESS=1 writes it)",
            file.display()
        )
    });
    assert!(
        expected == text,
        "message `{name}` differs from {}\n--- expected\n{expected}\n--- found\n{text}\n\
         (RETEST_BLESS=1 rewrites the file)",
        file.display()
    );
}

/// `text` with the given paths, the workspace and the data mirror replaced by placeholders
/// (each path also in its canonical spelling), longest path first.
pub fn redacted(text: &str, redact: &[(&Path, &str)]) -> String {
    let (workspace, data) = (workspace_dir(), data_dir());
    let mut pairs: Vec<(String, &str)> = Vec::new();
    for (path, label) in redact
        .iter()
        .copied()
        .chain([(workspace.as_path(), "[WORKSPACE]"), (data.as_path(), "[DATA]")])
    {
        pairs.push((path.display().to_string(), label));
        if let Ok(canonical) = path.canonicalize() {
            pairs.push((canonical.display().to_string(), label));
        }
    }
    pairs.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
    let mut text = text.to_owned();
    for (path, label) in pairs {
        if !path.is_empty() {
            text = text.replace(&path, label);
        }
    }
    text
}

/// `error` and its sources joined with `: `, as the CLI prints a library error: each error
/// says its own layer and leaves the cause to `source`.
pub fn error_line(error: &dyn std::error::Error) -> String {
    std::iter::successors(Some(error), |e| e.source())
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

/// Panics when a line of `text`, cut at `": "`, holds the same clause twice (a cause printed
/// by an error and again by its caller).
pub fn assert_each_clause_once(text: &str) {
    for line in text.lines() {
        let clauses: Vec<&str> = line
            .split(": ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        for (i, clause) in clauses.iter().enumerate() {
            assert!(
                !clauses[..i].contains(clause),
                "the clause `{clause}` is said twice in:\n{line}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "the clause `corpus `c`` is said twice")]
    fn a_repeated_clause_is_caught() {
        assert_each_clause_once("error: corpus `c`: corpus `c`: file `x` not found");
    }

    #[test]
    fn distinct_clauses_pass_and_paths_are_redacted() {
        assert_each_clause_once("error: a.txt: No such file or directory (os error 2)");
        let dir = Path::new("/tmp/xyz");
        assert_eq!(
            redacted("/tmp/xyz/a.txt and /tmp/xyz", &[(dir, "[TMP]")]),
            "[TMP]/a.txt and [TMP]"
        );
    }
}
