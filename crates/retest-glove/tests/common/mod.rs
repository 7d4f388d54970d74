//! Shared helpers of the integration tests: WikiText-103 validation as GloVe reads it, and
//! co-occurrences counted in memory.

#![allow(dead_code)]

use retest_corpus::{EncodedCorpus, UnkHandling};
use retest_glove::{CooccurConfig, Cooccurrences, count_cooccurrences};

/// WikiText-103 validation (217k tokens), `<unk>` renamed as for GloVe, min_count 5, optionally
/// cut to its first `max_tokens` tokens.
pub fn wiki_valid(max_tokens: Option<u64>) -> EncodedCorpus {
    retest_test_support::wiki_valid(UnkHandling::RawUnk, max_tokens, 5)
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
