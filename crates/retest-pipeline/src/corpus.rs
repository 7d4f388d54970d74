//! A prepared corpus loaded into memory once and shared by every training job on it.

use std::io::BufReader;

use anyhow::{Context, Result};
use retest_corpus::{AlignedBytes, EncodedCorpusView, Vocab, read_vocab};
use retest_data::PreparedCorpus;

/// The encoded token stream and vocabulary of a prepared corpus.
#[derive(Debug)]
pub struct LoadedCorpus {
    pub prepared: PreparedCorpus,
    bytes: AlignedBytes,
    pub vocab: Vocab,
}

impl LoadedCorpus {
    /// Reads the corpus and vocabulary files and validates the corpus format.
    pub fn load(prepared: PreparedCorpus) -> Result<Self> {
        let path = prepared.corpus_path();
        let file = std::fs::File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
        let bytes = AlignedBytes::read_from(BufReader::new(file))
            .with_context(|| format!("cannot read {}", path.display()))?;
        EncodedCorpusView::parse(bytes.as_bytes()).with_context(|| format!("{}", path.display()))?;
        let vocab = read_prepared_vocab(&prepared)?;
        Ok(LoadedCorpus {
            prepared,
            bytes,
            vocab,
        })
    }

    /// The token stream (validated when loaded).
    pub fn view(&self) -> EncodedCorpusView<'_> {
        EncodedCorpusView::parse(self.bytes.as_bytes()).expect("validated in load")
    }

    pub fn name(&self) -> &str {
        &self.prepared.stats.corpus
    }

    pub fn key(&self) -> &str {
        &self.prepared.stats.key
    }

    pub fn words(&self) -> Vec<String> {
        self.vocab.words().iter().map(|w| w.to_string()).collect()
    }
}

/// The vocabulary of a prepared corpus, without its token stream.
///
/// # Errors
///
/// The vocabulary file cannot be read or is malformed.
pub fn read_prepared_vocab(prepared: &PreparedCorpus) -> Result<Vocab> {
    let path = prepared.vocab_path();
    let file = std::fs::File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
    read_vocab(BufReader::new(file)).with_context(|| format!("{}", path.display()))
}
