//! The arguments of running a pipeline on a Slurm cluster (`retest run --executor slurm`,
//! `retest prepare`, `retest run-task`, `retest status`) and what they print; the work is
//! `retest_pipeline::cluster`'s.

use std::io::Write;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use retest_pipeline::cluster::{self, SlurmOptions};
use retest_pipeline::slurm::{self, Resources};
use retest_pipeline::{Folders, LoadedPlan, TrainOutcome, prepare_pipeline};

use crate::cli::RunArgs;

/// Where `retest run` runs the jobs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Executor {
    /// On this machine, `--jobs` at a time.
    #[default]
    Local,
    /// On a Slurm cluster: a prepare job, one job array for the trainings, and a dependent
    /// aggregation job for measurement, reliability, tables and report.
    Slurm,
}

/// Options of `retest run` that choose and configure the executor.
#[derive(Debug, Args)]
#[command(next_help_heading = "Executor")]
pub struct ExecutorArgs {
    /// Where to run the jobs. `slurm` writes the sbatch scripts to
    /// `<results>/<pipeline>/slurm/`, submits them and returns; `retest status` follows them.
    #[arg(long, value_enum, default_value_t = Executor::Local)]
    pub executor: Executor,
    /// Slurm partition of every job (default: the cluster's).
    #[arg(long, value_name = "P")]
    pub partition: Option<String>,
    /// Wall-clock limit of each job, as sbatch takes it (`2:00:00`, `1-0`).
    #[arg(long, value_name = "T")]
    pub time: Option<String>,
    /// Memory of each job, as sbatch takes it (`8G`). GloVe tasks hold the corpus's
    /// co-occurrence table.
    #[arg(long, value_name = "M")]
    pub mem: Option<String>,
    /// CPUs of each job. A training task uses one thread; the aggregation job runs
    /// `--jobs` = this many.
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub cpus_per_task: u32,
    /// At most N training tasks at once (`--array=…%N`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_parallel: Option<u32>,
    /// Another sbatch option for every job, written as an `#SBATCH` line; repeatable
    /// (`--sbatch-arg=--account=lab --sbatch-arg=--qos=short`).
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub sbatch_arg: Vec<String>,
    /// Prepare corpora and co-occurrences here, before submitting, instead of as a Slurm job.
    #[arg(long)]
    pub prepare_locally: bool,
    /// Write the scripts and print the sbatch commands without submitting them.
    #[arg(long)]
    pub no_submit: bool,
}

impl ExecutorArgs {
    pub fn is_slurm(&self) -> bool {
        self.executor == Executor::Slurm
    }

    /// Refuses Slurm options with the local executor, which would silently ignore them.
    pub fn check_local(&self) -> Result<()> {
        let given = [
            ("--partition", self.partition.is_some()),
            ("--time", self.time.is_some()),
            ("--mem", self.mem.is_some()),
            ("--cpus-per-task", self.cpus_per_task != 1),
            ("--max-parallel", self.max_parallel.is_some()),
            ("--sbatch-arg", !self.sbatch_arg.is_empty()),
            ("--prepare-locally", self.prepare_locally),
            ("--no-submit", self.no_submit),
        ];
        if let Some((name, _)) = given.iter().find(|(_, set)| *set) {
            bail!("{name} applies to the Slurm executor only: add `--executor slurm`");
        }
        Ok(())
    }

    /// The Slurm options, once each value is checked.
    pub fn slurm_options(&self) -> Result<SlurmOptions> {
        for (option, value) in [
            ("partition", &self.partition),
            ("time", &self.time),
            ("mem", &self.mem),
        ] {
            if let Some(value) = value {
                slurm::check_resource_value(option, value).map_err(anyhow::Error::msg)?;
            }
        }
        for arg in &self.sbatch_arg {
            slurm::check_sbatch_arg(arg).map_err(anyhow::Error::msg)?;
        }
        Ok(SlurmOptions {
            resources: Resources {
                partition: self.partition.clone(),
                time: self.time.clone(),
                mem: self.mem.clone(),
                cpus_per_task: self.cpus_per_task,
                max_parallel: self.max_parallel,
                extra: self.sbatch_arg.clone(),
            },
            prepare_locally: self.prepare_locally,
            no_submit: self.no_submit,
        })
    }
}

