//! finalfusion (`.fifu`) files through the `finalfusion` crate: a `SimpleVocab`, an `NdArray`
//! storage of L2-normalised rows, `NdNorms` with the row norms, and optional TOML `Metadata`.
//!
//! **Round trip.** Writing stores `u = x / ‖x‖` and `‖x‖` (norm accumulated in `f64`, both
//! rounded to `f32`); reading gives back `u · ‖x‖`. Each rounding is at most half an ulp, so a
//! value comes back within about 1.5 ulp of the original (relative error ≤ ~2e-7); it is not
//! always bit-identical. A zero vector is stored as a zero row with norm 0 and comes back as
//! zeros. Files without a norms chunk (written by other tools) read as their stored rows.
//! Metadata round-trips exactly.
//!
//! Before handing a file to finalfusion, the reader walks its chunk headers itself: finalfusion
//! panics on duplicate words and silently drops a truncated norms chunk; here both are errors
//! that name the file.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use finalfusion::embeddings::Embeddings as FfEmbeddings;
use finalfusion::io::{ReadEmbeddings, WriteEmbeddings};
use finalfusion::metadata::Metadata;
use finalfusion::norms::NdNorms;
use finalfusion::storage::NdArray;
use finalfusion::vocab::SimpleVocab;
use ndarray015::{Array1, Array2};
use rustc_hash::FxHashMap;

use crate::embeddings::l2_norm;
use crate::{Embeddings, EmbeddingsError};

// finalfusion chunk identifiers (finalfusion::chunks::io::ChunkIdentifier, which is not public).
const CHUNK_SIMPLE_VOCAB: u32 = 1;
const CHUNK_ND_ARRAY: u32 = 2;
const CHUNK_METADATA: u32 = 5;
const CHUNK_ND_NORMS: u32 = 6;

fn chunk_name(id: u32) -> &'static str {
    match id {
        1 => "SimpleVocab",
        2 => "NdArray",
        3 => "BucketSubwordVocab",
        4 => "QuantizedArray",
        5 => "Metadata",
        6 => "NdNorms",
        7 => "FastTextSubwordVocab",
        8 => "ExplicitSubwordVocab",
        9 => "FloretSubwordVocab",
        _ => "unknown",
    }
}

/// Writes `emb` to `writer` as a finalfusion file.
pub(crate) fn write_fifu(
    writer: &mut (impl Write + Seek),
    emb: &Embeddings,
    path: &Path,
) -> Result<(), EmbeddingsError> {
    let (n_words, dim) = (emb.n_words(), emb.dim());
    let mut unit = Vec::with_capacity(n_words * dim);
    let mut norms = Vec::with_capacity(n_words);
    for (i, row) in emb.rows().enumerate() {
        let norm = l2_norm(row);
        if !(norm as f32).is_finite() {
            return Err(EmbeddingsError::Fifu {
                path: path.to_owned(),
                message: format!(
                    "the norm of `{}` (row {i}) is {norm:.3e}, beyond f32: finalfusion stores norms as f32",
                    emb.word(i)
                ),
            });
        }
        if norm > 0.0 {
            unit.extend(row.iter().map(|&x| (f64::from(x) / norm) as f32));
        } else {
            unit.extend(std::iter::repeat_n(0.0f32, dim));
        }
        norms.push(norm as f32);
    }
    let matrix = Array2::from_shape_vec((n_words, dim), unit).expect("n_words × dim values");
    let ff = FfEmbeddings::new(
        emb.metadata().cloned().map(Metadata::new),
        SimpleVocab::new(emb.words().to_vec()),
        NdArray::new(matrix),
        NdNorms::new(Array1::from(norms)),
    );
    ff.write_embeddings(writer).map_err(|e| EmbeddingsError::Fifu {
        path: path.to_owned(),
        message: format!("cannot write finalfusion embeddings: {}", error_chain(&e)),
    })
}

/// Reads a finalfusion file with a simple vocabulary and an array storage.
/// The words and the dimension of the finalfusion file at `path`, from its chunk headers.
pub(crate) fn shape(path: &Path) -> Result<(usize, usize), EmbeddingsError> {
    let file = File::open(path).map_err(EmbeddingsError::io(path))?;
    let file_len = file.metadata().map_err(EmbeddingsError::io(path))?.len();
    let layout = scan(&mut BufReader::new(file), file_len).map_err(|message| EmbeddingsError::Fifu {
        path: path.to_owned(),
        message,
    })?;
    Ok((layout.words.len(), layout.dim))
}

