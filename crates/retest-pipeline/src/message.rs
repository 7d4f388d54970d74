//! Error messages as users read them: an error and its causes on one line, each said once.

/// The error and its causes on one line, `outer: inner: …`, each said once.
///
/// Library errors say only their own layer and leave the cause to `source`, so listing the
/// chain says each cause once. What is left is an `anyhow` context that restates the cause
/// under it: one equal to it (`.with_context(|| path)` over an error that names only that path)
/// or its head (``corpus `c` `` over ``corpus `c`: file `x` not found``). Such a context gives
/// way to the cause; nothing else is compared.
///
/// Control characters that reached a message from a user's file (an escape sequence in a word
/// list's line) are shown escaped (`\u{1b}`), never sent to the terminal; line breaks stay.
pub fn one_line(error: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in error.chain() {
        let text = cause.to_string();
        match parts.last_mut() {
            Some(last) if restates(last, &text) => *last = text,
            _ => parts.push(text),
        }
    }
    shown(&parts.join(": "))
}

/// `error`, its message naming files in `staging` (a folder renamed to `target` once complete)
/// where the user will find them, under `target`, rather than in the hidden temporary.
pub(crate) fn as_published(
    error: anyhow::Error,
    staging: &std::path::Path,
    target: &std::path::Path,
) -> anyhow::Error {
    let line = one_line(&error);
    let staging = staging.display().to_string();
    if line.contains(&staging) {
        anyhow::anyhow!(line.replace(&staging, &target.display().to_string()))
    } else {
        error
    }
}

/// `text` with every control character but the line break escaped as Rust writes it.
fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `context` says nothing that `cause` does not: it is `cause`, or `cause` begins with
/// it followed by `: `.
fn restates(context: &str, cause: &str) -> bool {
    cause
        .strip_prefix(context)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(": "))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{as_published, one_line};

    /// A library error: its message names the file, its source says why.
    #[derive(Debug)]
    struct FileError {
        path: &'static str,
        source: std::io::Error,
    }

    impl std::fmt::Display for FileError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.path)
        }
    }

    impl std::error::Error for FileError {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    fn not_found(path: &'static str) -> anyhow::Error {
        anyhow::Error::new(FileError {
            path,
            source: std::io::Error::other("No such file or directory (os error 2)"),
        })
    }

    #[test]
    fn each_layer_of_the_chain_is_said_once_in_order() {
        let error = not_found("a.txt")
            .context("cannot read the list")
            .context("corpus `c`");
        assert_eq!(
            one_line(&error),
            "corpus `c`: cannot read the list: a.txt: No such file or directory (os error 2)"
        );
    }

    #[test]
    fn a_context_that_restates_the_cause_under_it_gives_way() {
        // Equal to the cause: a path over an error that names only that path.
        let error = not_found("b.txt").context("b.txt").context("corpus `c`");
        assert_eq!(
            one_line(&error),
            "corpus `c`: b.txt: No such file or directory (os error 2)"
        );
        // The head of the cause, twice.
        let error = anyhow::anyhow!("corpus `c`: file `x` not found")
            .context("corpus `c`")
            .context("corpus `c`");
        assert_eq!(one_line(&error), "corpus `c`: file `x` not found");
        let error = anyhow::anyhow!("cannot read line 1 of the input: bad byte")
            .context("cannot read line 1 of the input");
        assert_eq!(one_line(&error), "cannot read line 1 of the input: bad byte");
    }

    #[test]
    fn a_file_in_a_staging_folder_is_named_where_it_is_published() {
        let (staging, target) = (Path::new("/w/out/.bp.a1B2c3.tmp"), Path::new("out/bp"));
        let error = not_found("/w/out/.bp.a1B2c3.tmp/summary.parquet");
        assert_eq!(
            one_line(&as_published(error, staging, target)),
            "out/bp/summary.parquet: No such file or directory (os error 2)"
        );
        let elsewhere = not_found("/w/lists/pairs.txt");
        assert_eq!(
            one_line(&as_published(elsewhere, staging, target)),
            "/w/lists/pairs.txt: No such file or directory (os error 2)"
        );
    }

    #[test]
    fn control_characters_from_a_file_are_escaped() {
        let error = anyhow::anyhow!("w.txt:1: expected two words, found 1: 'a\u{1}b\u{1b}[31mc\t'")
            .context("2 jobs failed:\n  a\n  b");
        assert_eq!(
            one_line(&error),
            "2 jobs failed:\n  a\n  b: w.txt:1: expected two words, found 1: 'a\\u{1}b\\u{1b}[31mc\\t'"
        );
    }

    #[test]
    fn a_context_that_only_begins_like_its_cause_is_kept() {
        let error = anyhow::anyhow!("a.txt.gz: bad header").context("a.txt");
        assert_eq!(one_line(&error), "a.txt: a.txt.gz: bad header");
        let error = anyhow::anyhow!("corpus `cc`: empty").context("corpus `c`");
        assert_eq!(one_line(&error), "corpus `c`: corpus `cc`: empty");
    }
}
