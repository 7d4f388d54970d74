//! Error messages as users read them: an error and its causes on one line, each said once.

/// The error and its causes on one line, `outer: inner: …`, each cause said once: a cause whose
/// text the line already holds is left out (an error that prints its source), and one that
/// repeats the cause before it and adds to it replaces that cause.
pub fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    let mut last = 0;
    for cause in error.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() && text.starts_with(&line[last..]) {
            line.truncate(last);
        } else if !line.is_empty() {
            line.push_str(": ");
        }
        last = line.len();
        line.push_str(&text);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::one_line;

    /// An error that prints its source, as `#[error("{path}: {source}")]` does.
    #[derive(Debug)]
    struct WithSource {
        path: &'static str,
        source: std::io::Error,
    }

    impl std::fmt::Display for WithSource {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{}: {}", self.path, self.source)
        }
    }

    impl std::error::Error for WithSource {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn each_cause_is_said_once() {
        let io = || std::io::Error::other("No such file or directory (os error 2)");
        let error = anyhow::Error::new(WithSource {
            path: "a.txt",
            source: io(),
        })
        .context("cannot read the list");
        assert_eq!(
            one_line(&error),
            "cannot read the list: a.txt: No such file or directory (os error 2)"
        );
        let error = anyhow::anyhow!("cannot read line 1 of the input: bad byte")
            .context("cannot read line 1 of the input");
        assert_eq!(one_line(&error), "cannot read line 1 of the input: bad byte");
        let error = anyhow::Error::new(io()).context("b.txt").context("corpus `c`");
        assert_eq!(
            one_line(&error),
            "corpus `c`: b.txt: No such file or directory (os error 2)"
        );
    }
}
