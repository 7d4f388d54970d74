//! Slurm batch scripts for a pipeline: text generation only (submitting is the CLI's job).
//!
//! A pipeline runs on Slurm as three jobs:
//!
//! 1. **prepare** (`retest prepare PIPELINE`): encodes the corpora and counts GloVe
//!    co-occurrences;
//! 2. **train**, one job array whose task `i` runs `retest run-task PIPELINE --index i`, the
//!    `i`-th job of `Plan::training_jobs()`, submitted with `--dependency=afterok:<prepare>`;
//! 3. **aggregate** (`retest run PIPELINE`, the local executor), submitted with
//!    `--dependency=afterok:<train>`: it finds every training done and runs measurement,
//!    reliability, tables and report.
//!
//! Every job writes content-addressed outputs atomically and skips those that exist, so each
//! script can be resubmitted as it is. The scripts name the `retest` binary, the working
//! directory, the pipeline file and every `RETEST_*` setting by absolute path or value, so
//! they run the same from any shell.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::driver::layout::Layout;

/// The environment variables a job needs, passed explicitly (set, or unset when the submitting
/// shell did not set them), so a resubmitted script behaves as the first submission did.
pub const PASSED_ENV: [&str; 6] = [
    "RETEST_DATA_DIR",
    "RETEST_RESULTS_DIR",
    "RETEST_CORPORA_DIR",
    "RETEST_WORDLISTS_DIR",
    "RETEST_CACHE_DIR",
    "RETEST_OFFLINE",
];

/// One of the three Slurm jobs of a pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Prepare,
    Train,
    Aggregate,
}

impl Stage {
    pub const ALL: [Stage; 3] = [Stage::Prepare, Stage::Train, Stage::Aggregate];

    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Prepare => "prepare",
            Stage::Train => "train",
            Stage::Aggregate => "aggregate",
        }
    }

    /// The Slurm job name, also the start of its log file names.
    pub fn job_name(self, pipeline: &str) -> String {
        format!("retest-{pipeline}-{}", self.as_str())
    }

    /// The script's file name in [`script_dir`].
    pub fn script_name(self) -> String {
        format!("{}.sbatch", self.as_str())
    }
}

/// `results/<pipeline>/slurm/`: the generated scripts.
pub fn script_dir(layout: &Layout) -> PathBuf {
    layout.run.join("slurm")
}

/// `results/<pipeline>/slurm/logs/`: one log per job or array task.
pub fn log_dir(layout: &Layout) -> PathBuf {
    script_dir(layout).join("logs")
}

/// Resources requested for every job (`None`: the cluster's default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    pub partition: Option<String>,
    /// Wall-clock limit in any format sbatch accepts (`2:00:00`, `1-0`).
    pub time: Option<String>,
    /// Memory per node (`4G`).
    pub mem: Option<String>,
    pub cpus_per_task: u32,
    /// At most this many array tasks at once (the `%N` of `--array`).
    pub max_parallel: Option<u32>,
    /// Further sbatch options, one `#SBATCH` line each (`--account=lab`, `--qos=short`).
    pub extra: Vec<String>,
}

/// Where and how the jobs run: absolute paths and the passed environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptContext {
    pub pipeline_name: String,
    /// The pipeline file (absolute).
    pub pipeline_file: PathBuf,
    /// The `retest` binary (absolute).
    pub retest: PathBuf,
    /// The working directory of every job (absolute).
    pub workdir: PathBuf,
    /// The log folder (absolute).
    pub log_dir: PathBuf,
    /// Each of [`PASSED_ENV`] with its value, `None` to unset it.
    pub env: Vec<(String, Option<String>)>,
}

