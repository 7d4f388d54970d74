//! The training stage: every (corpus, algorithm, seed) job of a plan, in parallel across jobs.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use indicatif::HumanDuration;
use rayon::prelude::*;
use retest_embeddings::{Embeddings, Format, toml};
use retest_glove::Cooccurrences;
use retest_rng::SeedPath;
use retest_sgns::{Architecture, Semantics, SgnsConfig};
use retest_spec::{Model, ModelParams, Plan, SgnsParams};

use crate::driver::cooccurrence::{cooccurrences_for, glove_config};

use crate::corpus::LoadedCorpus;
use crate::driver::jobs::{TrainingJob, training_jobs};
use crate::driver::layout::Layout;
use crate::progress::Reporter;

/// What happened to one training job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainOutcome {
    Trained,
    /// Its output already existed.
    Skipped,
}

/// The result of the training stage.
#[derive(Debug, Default)]
pub struct TrainSummary {
    pub trained: usize,
    pub skipped: usize,
    /// Jobs that failed, with their error; the other jobs ran and kept their outputs.
    pub failed: Vec<(String, anyhow::Error)>,
}

/// The trainer's configuration from the resolved plan parameters.
pub fn sgns_config(p: &SgnsParams) -> SgnsConfig {
    SgnsConfig {
        architecture: match p.architecture {
            retest_spec::Architecture::Skipgram => Architecture::Skipgram,
            retest_spec::Architecture::Cbow => Architecture::Cbow,
        },
        dim: p.dim as usize,
        window: p.window as usize,
        negative: p.negative as usize,
        ns_exponent: p.ns_exponent,
        sample: p.sample,
        epochs: p.epochs as usize,
        alpha: p.alpha as f32,
        min_alpha: p.min_alpha as f32,
        // Not a plan parameter: the other values exist to compare with word2vec.c and gensim.
        semantics: Semantics::RETEST,
    }
}

/// Writes trained vectors atomically as `.fifu` with `metadata`.
fn write_model(
    corpus: &LoadedCorpus,
    dim: usize,
    vectors: Vec<f32>,
    metadata: toml::Table,
    out: &Path,
) -> Result<()> {
    let embeddings = Embeddings::new(corpus.words(), dim, vectors)?.with_metadata(Some(metadata));
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    retest_embeddings::write(out, &embeddings, Format::Fifu)?;
    Ok(())
}

