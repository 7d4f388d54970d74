//! Word-similarity evaluation: correlation between human scores and model cosines, as gensim's
//! `KeyedVectors.evaluate_word_pairs` computes it.

use retest_embeddings::Embeddings;
use serde::Serialize;

use crate::stats::{pearson, spearman};
use crate::vocab::Lookup;
use crate::{EvalOptions, WordPair};

/// The result of one word-similarity benchmark.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimilarityResult {
    /// The benchmark's name (`wordsim353`, `simlex999`, `men`, …).
    pub name: String,
    /// Spearman's ρ between human scores and model cosines (NaN with fewer than 2 pairs or a
    /// constant side; serialised as `null`).
    pub spearman: f64,
    /// Pearson's r between human scores and model cosines.
    pub pearson: f64,
    /// Pairs with both words in the (restricted) vocabulary.
    pub pairs_used: usize,
    /// Pairs skipped because a word is out of vocabulary (gensim's `dummy4unknown=False`).
    pub pairs_skipped: usize,
    /// Pairs used with a word whose vector is all zeros: their cosine is 0, as gensim's.
    pub pairs_zero_vector: usize,
}

/// Why a benchmark's correlations are NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undefined {
    /// Fewer than 2 pairs have both words in the vocabulary.
    TooFewPairs,
    /// The human scores or the model's cosines of the pairs are all the same.
    Constant,
}

impl Undefined {
    /// The stable name (`too_few_pairs`, `constant`), as tables write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Undefined::TooFewPairs => "too_few_pairs",
            Undefined::Constant => "constant",
        }
    }

    /// The reason in words.
    pub fn reason(self) -> &'static str {
        match self {
            Undefined::TooFewPairs => "fewer than 2 pairs have both words in the vocabulary",
            Undefined::Constant => "the human scores or the model's cosines of the pairs are all the same",
        }
    }
}

impl SimilarityResult {
    /// Why the correlations are NaN, if they are.
    pub fn undefined(&self) -> Option<Undefined> {
        if self.pairs_used < 2 {
            Some(Undefined::TooFewPairs)
        } else if self.spearman.is_nan() {
            Some(Undefined::Constant)
        } else {
            None
        }
    }
}

/// [`evaluate_similarity_with`] with gensim's defaults, [`EvalOptions::GENSIM`].
pub fn evaluate_similarity(emb: &Embeddings, pairs: &[WordPair], name: &str) -> SimilarityResult {
    evaluate_similarity_with(emb, pairs, name, &EvalOptions::GENSIM)
}

/// Correlates the human scores of `pairs` with the model's cosine similarities, as gensim 4's
/// `evaluate_word_pairs(restrict_vocab, case_insensitive, dummy4unknown=False)`:
///
/// * a pair is used when both words are among the first `restrict_vocab` rows (with
///   [`crate::CaseHandling::Insensitive`], after upper-casing, the most frequent variant standing
///   for all); otherwise it is skipped and counted in `pairs_skipped`;
/// * the model score is cos(u, v) = u·v / (‖u‖‖v‖) of the raw vectors, computed in `f64`
///   (gensim: `f32`), and 0 when a vector is zero (gensim's `unitvec` leaves zero vectors zero);
/// * Spearman's ρ with average ranks for ties and Pearson's r, as scipy computes them.
pub fn evaluate_similarity_with(
    emb: &Embeddings,
    pairs: &[WordPair],
    name: &str,
    options: &EvalOptions,
) -> SimilarityResult {
    similarity_with_lookup(emb, &Lookup::new(emb, options), pairs, name)
}

pub(crate) fn similarity_with_lookup(
    emb: &Embeddings,
    lookup: &Lookup,
    pairs: &[WordPair],
    name: &str,
) -> SimilarityResult {
    let mut gold = Vec::with_capacity(pairs.len());
    let mut model = Vec::with_capacity(pairs.len());
    let mut pairs_zero_vector = 0;
    for (a, b, score) in pairs {
        if let (Some(i), Some(j)) = (lookup.get(a), lookup.get(b)) {
            let (i, j) = (i as usize, j as usize);
            pairs_zero_vector += usize::from(emb.is_zero_row(i) || emb.is_zero_row(j));
            gold.push(*score);
            model.push(cosine(emb.row(i), emb.row(j)));
        }
    }
    SimilarityResult {
        name: name.to_owned(),
        spearman: spearman(&gold, &model),
        pearson: pearson(&gold, &model),
        pairs_used: gold.len(),
        pairs_skipped: pairs.len() - gold.len(),
        pairs_zero_vector,
    }
}

/// cos(u, v) in `f64`; 0 when either vector is zero.
pub(crate) fn cosine(u: &[f32], v: &[f32]) -> f64 {
    retest_measures::cosine(u.iter().map(|&a| f64::from(a)), v.iter().map(|&b| f64::from(b)))
}
