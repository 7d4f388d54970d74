//! Word embedding files: finalfusion `.fifu`, word2vec text and binary, and GloVe text.
//!
//! [`Embeddings`] holds a vocabulary and its **raw** vectors as one row-major `f32` matrix, plus
//! optional TOML metadata (seed, corpus checksum, resolved configuration). [`read()`] and [`write()`]
//! convert between it and the four [`Format`]s; [`read()`] detects the format when none is given.
//!
//! ```no_run
//! use std::path::Path;
//! use retest_embeddings::{Format, read, write};
//!
//! let emb = read(Path::new("seed-00.fifu"), None)?;
//! write(Path::new("seed-00.w2v.txt"), &emb, Format::Word2VecText)?;
//! # Ok::<(), retest_embeddings::EmbeddingsError>(())
//! ```
//!
//! * `.fifu` goes through the `finalfusion` crate (0.18): rows stored L2-normalised with their
//!   norms, so finalfusion tools see unit vectors and reading gives back the raw vectors to within
//!   ~1.5 ulp (see [`Format::Fifu`] and the `fifu` module notes). Metadata round-trips exactly.
//! * The text and binary formats are read by this crate's own parsers: a malformed line is an
//!   error naming the file, the line (or binary record and byte offset) and what was expected;
//!   words are never trimmed or merged. Text is written in the shortest decimal form that reads
//!   back to the same `f32`, so text and binary round trips are exact.
//! * Output is what gensim's `KeyedVectors.load_word2vec_format` and word2vec.c read.
//! * [`write()`] is atomic: a temporary file in the target folder, fsync, rename.
//!
//! finalfusion's API uses ndarray 0.15 and toml 0.8: both stay inside this crate, except
//! `toml::Table` for metadata, re-exported as [`toml`] so callers build the same type.

mod binary;
mod embeddings;
mod error;
mod fifu;
mod format;
mod text;

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

pub use embeddings::{Embeddings, describe};
pub use error::EmbeddingsError;
pub use format::{Format, detect_format, shape};
/// The toml version finalfusion's metadata uses (0.8); build metadata tables with it.
pub use toml;

use text::Header;

/// Reads embeddings from `path` in `format`, or in the format [`detect_format`] finds.
///
/// A file that fails to read in the format asked for, and whose content [`detect_format`]
/// takes for another format, says so ([`EmbeddingsError::Contradicts`]).
pub fn read(path: &Path, format: Option<Format>) -> Result<Embeddings, EmbeddingsError> {
    let Some(given) = format else {
        return read_as(path, detect_format(path)?);
    };
    read_as(path, given).map_err(|error| match detect_format(path) {
        Ok(detected) if detected != given => EmbeddingsError::Contradicts {
            error: Box::new(error),
            given,
            detected,
        },
        _ => error,
    })
}

/// Reads embeddings from `path` in `format`.
fn read_as(path: &Path, format: Format) -> Result<Embeddings, EmbeddingsError> {
    if format == Format::Fifu {
        return fifu::read_fifu(path);
    }
    let file = File::open(path).map_err(EmbeddingsError::io(path))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    format::refuse_byte_order_mark(path, reader.fill_buf().map_err(EmbeddingsError::io(path))?)?;
    match format {
        Format::Word2VecText => text::read_text(&mut reader, path, Header::Word2Vec),
        Format::GloveText => text::read_text(&mut reader, path, Header::None),
        Format::Word2VecBinary => binary::read_binary(&mut reader, path),
        Format::Fifu => unreachable!("handled above"),
    }
}

/// Removes the temporaries an earlier write of `file_name` left in `dir` when its process was
/// killed mid-write: exactly `.<file_name>.XXXXXX.tmp` with six letters or digits, the names
/// [`write`] creates. Best effort: they never look like a finished file.
fn remove_stale_temporaries(dir: &Path, file_name: &str) {
    if file_name.is_empty() {
        return;
    }
    let prefix = format!(".{file_name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let stale = name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .is_some_and(|random| random.len() == 6 && random.bytes().all(|b| b.is_ascii_alphanumeric()));
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `emb` to `path` in `format`, atomically: the data goes to a temporary file in the same
/// folder, which is flushed to disk and then renamed over `path`. A failed or killed write never
/// leaves a partial file at `path`; the temporary a killed write leaves behind is removed by the
/// next write of the same file. The folder must exist. The file gets the permissions of every
/// file retest writes (`retest_fs`: those of a new file under the process umask).
///
/// GloVe text has no header, so embeddings with no words cannot be read back from it.
pub fn write(path: &Path, emb: &Embeddings, format: Format) -> Result<(), EmbeddingsError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale_temporaries(dir, &file_name);
    retest_fs::write_atomic_with(path, |writer| {
        match format {
            Format::Fifu => fifu::write_fifu(writer, emb, path)?,
            Format::Word2VecText => {
                text::write_text(writer, emb, Header::Word2Vec).map_err(EmbeddingsError::io(path))?
            }
            Format::GloveText => {
                text::write_text(writer, emb, Header::None).map_err(EmbeddingsError::io(path))?
            }
            Format::Word2VecBinary => binary::write_binary(writer, emb).map_err(EmbeddingsError::io(path))?,
        }
        Ok(())
    })
}