/// Trains every training job of `plan` that has no output yet (all of them with `force`),
/// `jobs` at a time. A failed job is reported in the summary; the others still run.
pub fn train_all(
    plan: &Plan,
    layout: &Layout,
    corpora: &[LoadedCorpus],
    jobs: usize,
    force: bool,
) -> Result<TrainSummary> {
    struct Task<'a> {
        corpus: &'a LoadedCorpus,
        job: TrainingJob,
        out: std::path::PathBuf,
    }
    let mut tasks = Vec::new();
    let mut summary = TrainSummary::default();
    for job in training_jobs(plan) {
        let loaded = corpora
            .iter()
            .find(|c| c.name() == job.corpus)
            .ok_or_else(|| anyhow!("corpus `{}` was not prepared", job.corpus))?;
        let out = layout.training_output(plan, loaded.key(), &job);
        if Layout::is_trained(&out) && !force {
            summary.skipped += 1;
        } else {
            tasks.push(Task {
                corpus: loaded,
                job,
                out,
            });
        }
    }
    let words_total: u64 = tasks.iter().map(|t| work_units(t.corpus, &t.job.model)).sum();
    let reporter = Reporter::new(tasks.len() as u64, words_total);
    if summary.skipped > 0 {
        reporter.log(&format!(
            "{} training jobs already done, skipped",
            summary.skipped
        ));
    }
    // GloVe's co-occurrences: counted once per corpus and window, shared by every seed.
    let mut tables: Vec<(&str, u32, Cooccurrences)> = Vec::new();
    for task in &tasks {
        if let ModelParams::Glove(params) = &task.job.model.params {
            let counted = tables
                .iter()
                .any(|(name, window, _)| *name == task.corpus.name() && *window == params.window);
            if !counted {
                let table = cooccurrences_for(task.corpus, params, &reporter)?;
                tables.push((task.corpus.name(), params.window, table));
            }
        }
    }
    let done = AtomicU64::new(0);
    let failed = Mutex::new(Vec::new());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.max(1)).build()?;
    let n_tasks = tasks.len() as u64;
    pool.install(|| {
        tasks.par_iter().for_each(|task| {
            let name = task.job.name();
            let started = Instant::now();
            reporter.begin(&name);
            let window = task.job.model.cooccurrence_window();
            let cooc = tables
                .iter()
                .find(|(name, w, _)| *name == task.corpus.name() && Some(*w) == window)
                .map(|(_, _, table)| table);
            let result = train_one(
                plan,
                task.corpus,
                cooc,
                &task.job.model,
                task.job.seed_idx,
                &task.out,
                &reporter,
            );
            reporter.end(&name);
            let n_done = done.fetch_add(1, Ordering::Relaxed) + 1;
            reporter.set_jobs(n_done, n_tasks);
            let eta = reporter
                .eta()
                .map_or_else(String::new, |eta| format!(", ETA {}", HumanDuration(eta)));
            match result {
                Ok(()) => reporter.log(&format!(
                    "trained {name} in {:.1} s ({:.0} words/s overall; {n_done}/{n_tasks} jobs{eta}) → {}",
                    started.elapsed().as_secs_f64(),
                    reporter.words_per_second(),
                    task.out.display()
                )),
                Err(error) => {
                    reporter.log(&format!("FAILED {name}: {}", crate::message::one_line(&error)));
                    failed
                        .lock()
                        .expect("no panics while holding the lock")
                        .push((name, error));
                }
            }
        });
    });
    reporter.finish();
    summary.failed = failed.into_inner().expect("no panics while holding the lock");
    summary.trained = tasks.len() - summary.failed.len();
    Ok(summary)
}

/// Work units of a training job for the progress display: corpus tokens × epochs for SGNS,
/// the same measure for GloVe (tokens × iterations), so both advance one bar.
pub(crate) fn work_units(corpus: &LoadedCorpus, model: &Model) -> u64 {
    corpus.view().n_tokens() as u64 * u64::from(model.passes())
}

pub(crate) fn train_one(
    plan: &Plan,
    corpus: &LoadedCorpus,
    cooc: Option<&Cooccurrences>,
    model: &Model,
    seed_idx: u32,
    out: &Path,
    reporter: &Reporter,
) -> Result<()> {
    let started = Instant::now();
    let seed = plan.seed_path(corpus.name(), model, seed_idx);
    let mut metadata = metadata(plan, corpus, model, seed_idx, &seed)?;
    let words = work_units(corpus, model);
    match &model.params {
        ModelParams::Sgns(params) => {
            let mut last = 0;
            let embedding = retest_sgns::train(
                &corpus.view(),
                corpus.vocab.counts(),
                &sgns_config(params),
                &seed,
                &mut |p| {
                    reporter.add_words(p.words_done - last);
                    last = p.words_done;
                },
            )?;
            let prefetch = PrefetchChoice::of(&embedding.prefetch);
            write_timing(out, started.elapsed().as_secs_f64(), words, prefetch)?;
            write_model(corpus, embedding.dim, embedding.vectors, metadata, out)
        }
        ModelParams::Glove(params) => {
            let cooc = cooc.ok_or_else(|| anyhow!("no co-occurrence table for `{}`", corpus.name()))?;
            let tokens = corpus.view().n_tokens() as u64;
            let trained =
                retest_glove::train(cooc, corpus.vocab.len(), &glove_config(params), &seed, &mut |p| {
                    if p.cost.is_some() {
                        reporter.add_words(tokens);
                    }
                })?;
            let costs: Vec<toml::Value> = trained.cost_per_iteration.iter().map(|&c| c.into()).collect();
            metadata.insert("cost_per_iteration".into(), costs.into());
            let prefetch = PrefetchChoice::of(&trained.prefetch);
            write_timing(out, started.elapsed().as_secs_f64(), words, prefetch)?;
            write_model(corpus, trained.dim, trained.vectors, metadata, out)
        }
    }
}

