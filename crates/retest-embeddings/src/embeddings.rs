//! The in-memory embedding: a vocabulary, a row-major matrix of raw vectors and optional metadata.

use std::fmt;

use rustc_hash::FxHashMap;

use crate::EmbeddingsError;

/// Word embeddings held in memory: `n_words` unique words and their **raw** (not normalised)
/// vectors as one row-major `n_words × dim` matrix of `f32`, plus optional TOML metadata.
///
/// Row order is the file's order; for trained models that is descending corpus frequency,
/// which evaluation relies on (`restrict_vocab` keeps the first rows).
///
/// Invariants, checked by [`Embeddings::new`] and therefore true of every value of this type:
/// `dim > 0`; `vectors.len() == words.len() * dim`; words are unique, non-empty and contain no
/// ASCII whitespace (space, `\t`, `\n`, `\v`, `\f`, `\r`), so every text format can represent
/// them (other Unicode whitespace, such as U+00A0, is allowed: no reader here splits on it);
/// every value is finite. The fields are private so that the invariants and the word index
/// cannot go stale; [`Embeddings::into_parts`] hands them back for changes.
#[derive(Clone)]
pub struct Embeddings {
    words: Vec<String>,
    dim: usize,
    vectors: Vec<f32>,
    metadata: Option<toml::Table>,
    index: FxHashMap<String, usize>,
}

/// The bytes C's `isspace` treats as whitespace: word2vec.c, GloVe and every reader here split on them.
const ASCII_WHITESPACE: &[u8] = b" \t\n\x0b\x0c\r";

impl Embeddings {
    /// Builds embeddings from words and their raw vectors (row-major, `words.len() × dim`),
    /// without metadata. Fails, naming the offending row and word, when an invariant of the type
    /// does not hold (see [`Embeddings`]).
    pub fn new(words: Vec<String>, dim: usize, vectors: Vec<f32>) -> Result<Self, EmbeddingsError> {
        if dim == 0 {
            return Err(EmbeddingsError::ZeroDim);
        }
        let expected = words.len().checked_mul(dim).ok_or(EmbeddingsError::Shape {
            n_words: words.len(),
            dim,
            len: vectors.len(),
            expected: usize::MAX,
        })?;
        if vectors.len() != expected {
            return Err(EmbeddingsError::Shape {
                n_words: words.len(),
                dim,
                len: vectors.len(),
                expected,
            });
        }
        let mut index = FxHashMap::with_capacity_and_hasher(words.len(), Default::default());
        for (row, word) in words.iter().enumerate() {
            if let Some(problem) = word_problem(word) {
                return Err(EmbeddingsError::InvalidWord {
                    row,
                    word: word.clone(),
                    problem,
                });
            }
            if let Some(&first) = index.get(word.as_str()) {
                return Err(EmbeddingsError::DuplicateWord {
                    word: word.clone(),
                    first,
                    second: row,
                });
            }
            index.insert(word.clone(), row);
        }
        for (row, values) in vectors.chunks_exact(dim).enumerate() {
            if let Some(component) = values.iter().position(|v| !v.is_finite()) {
                return Err(EmbeddingsError::NonFinite {
                    row,
                    word: words[row].clone(),
                    component,
                    value: values[component],
                });
            }
        }
        Ok(Embeddings {
            words,
            dim,
            vectors,
            metadata: None,
            index,
        })
    }

    /// The same embeddings with `metadata` (free-form TOML: seed, corpus checksum, configuration).
    pub fn with_metadata(mut self, metadata: Option<toml::Table>) -> Self {
        self.metadata = metadata;
        self
    }

    /// Replaces the metadata, returning the old one.
    pub fn set_metadata(&mut self, metadata: Option<toml::Table>) -> Option<toml::Table> {
        std::mem::replace(&mut self.metadata, metadata)
    }

    /// The metadata, if any.
    pub fn metadata(&self) -> Option<&toml::Table> {
        self.metadata.as_ref()
    }