/// `retest run-task`.
#[derive(Debug, Args)]
pub struct RunTaskArgs {
    /// A pipeline file (`pipelines/du2021.yaml`) or the name of one in `pipelines/`.
    pub pipeline: String,
    /// The training job to run: its index in the training jobs of `retest plan` (corpus,
    /// algorithm, seed order), e.g. `$SLURM_ARRAY_TASK_ID`.
    #[arg(long)]
    pub index: usize,
    /// Train again even if the output exists.
    #[arg(long)]
    pub force: bool,
}

/// `retest prepare`.
#[derive(Debug, Args)]
pub struct PrepareArgs {
    /// A pipeline file (`pipelines/du2021.yaml`) or the name of one in `pipelines/`.
    pub pipeline: String,
    /// Prepare again even if an identical preparation exists.
    #[arg(long)]
    pub force: bool,
}

/// `retest status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// A pipeline file (`pipelines/du2021.yaml`) or the name of one in `pipelines/`.
    pub pipeline: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatusFormat::Text)]
    pub format: StatusFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusFormat {
    /// One line per job, then a summary.
    Text,
    /// A JSON array with one object per job.
    Json,
}

/// `retest prepare PIPELINE`: prepares every corpus of the pipeline and counts the GloVe
/// co-occurrences its training jobs read.
pub fn prepare(folders: &Folders, args: &PrepareArgs) -> Result<()> {
    prepare_pipeline(&LoadedPlan::load(folders, &args.pipeline)?, args.force)
}

/// `retest run-task PIPELINE --index I`: one training job.
pub fn run_task(folders: &Folders, args: &RunTaskArgs) -> Result<()> {
    let (report, n) = cluster::run_task(folders, &args.pipeline, args.index, args.force)?;
    let what = match report.outcome {
        TrainOutcome::Trained => format!("trained in {:.1} s", report.seconds),
        TrainOutcome::Skipped => "already done, skipped".to_owned(),
    };
    writeln!(
        std::io::stderr(),
        "training job {} of {n} ({}): {what} → {}",
        args.index,
        report.job.name(),
        report.output.display()
    )?;
    Ok(())
}

/// `retest status PIPELINE`.
pub fn status(folders: &Folders, args: &StatusArgs) -> Result<()> {
    let (loaded, jobs) = cluster::status(folders, &args.pipeline)?;
    let mut out = crate::stdout::stdout();
    match args.format {
        StatusFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&jobs)?)?,
        StatusFormat::Text => {
            let on_slurm = cluster::ran_on_slurm(&loaded.layout);
            let rerun = cluster::rerun_command(folders, &args.pipeline, on_slurm);
            write!(
                out,
                "{}",
                cluster::status_text(&loaded.plan, &loaded.layout, &jobs, &rerun, on_slurm)
            )?;
        }
    }
    Ok(())
}

/// `retest run PIPELINE --executor slurm`.
pub fn submit(folders: &Folders, pipeline: &str, run: &RunArgs, args: &ExecutorArgs) -> Result<()> {
    if run.force {
        bail!(
            "--force does not apply to --executor slurm: Slurm tasks skip finished outputs so that a \
             resubmission redoes only what is missing; delete the outputs to redo them"
        );
    }
    if run.jobs.is_some() {
        bail!("--jobs does not apply to --executor slurm: use --cpus-per-task and --max-parallel");
    }
    let options = args.slurm_options()?;
    cluster::submit(folders, pipeline, &options, &mut crate::stdout::stdout())
}
