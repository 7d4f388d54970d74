//! The training jobs of a plan, each with its place in [`Plan::training_jobs`]: the list the
//! local driver trains, a Slurm task picks from by index, and `retest status` checks.

use anyhow::{Result, bail};
use retest_spec::{Job, Model, Plan};

/// One training job of a plan and its place in [`Plan::training_jobs`].
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingJob {
    /// The index in [`Plan::training_jobs`]: the array task index on a cluster.
    pub index: usize,
    pub corpus: String,
    pub model: Model,
    pub seed_idx: u32,
}

impl TrainingJob {
    /// `corpus model seed-NN`, as in the logs of the training stage.
    pub fn name(&self) -> String {
        format!("{} {} seed-{:02}", self.corpus, self.model.name, self.seed_idx)
    }
}

/// Every training job of `plan`, in task-index order.
pub fn training_jobs(plan: &Plan) -> Vec<TrainingJob> {
    let models = plan.models();
    plan.training_jobs()
        .into_iter()
        .enumerate()
        .filter_map(|(index, job)| match job {
            Job::Train {
                corpus,
                model,
                seed_idx,
                ..
            } => Some(TrainingJob {
                index,
                corpus,
                model: models
                    .iter()
                    .find(|m| m.name == model)
                    .expect("a training job names a model of its plan")
                    .clone(),
                seed_idx,
            }),
            _ => None,
        })
        .collect()
}

/// Training job `index` of `plan`, or an error naming the valid range.
pub fn training_job(plan: &Plan, index: usize) -> Result<TrainingJob> {
    let mut jobs = training_jobs(plan);
    let n = jobs.len();
    if index >= n {
        bail!(
            "pipeline `{}` has {n} training jobs (indices 0-{}), so there is no training job {index}",
            plan.name,
            n.saturating_sub(1)
        );
    }
    Ok(jobs.swap_remove(index))
}
