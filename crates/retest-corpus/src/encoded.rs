//! The encoded corpus in memory: vocabulary, token ids, sentence ends and statistics.

use std::io::{self, Write};

use crate::format::{EncodedCorpusView, write_binary};
use crate::vocab::Vocab;

/// Corpus statistics, written as `stats.json` next to the encoded corpus.
///
/// "Raw" counts are before `min_count` filtering (but after the token limit); the others describe
/// the encoded corpus.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CorpusStats {
    /// Tokens taken from the input.
    pub raw_tokens: u64,
    /// Distinct words in the input.
    pub raw_types: u64,
    /// Non-empty sentences in the input.
    pub raw_sentences: u64,
    /// Tokens in the encoded corpus (words with `count >= min_count`).
    pub tokens: u64,
    /// Words in the vocabulary.
    pub types: u64,
    /// Sentences in the encoded corpus (sentences left empty by `min_count` are dropped).
    pub sentences: u64,
    /// Tokens removed by `min_count` (`raw_tokens - tokens`).
    pub oov_tokens: u64,
    /// Words removed by `min_count` (`raw_types - types`).
    pub oov_types: u64,
    /// `oov_tokens / raw_tokens` (0 for an empty corpus).
    pub oov_share: f64,
    /// The `min_count` used.
    pub min_count: u64,
    /// The token limit used, if any.
    pub max_tokens: Option<u64>,
    /// Whether `max_tokens` was reached, so that the input was (or may have been) cut there.
    pub stopped_at_token_limit: bool,
}

/// A corpus as word ids: the vocabulary, the token stream (tokens of words below `min_count`
/// removed) and the end offset of every sentence.
///
/// Sentence `i` is `tokens[ends[i-1]..ends[i]]` (with `ends[-1] = 0`); no sentence is empty.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodedCorpus {
    vocab: Vocab,
    tokens: Vec<u32>,
    sentence_ends: Vec<u64>,
    stats: CorpusStats,
}

impl EncodedCorpus {
    pub(crate) fn from_parts(
        vocab: Vocab,
        tokens: Vec<u32>,
        sentence_ends: Vec<u64>,
        stats: CorpusStats,
    ) -> EncodedCorpus {
        EncodedCorpus {
            vocab,
            tokens,
            sentence_ends,
            stats,
        }
    }

    /// The vocabulary (ids in count-descending order).
    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// All token ids, sentence after sentence.
    pub fn tokens(&self) -> &[u32] {
        &self.tokens
    }

    /// End offset (in tokens) of every sentence.
    pub fn sentence_ends(&self) -> &[u64] {
        &self.sentence_ends
    }

    /// Number of sentences.
    pub fn n_sentences(&self) -> usize {
        self.sentence_ends.len()
    }

    /// Token ids of sentence `i`.
    ///
    /// # Panics
    /// If `i >= self.n_sentences()`.
    pub fn sentence(&self, i: usize) -> &[u32] {
        self.view().sentence(i)
    }

    /// Sentences in order.
    pub fn sentences(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        let view = self.view();
        (0..self.n_sentences()).map(move |i| view.sentence(i))
    }

    /// Statistics of the preparation.
    pub fn stats(&self) -> &CorpusStats {
        &self.stats
    }

    /// A borrowed view with the same shape as one parsed from the on-disk format, so that
    /// trainers can take an [`EncodedCorpusView`] either way.
    pub fn view(&self) -> EncodedCorpusView<'_> {
        EncodedCorpusView::from_slices(&self.tokens, &self.sentence_ends, self.vocab.len() as u64)
    }

    /// Writes the token ids and sentence ends in the on-disk format (see [`mod@crate::format`]).
    pub fn write_binary(&self, w: impl Write) -> io::Result<()> {
        write_binary(w, self.vocab.len() as u64, &self.tokens, &self.sentence_ends)
    }

    /// Writes the vocabulary as `word\tcount\n` lines in id order.
    pub fn write_vocab(&self, w: impl Write) -> io::Result<()> {
        self.vocab.write(w)
    }
}
