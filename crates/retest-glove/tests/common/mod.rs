//! Shared helpers of the integration tests: small corpora and their co-occurrences.

#![allow(dead_code)]

use retest_corpus::{CorpusBuilder, EncodedCorpus, UnkHandling, WikiTextOptions};
use retest_glove::{CooccurConfig, Cooccurrences, count_cooccurrences};
use retest_test_support::data_file;

/// A corpus from WikiText-style text (one sentence per line, whitespace tokens).
pub fn corpus_from_text(text: &str, min_count: u64) -> EncodedCorpus {
    let mut builder = CorpusBuilder::new(None);
    builder
        .read_wikitext(
            text.as_bytes(),
            &WikiTextOptions {
                unk: UnkHandling::Keep,
            },
        )
        .unwrap();
    builder.finish(min_count)
}

/// WikiText-103 validation (217k tokens), `<unk>` renamed as for GloVe, min_count 5, optionally
/// cut to its first `max_tokens` tokens.
pub fn wiki_valid(max_tokens: Option<u64>) -> EncodedCorpus {
    let path = data_file("wikitext-103/wiki.valid.tokens");
    let file = std::fs::File::open(&path).unwrap();
    let mut builder = CorpusBuilder::new(max_tokens);
    builder
        .read_wikitext(
            std::io::BufReader::new(file),
            &WikiTextOptions {
                unk: UnkHandling::RawUnk,
            },
        )
        .unwrap();
    builder.finish(5)
}

/// Counts with window 15 and a budget that keeps everything in memory.
pub fn count_in_memory(corpus: &EncodedCorpus) -> Cooccurrences {
    let dir = tempfile::tempdir().unwrap();
    count_cooccurrences(
        &corpus.view(),
        &CooccurConfig {
            window: 15,
            memory_bytes: 1 << 30,
        },
        dir.path(),
        &mut |_| {},
    )
    .unwrap()
}
