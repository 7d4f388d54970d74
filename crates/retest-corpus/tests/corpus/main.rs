//! Integration tests of `retest-corpus` on the real files of the data mirror
//! (`$RETEST_DATA_DIR`, by default `../shared/data` next to the workspace).

mod decompress;
mod format;
mod hf_parquet;
mod plain_text;
mod reddit;
mod wikitext;

use std::fs::File;

pub use retest_test_support::{data_dir, data_file};

pub fn open_data(relative: &str) -> File {
    File::open(data_file(relative)).unwrap()
}

/// Binary and vocabulary bytes of a corpus.
pub fn corpus_bytes(corpus: &retest_corpus::EncodedCorpus) -> (Vec<u8>, Vec<u8>) {
    let mut binary = Vec::new();
    corpus.write_binary(&mut binary).unwrap();
    let mut vocab = Vec::new();
    corpus.write_vocab(&mut vocab).unwrap();
    (binary, vocab)
}

/// The words of every sentence.
pub fn sentence_words(corpus: &retest_corpus::EncodedCorpus) -> Vec<Vec<&str>> {
    corpus
        .sentences()
        .map(|s| s.iter().map(|&id| corpus.vocab().word(id)).collect())
        .collect()
}