    /// The vocabulary, in row order.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The word of row `row`. Panics if `row >= n_words()`.
    pub fn word(&self, row: usize) -> &str {
        &self.words[row]
    }

    /// Number of words (rows).
    pub fn n_words(&self) -> usize {
        self.words.len()
    }

    /// Vector dimension (columns), at least 1.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// All raw vectors, row-major `n_words × dim`.
    pub fn vectors(&self) -> &[f32] {
        &self.vectors
    }

    /// The raw vector of row `row`. Panics if `row >= n_words()`.
    pub fn row(&self, row: usize) -> &[f32] {
        &self.vectors[row * self.dim..(row + 1) * self.dim]
    }

    /// Whether row `row` is all zeros (a padding row of some pretrained files: no direction,
    /// so no cosine). Panics if `row >= n_words()`.
    pub fn is_zero_row(&self, row: usize) -> bool {
        self.row(row).iter().all(|&x| x == 0.0)
    }

    /// The raw vectors, one slice per row.
    pub fn rows(&self) -> std::slice::ChunksExact<'_, f32> {
        self.vectors.chunks_exact(self.dim)
    }

    /// The row of `word` (exact, case-sensitive match), if it is in the vocabulary.
    pub fn index(&self, word: &str) -> Option<usize> {
        self.index.get(word).copied()
    }

    /// The raw vector of `word`, if it is in the vocabulary.
    pub fn get(&self, word: &str) -> Option<&[f32]> {
        self.index(word).map(|row| self.row(row))
    }

    /// The Euclidean norm of every row, accumulated in `f64`.
    pub fn norms(&self) -> Vec<f32> {
        self.rows().map(l2_norm).map(|n| n as f32).collect()
    }

    /// Takes the embeddings apart: `(words, dim, vectors, metadata)`.
    pub fn into_parts(self) -> (Vec<String>, usize, Vec<f32>, Option<toml::Table>) {
        (self.words, self.dim, self.vectors, self.metadata)
    }
}

/// Euclidean norm of `v`, accumulated in `f64`.
pub(crate) fn l2_norm(v: &[f32]) -> f64 {
    v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt()
}

fn word_problem(word: &str) -> Option<&'static str> {
    if word.is_empty() {
        Some("is empty")
    } else if word.bytes().any(|b| ASCII_WHITESPACE.contains(&b)) {
        Some("contains ASCII whitespace, which no embedding text format can represent")
    } else {
        None
    }
}

/// Equal vocabularies (in order), dimensions, raw vectors (bit for bit, `==` on `f32`) and metadata.
impl PartialEq for Embeddings {
    fn eq(&self, other: &Self) -> bool {
        self.dim == other.dim
            && self.words == other.words
            && self.vectors == other.vectors
            && self.metadata == other.metadata
    }
}

/// Shows the shape, the first words and the metadata, never the whole matrix.
impl fmt::Debug for Embeddings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Embeddings")
            .field("n_words", &self.n_words())
            .field("dim", &self.dim)
            .field("first_words", &&self.words[..self.words.len().min(5)])
            .field("metadata", &self.metadata)
            .finish()
    }
}

/// A short human-readable summary for `retest embeddings info`: vocabulary size, dimension, the
/// first words, and the metadata as TOML.
pub fn describe(emb: &Embeddings) -> String {
    let mut out = format!("vocabulary: {} words\ndimension: {}\n", emb.n_words(), emb.dim());
    if emb.n_words() > 0 {
        let shown = emb.n_words().min(10);
        out += &format!("first words: {}", emb.words()[..shown].join(" "));
        if emb.n_words() > shown {
            out += " …";
        }
        out.push('\n');
    }
    match emb.metadata() {
        None => out += "metadata: none\n",
        Some(table) => {
            out += "metadata:\n";
            let text = toml::to_string(table)
                .unwrap_or_else(|e| format!("(metadata cannot be shown as TOML: {e})\n"));
            for line in text.lines() {
                if !line.is_empty() {
                    out += "  ";
                    out += line;
                }
                out.push('\n');
            }
        }
    }
    out
}
