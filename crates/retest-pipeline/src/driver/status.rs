//! Which jobs of a plan are done, from the results folder alone.
//!
//! A job is done when its output exists with its final name (outputs are written atomically,
//! so such an output is complete). A job without output is missing; when the Slurm log of its
//! most recent attempt holds an error line, it is also reported as failed, with that log.

use std::path::{Path, PathBuf};

use anyhow::Result;
use retest_data::LockFile;
use retest_spec::{Job, Plan};
use serde::Serialize;

use crate::driver::jobs::training_jobs;
use crate::driver::layout::{Configuration, Layout};
use crate::driver::model_files::FileSums;
use crate::driver::slurm::{LogName, Stage, log_dir, parse_log_name};
use crate::driver::task::{cooccurrence_files, find_prepared_corpus};
use crate::lists::Lists;

/// The state of one job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    Done,
    Missing,
}

/// The most recent failed attempt of a missing job, from its Slurm log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    pub log: PathBuf,
    /// The last line of the log that reports an error.
    pub error: String,
}

/// One job of the plan and its state.
#[derive(Clone, Debug, Serialize)]
pub struct JobStatus {
    pub job: Job,
    /// The index in `Plan::training_jobs()` (the array task index) of a training job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    pub state: State,
    /// The job's output (file or folder), where it can be named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<Failure>,
}

/// The state of every job of `plan` (in `Plan::jobs()` order). The measure jobs' folders are
/// named by the word lists' contents: without `lists` they are reported as missing.
pub fn pipeline_status(
    plan: &Plan,
    layout: &Layout,
    lock: &LockFile,
    lists: Option<&Lists>,
) -> Result<Vec<JobStatus>> {
    let logs = SlurmLogs::read(&log_dir(layout), &plan.name);
    let mut prepared = Vec::new();
    for recipe in &plan.corpora {
        prepared.push((
            recipe.name.clone(),
            find_prepared_corpus(plan, layout, lock, &recipe.name)?,
        ));
    }
    let prepared_of = |corpus: &str| {
        prepared
            .iter()
            .find(|(name, _)| name == corpus)
            .and_then(|(_, p)| p.as_ref())
    };
    let trainings = training_jobs(plan);
    let mut out = Vec::new();
    for job in plan.jobs() {
        let mut status = JobStatus {
            job: job.clone(),
            index: None,
            state: State::Missing,
            output: None,
            failed: None,
        };
        let stage;
        match &job {
            Job::PrepareCorpus { corpus } => {
                stage = (Stage::Prepare, None);
                status.output = prepared_of(corpus).map(|p| p.dir.clone());
                status.state = done_if(status.output.is_some());
            }
            Job::Cooccurrence { corpus } => {
                stage = (Stage::Prepare, None);
                // Done when the table of every window is counted; the output named is the first
                // one missing, else the last.
                let files = prepared_of(corpus).map(|p| cooccurrence_files(plan, p));
                let missing = files.iter().flatten().find(|f| !f.is_file()).cloned();
                status.state = done_if(files.is_some() && missing.is_none());
                status.output = missing.or_else(|| files.and_then(|f| f.last().cloned()));
            }
            Job::Train {
                corpus,
                model,
                seed_idx,
                ..
            } => {
                let t = trainings
                    .iter()
                    .find(|t| t.corpus == *corpus && t.model.name == *model && t.seed_idx == *seed_idx)
                    .expect("every training job has an index");
                stage = (Stage::Train, Some(t.index));
                status.index = Some(t.index);
                status.output = prepared_of(corpus).map(|p| layout.training_output(plan, &p.stats.key, t));
                status.state = done_if(status.output.as_deref().is_some_and(Layout::is_trained));
            }
            Job::Measure { corpus, model } => {
                stage = (Stage::Aggregate, None);
                // Without a prepared corpus, readable files or the lists, the folder has no name.
                let configuration = Configuration::of(
                    plan,
                    model,
                    || prepared_of(corpus).map(|p| p.stats.key.as_str()).ok_or(()),
                    |files| FileSums::of(files, &layout.model_file_checksums()).map_err(drop),
                );
                status.output = (configuration.ok()).zip(lists).map(|(configuration, lists)| {
                    layout.configuration_dir(plan, corpus, &configuration, lists)
                });
                status.state = done_if(status.output.as_deref().is_some_and(Layout::is_measured));
            }
            Job::Aggregate => {
                stage = (Stage::Aggregate, None);
                status.state = done_if(layout.is_aggregated());
                status.output = Some(layout.tables());
            }
        }
        if status.state == State::Missing {
            status.failed = logs.failure(stage.0, stage.1);
        }
        out.push(status);
    }
    Ok(out)
}