/// How long one training job took, read back by the run's manifest.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JobTiming {
    /// Wall seconds of the training (the embedding's write excluded). Written just before the
    /// embedding, so every finished embedding has one.
    pub seconds: f64,
    /// Work units processed (corpus tokens × epochs or iterations).
    pub words: u64,
    /// The trainer's prefetch distances and what its warm-up measured (absent in timing files
    /// of earlier versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefetch: Option<PrefetchChoice>,
}

/// What a trainer's prefetch warm-up found: it times candidate distances on the first chunks
/// of the job's own work and keeps the fastest (a hint to the caches: the embedding's bytes are
/// the same whatever it chooses).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PrefetchChoice {
    /// The distances kept, as the trainer names them (`L2 16 + L1 2`, `2 pairs ahead`);
    /// `None` when the job ended before the warm-up did (then the first candidate ran).
    pub chosen: Option<String>,
    /// Each candidate and its median nanoseconds per unit of work (a co-occurrence record for
    /// GloVe, a corpus word for SGNS); `null` for one whose turn never came.
    pub ns_per_unit: Vec<(String, f64)>,
}

impl PrefetchChoice {
    fn of<C: std::fmt::Display>(tuned: &retest_sgns::Tuned<C>) -> Option<PrefetchChoice> {
        let named = |c: &C| c.to_string();
        (!tuned.ns_per_unit.is_empty()).then(|| PrefetchChoice {
            chosen: tuned.chosen.as_ref().map(named),
            ns_per_unit: tuned.ns_per_unit.iter().map(|(c, ns)| (named(c), *ns)).collect(),
        })
    }
}

impl JobTiming {
    /// The timing recorded beside `seed_file`, if any.
    pub fn read(seed_file: &Path) -> Option<JobTiming> {
        let text = std::fs::read_to_string(Layout::timing_file(seed_file)).ok()?;
        serde_json::from_str(&text).ok()
    }
}

fn write_timing(out: &Path, seconds: f64, words: u64, prefetch: Option<PrefetchChoice>) -> Result<()> {
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let json = serde_json::to_string(&JobTiming {
        seconds,
        words,
        prefetch,
    })? + "\n";
    let path = Layout::timing_file(out);
    // One job writes each seed's files, so an earlier temporary of this one is a killed job's.
    // (Two pipelines training one configuration at the same moment are the exception: one of
    // the two jobs may then fail on its vanished temporary, and a rerun finds the seed trained.)
    retest_fs::remove_temporaries_of(&path);
    Ok(retest_fs::write_atomic(&path, json.as_bytes())?)
}

/// The metadata stored in every embedding file: what produced it, exactly.
fn metadata(
    plan: &Plan,
    corpus: &LoadedCorpus,
    model: &Model,
    seed_idx: u32,
    seed: &SeedPath,
) -> Result<toml::Table> {
    let algorithm = model.algorithm();
    let params = match &model.params {
        ModelParams::Sgns(p) => toml::Table::try_from(p)?,
        ModelParams::Glove(p) => toml::Table::try_from(p)?,
    };
    // No pipeline or configuration name: the file is shared by every pipeline of the results
    // folder that trains the same configuration, so its bytes depend on what it is trained from.
    let mut job = toml::Table::new();
    job.insert("corpus".into(), corpus.name().to_owned().into());
    job.insert("corpus_key".into(), corpus.key().to_owned().into());
    job.insert("algorithm".into(), algorithm.as_str().into());
    job.insert("pipeline_seed".into(), (plan.seed as i64).into());
    job.insert("seed_idx".into(), i64::from(seed_idx).into());
    job.insert("seed".into(), format!("{:#018x}", seed.seed_u64()).into());
    job.insert("deterministic".into(), true.into());
    job.insert("threads".into(), 1i64.into());
    let mut table = toml::Table::new();
    table.insert("retest_version".into(), env!("CARGO_PKG_VERSION").into());
    table.insert("job".into(), job.into());
    table.insert(algorithm.as_str().into(), params.into());
    Ok(table)
}
