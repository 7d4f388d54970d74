//! The single-pass corpus builder: interns tokens into first-seen ids, counts them and records
//! sentence ends; `finish` turns that into the vocabulary order and drops rare words.

use rustc_hash::FxHashMap;

use crate::encoded::{CorpusStats, EncodedCorpus};
use crate::error::CorpusError;
use crate::summary::ReadSummary;
use crate::tokenize::{BATCH_BYTES, Batch, BertTokenizer, CaseHandling, MAX_PIECE_BYTES, TokenRun};
use crate::vocab::{Vocab, vocab_order};

/// With a token limit, batches are sized for this many bytes of text per missing token
/// (running English text has about 4.5 bytes per token; more is read rather than less).
const BYTES_PER_TOKEN_ESTIMATE: usize = 6;

/// Smallest batch read when sizing batches by the token limit.
const MIN_BATCH_BYTES: usize = 64 << 10;

/// Builds an [`EncodedCorpus`] from one or more inputs in a single pass.
///
/// Every `read_*` call appends its sentences to the corpus, in input order. Tokens are interned
/// into ids in first-seen order and counted; [`CorpusBuilder::finish`] then renumbers them into
/// vocabulary order (count descending, ties by the word's bytes) and removes words below
/// `min_count`. Nothing depends on hash-map iteration order or on the number of threads.
///
/// Memory: 4 bytes per token plus 8 per sentence, plus the distinct words.
///
/// After a `read_*` call returned an error the builder holds part of that input: discard it.
#[derive(Debug)]
pub struct CorpusBuilder {
    max_tokens: Option<u64>,
    /// `max_tokens` as a `usize` bound on `tokens.len()` (`usize::MAX` when unlimited).
    limit: usize,
    index: FxHashMap<Box<str>, u32>,
    counts: Vec<u64>,
    tokens: Vec<u32>,
    sentence_ends: Vec<u64>,
    /// Most text per batch of the tokenising readers (smaller in unit tests, to exercise
    /// batching).
    pub(crate) batch_bytes: usize,
    /// Longest piece of a paragraph handed to the tokeniser (smaller in unit tests).
    pub(crate) max_piece_bytes: usize,
}

impl CorpusBuilder {
    /// A builder that stops taking tokens once `max_tokens` raw tokens (before `min_count`
    /// filtering) were taken: the corpus is then the first `max_tokens` tokens of the input,
    /// the last sentence cut at the limit. `None` reads everything.
    pub fn new(max_tokens: Option<u64>) -> CorpusBuilder {
        let limit = match max_tokens {
            Some(m) => usize::try_from(m).unwrap_or(usize::MAX),
            None => usize::MAX,
        };
        CorpusBuilder {
            max_tokens,
            limit,
            index: FxHashMap::default(),
            counts: Vec::new(),
            tokens: Vec::new(),
            sentence_ends: Vec::new(),
            batch_bytes: BATCH_BYTES,
            max_piece_bytes: MAX_PIECE_BYTES,
        }
    }

    /// Whether the token limit is reached (further `read_*` calls take nothing).
    pub fn is_full(&self) -> bool {
        self.tokens.len() >= self.limit
    }

    /// Raw tokens taken so far.
    pub fn n_tokens(&self) -> u64 {
        self.tokens.len() as u64
    }

    /// Distinct words seen so far.
    pub fn n_types(&self) -> u64 {
        self.counts.len() as u64
    }

    /// Sentences so far.
    pub fn n_sentences(&self) -> u64 {
        self.sentence_ends.len() as u64
    }

    /// Appends one token to the open sentence. The caller checks [`Self::is_full`] first.
    #[inline]
    pub(crate) fn push_token(&mut self, token: &str) {
        let id = match self.index.get(token) {
            Some(&id) => id,
            None => self.new_word(token),
        };
        self.counts[id as usize] += 1;
        self.tokens.push(id);
    }

    #[cold]
    #[inline(never)]
    fn new_word(&mut self, token: &str) -> u32 {
        let id = u32::try_from(self.counts.len()).expect("more than u32::MAX distinct words");
        self.index.insert(token.into(), id);
        self.counts.push(0);
        id
    }

