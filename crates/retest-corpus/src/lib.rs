//! Raw corpora to encoded corpora: readers, normalisation, tokenisation, vocabulary and the
//! compact on-disk format that the trainers memory-map.
//!
//! The crate reads from streams and writes to streams; it does not resolve paths or decide
//! where files go. A preparation is:
//!
//! 1. [`decompress`] a raw stream (bzip2, zstd, xz, gzip or plain, detected by magic bytes);
//! 2. feed it to a [`CorpusBuilder`] reader — [`CorpusBuilder::read_wikitext`] (WikiText token
//!    files: whitespace tokens, kept as they are), [`CorpusBuilder::read_hf_parquet`] (the same,
//!    from Hugging Face Parquet exports), [`CorpusBuilder::read_plain_text`] (paragraphs of
//!    running text) or [`CorpusBuilder::read_reddit`] (comment dumps); the last two normalise
//!    and tokenise with Hugging Face `tokenizers` (NFKC, lowercase unless
//!    [`CaseHandling::Keep`], BERT pre-tokeniser);
//! 3. [`CorpusBuilder::finish`] with a `min_count`, giving an [`EncodedCorpus`]: a [`Vocab`]
//!    in count-descending order, the token ids with rare words removed, the sentence ends and
//!    [`CorpusStats`];
//! 4. write it with [`EncodedCorpus::write_binary`] (format in [`mod@format`]) and
//!    [`EncodedCorpus::write_vocab`]; trainers read it back with [`EncodedCorpusView::parse`]
//!    and [`read_vocab`].
//!
//! Determinism: the output bytes depend only on the input bytes and the options — not on the
//! number of threads, hash-map iteration order, the clock or anything random.
//!
//! ```
//! use retest_corpus::{CorpusBuilder, UnkHandling, WikiTextOptions};
//! let text = " = Title = \n \n The cat sat . The cat <unk> . \n";
//! let mut builder = CorpusBuilder::new(None);
//! builder.read_wikitext(text.as_bytes(), &WikiTextOptions { unk: UnkHandling::Keep }).unwrap();
//! let corpus = builder.finish(2);
//! assert_eq!(corpus.vocab().words(), [".", "=", "The", "cat"].map(Box::<str>::from));
//! assert_eq!(corpus.n_sentences(), 2);
//! assert_eq!(corpus.sentence(1), [2, 3, 0, 2, 3, 0]);
//! ```

mod builder;
mod decompress;
mod encoded;
mod error;
pub mod format;
mod hf_parquet;
mod lines;
mod plain;
mod reddit;
mod summary;
mod tokenize;
mod vocab;
mod wikitext;

pub use builder::CorpusBuilder;
pub use decompress::{Compression, decompress};
pub use encoded::{CorpusStats, EncodedCorpus};
pub use error::CorpusError;
pub use format::{AlignedBytes, EncodedCorpusView};
pub use plain::PlainTextOptions;
pub use reddit::{
    NewlineHandling, RedditOptions, SentenceSplitting, clean_reddit_body, split_reddit_sentences, utc_year,
};
pub use summary::ReadSummary;
pub use tokenize::{CaseHandling, tokenize_text};
pub use vocab::{Vocab, read_vocab};
pub use wikitext::{UnkHandling, WikiTextOptions};