pub(crate) fn read_fifu(path: &Path) -> Result<Embeddings, EmbeddingsError> {
    let file = File::open(path).map_err(EmbeddingsError::io(path))?;
    let file_len = file.metadata().map_err(EmbeddingsError::io(path))?.len();
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let layout = scan(&mut reader, file_len).map_err(|message| EmbeddingsError::Fifu {
        path: path.to_owned(),
        message,
    })?;
    reader
        .seek(SeekFrom::Start(0))
        .map_err(EmbeddingsError::io(path))?;
    let ff: FfEmbeddings<SimpleVocab, NdArray> =
        FfEmbeddings::read_embeddings(&mut reader).map_err(|e| EmbeddingsError::Fifu {
            path: path.to_owned(),
            message: format!("cannot read finalfusion embeddings: {}", error_chain(&e)),
        })?;
    let (metadata, _vocab, storage, norms) = ff.into_parts();
    if layout.has_norms && norms.is_none() {
        return Err(EmbeddingsError::Fifu {
            path: path.to_owned(),
            message: "the header lists a norms chunk, but finalfusion could not read it".to_owned(),
        });
    }
    let matrix: Array2<f32> = storage.into();
    let (n_rows, dim) = matrix.dim();
    if n_rows != layout.words.len() || dim != layout.dim {
        return Err(EmbeddingsError::Fifu {
            path: path.to_owned(),
            message: format!(
                "finalfusion read a {n_rows} × {dim} matrix, the chunk header says {} × {}",
                layout.words.len(),
                layout.dim
            ),
        });
    }
    let mut vectors = if matrix.is_standard_layout() {
        matrix.into_raw_vec()
    } else {
        matrix.iter().copied().collect()
    };
    if let Some(norms) = norms {
        for (row, &norm) in vectors.chunks_exact_mut(dim).zip(norms.iter()) {
            for x in row {
                *x = (f64::from(*x) * f64::from(norm)) as f32;
            }
        }
    }
    let emb = Embeddings::new(layout.words, dim, vectors).map_err(|e| EmbeddingsError::InvalidContent {
        path: path.to_owned(),
        source: Box::new(e),
    })?;
    Ok(emb.with_metadata(metadata.map(|m| (*m).clone())))
}

/// `e` and its sources, joined with `: `.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out += ": ";
        out += &s.to_string();
        source = s.source();
    }
    out
}

/// What the chunk walk found.
struct Layout {
    words: Vec<String>,
    dim: usize,
    has_norms: bool,
}