/// Quotes `s` for a POSIX shell (left bare when it is made of safe characters only).
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if safe {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Quotes one sbatch argument for an `#SBATCH` line. sbatch splits such a line into words at
/// white space, where double quotes group, a backslash takes the next character literally and
/// an unquoted `#` starts a comment (single quotes mean nothing there). An argument made of
/// safe characters only is left bare.
pub fn directive_quote(arg: &str) -> String {
    let safe = !arg.is_empty()
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if safe {
        return arg.to_owned();
    }
    let mut quoted = String::with_capacity(arg.len() + 2);
    quoted.push('"');
    for c in arg.chars() {
        if c == '"' || c == '\\' {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

/// Appends `#SBATCH --option=value`.
fn directive(s: &mut String, option: &str, value: &str) {
    let _ = writeln!(s, "#SBATCH {}", directive_quote(&format!("--{option}={value}")));
}

/// The sbatch options the scripts set themselves, which `--sbatch-arg` must not override: the
/// array range and dependencies are chosen per submission, and the job name and log file name
/// are how `retest status` finds the logs.
const OWN_OPTIONS: [(&str, Option<char>, &str); 11] = [
    (
        "array",
        Some('a'),
        "the array holds the training jobs not yet done",
    ),
    ("dependency", Some('d'), "each job depends on the one before it"),
    (
        "job-name",
        Some('J'),
        "`retest status` finds the logs by job name",
    ),
    (
        "output",
        Some('o'),
        "`retest status` reads the logs in <results>/<pipeline>/slurm/logs",
    ),
    (
        "error",
        Some('e'),
        "`retest status` reads the logs in <results>/<pipeline>/slurm/logs",
    ),
    (
        "chdir",
        Some('D'),
        "jobs run in the directory `retest run` was started in",
    ),
    ("partition", Some('p'), "use --partition"),
    ("time", Some('t'), "use --time"),
    ("mem", None, "use --mem"),
    ("cpus-per-task", Some('c'), "use --cpus-per-task"),
    ("wrap", None, "the scripts run retest"),
];

/// Checks one `--sbatch-arg`: a single sbatch argument (`--account=lab`, `--qos=short`; not
/// `-A lab`, which is two), on one line, and not an option the scripts set themselves.
pub fn check_sbatch_arg(arg: &str) -> Result<(), String> {
    if !arg.starts_with('-') {
        return Err(format!(
            "--sbatch-arg `{arg}`: expected one sbatch option such as `--account=lab` (give an option \
             and its value joined by `=`)"
        ));
    }
    if arg.chars().any(char::is_control) {
        return Err(format!(
            "--sbatch-arg {arg:?}: must be one line without control characters"
        ));
    }
    if !arg.starts_with("--") && arg.contains(char::is_whitespace) {
        return Err(format!(
            "--sbatch-arg `{arg}`: one argument of sbatch each; write the long form joined by `=` \
             (`--account=lab`)"
        ));
    }
    let (long, short) = match arg.strip_prefix("--") {
        Some(rest) => (Some(rest.split('=').next().unwrap_or(rest)), None),
        None => (None, arg[1..].chars().next()),
    };
    for (name, letter, why) in OWN_OPTIONS {
        // sbatch accepts unambiguous prefixes of long options (`--part` for `--partition`).
        let long_match = long.is_some_and(|l| l.len() >= 3 && name.starts_with(l));
        let short_match = short.is_some() && short == letter;
        if long_match || short_match {
            return Err(format!(
                "--sbatch-arg `{arg}`: the generated scripts set --{name} themselves ({why})"
            ));
        }
    }
    Ok(())
}

/// Checks a value given to --partition, --time or --mem: one line.
pub fn check_resource_value(option: &str, value: &str) -> Result<(), String> {
    if value.is_empty() || value.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!(
            "--{option} {value:?}: expected one word, as sbatch takes it"
        ));
    }
    Ok(())
}

fn path_str(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The `--array` value for task `indices` (sorted, distinct), in compact ranges with the
/// `%N` throttle: `[0, 1, 2, 5, 7, 8]` and 2 give `0-2,5,7-8%2`.
pub fn array_spec(indices: &[usize], max_parallel: Option<u32>) -> String {
    let mut spec = String::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        let mut end = start;
        while i + 1 < indices.len() && indices[i + 1] == end + 1 {
            i += 1;
            end = indices[i];
        }
        if !spec.is_empty() {
            spec.push(',');
        }
        if end == start {
            let _ = write!(spec, "{start}");
        } else {
            let _ = write!(spec, "{start}-{end}");
        }
        i += 1;
    }
    if let Some(n) = max_parallel {
        let _ = write!(spec, "%{n}");
    }
    spec
}

/// The job id in `sbatch --parsable` output (`1234` or `1234;cluster`).
pub fn parse_job_id(stdout: &str) -> Option<u64> {
    stdout.trim().split(';').next()?.trim().parse().ok()
}

/// The header and environment common to the three scripts.
fn header(ctx: &ScriptContext, res: &Resources, stage: Stage, what: &str, array: Option<&str>) -> String {
    let mut s = String::from("#!/bin/bash\n");
    let script = ctx
        .log_dir
        .parent()
        .unwrap_or(&ctx.log_dir)
        .join(stage.script_name());
    let _ = writeln!(s, "# retest {}: {what}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(
        s,
        "# Pipeline `{}` ({}). Finished outputs are skipped, so this script can be resubmitted\n\
         # as it is: sbatch {}",
        ctx.pipeline_name,
        path_str(&ctx.pipeline_file),
        shell_quote(&path_str(&script))
    );
    directive(&mut s, "job-name", &stage.job_name(&ctx.pipeline_name));
    if let Some(array) = array {
        directive(&mut s, "array", array);
    }
    if let Some(p) = &res.partition {
        directive(&mut s, "partition", p);
    }
    if let Some(t) = &res.time {
        directive(&mut s, "time", t);
    }
    if let Some(m) = &res.mem {
        directive(&mut s, "mem", m);
    }
    directive(&mut s, "cpus-per-task", &res.cpus_per_task.to_string());
    let pattern = if array.is_some() {
        "%x-%A_%a.out"
    } else {
        "%x-%j.out"
    };
    directive(&mut s, "output", &path_str(&ctx.log_dir.join(pattern)));
    directive(&mut s, "chdir", &path_str(&ctx.workdir));
    if stage == Stage::Aggregate {
        // A failed training task can never satisfy `afterok`: drop the job rather than leave
        // it pending for ever.
        directive(&mut s, "kill-on-invalid-dep", "yes");
    }
    for arg in &res.extra {
        let _ = writeln!(s, "#SBATCH {}", directive_quote(arg));
    }
    s.push_str("\nset -euo pipefail\n");
    let _ = writeln!(s, "cd {}", shell_quote(&path_str(&ctx.workdir)));
    for (name, value) in &ctx.env {
        match value {
            Some(v) => {
                let _ = writeln!(s, "export {name}={}", shell_quote(v));
            }
            None => {
                let _ = writeln!(s, "unset {name}");
            }
        }
    }
    s
}

fn command(ctx: &ScriptContext, args: &str) -> String {
    format!("exec {} {args}\n", shell_quote(&path_str(&ctx.retest)))
}

/// The prepare job: corpora and GloVe co-occurrences.
pub fn prepare_script(ctx: &ScriptContext, res: &Resources) -> String {
    let mut s = header(
        ctx,
        res,
        Stage::Prepare,
        "prepare the corpora and count GloVe co-occurrences",
        None,
    );
    s.push_str(&command(
        ctx,
        &format!("prepare {}", shell_quote(&path_str(&ctx.pipeline_file))),
    ));
    s
}

/// The training array: task `i` runs training job `i`; `n_tasks` is the number of training
/// jobs of the plan.
pub fn train_script(ctx: &ScriptContext, res: &Resources, n_tasks: usize) -> String {
    let all: Vec<usize> = (0..n_tasks).collect();
    let mut s = header(
        ctx,
        res,
        Stage::Train,
        &format!(
            "training jobs as a job array; task i runs training job i of `retest plan` ({n_tasks} jobs)"
        ),
        Some(&array_spec(&all, res.max_parallel)),
    );
    s.push_str(&command(
        ctx,
        &format!(
            "run-task {} --index \"$SLURM_ARRAY_TASK_ID\"",
            shell_quote(&path_str(&ctx.pipeline_file))
        ),
    ));
    s
}

/// The aggregation job: the local executor, which finds every training done and runs the
/// later stages.
pub fn aggregate_script(ctx: &ScriptContext, res: &Resources) -> String {
    let mut s = header(
        ctx,
        res,
        Stage::Aggregate,
        "measurement, reliability, tables and report, once every training job is done",
        None,
    );
    s.push_str(&command(
        ctx,
        &format!(
            "run {} --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\"",
            shell_quote(&path_str(&ctx.pipeline_file))
        ),
    ));
    s
}

/// One `sbatch` call of a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    pub stage: Stage,
    /// `--array` given on the command line (overriding the script's own), for a training
    /// array that runs only the missing tasks.
    pub array: Option<String>,
    /// The stage whose job must finish successfully first (`--dependency=afterok:<id>`).
    pub after: Option<Stage>,
}

/// The sbatch calls that finish a pipeline, given what is already done: the prepare job when
/// `needs_prepare`, a training array over the `missing` training jobs (an empty list submits
/// none), then the aggregation job, each depending on the job before it.
pub fn submissions(needs_prepare: bool, missing: &[usize], max_parallel: Option<u32>) -> Vec<Submission> {
    let mut out = Vec::new();
    let mut last = None;
    if needs_prepare {
        out.push(Submission {
            stage: Stage::Prepare,
            array: None,
            after: None,
        });
        last = Some(Stage::Prepare);
    }
    if !missing.is_empty() {
        out.push(Submission {
            stage: Stage::Train,
            array: Some(array_spec(missing, max_parallel)),
            after: last,
        });
        last = Some(Stage::Train);
    }
    out.push(Submission {
        stage: Stage::Aggregate,
        array: None,
        after: last,
    });
    out
}

/// A log file of a Slurm job of this pipeline, recognised by its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogName {
    pub stage: Stage,
    pub job_id: u64,
    /// The array task index, for array jobs.
    pub task: Option<usize>,
}

