//! Runs a pipeline: loads its [`retest_spec::Plan`] against the project's folders, prepares its
//! corpora, trains its embeddings, measures them, aggregates the tables, writes the report and
//! the manifest — on this machine ([`run_pipeline`]) or as Slurm jobs ([`cluster`]) — writing
//! content-addressed outputs under `results/<pipeline>/` ([`Layout`]).
//!
//! Every output is written under a temporary name and renamed into place, so an output with
//! its final name is complete; a rerun skips it. Independent jobs (the seeds of a corpus and
//! algorithm) run in parallel on a rayon pool of `--jobs` threads, each single-threaded, so the
//! thread count never changes a result.

mod aggregate;
mod analogies;
mod analogy_files;
mod base_pair_files;
mod base_pairs;
pub mod cluster;
mod cooccurrence;
mod corpus;
mod features;
mod layout;
mod lists;
mod lock;
mod manifest;
mod measure;
mod memory;
mod message;
mod output;
mod progress;
mod project;
mod regression;
mod run;
mod score;
mod set_level;
mod setlevel_files;
mod single;
pub mod slurm;
mod stale;
mod status;
mod task;
mod train;

pub use aggregate::{Measured, combine_tables, measure_all, read_table};
pub use analogy_files::{AnalogiesRequest, OUT_OF_VOCABULARY, QueryLine, analogies_files, read_query_file};
pub use base_pair_files::{BasePairsRequest, base_pairs_files};
pub use cooccurrence::{cooccurrence_path, cooccurrences_for, ensure_cooccurrences, glove_config};
pub use corpus::LoadedCorpus;
pub use features::{DEBIAN_WORDNET, LexiconFiles};
pub use layout::{DONE_FILE, Layout};
pub use lists::{FULL, Lists, TargetList};
pub use lock::{CorporaLock, RunLock};
pub use measure::{MeasureJob, MeasureSummary, group_tables, measure};
pub use memory::{CorpusSize, Estimate, check_prepared, estimates, gigabytes, machine_memory};
pub use message::one_line;
pub use output::{Overwrite, report_folder};
pub use progress::Reporter;
pub use project::{
    Folders, LoadedPlan, Project, RunOptions, lock_file, pipeline_file, recipe_lock_file, run_name,
};
pub use regression::{REGRESSION_TABLE, WordFeatures, regression_input, regression_rows};
pub use run::{
    Finished, MeasuredRun, RecipeOverrides, Trained, check_plan, measure_pipeline, prepare_pipeline,
    prepare_recipe, report_meta, run_pipeline, train_pipeline, write_report,
};
pub use score::{ScoreRequest, score_files};
pub use setlevel_files::{
    DirectBiasRequest, EMPTY_SET, PCA_DIRECTION, WeatRequest, direct_bias_files, read_weat_tests, weat_files,
};
pub use single::{SingleModel, export_embeddings, train_glove_file, train_sgns_file};
pub use status::{Failure, JobStatus, State, pipeline_status};
pub use task::{
    TaskReport, TrainingJob, find_prepared_corpus, run_training_job, training_job, training_jobs,
};
pub use train::{JobTiming, TrainOutcome, TrainSummary, sgns_config, train_all};
