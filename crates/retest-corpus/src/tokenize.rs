//! Normalisation and tokenisation of running text with Hugging Face `tokenizers` (normaliser
//! `Sequence[NFKC, Lowercase]`, or `NFKC` alone when case is kept; pre-tokeniser
//! `BertPreTokenizer`), run in parallel over batches of documents; the builder then interns the
//! tokens sequentially, in document order.
//!
//! Parallelism never changes the result: each piece of text is tokenised on its own, the pieces'
//! tokens are collected in input order, and all interning happens on one thread.

use tokenizers::normalizers::{Lowercase, NFKC, Sequence};
use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
use tokenizers::{
    NormalizedString, Normalizer, OffsetReferential, OffsetType, PreTokenizedString, PreTokenizer,
};

use rayon::prelude::*;

use crate::error::CorpusError;
use crate::summary::ReadSummary;

/// Whether the tokenising readers (plain text, Reddit) lowercase their tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseHandling {
    /// Every token is lowercased after NFKC (`The` → `the`).
    Lower,
    /// Tokens keep the case of the text (`The`, `THE` and `the` are three words), for measures
    /// that compare a word's case forms (Zhang et al. 2020).
    Keep,
}

impl CaseHandling {
    /// Stable name, as used in tables and specs.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseHandling::Lower => "lower",
            CaseHandling::Keep => "keep",
        }
    }
}

/// A batch is cut once it holds this many bytes of text (and its pieces are tokenised in
/// parallel while the next batch is read).
pub(crate) const BATCH_BYTES: usize = 4 << 20;

/// Pieces are grouped into parallel work items of at least this many bytes.
const CHUNK_BYTES: usize = 64 << 10;

/// A document longer than this is split into pieces at line ends. Line ends are whitespace, so
/// this does not change the tokens; it only bounds the memory of `tokenizers`, which keeps
/// about 16 bytes of alignment data per byte of text.
pub(crate) const MAX_PIECE_BYTES: usize = 1 << 20;

/// Text read from a corpus, cut into pieces, waiting to be tokenised.
///
/// A piece is a document or a part of one cut at a line end; `ends_sentence[i]` says whether a
/// sentence ends after piece `i`. `marks[i]` are the reader's counters right after piece `i`
/// was read, so that a reader stopped by the token limit reports exactly what it consumed.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    pub text: String,
    pub piece_ends: Vec<usize>,
    pub ends_sentence: Vec<bool>,
    pub marks: Vec<ReadSummary>,
    /// Counters after the whole batch (including records that gave no piece).
    pub end: ReadSummary,
}

impl Batch {
    /// Appends one piece of text.
    pub fn push_piece(&mut self, text: &str, ends_sentence: bool, mark: ReadSummary) {
        self.text.push_str(text);
        self.piece_ends.push(self.text.len());
        self.ends_sentence.push(ends_sentence);
        self.marks.push(mark);
    }

    pub fn n_pieces(&self) -> usize {
        self.piece_ends.len()
    }

    fn piece(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.piece_ends[i - 1] };
        &self.text[start..self.piece_ends[i]]
    }

    /// Groups consecutive pieces into ranges of at least [`CHUNK_BYTES`] bytes.
    fn chunks(&self) -> Vec<std::ops::Range<usize>> {
        let mut chunks = Vec::new();
        let mut start_piece = 0;
        let mut start_byte = 0;
        for (i, &end) in self.piece_ends.iter().enumerate() {
            if end - start_byte >= CHUNK_BYTES {
                chunks.push(start_piece..i + 1);
                start_piece = i + 1;
                start_byte = end;
            }
        }
        if start_piece < self.n_pieces() {
            chunks.push(start_piece..self.n_pieces());
        }
        chunks
    }
}

/// Tokens of a run of consecutive pieces: the token strings concatenated, where each token
/// ends, and after which token each piece ends.
#[derive(Debug, Default)]
pub(crate) struct TokenRun {
    text: String,
    token_ends: Vec<usize>,
    piece_token_ends: Vec<usize>,
}

impl TokenRun {
    pub fn n_pieces(&self) -> usize {
        self.piece_token_ends.len()
    }

    /// Tokens of the `i`-th piece of this run.
    pub fn piece_tokens(&self, i: usize) -> impl Iterator<Item = &str> + '_ {
        let first = if i == 0 { 0 } else { self.piece_token_ends[i - 1] };
        let last = self.piece_token_ends[i];
        (first..last).map(move |t| {
            let start = if t == 0 { 0 } else { self.token_ends[t - 1] };
            &self.text[start..self.token_ends[t]]
        })
    }
}

