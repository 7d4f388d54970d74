//! Analogy query files: `a b c` per line (the query a : b :: c : ?), optionally with the answer a
//! paper reports, read by the pipeline's analogy stage and by `retest analogies`.

use std::path::Path;

use anyhow::{Context, Result, bail, ensure};

/// One query of a queries file, with its line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryLine {
    pub line: usize,
    pub words: [String; 3],
    /// The answer a paper reports for the query (a fourth word), whose rank the pipeline
    /// follows across seeds and `retest analogies` gives beside the top answers.
    pub reported: Option<String>,
}

/// The queries of a queries file: three whitespace-separated words `a b c` per line (the
/// query a : b :: c : ?), optionally followed by the answer a paper reports; text from `#` to
/// the end of a line is a comment; blank lines are skipped.
///
/// # Errors
///
/// The file cannot be read, a line does not hold three words, or the file holds no query.
pub fn read_query_file(path: &Path) -> Result<Vec<QueryLine>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut queries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = content.split_whitespace().collect();
        match words[..] {
            [] => {}
            [a, b, c] | [a, b, c, _] => queries.push(QueryLine {
                line: i + 1,
                words: [a, b, c].map(str::to_owned),
                reported: words.get(3).map(|w| (*w).to_owned()),
            }),
            _ => bail!(
                "{}:{}: expected three words `a b c` (the query a : b :: c : ?) and optionally the answer a paper \
                 reports, found {}: '{}'",
                path.display(),
                i + 1,
                words.len(),
                words.join(" ")
            ),
        }
    }
    ensure!(
        !queries.is_empty(),
        "{}: no query (expected lines `a b c`)",
        path.display()
    );
    Ok(queries)
}
