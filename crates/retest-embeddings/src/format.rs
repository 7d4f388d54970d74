//! The supported file formats, their stable names, and format detection from a file's content.

use std::fmt;
use std::io::{BufRead, Read};
use std::path::Path;
use std::str::FromStr;

use crate::EmbeddingsError;

/// An embedding file format. [`Format::as_str`] is the stable name used on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// finalfusion (`.fifu`): vocabulary, L2-normalised matrix, norms and TOML metadata.
    Fifu,
    /// word2vec text: a `n_words dim` header line, then `word v1 … vdim` per line (gensim's
    /// `save_word2vec_format(binary=False)`).
    Word2VecText,
    /// word2vec binary: a `n_words dim` header line, then per word `word `, `dim` little-endian
    /// `f32` and `\n` (word2vec.c `-binary 1`; gensim writes the same without the `\n` and
    /// reads both).
    Word2VecBinary,
    /// GloVe text: `word v1 … vdim` per line, no header (glove.c `-write-header 0`).
    GloveText,
}

impl Format {
    /// Every format, in a fixed order.
    pub const ALL: [Format; 4] = [
        Format::Fifu,
        Format::Word2VecText,
        Format::Word2VecBinary,
        Format::GloveText,
    ];

    /// The stable name: `fifu`, `word2vec-text`, `word2vec-binary` or `glove-text`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Fifu => "fifu",
            Format::Word2VecText => "word2vec-text",
            Format::Word2VecBinary => "word2vec-binary",
            Format::GloveText => "glove-text",
        }
    }

    /// The file name extensions of the format, without the dot: `fifu`; `txt` or `vec` for
    /// word2vec text (`.vec` is fastText's name for the same format); `bin` for word2vec binary;
    /// `txt` for GloVe text. A command names its output file with one of them.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Fifu => &["fifu"],
            Format::Word2VecText => &["txt", "vec"],
            Format::Word2VecBinary => &["bin"],
            Format::GloveText => &["txt"],
        }
    }

    /// The formats whose [`Format::extensions`] hold the extension of `path`, in
    /// [`Format::ALL`]'s order: one, two for `.txt` (word2vec or GloVe text), or none.
    pub fn by_extension(path: &Path) -> Vec<Format> {
        let Some(extension) = path.extension().and_then(|e| e.to_str()) else {
            return Vec::new();
        };
        Format::ALL
            .into_iter()
            .filter(|f| f.extensions().contains(&extension))
            .collect()
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = EmbeddingsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| EmbeddingsError::UnknownFormat(s.to_owned()))
    }
}

/// How many bytes detection looks at: enough for the header and the first text record.
const SNIFF_BYTES: u64 = 1 << 20;

/// Detects the format of the file at `path` from its content:
///
/// * `FiFu` magic → [`Format::Fifu`];
/// * a first line of exactly two unsigned integers `n_words dim` is a word2vec header: the file
///   is [`Format::Word2VecText`] when the next line is a text record (a word and `dim` numbers),
///   else [`Format::Word2VecBinary`];
/// * a first line of a word followed by numbers → [`Format::GloveText`].
///
/// A GloVe file whose first word is an integer and whose dimension is 1 looks like a word2vec
/// header; pass the format explicitly for such files.
pub fn detect_format(path: &Path) -> Result<Format, EmbeddingsError> {
    let file = std::fs::File::open(path).map_err(EmbeddingsError::io(path))?;
    let mut head = Vec::new();
    file.take(SNIFF_BYTES)
        .read_to_end(&mut head)
        .map_err(EmbeddingsError::io(path))?;
    let unknown = |reason: &str| EmbeddingsError::UnknownContent {
        path: path.to_owned(),
        reason: reason.to_owned(),
    };
    if head.is_empty() {
        return Err(unknown("the file is empty"));
    }
    if head.starts_with(b"FiFu") {
        return Ok(Format::Fifu);
    }
    refuse_byte_order_mark(path, &head)?;
    let (first, rest) = split_line(&head);
    let Ok(first) = std::str::from_utf8(first) else {
        return Err(unknown(
            "the first line is not UTF-8 text and there is no `FiFu` magic",
        ));
    };
    let tokens: Vec<&str> = first.split_ascii_whitespace().collect();
    let two_integers = tokens.len() == 2 && tokens.iter().all(|t| t.parse::<i64>().is_ok());
    if two_integers && parse_header(first).is_none() {
        return Err(unknown(&format!(
            "the first line `{}` is two integers but no word2vec header `<n_words> <dim>` (0 ≤ n_words, \
             0 < dim ≤ {MAX_DIM})",
            first.trim()
        )));
    }
    if let Some((_, dim)) = parse_header(first) {
        let (record, _) = split_line(rest);
        let is_text =
            rest.is_empty() || std::str::from_utf8(record).is_ok_and(|line| is_text_record(line, Some(dim)));
        return Ok(if is_text {
            Format::Word2VecText
        } else {
            Format::Word2VecBinary
        });
    }
    if is_text_record(first, None) {
        return Ok(Format::GloveText);
    }
    Err(unknown(
        "the first line is neither a word2vec header `<n_words> <dim>` nor a GloVe line `<word> <numbers…>`",
    ))
}

