//! Runs a pipeline: loads its [`retest_spec::Plan`] against the project's folders, prepares its
//! corpora, trains its embeddings, measures them, aggregates the tables, writes the report and
//! the manifest — on this machine ([`run_pipeline`]) or as Slurm jobs ([`cluster`]) — writing
//! content-addressed outputs under `results/<pipeline>/` ([`Layout`]).
//!
//! Every output is written under a temporary name and renamed into place, so an output with
//! its final name is complete; a rerun skips it. Independent jobs (the seeds of a corpus and
//! algorithm) run in parallel on a rayon pool of `--jobs` threads, each single-threaded, so the
//! thread count never changes a result.

mod corpus;
mod driver;
mod lists;
mod message;
mod progress;
mod stages;
mod tools;

pub use corpus::LoadedCorpus;
pub use driver::aggregate::{Measured, combine_tables, measure_all, read_rows};
pub use driver::cooccurrence::{cooccurrence_path, cooccurrences_for, ensure_cooccurrences, glove_config};
pub use driver::features::{DEBIAN_WORDNET, LexiconFiles};
pub use driver::jobs::{TrainingJob, training_job, training_jobs};
pub use driver::layout::Layout;
pub use driver::lock::{CorporaLock, RunLock};
pub use driver::memory::{CorpusSize, Estimate, check_prepared, estimates, gigabytes, machine_memory};
pub use driver::project::{
    Folders, LoadedPlan, Project, RunOptions, lock_file, pipeline_file, recipe_lock_file, resolver, run_name,
    write_generated_pipeline,
};
pub use driver::regression::{WordFeatures, regression_input, regression_rows};
pub use driver::run::{
    Finished, MeasuredRun, RecipeOverrides, Trained, check_plan, measure_pipeline, prepare_pipeline,
    prepare_recipe, report_meta, run_pipeline, train_pipeline, write_report,
};
pub use driver::status::{Failure, JobStatus, State, pipeline_status};
pub use driver::task::{TaskReport, find_prepared_corpus, run_training_job};
pub use driver::train::{JobTiming, PrefetchChoice, TrainOutcome, TrainSummary, sgns_config, train_all};
pub use driver::{cluster, slurm};
pub use lists::{
    Criterion, CriterionSource, DebiasList, DebiasListNames, DebiasLists, FULL, Lists, QueryLine, TargetList,
    pool_exclude_words, read_criterion, read_query_file, read_query_tests, read_weat_tests,
};
pub use message::one_line;
pub use progress::Reporter;
pub use retest_measures::Scoring;
pub use stages::columns::{EMPTY_SET, OUT_OF_VOCABULARY, PCA_DIRECTION};
pub use stages::debias::hard_debias_embeddings;
pub use stages::job::{DONE_FILE, MeasureJob, MeasureSummary, group_tables, measure};
pub use tools::analogies::{AnalogiesRequest, AnalogyInput, analogies_files, analogy_rows, analogy_solver};
pub use tools::base_pairs::{BasePairsInput, BasePairsRequest, base_pair_tables, base_pairs_files};
pub use tools::checksums::{LockMode, LockOutcome, lock_declared};
pub use tools::debias::{DebiasRequest, debias_file};
pub use tools::eval::{EvalRequest, eval_files, evaluate};
pub use tools::inputs::{EmbeddingFiles, TableFile, WordLookup};
pub use tools::output::{Overwrite, report_folder};
pub use tools::query::{NOT_APPLICABLE, QueryRequest, QuerySettings, query_files, query_rows};
pub use tools::score::{ScoreInput, ScoreRequest, read_pair_file, read_word_file, score_files, score_rows};
pub use tools::set_level::{
    DirectBiasInput, DirectBiasRequest, WeatRequest, WeatSettings, direct_bias_files, direct_bias_rows,
    weat_files, weat_rows,
};
pub use tools::single::{SingleModel, export_embeddings, save_embeddings, train_glove_file, train_sgns_file};
pub use tools::stats::{alpha_report, icc_report, kappa_report};
pub use tools::validity::{ValidityRequest, validity_files, validity_rows};
