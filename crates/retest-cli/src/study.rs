//! `retest run` and `retest measure`: the whole study of a pipeline, stage after stage, each
//! skipping what is already done.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use retest_pipeline::{
    DONE_FILE, JobTiming, Layout, LexiconFiles, Lists, Measured, combine_tables, measure_all,
    regression_input, training_jobs,
};
use serde_json::json;

use crate::cli::{Dirs, RunArgs};
use crate::commands::{Trained, train_pipeline};
use crate::paths::{lexicon_folder, pipeline_path, wordlist_folder};

/// Everything up to the per-configuration tables.
pub struct MeasuredRun {
    pub trained: Trained,
    pub lists: Lists,
    /// Where the lexical features of the regression input are read from.
    pub lexicon: LexiconFiles,
    pub measured: Vec<Measured>,
    pub seconds: f64,
}

/// Prepares, trains and measures what is missing.
pub fn measure_pipeline(dirs: &Dirs, pipeline: &str, args: &RunArgs) -> Result<MeasuredRun> {
    let folder = wordlist_folder(dirs.wordlists.as_deref(), &pipeline_path(pipeline));
    let (trained, (lists, lexicon)) = train_pipeline(dirs, pipeline, args, |plan, resolver| {
        let lists = Lists::load(plan, &folder, resolver)
            .with_context(|| format!("pipeline `{}`: loading word lists", plan.name))?;
        let lexicon = LexiconFiles::resolve(&lexicon_folder(&folder), resolver)
            .with_context(|| format!("pipeline `{}`: finding the lexicon", plan.name))?;
        Ok((lists, lexicon))
    })?;
    let started = Instant::now();
    let threads = jobs(args);
    let measured = measure_all(
        &trained.plan,
        &trained.layout,
        &trained.corpora,
        &lists,
        threads,
        args.force,
    )?;
    Ok(MeasuredRun {
        trained,
        lists,
        lexicon,
        measured,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `retest run`: every stage, then the manifest.
pub fn run_pipeline(dirs: &Dirs, pipeline: &str, args: &RunArgs) -> Result<()> {
    let run = measure_pipeline(dirs, pipeline, args)?;
    let started = Instant::now();
    let layout = &run.trained.layout;
    let tables_dir = layout.run.join("tables");
    let mut written = combine_tables(&run.measured, &tables_dir)?;
    let lexicon = run.lexicon.load()?;
    let (mut regression, left_out) = regression_input(&tables_dir, &lexicon)
        .with_context(|| format!("building the regression input from {}", tables_dir.display()))?;
    written.extend(
        regression
            .write(&tables_dir, true)
            .with_context(|| format!("writing the regression input into {}", tables_dir.display()))?,
    );
    writeln!(
        std::io::stderr(),
        "regression input: {} rows; {left_out} (analysis, configuration, rule, scale, word) rows left out \
         for lack of word properties, a WordNet sense or a Brown tag",
        regression.height()
    )?;
    let (report_dir, report) = crate::report::write_run_report(&layout.run, &run.trained.plan.name)?;
    crate::report::print_summary(&report_dir, &report)?;
    let aggregate_seconds = started.elapsed().as_secs_f64();
    write_manifest(&run, &layout.run, aggregate_seconds)?;
    writeln!(
        std::io::stderr(),
        "pipeline `{}` done: {} files in {}, report in {}",
        run.trained.plan.name,
        written.len(),
        tables_dir.display(),
        report_dir.display()
    )?;
    Ok(())
}

fn jobs(args: &RunArgs) -> usize {
    args.jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1)
}

/// `results/<pipeline>/manifest.json`: the resolved plan, the prepared corpora with their
/// source checksums, the word lists with theirs, the lexicon files, the software version and commit, and timings.
fn write_manifest(run: &MeasuredRun, dir: &Path, aggregate_seconds: f64) -> Result<()> {
    let t = &run.trained;
    let corpora: Vec<_> = t
        .corpora
        .iter()
        .map(|c| json!({ "name": c.name(), "folder": c.prepared.dir, "prepared": c.prepared.stats }))
        .collect();
    let lists: Vec<_> = run
        .lists
        .files
        .iter()
        .map(|(name, path, sha)| json!({ "name": name, "file": path, "sha256": sha }))
        .collect();
    // Per job: training times from the timing file beside each embedding (jobs finished by an
    // earlier, interrupted run included), measure times from each measure job's summary.
    let training: Vec<_> = training_jobs(&t.plan)
        .iter()
        .map(|job| {
            let corpus = t.corpora.iter().find(|c| c.name() == job.corpus);
            let output = corpus.map(|c| {
                let dir = t
                    .layout
                    .embeddings_dir(&t.plan, &job.corpus, c.key(), job.algorithm);
                Layout::seed_file(&dir, job.seed_idx)
            });
            let timing = output.as_deref().and_then(JobTiming::read);
            json!({ "job": job.name(), "output": output, "seconds": timing.map(|t| t.seconds) })
        })
        .collect();
    let measure: Vec<_> = run
        .measured
        .iter()
        .map(|m| {
            let summary = std::fs::read_to_string(m.dir.join(DONE_FILE))
                .ok()
                .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
            json!({ "job": format!("measure {} {}", m.corpus, m.algorithm), "output": m.dir, "summary": summary })
        })
        .collect();
    let manifest = json!({
        "pipeline": t.plan.name,
        "pipeline_file": t.plan.file,
        "retest_version": env!("CARGO_PKG_VERSION"),
        "git_commit": git_commit(),
        "plan": t.plan,
        "corpora": corpora,
        "word_lists": lists,
        "lexicon": {
            "wordnet": run.lexicon.wordnet,
            "brown": run.lexicon.brown,
            "universal_tagset": run.lexicon.universal_tagset,
        },
        "measured": run.measured,
        "jobs": { "training": training, "measure": measure },
        "seconds": {
            "prepare_and_train": t.seconds,
            "measure": run.seconds,
            "aggregate": aggregate_seconds,
        },
    });
    let path = dir.join("manifest.json");
    let tmp = dir.join(".manifest.json.partial");
    std::fs::write(&tmp, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The commit checked out, at run time, in the source tree this binary was built in (when it is
/// a git checkout), with `-dirty` appended when the tree has uncommitted changes.
fn git_commit() -> Option<String> {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let commit = git(&["rev-parse", "HEAD"])?;
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{commit}-dirty") } else { commit })
}
