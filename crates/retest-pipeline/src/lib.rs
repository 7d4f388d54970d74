//! Runs the jobs of a [`retest_spec::Plan`]: prepares its corpora and trains its embeddings,
//! writing content-addressed outputs under `results/<pipeline>/`.
//!
//! Every output is written under a temporary name and renamed into place, so an output with
//! its final name is complete; a rerun skips it. Independent jobs (the seeds of a corpus and
//! algorithm) run in parallel on a rayon pool of `--jobs` threads, each single-threaded, so the
//! thread count never changes a result.

mod cooccurrence;
mod corpus;
mod layout;
mod progress;
mod train;

pub use cooccurrence::{cooccurrences_for, glove_config};
pub use corpus::LoadedCorpus;
pub use layout::Layout;
pub use progress::Reporter;
pub use train::{TrainOutcome, TrainSummary, sgns_config, train_all};