/// Parses a log file name written by the scripts (`retest-smoke-train-12_3.out`,
/// `retest-smoke-aggregate-14.out`).
pub fn parse_log_name(pipeline: &str, file_name: &str) -> Option<LogName> {
    let stem = file_name.strip_suffix(".out")?;
    Stage::ALL.into_iter().find_map(|stage| {
        let rest = stem.strip_prefix(&stage.job_name(pipeline))?.strip_prefix('-')?;
        let (job, task) = match rest.split_once('_') {
            Some((job, task)) => (job, Some(task.parse().ok()?)),
            None => (rest, None),
        };
        Some(LogName {
            stage,
            job_id: job.parse().ok()?,
            task,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> ScriptContext {
        ScriptContext {
            pipeline_name: "smoke".into(),
            pipeline_file: "/home/me/retest/pipelines/smoke.yaml".into(),
            retest: "/home/me/retest/target/release/retest".into(),
            workdir: "/home/me/retest".into(),
            log_dir: "/scratch/results/smoke/slurm/logs".into(),
            env: vec![
                ("RETEST_DATA_DIR".into(), Some("/data/mirror".into())),
                ("RETEST_RESULTS_DIR".into(), Some("/scratch/results".into())),
                (
                    "RETEST_CORPORA_DIR".into(),
                    Some("/home/me/retest/corpora".into()),
                ),
                ("RETEST_CACHE_DIR".into(), Some("/home/me/my cache".into())),
                ("RETEST_OFFLINE".into(), None),
            ],
        }
    }

    fn res() -> Resources {
        Resources {
            partition: Some("short".into()),
            time: Some("2:00:00".into()),
            mem: Some("8G".into()),
            cpus_per_task: 1,
            max_parallel: Some(16),
            extra: vec!["--account=lab".into()],
        }
    }

    #[test]
    fn training_array_script() {
        assert_eq!(
            train_script(&ctx(), &res(), 192),
            "#!/bin/bash
# retest 0.1.0: training jobs as a job array; task i runs training job i of `retest plan` (192 jobs)
# Pipeline `smoke` (/home/me/retest/pipelines/smoke.yaml). Finished outputs are skipped, so this script can be resubmitted
# as it is: sbatch /scratch/results/smoke/slurm/train.sbatch
#SBATCH --job-name=retest-smoke-train
#SBATCH --array=0-191%16
#SBATCH --partition=short
#SBATCH --time=2:00:00
#SBATCH --mem=8G
#SBATCH --cpus-per-task=1
#SBATCH --output=/scratch/results/smoke/slurm/logs/%x-%A_%a.out
#SBATCH --chdir=/home/me/retest
#SBATCH --account=lab

set -euo pipefail
cd /home/me/retest
export RETEST_DATA_DIR=/data/mirror
export RETEST_RESULTS_DIR=/scratch/results
export RETEST_CORPORA_DIR=/home/me/retest/corpora
export RETEST_CACHE_DIR='/home/me/my cache'
unset RETEST_OFFLINE
exec /home/me/retest/target/release/retest run-task /home/me/retest/pipelines/smoke.yaml --index \"$SLURM_ARRAY_TASK_ID\"
"
        );
    }

    #[test]
    fn prepare_and_aggregate_scripts() {
        let minimal = Resources {
            cpus_per_task: 2,
            ..Resources::default()
        };
        let prepare = prepare_script(&ctx(), &minimal);
        assert!(prepare.contains("#SBATCH --job-name=retest-smoke-prepare\n"));
        assert!(prepare.contains("#SBATCH --output=/scratch/results/smoke/slurm/logs/%x-%j.out\n"));
        assert!(prepare.contains("#SBATCH --cpus-per-task=2\n"));
        assert!(!prepare.contains("--array"));
        assert!(!prepare.contains("--partition"));
        assert!(!prepare.contains("--kill-on-invalid-dep"));
        assert!(prepare.ends_with(
            "exec /home/me/retest/target/release/retest prepare /home/me/retest/pipelines/smoke.yaml\n"
        ));
        let aggregate = aggregate_script(&ctx(), &minimal);
        assert!(aggregate.contains("#SBATCH --job-name=retest-smoke-aggregate\n"));
        assert!(aggregate.contains("#SBATCH --kill-on-invalid-dep=yes\n"));
        assert!(aggregate.ends_with(
            "exec /home/me/retest/target/release/retest run /home/me/retest/pipelines/smoke.yaml \
             --jobs \"${SLURM_CPUS_PER_TASK:-1}\"\n"
        ));
    }

    #[test]
    fn array_specs_are_compact_ranges() {
        assert_eq!(array_spec(&[0, 1, 2, 3, 4, 5], None), "0-5");
        assert_eq!(array_spec(&[0, 1, 2, 5, 7, 8], Some(2)), "0-2,5,7-8%2");
        assert_eq!(array_spec(&[4], Some(3)), "4%3");
        assert_eq!(array_spec(&[1, 3, 5], None), "1,3,5");
    }

    #[test]
    fn submissions_skip_what_is_done() {
        let all = submissions(true, &[0, 1, 2], Some(2));
        assert_eq!(
            all,
            vec![
                Submission {
                    stage: Stage::Prepare,
                    array: None,
                    after: None
                },
                Submission {
                    stage: Stage::Train,
                    array: Some("0-2%2".into()),
                    after: Some(Stage::Prepare)
                },
                Submission {
                    stage: Stage::Aggregate,
                    array: None,
                    after: Some(Stage::Train)
                },
            ]
        );
        let resubmit = submissions(false, &[4], None);
        assert_eq!(resubmit[0].array.as_deref(), Some("4"));
        assert_eq!(resubmit[0].after, None);
        assert_eq!(resubmit[1].after, Some(Stage::Train));
        let only_aggregate = submissions(false, &[], None);
        assert_eq!(
            only_aggregate,
            vec![Submission {
                stage: Stage::Aggregate,
                array: None,
                after: None
            }]
        );
    }

    #[test]
    fn job_ids_and_log_names_parse() {
        assert_eq!(parse_job_id("1234\n"), Some(1234));
        assert_eq!(parse_job_id("1234;cluster\n"), Some(1234));
        assert_eq!(parse_job_id("Submitted batch job 1\n"), None);
        assert_eq!(
            parse_log_name("smoke", "retest-smoke-train-12_3.out"),
            Some(LogName {
                stage: Stage::Train,
                job_id: 12,
                task: Some(3)
            })
        );
        assert_eq!(
            parse_log_name("smoke", "retest-smoke-aggregate-14.out"),
            Some(LogName {
                stage: Stage::Aggregate,
                job_id: 14,
                task: None
            })
        );
        assert_eq!(parse_log_name("smoke", "retest-other-train-12_3.out"), None);
        assert_eq!(parse_log_name("smoke", "retest-smoke-train-12_3.err"), None);
    }

    #[test]
    fn sbatch_directives_are_quoted_as_sbatch_reads_them() {
        assert_eq!(directive_quote("--account=lab"), "--account=lab");
        assert_eq!(directive_quote("--comment=my run"), "\"--comment=my run\"");
        assert_eq!(directive_quote("--comment=#1"), "\"--comment=#1\"");
        assert_eq!(
            directive_quote(r#"--comment=say "hi" \ bye"#),
            r#""--comment=say \"hi\" \\ bye""#
        );
        let mut res = res();
        res.extra = vec!["--comment=bias study #2".into(), "--qos=short".into()];
        let mut ctx = ctx();
        ctx.log_dir = "/scratch/my results/smoke/slurm/logs".into();
        let script = train_script(&ctx, &res, 4);
        assert!(
            script.contains("\n#SBATCH \"--comment=bias study #2\"\n#SBATCH --qos=short\n"),
            "{script}"
        );
        assert!(
            script.contains("\n#SBATCH \"--output=/scratch/my results/smoke/slurm/logs/%x-%A_%a.out\"\n"),
            "{script}"
        );
        assert!(script.contains("\n#SBATCH --array=0-3%16\n"), "{script}");
        assert!(script.contains("# as it is: sbatch '/scratch/my results/smoke/slurm/train.sbatch'\n"));
    }

    #[test]
    fn directives_come_before_the_first_command() {
        // sbatch stops reading #SBATCH lines at the first line that is not a comment.
        for script in [
            prepare_script(&ctx(), &res()),
            train_script(&ctx(), &res(), 3),
            aggregate_script(&ctx(), &res()),
        ] {
            let first_command = script
                .lines()
                .position(|l| !l.is_empty() && !l.starts_with('#'))
                .unwrap();
            let lines: Vec<&str> = script.lines().collect();
            let last_directive = lines.iter().rposition(|l| l.starts_with("#SBATCH")).unwrap();
            assert!(last_directive < first_command, "{script}");
            assert!(script.contains("#SBATCH --account=lab\n"));
            assert!(script.contains("#SBATCH --partition=short\n#SBATCH --time=2:00:00\n#SBATCH --mem=8G\n"));
        }
    }

    #[test]
    fn sbatch_args_are_checked() {
        for ok in [
            "--account=lab",
            "--qos=short",
            "--mem-per-cpu=2G",
            "-Alab",
            "--comment=a b",
            "--parsable",
        ] {
            assert_eq!(check_sbatch_arg(ok), Ok(()), "{ok}");
        }
        let err = |arg: &str| check_sbatch_arg(arg).unwrap_err();
        assert!(err("account=lab").contains("expected one sbatch option"));
        assert!(err("-A lab").contains("one argument of sbatch each"));
        assert!(err("--comment=a\nb").contains("one line"));
        assert!(err("--array=0-3").contains("set --array themselves"));
        assert!(err("-a0-3").contains("set --array themselves"));
        assert!(err("--dependency=afterok:1").contains("--dependency"));
        assert!(err("--part=long").contains("use --partition"));
        assert!(err("-pshort").contains("use --partition"));
        assert!(err("--time=1:00:00").contains("use --time"));
        assert!(err("--output=x.log").contains("`retest status`"));
        assert!(err("-Jname").contains("--job-name"));
        assert_eq!(check_resource_value("mem", "8G"), Ok(()));
        assert!(check_resource_value("time", "1 day").is_err());
        assert!(check_resource_value("partition", "").is_err());
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("/a/b-c_d.yaml"), "/a/b-c_d.yaml");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
