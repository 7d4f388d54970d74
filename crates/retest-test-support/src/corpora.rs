//! Encoded corpora for the trainers' tests and benchmarks: a text written in the test, or
//! WikiText-103 validation from the data mirror.

use std::io::BufRead;

use retest_corpus::{CorpusBuilder, EncodedCorpus, UnkHandling, WikiTextOptions};

use crate::data_file;

/// The mirror's WikiText-103 validation file (214k tokens).
pub const WIKI_VALID: &str = "wikitext-103/wiki.valid.tokens";

/// WikiText-style `text` (one sentence a line, whitespace tokens) read with `unk`, cut to its
/// first `max_tokens` tokens, the words seen fewer than `min_count` times left out.
///
/// # Panics
/// If the text cannot be read.
pub fn wikitext_corpus(
    text: impl BufRead,
    unk: UnkHandling,
    max_tokens: Option<u64>,
    min_count: u64,
) -> EncodedCorpus {
    let mut builder = CorpusBuilder::new(max_tokens);
    builder
        .read_wikitext(text, &WikiTextOptions { unk })
        .unwrap_or_else(|e| panic!("test corpus: {e}"));
    builder.finish(min_count)
}

/// A corpus of `text` as written (`<unk>` kept as a word), the words seen fewer than
/// `min_count` times left out.
pub fn corpus_from_text(text: &str, min_count: u64) -> EncodedCorpus {
    wikitext_corpus(text.as_bytes(), UnkHandling::Keep, None, min_count)
}

/// [`WIKI_VALID`] read with `unk`, optionally cut to its first `max_tokens` tokens, the words
/// seen fewer than `min_count` times left out.
///
/// # Panics
/// If the mirror or the file is missing, or the file cannot be read.
pub fn wiki_valid(unk: UnkHandling, max_tokens: Option<u64>, min_count: u64) -> EncodedCorpus {
    let path = data_file(WIKI_VALID);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    wikitext_corpus(std::io::BufReader::new(file), unk, max_tokens, min_count)
}
