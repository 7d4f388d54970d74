//! The on-disk format of an encoded corpus (`corpus.bin`) and a zero-copy view over it.
//!
//! All integers are little-endian. The file is a 64-byte header followed by two arrays:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `b"RTCORPUS"` |
//! | 8 | 4 | format version, `u32` = 1 |
//! | 12 | 4 | header length in bytes, `u32` = 64 |
//! | 16 | 8 | vocabulary size `V`, `u64` (every token id is `< V`) |
//! | 24 | 8 | number of tokens `T`, `u64` |
//! | 32 | 8 | number of sentences `S`, `u64` |
//! | 40 | 8 | byte offset of the token array, `u64` = 64 |
//! | 48 | 8 | byte offset of the sentence-end array, `u64` = `64 + 4T` rounded up to a multiple of 8 |
//! | 56 | 8 | total file length in bytes, `u64` = sentence-end offset `+ 8S` |
//! | 64 | 4T | token ids, `u32` each |
//! | … | 0 or 4 | zero padding, so the next array is 8-byte aligned |
//! | … | 8S | sentence end offsets (in tokens), `u64` each, strictly increasing, the last = `T` |
//!
//! Sentence `i` is `tokens[end[i-1]..end[i]]` with `end[-1] = 0`; no sentence is empty. The
//! words belong in a separate `vocab.txt` (`word\tcount` lines in id order).
//!
//! The writer is deterministic: the same corpus always gives the same bytes. Because both arrays
//! are 8-byte aligned relative to the start of the file, a memory-mapped file (page-aligned) or
//! an [`AlignedBytes`] buffer can be viewed in place with [`EncodedCorpusView::parse`].

use std::io::{self, Read, Write};

use crate::error::CorpusError;

/// Magic bytes at the start of every encoded corpus.
pub const MAGIC: &[u8; 8] = b"RTCORPUS";
/// Format version written by this build (and the only one it reads).
pub const FORMAT_VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 64;

fn align8(n: u64) -> u64 {
    n.div_ceil(8) * 8
}

/// Writes an encoded corpus in the format described in the module documentation.
pub(crate) fn write_binary(
    mut w: impl Write,
    vocab_size: u64,
    tokens: &[u32],
    sentence_ends: &[u64],
) -> io::Result<()> {
    let n_tokens = tokens.len() as u64;
    let n_sentences = sentence_ends.len() as u64;
    let tokens_offset = HEADER_LEN as u64;
    let ends_offset = align8(tokens_offset + 4 * n_tokens);
    let file_len = ends_offset + 8 * n_sentences;

    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    header.extend_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    for field in [
        vocab_size,
        n_tokens,
        n_sentences,
        tokens_offset,
        ends_offset,
        file_len,
    ] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    debug_assert_eq!(header.len(), HEADER_LEN);
    w.write_all(&header)?;

    const CHUNK: usize = 1 << 14;
    let mut buf = Vec::with_capacity(CHUNK * 8);
    for chunk in tokens.chunks(CHUNK) {
        buf.clear();
        for &t in chunk {
            buf.extend_from_slice(&t.to_le_bytes());
        }
        w.write_all(&buf)?;
    }
    let padding = (ends_offset - tokens_offset - 4 * n_tokens) as usize;
    w.write_all(&[0u8; 8][..padding])?;
    for chunk in sentence_ends.chunks(CHUNK) {
        buf.clear();
        for &e in chunk {
            buf.extend_from_slice(&e.to_le_bytes());
        }
        w.write_all(&buf)?;
    }
    w.flush()
}

/// A borrowed, validated encoded corpus: token ids and sentence ends, e.g. over a memory-mapped
/// `corpus.bin` (see the module documentation for the format).
#[derive(Debug, Clone, Copy)]
pub struct EncodedCorpusView<'a> {
    tokens: &'a [u32],
    sentence_ends: &'a [u64],
    vocab_size: u64,
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

