//! `results/<pipeline>/manifest.json`: what a run used and produced — the resolved plan, the
//! prepared corpora with their source checksums, the word lists with theirs, the lexicon files,
//! the software version and commit, and timings.

use anyhow::Result;
use serde_json::json;

use crate::driver::jobs::training_jobs;
use crate::driver::run::MeasuredRun;
use crate::driver::train::JobTiming;

/// Writes the manifest of `run`, the aggregate stage's last write (its presence marks the run
/// done). `aggregate_seconds` is the wall time of the stages after measurement.
pub(crate) fn write(run: &MeasuredRun, aggregate_seconds: f64) -> Result<()> {
    let t = &run.trained;
    let (plan, layout) = (&t.loaded.plan, &t.loaded.layout);
    let corpora: Vec<_> = t
        .corpora
        .iter()
        .map(|c| json!({ "name": c.name(), "folder": c.prepared.dir, "prepared": c.prepared.stats }))
        .collect();
    let lists: Vec<_> = run
        .lists
        .every_file()
        .iter()
        .map(|(name, path, sha)| json!({ "name": name, "file": path, "sha256": sha }))
        .collect();
    // Per job: training times from the timing file beside each embedding (jobs finished by an
    // earlier, interrupted run included), measure times from each measure job's summary.
    let training: Vec<_> = training_jobs(plan)
        .iter()
        .map(|job| {
            let corpus = t.corpora.iter().find(|c| c.name() == job.corpus);
            let output = corpus.map(|c| layout.training_output(plan, c.key(), job));
            let timing = output.as_deref().and_then(JobTiming::read);
            let (seconds, prefetch) = timing.map(|t| (t.seconds, t.prefetch)).unzip();
            json!({ "job": job.name(), "output": output, "seconds": seconds, "prefetch": prefetch.flatten() })
        })
        .collect();
    let measure: Vec<_> = run
        .measured
        .iter()
        .map(|m| {
            json!({ "job": format!("measure {} {}", m.corpus, m.algorithm), "output": m.dir, "summary": m.summary })
        })
        .collect();
    let manifest = json!({
        "pipeline": plan.name,
        "pipeline_file": plan.file,
        "retest_version": env!("CARGO_PKG_VERSION"),
        "git_commit": git_commit(),
        "plan": plan,
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
    let text = serde_json::to_string_pretty(&manifest)? + "\n";
    Ok(retest_fs::write_atomic(&layout.manifest(), text.as_bytes())?)
}

/// The commit checked out, at run time, in the source tree this binary was built in (when it is
/// a git checkout), with `-dirty` appended when the tree has uncommitted changes.
pub(crate) fn git_commit() -> Option<String> {
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
