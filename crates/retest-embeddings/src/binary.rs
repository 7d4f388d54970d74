//! word2vec binary: an `n_words dim` header line, then per word the word's UTF-8 bytes, a space,
//! `dim` little-endian `f32` values and a `\n`.
//!
//! That is what word2vec.c writes (`-binary 1`). gensim's `save_word2vec_format(binary=True)`
//! leaves out the `\n`; its reader, and ours, skip newlines before a word, so both variants read.

use std::io::{BufRead, Read, Write};
use std::path::Path;

use crate::format::{MAX_DIM, parse_header};
use crate::{Embeddings, EmbeddingsError};

/// Longest word the reader accepts before deciding the file is not word2vec binary.
const MAX_WORD_BYTES: usize = 1 << 16;

/// Reads a word2vec binary file from `reader`; `path` is only used in error messages.
pub(crate) fn read_binary(reader: &mut impl BufRead, path: &Path) -> Result<Embeddings, EmbeddingsError> {
    let mut line = Vec::new();
    reader
        .by_ref()
        .take(1024)
        .read_until(b'\n', &mut line)
        .map_err(EmbeddingsError::io(path))?;
    let header = std::str::from_utf8(&line).ok().and_then(parse_header);
    let Some((n_words, dim)) = header else {
        return Err(EmbeddingsError::Parse {
            path: path.to_owned(),
            line: 1,
            message: format!(
                "expected the word2vec header `<n_words> <dim>` (two integers, 0 < dim ≤ {MAX_DIM}), found `{}`",
                String::from_utf8_lossy(&line[..line.len().min(40)]).trim_end()
            ),
        });
    };
    let mut offset = line.len() as u64;
    let mut words = Vec::with_capacity(n_words.min(1 << 24));
    let mut vectors = Vec::with_capacity(n_words.saturating_mul(dim).min(1 << 28));
    let mut word = Vec::new();
    let mut values = vec![0u8; dim * 4];
    for record in 1..=n_words {
        let error = |offset: u64, message: String| EmbeddingsError::Binary {
            path: path.to_owned(),
            record,
            offset,
            message,
        };
        offset += skip_newlines(reader).map_err(EmbeddingsError::io(path))?;
        let start = offset;
        word.clear();
        let n = reader
            .by_ref()
            .take(MAX_WORD_BYTES as u64 + 1)
            .read_until(b' ', &mut word)
            .map_err(EmbeddingsError::io(path))?;
        offset += n as u64;
        if word.last() != Some(&b' ') {
            let message = if n > MAX_WORD_BYTES {
                format!(
                    "no space after the word within {MAX_WORD_BYTES} bytes: is this really word2vec binary?"
                )
            } else {
                format!("unexpected end of file: the header announces {n_words} words")
            };
            return Err(error(start, message));
        }
        word.pop();
        let text = String::from_utf8(std::mem::take(&mut word))
            .map_err(|e| error(start, format!("the word is not valid UTF-8 ({})", e.utf8_error())))?;
        reader.read_exact(&mut values).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                error(
                    start,
                    format!("unexpected end of file inside the {dim} little-endian f32 values of `{text}`"),
                )
            } else {
                EmbeddingsError::Io {
                    path: path.to_owned(),
                    source: e,
                }
            }
        })?;
        offset += values.len() as u64;
        vectors.extend(
            values
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        );
        words.push(text);
    }
    offset += skip_newlines(reader).map_err(EmbeddingsError::io(path))?;
    if !reader.fill_buf().map_err(EmbeddingsError::io(path))?.is_empty() {
        return Err(EmbeddingsError::Binary {
            path: path.to_owned(),
            record: n_words + 1,
            offset,
            message: format!("unexpected data after the {n_words} words the header announces"),
        });
    }
    Embeddings::new(words, dim, vectors).map_err(|e| EmbeddingsError::InvalidContent {
        path: path.to_owned(),
        source: Box::new(e),
    })
}

/// Consumes `\n` bytes; returns how many.
fn skip_newlines(reader: &mut impl BufRead) -> std::io::Result<u64> {
    let mut skipped = 0;
    loop {
        let buf = reader.fill_buf()?;
        let n = buf.iter().take_while(|&&b| b == b'\n').count();
        let done = n < buf.len() || buf.is_empty();
        reader.consume(n);
        skipped += n as u64;
        if done {
            return Ok(skipped);
        }
    }
}

/// Writes `emb` in word2vec.c's binary layout.
pub(crate) fn write_binary(writer: &mut impl Write, emb: &Embeddings) -> std::io::Result<()> {
    writeln!(writer, "{} {}", emb.n_words(), emb.dim())?;
    let mut record = Vec::new();
    for (word, row) in emb.words().iter().zip(emb.rows()) {
        record.clear();
        record.extend_from_slice(word.as_bytes());
        record.push(b' ');
        for &value in row {
            record.extend_from_slice(&value.to_le_bytes());
        }
        record.push(b'\n');
        writer.write_all(&record)?;
    }
    Ok(())
}
