//! Readers for the benchmark files of the data mirror: word-similarity pairs (gensim's TSV,
//! the original SimLex-999 and MEN distributions, plain TSV) and word-analogy questions.
//!
//! The readers are stricter than gensim's, which skips lines it cannot split: here a malformed
//! line is an error naming the file and the line. On well-formed files both read the same pairs
//! and questions. Words are kept exactly as written (case included); evaluation decides how to
//! match them against a vocabulary.

use std::path::Path;

use serde::Serialize;

use crate::EvalError;

/// A word pair and its human similarity score: `(word1, word2, score)`.
pub type WordPair = (String, String, f64);

/// The layout of a word-similarity file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PairFormat {
    /// gensim's test data (`wordsim353.tsv`, `simlex999.txt`): `#` comment lines, then
    /// `word1<TAB>word2<TAB>score`.
    GensimTsv,
    /// The original SimLex-999 distribution (`SimLex-999.txt`): a header row, then 10
    /// tab-separated columns, the score (`SimLex999`) in the fourth.
    SimLexOriginal,
    /// The MEN distribution (`MEN_dataset_natural_form_full`): `word1 word2 score`, separated
    /// by spaces, scores 0–50, with an optional `word1 word2 score` header.
    Men,
    /// `word1<TAB>word2<TAB>score` without comments or header (eval-word-vectors' `EN-*.txt`).
    Tsv,
}

impl PairFormat {
    /// The stable name: `gensim-tsv`, `simlex-original`, `men` or `tsv`.
    pub fn as_str(self) -> &'static str {
        match self {
            PairFormat::GensimTsv => "gensim-tsv",
            PairFormat::SimLexOriginal => "simlex-original",
            PairFormat::Men => "men",
            PairFormat::Tsv => "tsv",
        }
    }
}

/// The header of the original SimLex-999 file, up to the score column.
const SIMLEX_HEADER: &str = "word1\tword2\tPOS\tSimLex999";

/// The three fields of a `word1 word2 score` line split at `separator`s, or the message
/// naming the expected `layout` and the number of fields found.
fn three_fields<'l>(
    fields: &[&'l str],
    layout: &str,
    separator: &str,
) -> Result<(&'l str, &'l str, &'l str), String> {
    match *fields {
        [a, b, score] => Ok((a, b, score)),
        _ => Err(format!(
            "expected `{layout}`, found {} {separator}-separated fields",
            fields.len()
        )),
    }
}

/// Reads the word pairs of a similarity benchmark file. `\r\n` line ends are accepted.
pub fn read_pairs(path: &Path, format: PairFormat) -> Result<Vec<WordPair>, EvalError> {
    let text = read_text(path)?;
    let error = |line: usize, message: String| EvalError::Parse {
        path: path.to_owned(),
        line,
        message,
    };
    let mut pairs = Vec::new();
    let mut seen_header = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || (format == PairFormat::GensimTsv && line.starts_with('#')) {
            continue;
        }
        let (a, b, score) = match format {
            PairFormat::GensimTsv | PairFormat::Tsv => {
                let fields: Vec<&str> = line.split('\t').collect();
                three_fields(&fields, "word1<TAB>word2<TAB>score", "tab").map_err(|m| error(line_no, m))?
            }
            PairFormat::SimLexOriginal => {
                if !seen_header {
                    if !line.starts_with(SIMLEX_HEADER) {
                        return Err(error(
                            line_no,
                            format!(
                                "expected the SimLex-999 header `{}…`",
                                SIMLEX_HEADER.replace('\t', "<TAB>")
                            ),
                        ));
                    }
                    seen_header = true;
                    continue;
                }
                let fields: Vec<&str> = line.split('\t').collect();
                if fields.len() != 10 {
                    return Err(error(
                        line_no,
                        format!(
                            "expected 10 tab-separated columns (word1, word2, POS, SimLex999, …), found {}",
                            fields.len()
                        ),
                    ));
                }
                (fields[0], fields[1], fields[3])
            }
            PairFormat::Men => {
                let fields: Vec<&str> = line.split_ascii_whitespace().collect();
                let (a, b, score) =
                    three_fields(&fields, "word1 word2 score", "space").map_err(|m| error(line_no, m))?;
                if !seen_header && pairs.is_empty() && fields == ["word1", "word2", "score"] {
                    seen_header = true;
                    continue;
                }
                (a, b, score)
            }
        };
        let score = score
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite())
            .ok_or_else(|| {
                error(
                    line_no,
                    format!("the score `{}` of `{a}`–`{b}` is not a number", score.trim()),
                )
            })?;
        if a.is_empty() || b.is_empty() {
            return Err(error(line_no, "expected two non-empty words".to_owned()));
        }
        pairs.push((a.to_owned(), b.to_owned(), score));
    }
    if format == PairFormat::SimLexOriginal && !seen_header {
        return Err(error(
            1,
            "the file is empty; expected the SimLex-999 header".to_owned(),
        ));
    }
    Ok(pairs)
}

