//! word2vec text and GloVe text: one word and its values per line, the former after an
//! `n_words dim` header line.
//!
//! Our own reader rather than finalfusion's: it reports the file, the line and what was expected,
//! and it never trims or merges words. Tokens are separated by runs of ASCII whitespace (so the
//! trailing space that word2vec.c writes after the last value and `\r\n` line ends are fine);
//! blank lines are skipped.

use std::io::{BufRead, Write};
use std::path::Path;

use crate::format::{MAX_DIM, parse_header};
use crate::{Embeddings, EmbeddingsError};

/// Whether the file starts with a word2vec `n_words dim` header line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Header {
    /// word2vec text.
    Word2Vec,
    /// GloVe text: the dimension is the number of values on the first line.
    None,
}

/// Reads a text embedding file from `reader`; `path` is only used in error messages.
pub(crate) fn read_text(
    reader: &mut impl BufRead,
    path: &Path,
    header: Header,
) -> Result<Embeddings, EmbeddingsError> {
    let parse_error = |line: usize, message: String| EmbeddingsError::Parse {
        path: path.to_owned(),
        line,
        message,
    };
    let mut buf = Vec::new();
    let mut line_no = 0;
    // (n_words announced by the header, its line), for word2vec text.
    let mut announced: Option<(usize, usize)> = None;
    let mut dim: Option<usize> = None;
    let mut words = Vec::new();
    let mut vectors = Vec::new();
    // Line number of every row, for errors found after reading (duplicates, non-finite values).
    let mut row_lines = Vec::new();
    loop {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .map_err(EmbeddingsError::io(path))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let line = std::str::from_utf8(&buf)
            .map_err(|e| parse_error(line_no, format!("line is not valid UTF-8 ({e})")))?;
        if header == Header::Word2Vec && announced.is_none() {
            let (n_words, d) = parse_header(line).ok_or_else(|| {
                parse_error(
                    line_no,
                    format!(
                        "expected the word2vec header `<n_words> <dim>` (two integers, 0 < dim ≤ {MAX_DIM}), found `{}`",
                        abbreviate(line.trim_end())
                    ),
                )
            })?;
            announced = Some((n_words, line_no));
            dim = Some(d);
            words.reserve(n_words.min(1 << 24));
            vectors.reserve(n_words.saturating_mul(d).min(1 << 28));
            continue;
        }
        let mut tokens = line.split_ascii_whitespace();
        let Some(word) = tokens.next() else {
            continue; // blank line
        };
        if let Some((n_words, _)) = announced
            && words.len() == n_words
        {
            return Err(parse_error(
                line_no,
                format!(
                    "the header announces {n_words} word{}, but the file has more lines",
                    if n_words == 1 { "" } else { "s" }
                ),
            ));
        }
        let start = vectors.len();
        for (component, token) in tokens.enumerate() {
            let value = token.parse::<f32>().map_err(|_| {
                parse_error(
                    line_no,
                    format!(
                        "value {} of word `{word}` is `{}`, not a number",
                        component + 1,
                        abbreviate(token)
                    ),
                )
            })?;
            vectors.push(value);
        }
        let n_values = vectors.len() - start;
        let dim = *dim.get_or_insert(n_values);
        if n_values != dim {
            let values = if dim == 1 { "value" } else { "values" };
            let expected = match header {
                Header::Word2Vec => format!("{dim} {values} (the header's dimension)"),
                Header::None => format!("{dim} {values} (as on the first line)"),
            };
            return Err(parse_error(
                line_no,
                format!("expected the word followed by {expected}, found `{word}` followed by {n_values}"),
            ));
        }
        if dim == 0 {
            return Err(parse_error(
                line_no,
                format!("expected the word `{word}` to be followed by its values"),
            ));
        }
        words.push(word.to_owned());
        row_lines.push(line_no);
    }
    let dim = match (dim, announced) {
        (Some(dim), Some((n_words, header_line))) => {
            if words.len() != n_words {
                return Err(parse_error(
                    line_no.max(header_line),
                    format!(
                        "the header announces {n_words} words, but the file ends after {}",
                        words.len()
                    ),
                ));
            }
            dim
        }
        (Some(dim), None) => dim,
        (None, _) => {
            let expected = match header {
                Header::Word2Vec => "a word2vec header line `<n_words> <dim>`",
                Header::None => "at least one line `<word> <values…>`",
            };
            return Err(parse_error(1, format!("the file is empty; expected {expected}")));
        }
    };
    Embeddings::new(words, dim, vectors).map_err(|e| at_line(e, path, &row_lines))
}

/// Turns a row-level error of [`Embeddings::new`] into an error at the row's line.
fn at_line(error: EmbeddingsError, path: &Path, row_lines: &[usize]) -> EmbeddingsError {
    let parse = |line: usize, message: String| EmbeddingsError::Parse {
        path: path.to_owned(),
        line,
        message,
    };
    match error {
        EmbeddingsError::DuplicateWord { word, first, second } => parse(
            row_lines[second],
            format!(
                "duplicate word `{word}` (first on line {}): every word must be unique",
                row_lines[first]
            ),
        ),
        EmbeddingsError::NonFinite {
            row,
            word,
            component,
            value,
        } => parse(
            row_lines[row],
            format!(
                "value {} of word `{word}` is {value}: values must be finite",
                component + 1
            ),
        ),
        other => EmbeddingsError::InvalidContent {
            path: path.to_owned(),
            source: Box::new(other),
        },
    }
}

/// At most 40 characters of `s`, for error messages.
fn abbreviate(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// Writes `emb` as text, each value in the shortest decimal form that reads back to the same
/// `f32` (so text round trips are exact); with a `n_words dim` header line for word2vec text.
pub(crate) fn write_text(writer: &mut impl Write, emb: &Embeddings, header: Header) -> std::io::Result<()> {
    if header == Header::Word2Vec {
        writeln!(writer, "{} {}", emb.n_words(), emb.dim())?;
    }
    let mut line = String::new();
    for (word, row) in emb.words().iter().zip(emb.rows()) {
        line.clear();
        line.push_str(word);
        for &value in row {
            line.push(' ');
            push_f32(&mut line, value);
        }
        line.push('\n');
        writer.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Appends the shortest round-trip decimal form of `value`, in exponent form when it is very
/// small or very large (Rust's plain `Display` would spell out every zero).
fn push_f32(out: &mut String, value: f32) {
    use std::fmt::Write as _;
    let magnitude = value.abs();
    let result = if value != 0.0 && !(1e-5..1e16).contains(&magnitude) {
        write!(out, "{value:e}")
    } else {
        write!(out, "{value}")
    };
    result.expect("writing to a String cannot fail");
}
