//! Integration tests of `retest-corpus` on the real files of the data mirror
//! (`$RETEST_DATA_DIR`, by default `../shared/data` next to the workspace).

mod decompress;
mod format;
mod hf_parquet;
mod plain_text;
mod reddit;
mod wikitext;

use std::fs::File;
use std::path::PathBuf;

/// The data mirror. A missing mirror fails the test: these tests never skip.
pub fn data_dir() -> PathBuf {
    let dir = std::env::var_os("RETEST_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")));
    assert!(
        dir.join("MANIFEST.md").is_file(),
        "data mirror not found at {}: set RETEST_DATA_DIR to the folder holding the mirror's \
         MANIFEST.md (shared/data), e.g. RETEST_DATA_DIR=/path/to/shared/data cargo test",
        dir.display()
    );
    dir
}

/// A file of the data mirror.
pub fn data_file(relative: &str) -> PathBuf {
    let path = data_dir().join(relative);
    assert!(
        path.is_file(),
        "{} is missing from the data mirror {} (see its MANIFEST.md; set RETEST_DATA_DIR to \
         another mirror if needed)",
        relative,
        data_dir().display()
    );
    path
}

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