/// The number of words and the dimension of the embeddings in `path`, in `format` (or the
/// format [`detect_format`] finds), without reading the vectors: a finalfusion file's chunk
/// headers, a word2vec header line, a GloVe file's first line and its lines (counted). Reading
/// the file may still find it corrupt further on.
pub fn shape(path: &Path, format: Option<Format>) -> Result<(usize, usize), EmbeddingsError> {
    let format = match format {
        Some(format) => format,
        None => detect_format(path)?,
    };
    if format == Format::Fifu {
        return crate::fifu::shape(path);
    }
    let file = std::fs::File::open(path).map_err(EmbeddingsError::io(path))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut first = Vec::new();
    (&mut reader)
        .take(SNIFF_BYTES)
        .read_until(b'\n', &mut first)
        .map_err(EmbeddingsError::io(path))?;
    let (line, _) = split_line(&first);
    let line = String::from_utf8_lossy(line);
    let shape = match format {
        Format::Word2VecText | Format::Word2VecBinary => parse_header(&line),
        Format::GloveText => {
            let dim = line.split_ascii_whitespace().count().saturating_sub(1);
            let mut lines = 1;
            for line in reader.split(b'\n') {
                lines += usize::from(!line.map_err(EmbeddingsError::io(path))?.trim_ascii().is_empty());
            }
            (1..=MAX_DIM).contains(&dim).then_some((lines, dim))
        }
        Format::Fifu => unreachable!("handled above"),
    };
    shape.ok_or_else(|| EmbeddingsError::Parse {
        path: path.to_owned(),
        line: 1,
        message: match format {
            Format::GloveText => "expected a GloVe line `<word> <numbers…>`".to_owned(),
            _ => format!("expected the word2vec header `<n_words> <dim>` (0 < dim ≤ {MAX_DIM})"),
        },
    })
}

/// Refuses a text file whose bytes `head` start with a UTF-8 byte-order mark.
pub(crate) fn refuse_byte_order_mark(path: &Path, head: &[u8]) -> Result<(), EmbeddingsError> {
    if head.starts_with(b"\xEF\xBB\xBF") {
        return Err(EmbeddingsError::ByteOrderMark {
            path: path.to_owned(),
        });
    }
    Ok(())
}

/// The bytes up to the first `\n` (without it, and without a `\r` before it) and the bytes after it.
fn split_line(bytes: &[u8]) -> (&[u8], &[u8]) {
    let (line, rest) = match bytes.iter().position(|&b| b == b'\n') {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (bytes, &bytes[bytes.len()..]),
    };
    (line.strip_suffix(b"\r").unwrap_or(line), rest)
}

/// Largest dimension a header may announce; anything above is a corrupt or foreign file.
pub(crate) const MAX_DIM: usize = 1 << 20;

/// `n_words dim` as a word2vec header: exactly two unsigned integers, `0 < dim ≤ MAX_DIM`.
pub(crate) fn parse_header(line: &str) -> Option<(usize, usize)> {
    let mut tokens = line.split_ascii_whitespace();
    let n_words = tokens.next()?.parse().ok()?;
    let dim = tokens.next()?.parse().ok()?;
    (tokens.next().is_none() && (1..=MAX_DIM).contains(&dim)).then_some((n_words, dim))
}

/// A word followed by numbers (`dim` of them, when given; at least one otherwise).
fn is_text_record(line: &str, dim: Option<usize>) -> bool {
    let mut tokens = line.split_ascii_whitespace();
    if tokens.next().is_none() {
        return false;
    }
    let mut n_values = 0;
    for token in tokens {
        if token.parse::<f32>().is_err() {
            return false;
        }
        n_values += 1;
    }
    match dim {
        Some(dim) => n_values == dim,
        None => n_values > 0,
    }
}