/// Word-analogy questions `a : b :: c : d` in named sections (the Google analogy set,
/// `questions-words.txt`).
#[derive(Clone, Debug, PartialEq)]
pub struct AnalogySet {
    /// The sections, in file order.
    pub sections: Vec<AnalogySection>,
}

/// One section (`: capital-common-countries`) of an analogy set.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalogySection {
    /// The section name, without the leading `: `.
    pub name: String,
    /// The questions `[a, b, c, d]`: `b − a + c` should be nearest to `d`.
    pub questions: Vec<[String; 4]>,
}

impl AnalogySet {
    /// Number of questions in all sections.
    pub fn n_questions(&self) -> usize {
        self.sections.iter().map(|s| s.questions.len()).sum()
    }
}

/// Reads an analogy file: `: section` lines, then `a b c d` lines (whitespace-separated, as
/// gensim and word2vec.c's `compute-accuracy` read them). Blank lines are skipped.
pub fn read_analogies(path: &Path) -> Result<AnalogySet, EvalError> {
    read_analogy_file(path, None)
}

/// Reads an analogy file whose questions need not be in sections, such as the MSR set: `a b c d`
/// lines before the first `: section` line (all of them, in a file without sections) form a
/// section named `section`; `: section` lines, if any, start sections as in [`read_analogies`].
pub fn read_analogies_unsectioned(path: &Path, section: &str) -> Result<AnalogySet, EvalError> {
    read_analogy_file(path, Some(section))
}

fn read_analogy_file(path: &Path, leading_section: Option<&str>) -> Result<AnalogySet, EvalError> {
    let text = read_text(path)?;
    let error = |line: usize, message: String| EvalError::Parse {
        path: path.to_owned(),
        line,
        message,
    };
    let mut sections: Vec<AnalogySection> = leading_section
        .map(|name| AnalogySection {
            name: name.to_owned(),
            questions: Vec::new(),
        })
        .into_iter()
        .collect();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(name) = line.strip_prefix(':') {
            let name = name.trim();
            if name.is_empty() {
                return Err(error(line_no, "expected a section name after `:`".to_owned()));
            }
            sections.push(AnalogySection {
                name: name.to_owned(),
                questions: Vec::new(),
            });
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let Some(section) = sections.last_mut() else {
            return Err(error(
                line_no,
                "expected a `: section` line before the first question".to_owned(),
            ));
        };
        let [a, b, c, d] = words[..] else {
            return Err(error(
                line_no,
                format!("expected four words `a b c d`, found {}", words.len()),
            ));
        };
        section.questions.push([a, b, c, d].map(str::to_owned));
    }
    // A leading section that stayed empty (the file starts with `: section`) is not reported.
    if leading_section.is_some() && sections.len() > 1 && sections[0].questions.is_empty() {
        sections.remove(0);
    }
    Ok(AnalogySet { sections })
}

/// The file as UTF-8 text; invalid UTF-8 is an error at its line.
fn read_text(path: &Path) -> Result<String, EvalError> {
    let bytes = std::fs::read(path).map_err(EvalError::io(path))?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
        EvalError::Parse {
            path: path.to_owned(),
            line,
            message: "the line is not valid UTF-8".to_owned(),
        }
    })
}