impl<'a> EncodedCorpusView<'a> {
    pub(crate) fn from_slices(
        tokens: &'a [u32],
        sentence_ends: &'a [u64],
        vocab_size: u64,
    ) -> EncodedCorpusView<'a> {
        EncodedCorpusView {
            tokens,
            sentence_ends,
            vocab_size,
        }
    }

    /// Validates `bytes` as an encoded corpus and views its arrays in place.
    ///
    /// Checks, in order: the magic bytes, the header length, the version, the header's offsets
    /// and lengths against each other and against `bytes.len()`, the buffer's 8-byte alignment,
    /// that sentence ends strictly increase up to the number of tokens, and that every token
    /// id is below the vocabulary size. Each failure is a specific [`CorpusError`].
    pub fn parse(bytes: &'a [u8]) -> Result<EncodedCorpusView<'a>, CorpusError> {
        let available = bytes.len() as u64;
        let magic_len = bytes.len().min(MAGIC.len());
        if bytes[..magic_len] != MAGIC[..magic_len] {
            return Err(CorpusError::BadMagic {
                found: String::from_utf8_lossy(&bytes[..magic_len]).into_owned(),
            });
        }
        if bytes.len() < HEADER_LEN {
            return Err(CorpusError::Truncated {
                what: "the header",
                needed: HEADER_LEN as u64,
                available,
            });
        }
        let version = read_u32(bytes, 8);
        if version != FORMAT_VERSION {
            return Err(CorpusError::UnsupportedVersion {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let header_len = read_u32(bytes, 12);
        if header_len as usize != HEADER_LEN {
            return Err(CorpusError::Corrupt(format!(
                "header length is {header_len}, expected {HEADER_LEN}"
            )));
        }
        let vocab_size = read_u64(bytes, 16);
        let n_tokens = read_u64(bytes, 24);
        let n_sentences = read_u64(bytes, 32);
        let tokens_offset = read_u64(bytes, 40);
        let ends_offset = read_u64(bytes, 48);
        let file_len = read_u64(bytes, 56);

        if vocab_size > u64::from(u32::MAX) + 1 {
            return Err(CorpusError::Corrupt(format!(
                "vocabulary size {vocab_size} does not fit u32 ids"
            )));
        }
        if tokens_offset != HEADER_LEN as u64 {
            return Err(CorpusError::Corrupt(format!(
                "token array offset is {tokens_offset}, expected {HEADER_LEN}"
            )));
        }
        let expected_ends_offset = n_tokens
            .checked_mul(4)
            .and_then(|b| b.checked_add(tokens_offset))
            .map(align8);
        if expected_ends_offset != Some(ends_offset) {
            return Err(CorpusError::Corrupt(format!(
                "sentence-end array offset is {ends_offset}, which does not match {n_tokens} tokens"
            )));
        }
        let expected_len = n_sentences
            .checked_mul(8)
            .and_then(|b| b.checked_add(ends_offset));
        if expected_len != Some(file_len) {
            return Err(CorpusError::Corrupt(format!(
                "file length field is {file_len}, which does not match {n_tokens} tokens and \
                 {n_sentences} sentences"
            )));
        }
        if available < file_len {
            return Err(CorpusError::Truncated {
                what: "the token and sentence arrays",
                needed: file_len,
                available,
            });
        }
        if available > file_len {
            return Err(CorpusError::Corrupt(format!(
                "{} unexpected bytes after the end of the sentence array (header says {file_len} \
                 bytes, found {available})",
                available - file_len
            )));
        }
        if cfg!(target_endian = "big") {
            return Err(CorpusError::Corrupt(
                "the little-endian format cannot be viewed in place on a big-endian host".into(),
            ));
        }
        // Offsets fit `usize`: they are at most `bytes.len()`.
        let token_bytes = &bytes[tokens_offset as usize..(tokens_offset + 4 * n_tokens) as usize];
        let end_bytes = &bytes[ends_offset as usize..file_len as usize];
        let misaligned = || CorpusError::Misaligned {
            address: bytes.as_ptr() as usize,
        };
        let tokens: &[u32] = bytemuck::try_cast_slice(token_bytes).map_err(|_| misaligned())?;
        let sentence_ends: &[u64] = bytemuck::try_cast_slice(end_bytes).map_err(|_| misaligned())?;

        let mut previous = 0u64;
        for (i, &end) in sentence_ends.iter().enumerate() {
            if end <= previous || end > n_tokens {
                return Err(CorpusError::Corrupt(format!(
                    "sentence {i} ends at token {end}, after the previous end {previous}; \
                     expected strictly increasing ends up to {n_tokens}"
                )));
            }
            previous = end;
        }
        if previous != n_tokens {
            return Err(CorpusError::Corrupt(format!(
                "the last sentence ends at token {previous}, expected {n_tokens}"
            )));
        }
        if let Some(max) = tokens.iter().copied().max()
            && u64::from(max) >= vocab_size
        {
            return Err(CorpusError::Corrupt(format!(
                "token id {max} is out of range for a vocabulary of {vocab_size} words"
            )));
        }
        Ok(EncodedCorpusView {
            tokens,
            sentence_ends,
            vocab_size,
        })
    }

    /// All token ids.
    pub fn tokens(&self) -> &'a [u32] {
        self.tokens
    }

    /// Number of tokens.
    pub fn n_tokens(&self) -> usize {
        self.tokens.len()
    }

    /// End offset (in tokens) of every sentence.
    pub fn sentence_ends(&self) -> &'a [u64] {
        self.sentence_ends
    }

    /// Number of sentences.
    pub fn n_sentences(&self) -> usize {
        self.sentence_ends.len()
    }

    /// Token ids of sentence `i`.
    ///
    /// # Panics
    /// If `i >= self.n_sentences()`.
    pub fn sentence(&self, i: usize) -> &'a [u32] {
        let start = if i == 0 {
            0
        } else {
            self.sentence_ends[i - 1] as usize
        };
        &self.tokens[start..self.sentence_ends[i] as usize]
    }

    /// Sentences in order.
    pub fn sentences(&self) -> impl ExactSizeIterator<Item = &'a [u32]> + 'a {
        let view = *self;
        (0..self.n_sentences()).map(move |i| view.sentence(i))
    }

    /// Vocabulary size the corpus was encoded with (every id is below it).
    pub fn vocab_size(&self) -> usize {
        self.vocab_size as usize
    }
}

/// An 8-byte-aligned byte buffer, for viewing an encoded corpus that was read into memory
/// instead of memory-mapped.
#[derive(Debug, Clone, Default)]
pub struct AlignedBytes {
    words: Vec<u64>,
    len: usize,
}

impl AlignedBytes {
    /// Reads a whole stream into an aligned buffer.
    pub fn read_from(mut r: impl Read) -> io::Result<AlignedBytes> {
        let mut words: Vec<u64> = vec![0; 1 << 13];
        let mut len = 0usize;
        loop {
            if len == words.len() * 8 {
                let grown = words.len() * 2;
                words.resize(grown, 0);
            }
            let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
            match r.read(&mut bytes[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        words.truncate(len.div_ceil(8));
        Ok(AlignedBytes { words, len })
    }

    /// Copies a byte slice into an aligned buffer.
    pub fn from_bytes(bytes: &[u8]) -> AlignedBytes {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        AlignedBytes {
            words,
            len: bytes.len(),
        }
    }

    /// The bytes (starting at an 8-byte-aligned address).
    pub fn as_bytes(&self) -> &[u8] {
        &bytemuck::cast_slice::<u64, u8>(&self.words)[..self.len]
    }
}
