//! Runs the jobs of a [`retest_spec::Plan`]: prepares its corpora and trains its embeddings,
//! writing content-addressed outputs under `results/<pipeline>/`.
//!
//! Every output is written under a temporary name and renamed into place, so an output with
//! its final name is complete; a rerun skips it. Independent jobs (the seeds of a corpus and
//! algorithm) run in parallel on a rayon pool of `--jobs` threads, each single-threaded, so the
//! thread count never changes a result.

mod aggregate;
mod cooccurrence;
mod corpus;
mod features;
mod layout;
mod lists;
mod lock;
mod measure;
mod progress;
mod regression;
pub mod slurm;
mod status;
mod task;
mod train;

pub use aggregate::{Measured, combine_tables, measure_all, read_table};
pub use cooccurrence::{cooccurrence_path, cooccurrences_for, ensure_cooccurrences, glove_config};
pub use corpus::LoadedCorpus;
pub use features::{DEBIAN_WORDNET, LexiconFiles};
pub use layout::Layout;
pub use lists::{FULL, Lists, TargetList};
pub use lock::RunLock;
pub use measure::{DONE_FILE, GROUP_TABLES, MeasureJob, MeasureSummary, measure, measure_dir};
pub use progress::Reporter;
pub use regression::{REGRESSION_TABLE, WordFeatures, regression_input, regression_rows};
pub use status::{Failure, JobStatus, MeasureProbe, State, pipeline_status};
pub use task::{
    TaskReport, TrainingJob, find_prepared_corpus, run_training_job, training_job, training_jobs,
    training_output,
};
pub use train::{JobTiming, TrainOutcome, TrainSummary, sgns_config, train_all};