/// Walks the chunk headers: checks the magic, the version, that the chunks are
/// `[Metadata] SimpleVocab NdArray [NdNorms]`, that every chunk lies inside the file, that the
/// words are unique and that the matrix and the norms have one row per word.
fn scan(reader: &mut (impl Read + Seek), file_len: u64) -> Result<Layout, String> {
    let mut r = LeReader {
        inner: reader,
        pos: 0,
    };
    let mut magic = [0u8; 4];
    r.bytes(&mut magic, "the magic")?;
    if &magic != b"FiFu" {
        return Err(format!(
            "not a finalfusion file: it starts with {magic:?}, not `FiFu`"
        ));
    }
    let version = r.u32("the format version")?;
    if version != 0 {
        return Err(format!(
            "finalfusion format version {version}; only version 0 is supported"
        ));
    }
    let n_chunks = r.u32("the number of chunks")?;
    if n_chunks > 16 {
        return Err(format!(
            "the header lists {n_chunks} chunks; a finalfusion file has at most 4"
        ));
    }
    let ids = (0..n_chunks)
        .map(|_| r.u32("a chunk identifier"))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rest = ids.as_slice();
    let has_metadata = rest.first() == Some(&CHUNK_METADATA);
    if has_metadata {
        rest = &rest[1..];
    }
    let has_norms = rest.get(2) == Some(&CHUNK_ND_NORMS);
    let expected = [CHUNK_SIMPLE_VOCAB, CHUNK_ND_ARRAY];
    if !(rest.starts_with(&expected) && rest.len() == 2 + usize::from(has_norms)) {
        let names: Vec<_> = ids.iter().map(|&id| chunk_name(id)).collect();
        return Err(format!(
            "unsupported finalfusion chunks [{}]: expected [Metadata] SimpleVocab NdArray [NdNorms] \
             (plain word embeddings; subword vocabularies and quantised storage are not supported)",
            names.join(", ")
        ));
    }
    if has_metadata {
        let len = r.chunk_start(CHUNK_METADATA, file_len)?;
        r.skip(len)?;
    }
    // SimpleVocab: u64 n_words, then per word u32 length + UTF-8 bytes.
    let len = r.chunk_start(CHUNK_SIMPLE_VOCAB, file_len)?;
    let end = r.pos + len;
    let n_words = r.u64("the vocabulary size")?;
    if n_words > len / 4 {
        return Err(format!(
            "the vocabulary chunk announces {n_words} words but is only {len} bytes long"
        ));
    }
    let mut words = Vec::with_capacity(n_words as usize);
    let mut seen = FxHashMap::with_capacity_and_hasher(n_words as usize, Default::default());
    for row in 0..n_words as usize {
        let word_len = u64::from(r.u32("a word length")?);
        if r.pos + word_len > end {
            return Err(format!(
                "word {} runs past the end of the vocabulary chunk",
                row + 1
            ));
        }
        let mut bytes = vec![0u8; word_len as usize];
        r.bytes(&mut bytes, "a word")?;
        let word =
            String::from_utf8(bytes).map_err(|e| format!("word {} is not valid UTF-8 ({e})", row + 1))?;
        if let Some(first) = seen.insert(word.clone(), row) {
            return Err(format!(
                "duplicate word `{word}` in the vocabulary (rows {first} and {row}): every word must be unique"
            ));
        }
        words.push(word);
    }
    r.skip(end - r.pos)?;
    // NdArray: u64 rows, u32 cols, u32 type id, padding, rows × cols f32.
    let len = r.chunk_start(CHUNK_ND_ARRAY, file_len)?;
    let end = r.pos + len;
    let rows = r.u64("the number of matrix rows")?;
    let dim = r.u32("the number of matrix columns")? as usize;
    if rows != n_words {
        return Err(format!(
            "the matrix has {rows} rows but the vocabulary {n_words} words"
        ));
    }
    let data_bytes = rows
        .checked_mul(dim as u64 * 4)
        .ok_or("the matrix size overflows")?;
    if data_bytes > len {
        return Err(format!(
            "the matrix chunk ({len} bytes) is too short for {rows} × {dim} values"
        ));
    }
    r.skip(end - r.pos)?;
    if has_norms {
        let len = r.chunk_start(CHUNK_ND_NORMS, file_len)?;
        let n_norms = r.u64("the number of norms")?;
        if n_norms != n_words {
            return Err(format!(
                "the norms chunk has {n_norms} norms but the vocabulary {n_words} words"
            ));
        }
        if n_norms * 4 > len {
            return Err(format!(
                "the norms chunk ({len} bytes) is too short for {n_norms} values"
            ));
        }
    }
    Ok(Layout {
        words,
        dim,
        has_norms,
    })
}

/// Little-endian reads that count the position and say what they were reading when they fail.
struct LeReader<'a, R> {
    inner: &'a mut R,
    pos: u64,
}

impl<R: Read + Seek> LeReader<'_, R> {
    fn bytes(&mut self, buf: &mut [u8], what: &str) -> Result<(), String> {
        self.inner.read_exact(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => {
                format!(
                    "truncated file: it ends at byte {} while reading {what}",
                    self.pos
                )
            }
            _ => format!("cannot read {what} at byte {}: {e}", self.pos),
        })?;
        self.pos += buf.len() as u64;
        Ok(())
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let mut b = [0u8; 4];
        self.bytes(&mut b, what)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self, what: &str) -> Result<u64, String> {
        let mut b = [0u8; 8];
        self.bytes(&mut b, what)?;
        Ok(u64::from_le_bytes(b))
    }

    fn skip(&mut self, n: u64) -> Result<(), String> {
        let n = i64::try_from(n).map_err(|_| "a chunk length overflows".to_owned())?;
        self.inner
            .seek(SeekFrom::Current(n))
            .map_err(|e| format!("cannot seek past byte {}: {e}", self.pos))?;
        self.pos += n as u64;
        Ok(())
    }

    /// Reads a chunk's identifier (which must be `id`) and length; checks that the chunk ends
    /// inside the file. Returns the length of the rest of the chunk.
    fn chunk_start(&mut self, id: u32, file_len: u64) -> Result<u64, String> {
        let at = self.pos;
        let found = self.u32("a chunk identifier")?;
        if found != id {
            return Err(format!(
                "expected a {} chunk at byte {at}, found chunk identifier {found} ({})",
                chunk_name(id),
                chunk_name(found)
            ));
        }
        let len = self.u64("a chunk length")?;
        if self.pos.checked_add(len).is_none_or(|end| end > file_len) {
            return Err(format!(
                "truncated file: the {} chunk at byte {at} needs {len} bytes, the file has {}",
                chunk_name(id),
                file_len - self.pos
            ));
        }
        Ok(len)
    }
}