/// The NFKC (+ lowercase) + BERT pre-tokenisation pipeline.
#[derive(Debug)]
pub(crate) struct BertTokenizer {
    normalizer: Sequence,
}

impl BertTokenizer {
    /// NFKC, then lowercasing unless `case` is [`CaseHandling::Keep`].
    pub fn new(case: CaseHandling) -> BertTokenizer {
        let normalizers = match case {
            CaseHandling::Lower => vec![NFKC.into(), Lowercase.into()],
            CaseHandling::Keep => vec![NFKC.into()],
        };
        BertTokenizer {
            normalizer: Sequence::new(normalizers),
        }
    }

    /// Appends the tokens of `text` to `out` (without closing a piece).
    fn tokenize_into(&self, text: &str, out: &mut TokenRun) -> Result<(), CorpusError> {
        if text.trim().is_empty() {
            return Ok(());
        }
        let fail = |e: tokenizers::Error| CorpusError::Tokenizer {
            start: text.chars().take(40).collect(),
            message: e.to_string(),
        };
        let mut normalized = NormalizedString::from(text);
        self.normalizer.normalize(&mut normalized).map_err(fail)?;
        let mut pretokenized = PreTokenizedString::from(normalized);
        BertPreTokenizer.pre_tokenize(&mut pretokenized).map_err(fail)?;
        for (token, _, _) in pretokenized.get_splits(OffsetReferential::Normalized, OffsetType::None) {
            if !token.is_empty() {
                out.text.push_str(token);
                out.token_ends.push(out.text.len());
            }
        }
        Ok(())
    }

    /// Tokenises one string into a list of tokens (for tests and small inputs).
    pub fn tokenize(&self, text: &str) -> Result<Vec<String>, CorpusError> {
        let mut run = TokenRun::default();
        self.tokenize_into(text, &mut run)?;
        run.piece_token_ends.push(run.token_ends.len());
        Ok(run.piece_tokens(0).map(str::to_owned).collect())
    }

    fn tokenize_chunk(&self, batch: &Batch, pieces: std::ops::Range<usize>) -> Result<TokenRun, CorpusError> {
        let bytes = batch.piece_ends[pieces.end - 1]
            - if pieces.start == 0 {
                0
            } else {
                batch.piece_ends[pieces.start - 1]
            };
        let mut run = TokenRun {
            text: String::with_capacity(bytes),
            token_ends: Vec::with_capacity(bytes / 4),
            piece_token_ends: Vec::with_capacity(pieces.len()),
        };
        for i in pieces {
            self.tokenize_into(batch.piece(i), &mut run)?;
            run.piece_token_ends.push(run.token_ends.len());
        }
        Ok(run)
    }

    /// Tokenises every piece of the batch, in parallel on the current rayon pool. The runs come
    /// back in piece order.
    pub fn tokenize_batch(&self, batch: &Batch) -> Result<Vec<TokenRun>, CorpusError> {
        batch
            .chunks()
            .into_par_iter()
            .map(|range| self.tokenize_chunk(batch, range))
            .collect()
    }
}

/// Tokenises `text` with the crate's pipeline: NFKC, lowercase (unless `case` is
/// [`CaseHandling::Keep`]), split on whitespace, isolate punctuation (Hugging Face
/// `tokenizers`' `BertPreTokenizer`).
///
/// ```
/// use retest_corpus::{CaseHandling, tokenize_text};
/// let tokens = tokenize_text("Hello, WORLD. ﬁne", CaseHandling::Lower).unwrap();
/// assert_eq!(tokens, ["hello", ",", "world", ".", "fine"]);
/// let tokens = tokenize_text("Hello, WORLD. ﬁne", CaseHandling::Keep).unwrap();
/// assert_eq!(tokens, ["Hello", ",", "WORLD", ".", "fine"]);
/// ```
pub fn tokenize_text(text: &str, case: CaseHandling) -> Result<Vec<String>, CorpusError> {
    BertTokenizer::new(case).tokenize(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_applies_nfkc_and_pre_tokenisation_but_keeps_case() {
        let text = "The Professor said: ＰＲＯＦＥＳＳＯＲ ﬁne.";
        assert_eq!(
            tokenize_text(text, CaseHandling::Keep).unwrap(),
            ["The", "Professor", "said", ":", "PROFESSOR", "fine", "."]
        );
        assert_eq!(
            tokenize_text(text, CaseHandling::Lower).unwrap(),
            ["the", "professor", "said", ":", "professor", "fine", "."]
        );
        assert_eq!(
            (CaseHandling::Lower.as_str(), CaseHandling::Keep.as_str()),
            ("lower", "keep")
        );
    }
}
