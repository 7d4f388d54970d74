//! One training job run on its own, picked by its index in [`Plan::training_jobs`]: what one
//! task of a cluster job array runs.
//!
//! A task never prepares anything: its corpus (and, for GloVe, the corpus's co-occurrence
//! table) must have been prepared by `retest prepare`, so that many tasks started at once do
//! not race to build the same inputs. The output is the same content-addressed file the local
//! executor writes, produced by the same code, written atomically and skipped when it exists.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use retest_data::{LockFile, PreparedCorpus, find_prepared};
use retest_spec::{CorpusRecipe, Plan};

use crate::corpus::LoadedCorpus;
use crate::driver::cooccurrence::{cooccurrence_path, read_cooccurrence_file};
use crate::driver::jobs::{TrainingJob, training_job};
use crate::driver::layout::Layout;
use crate::driver::train::{TrainOutcome, train_one, work_units};
use crate::progress::Reporter;

/// The recipe of a corpus named in `plan`.
fn recipe<'a>(plan: &'a Plan, corpus: &str) -> Result<&'a CorpusRecipe> {
    plan.corpora
        .iter()
        .find(|r| r.name == corpus)
        .ok_or_else(|| anyhow!("pipeline `{}` has no corpus `{corpus}`", plan.name))
}

/// The prepared corpus `corpus` of `plan` if it has been prepared (found from the recipe's
/// checksums without reading any source file).
pub fn find_prepared_corpus(
    plan: &Plan,
    layout: &Layout,
    lock: &LockFile,
    corpus: &str,
) -> Result<Option<PreparedCorpus>> {
    Ok(find_prepared(recipe(plan, corpus)?, lock, &layout.corpora())?)
}

/// The GloVe co-occurrence files the training jobs on `prepared` read, one per window.
pub fn cooccurrence_files(plan: &Plan, prepared: &PreparedCorpus) -> Vec<PathBuf> {
    plan.cooccurrence_counts()
        .iter()
        .map(|params| cooccurrence_path(&prepared.dir, params.window))
        .collect()
}

/// What [`run_training_job`] did.
#[derive(Debug)]
pub struct TaskReport {
    pub job: TrainingJob,
    pub outcome: TrainOutcome,
    pub output: PathBuf,
    pub seconds: f64,
}

/// Runs training job `index` of `plan` unless its output exists (always with `force`).
/// Its corpus must be prepared, and for GloVe its co-occurrences counted; otherwise the
/// error says what is missing and how to make it.
pub fn run_training_job(
    plan: &Plan,
    layout: &Layout,
    lock: &LockFile,
    index: usize,
    force: bool,
) -> Result<TaskReport> {
    let started = Instant::now();
    let job = training_job(plan, index)?;
    let prepare_hint = format!(
        "run `retest prepare {}` first (`retest run --executor slurm` submits it before the training array)",
        plan.file.display()
    );
    let prepared = find_prepared_corpus(plan, layout, lock, &job.corpus)?.ok_or_else(|| {
        anyhow!(
            "training job {index} ({}): corpus `{}` is not prepared under {}: {prepare_hint}",
            job.name(),
            job.corpus,
            layout.corpora().display()
        )
    })?;
    let output = layout.training_output(plan, &prepared.stats.key, &job);
    if Layout::is_trained(&output) && !force {
        return Ok(TaskReport {
            job,
            outcome: TrainOutcome::Skipped,
            output,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    let cooc = match job.model.cooccurrence_window() {
        None => None,
        Some(window) => {
            let path = cooccurrence_path(&prepared.dir, window);
            if !path.is_file() {
                bail!(
                    "training job {index} ({}): the co-occurrences of corpus `{}` are not counted \
                     (no {}): {prepare_hint}",
                    job.name(),
                    job.corpus,
                    path.display()
                );
            }
            Some(read_cooccurrence_file(&path)?)
        }
    };
    let corpus = LoadedCorpus::load(prepared)?;
    let reporter = Reporter::new(1, work_units(&corpus, &job.model));
    let result = train_one(
        plan,
        &corpus,
        cooc.as_ref(),
        &job.model,
        job.seed_idx,
        &output,
        &reporter,
    );
    reporter.set_jobs(1, 1);
    reporter.finish();
    result.map_err(|e| e.context(format!("training job {index} ({})", job.name())))?;
    Ok(TaskReport {
        job,
        outcome: TrainOutcome::Trained,
        output,
        seconds: started.elapsed().as_secs_f64(),
    })
}
