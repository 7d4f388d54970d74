//! One embedding model as the scoring rules see it: its vocabulary lookup, raw vectors, unit
//! vectors and norms.

use rustc_hash::FxHashMap;

use crate::MeasureError;

/// A vocabulary lookup: word → id, where id is the word's row in the model.
///
/// Exact, case-sensitive matching, as Du et al. (2021) match word lists against `vocab.txt`.
#[derive(Debug, Clone)]
pub struct Vocab<'a> {
    words: &'a [String],
    index: FxHashMap<&'a str, u32>,
}

impl<'a> Vocab<'a> {
    /// Indexes `words` (id = position).
    ///
    /// # Errors
    ///
    /// A word that occurs twice, or more than `u32::MAX` words.
    pub fn new(words: &'a [String]) -> Result<Vocab<'a>, MeasureError> {
        if u32::try_from(words.len()).is_err() {
            return Err(MeasureError::BadModel {
                message: format!("{} words exceed the u32 id range", words.len()),
            });
        }
        let mut index = FxHashMap::default();
        index.reserve(words.len());
        for (id, word) in words.iter().enumerate() {
            if let Some(first) = index.insert(word.as_str(), id as u32) {
                return Err(MeasureError::DuplicateWord {
                    word: word.clone(),
                    first,
                    second: id as u32,
                });
            }
        }
        Ok(Vocab { words, index })
    }

    /// The id of `word`, if it is in the vocabulary.
    pub fn id(&self, word: &str) -> Option<u32> {
        self.index.get(word).copied()
    }

    /// The word with id `id`.
    ///
    /// # Panics
    ///
    /// If `id` is out of range.
    pub fn word(&self, id: u32) -> &'a str {
        &self.words[id as usize]
    }

    /// The words, in id order.
    pub fn words(&self) -> &'a [String] {
        self.words
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the vocabulary is empty.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// One embedding model: a vocabulary and its row-major `n × dim` raw vectors (borrowed), plus
/// the L2-normalised rows (f32, as [`retest_geometry::normalize_rows`]) and the raw norms (f64)
/// that the rules need, computed once.
#[derive(Debug, Clone)]
pub struct Model<'a> {
    vocab: Vocab<'a>,
    raw: &'a [f32],
    unit: Vec<f32>,
    norms: Vec<f64>,
    dim: usize,
}

impl<'a> Model<'a> {
    /// A model over `words` with raw vectors `raw` (row `i` is `words[i]`).
    ///
    /// # Errors
    ///
    /// `dim = 0`, `raw.len() ≠ words.len() × dim`, a non-finite component, a repeated word.
    pub fn new(words: &'a [String], raw: &'a [f32], dim: usize) -> Result<Model<'a>, MeasureError> {
        if dim == 0 {
            return Err(MeasureError::BadModel {
                message: "the dimension must be at least 1".into(),
            });
        }
        if raw.len() != words.len() * dim {
            return Err(MeasureError::BadModel {
                message: format!(
                    "{} words × dim {dim} need {} values, found {}",
                    words.len(),
                    words.len() * dim,
                    raw.len()
                ),
            });
        }
        if let Some(row) = raw
            .chunks_exact(dim)
            .position(|r| r.iter().any(|x| !x.is_finite()))
        {
            return Err(MeasureError::BadModel {
                message: format!(
                    "the vector of '{}' (id {row}) has a non-finite component",
                    words[row]
                ),
            });
        }
        let vocab = Vocab::new(words)?;
        let unit = retest_geometry::normalize_rows(raw, dim);
        let norms = retest_geometry::row_norms(raw, dim);
        Ok(Model {
            vocab,
            raw,
            unit,
            norms,
            dim,
        })
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Vocab<'a> {
        &self.vocab
    }

    /// Number of words.
    pub fn n_words(&self) -> usize {
        self.vocab.len()
    }

    /// The dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The raw vectors, row-major.
    pub fn raw(&self) -> &'a [f32] {
        self.raw
    }

    /// The unit vectors, row-major (zero rows stay zero).
    pub fn unit(&self) -> &[f32] {
        &self.unit
    }

    /// The raw vector of word `id`.
    pub fn raw_row(&self, id: u32) -> &'a [f32] {
        &self.raw[id as usize * self.dim..(id as usize + 1) * self.dim]
    }

    /// `‖w‖₂` of word `id`'s raw vector, in f64.
    pub fn norm(&self, id: u32) -> f64 {
        self.norms[id as usize]
    }
}