fn done_if(done: bool) -> State {
    if done { State::Done } else { State::Missing }
}

/// The Slurm logs of a pipeline, by stage and task.
#[derive(Debug, Default)]
struct SlurmLogs {
    logs: Vec<(LogName, PathBuf)>,
}

impl SlurmLogs {
    fn read(dir: &Path, pipeline: &str) -> SlurmLogs {
        let mut logs = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                if let Some(parsed) = parse_log_name(pipeline, &name.to_string_lossy()) {
                    logs.push((parsed, entry.path()));
                }
            }
        }
        // Job ids grow with each submission: the last log of a task is its latest attempt.
        logs.sort_by(|a, b| (a.0.job_id, a.0.task, &a.1).cmp(&(b.0.job_id, b.0.task, &b.1)));
        SlurmLogs { logs }
    }

    /// The error of the latest attempt of `stage` (task `task` of an array), if it failed.
    fn failure(&self, stage: Stage, task: Option<usize>) -> Option<Failure> {
        let (_, path) = self
            .logs
            .iter()
            .rev()
            .find(|(name, _)| name.stage == stage && (task.is_none() || name.task == task))?;
        let text = std::fs::read_to_string(path).ok()?;
        let error = text.lines().rev().find(|line| is_error_line(line))?;
        Some(Failure {
            log: path.clone(),
            error: error.trim().to_owned(),
        })
    }
}

/// A line reporting a failure: retest's `error: …`, or Slurm's own (`slurmstepd: error: …` or,
/// with the node name, `slurmstepd-node01: error: *** JOB 9 ON node01 CANCELLED …`, time and
/// memory limits), or the shell's report of a killed process.
fn is_error_line(line: &str) -> bool {
    let line = line.trim_start();
    let slurmstepd = line
        .strip_prefix("slurmstepd")
        .and_then(|rest| rest.split_once(':'))
        .is_some_and(|(node, rest)| {
            (node.is_empty() || node.starts_with('-')) && rest.trim_start().starts_with("error:")
        });
    line.starts_with("error:") || slurmstepd || line.contains("Killed") || line.contains("oom-kill")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latest_attempt_decides_failure() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write(
            "retest-p-train-7_1.out",
            "[  0.1s] trained …\nslurmstepd: error: *** JOB 9 ON vm CANCELLED AT 2026-01-01T00:00:00 ***\n",
        );
        write("retest-p-train-7_2.out", "error: training job 2: disk full\n");
        write(
            "retest-p-train-7_4.out",
            "slurmstepd-node01: error: *** JOB 12 ON node01 CANCELLED AT 2026-01-01T00:00:00 ***\n",
        );
        write(
            "retest-p-train-7_5.out",
            "[  0.1s] epoch 1 of 2, no error: so far\n",
        );
        write("retest-p-train-11_2.out", "[  0.1s] started\n");
        write("retest-p-prepare-6.out", "corpus x: prepared\n");
        write("unrelated.txt", "error: not ours\n");
        let logs = SlurmLogs::read(dir.path(), "p");
        assert_eq!(logs.logs.len(), 6);
        let named_node = logs.failure(Stage::Train, Some(4)).unwrap();
        assert!(
            named_node.error.starts_with("slurmstepd-node01: error:"),
            "{}",
            named_node.error
        );
        assert_eq!(logs.failure(Stage::Train, Some(5)), None);
        let failed = logs.failure(Stage::Train, Some(1)).unwrap();
        assert_eq!(failed.log, dir.path().join("retest-p-train-7_1.out"));
        assert!(failed.error.contains("CANCELLED"), "{}", failed.error);
        // Task 2 failed in job 7 but its attempt in job 11 shows no error (yet).
        assert_eq!(logs.failure(Stage::Train, Some(2)), None);
        assert_eq!(logs.failure(Stage::Prepare, None), None);
        assert_eq!(logs.failure(Stage::Train, Some(3)), None);
    }
}