    /// Ends the open sentence; returns whether it had tokens (empty sentences are not kept).
    #[inline]
    pub(crate) fn close_sentence(&mut self) -> bool {
        let end = self.tokens.len() as u64;
        if end > self.sentence_ends.last().copied().unwrap_or(0) {
            self.sentence_ends.push(end);
            true
        } else {
            false
        }
    }

    /// Sets the builder-side counts (tokens, sentences) of a summary from what was added since
    /// `start` = (tokens, sentences) at the beginning of the read.
    pub(crate) fn fill_summary(&self, summary: &mut ReadSummary, start: (usize, usize)) {
        summary.tokens = (self.tokens.len() - start.0) as u64;
        summary.sentences = (self.sentence_ends.len() - start.1) as u64;
    }

    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.tokens.len(), self.sentence_ends.len())
    }

    /// Interns the tokens of a tokenised batch. Returns `true` if the token limit stopped it, in
    /// which case `summary` holds the reader's counters up to the piece that reached the limit.
    fn intern_batch(&mut self, batch: &Batch, runs: &[TokenRun], summary: &mut ReadSummary) -> bool {
        let mut piece = 0;
        for run in runs {
            for i in 0..run.n_pieces() {
                for token in run.piece_tokens(i) {
                    if self.is_full() {
                        break;
                    }
                    self.push_token(token);
                }
                if batch.ends_sentence[piece] || self.is_full() {
                    self.close_sentence();
                }
                if self.is_full() {
                    *summary = batch.marks[piece];
                    summary.stopped_at_token_limit = true;
                    return true;
                }
                piece += 1;
            }
        }
        *summary = batch.end;
        false
    }

    /// Bytes of text to read next, given `in_flight` bytes read but not yet interned: with a
    /// token limit, about what the remaining tokens need (so that a small slice of a big corpus
    /// does not tokenise a whole batch for nothing); `None` when the text in flight probably
    /// fills the limit already, so reading ahead should wait.
    fn next_batch_bytes(&self, in_flight: usize) -> Option<usize> {
        if self.limit == usize::MAX {
            return Some(self.batch_bytes);
        }
        let remaining = self.limit.saturating_sub(self.tokens.len());
        let wanted = remaining
            .saturating_mul(BYTES_PER_TOKEN_ESTIMATE)
            .checked_sub(in_flight)
            .filter(|&bytes| bytes > 0)?;
        Some(wanted.max(MIN_BATCH_BYTES).min(self.batch_bytes))
    }

    /// Drives a tokenising reader: `next_batch(max_bytes)` reads about `max_bytes` of text (or
    /// returns `None` at the end), which is tokenised with `case`. Batch `k` is tokenised on the
    /// rayon pool while batch `k-1` is interned and batch `k+1` read on the calling thread.
    /// Batching never changes the result.
    pub(crate) fn read_tokenized(
        &mut self,
        case: CaseHandling,
        mut next_batch: impl FnMut(usize) -> Result<Option<Batch>, CorpusError>,
    ) -> Result<ReadSummary, CorpusError> {
        let start = self.mark();
        let mut summary = ReadSummary::default();
        let tokenizer = BertTokenizer::new(case);
        let mut to_tokenize: Option<Batch> = None;
        let mut to_intern: Option<(Batch, Vec<TokenRun>)> = None;
        let mut eof = false;
        loop {
            if to_tokenize.is_none() {
                // Nothing was read ahead: catch up, then read synchronously.
                if let Some((previous, runs)) = to_intern.take()
                    && self.intern_batch(&previous, &runs, &mut summary)
                {
                    break;
                }
                if eof {
                    break;
                }
                if self.is_full() {
                    summary.stopped_at_token_limit = true;
                    break;
                }
                let bytes = self.next_batch_bytes(0).unwrap_or(MIN_BATCH_BYTES);
                to_tokenize = next_batch(bytes)?;
                if to_tokenize.is_none() {
                    break;
                }
            }
            let batch = to_tokenize.take().expect("a batch to tokenise");
            let mut tokenized = None;
            let mut next = None;
            let mut stopped = false;
            rayon::in_place_scope(|scope| {
                scope.spawn(|_| tokenized = Some(tokenizer.tokenize_batch(&batch)));
                if let Some((previous, runs)) = to_intern.take() {
                    stopped = self.intern_batch(&previous, &runs, &mut summary);
                }
                if !stopped && let Some(bytes) = self.next_batch_bytes(batch.text.len()) {
                    next = Some(next_batch(bytes));
                }
            });
            if stopped {
                break;
            }
            let runs = tokenized.expect("the tokenising task ran")?;
            to_intern = Some((batch, runs));
            if let Some(next) = next {
                to_tokenize = next?;
                eof = to_tokenize.is_none();
            }
        }
        // Readers end every document with a sentence end; this only guards the invariant that
        // no sentence stays open between calls.
        self.close_sentence();
        self.fill_summary(&mut summary, start);
        Ok(summary)
    }

    /// Finishes the corpus: words with `count >= min_count` get ids in vocabulary order (count
    /// descending, ties by the word's bytes); tokens of rarer words are removed from the token
    /// stream (word2vec and GloVe skip them the same way), and sentences left empty are dropped.
    /// `min_count` 0 and 1 keep every word.
    pub fn finish(self, min_count: u64) -> EncodedCorpus {
        let CorpusBuilder {
            max_tokens,
            limit,
            index,
            counts,
            mut tokens,
            sentence_ends,
            batch_bytes: _,
            max_piece_bytes: _,
        } = self;
        let raw_tokens = tokens.len() as u64;
        let raw_types = counts.len();
        let raw_sentences = sentence_ends.len() as u64;
        let stopped_at_token_limit = tokens.len() >= limit;
        debug_assert_eq!(sentence_ends.last().copied().unwrap_or(0), raw_tokens);

        // Words by first-seen id; the map's iteration order only decides where each word is
        // written, never the result.
        let mut words: Vec<Box<str>> = vec![Box::from(""); raw_types];
        for (word, id) in index {
            words[id as usize] = word;
        }
        let mut order: Vec<u32> = (0..raw_types as u32)
            .filter(|&id| counts[id as usize] >= min_count)
            .collect();
        order.sort_unstable_by(|&a, &b| {
            vocab_order(
                (&words[a as usize], counts[a as usize]),
                (&words[b as usize], counts[b as usize]),
            )
        });
        const DROPPED: u32 = u32::MAX;
        let mut new_id = vec![DROPPED; raw_types];
        for (new, &old) in order.iter().enumerate() {
            new_id[old as usize] = new as u32;
        }

        // Renumber in place, removing dropped tokens and emptied sentences.
        let mut kept_ends: Vec<u64> = Vec::with_capacity(sentence_ends.len());
        let mut write = 0usize;
        let mut read = 0usize;
        for &end in &sentence_ends {
            let end = end as usize;
            while read < end {
                let id = new_id[tokens[read] as usize];
                if id != DROPPED {
                    tokens[write] = id;
                    write += 1;
                }
                read += 1;
            }
            if write as u64 > kept_ends.last().copied().unwrap_or(0) {
                kept_ends.push(write as u64);
            }
        }
        tokens.truncate(write);
        tokens.shrink_to_fit();
        kept_ends.shrink_to_fit();

        let mut kept_words = Vec::with_capacity(order.len());
        let mut kept_counts = Vec::with_capacity(order.len());
        let mut kept_index = FxHashMap::with_capacity_and_hasher(order.len(), Default::default());
        for (new, &old) in order.iter().enumerate() {
            let word = std::mem::take(&mut words[old as usize]);
            kept_index.insert(word.clone(), new as u32);
            kept_words.push(word);
            kept_counts.push(counts[old as usize]);
        }
        let vocab = Vocab::from_parts(kept_words, kept_counts, kept_index);

        let kept_tokens = tokens.len() as u64;
        let oov_tokens = raw_tokens - kept_tokens;
        let stats = CorpusStats {
            raw_tokens,
            raw_types: raw_types as u64,
            raw_sentences,
            tokens: kept_tokens,
            types: vocab.len() as u64,
            sentences: kept_ends.len() as u64,
            oov_tokens,
            oov_types: (raw_types - vocab.len()) as u64,
            oov_share: if raw_tokens == 0 {
                0.0
            } else {
                oov_tokens as f64 / raw_tokens as f64
            },
            min_count,
            max_tokens,
            stopped_at_token_limit,
        };
        EncodedCorpus::from_parts(vocab, tokens, kept_ends, stats)
    }
}

#[cfg(test)]
mod tests;
