//! The measure job of one (corpus, algorithm) configuration: build the stage of every measure
//! family the plan asks for ([`FAMILIES`]), read every seed once and hand it to each stage, then
//! have each stage write its tables, beside the coverage table of them all, into the
//! configuration's folder (through a temporary folder renamed into place).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use retest_measures::{Model, ResolvedPairs, Vocab};
use retest_spec::Plan;
use retest_tables::{CoverageRow, Table, names};
use serde::Serialize;

use crate::lists::Lists;
use crate::message::as_published;
use crate::progress::Reporter;
use crate::stages::FAMILIES;
use crate::stages::debias::check_debias_lists;
use crate::stages::seeds::{SeedReader, SeedSource, Seeds, Vocabulary};
use crate::stages::stage::{Across, Family, Seed, Setup, Stage};

/// The file a finished measure job writes last; its presence marks the job done.
pub const DONE_FILE: &str = "measure.json";

/// Whether a configuration may lack table `name`: the tables of a family a plan opts into.
pub(crate) fn is_optional(name: &str) -> bool {
    FAMILIES.iter().any(|f| f.optional && f.tables.contains(&name))
}

/// The per-configuration tables a measure job writes, in the order the aggregate stage reads
/// them: the coverage table, then every family's in the order of [`FAMILIES`].
pub fn group_tables() -> impl Iterator<Item = &'static str> {
    std::iter::once(names::COVERAGE.name()).chain(FAMILIES.iter().flat_map(|f| f.tables.iter().copied()))
}

/// What a measure job records beside its tables.
#[derive(Debug, Serialize)]
pub struct MeasureSummary {
    pub corpus: String,
    pub algorithm: String,
    pub n_seeds: u32,
    /// The words every seed has, and their dimension.
    pub n_words: usize,
    pub dim: usize,
    /// The seconds spent reading the seed files.
    pub seconds_reading: f64,
    /// Per family that ran (`seconds_rules`, `seconds_set_level`, …): the seconds its stage took
    /// on every seed and across them.
    #[serde(flatten)]
    pub seconds: BTreeMap<String, f64>,
    /// What the stages record of how their work ran ([`Stage::record`]): the neighbour search's
    /// filter of every seed (`neighbour_search`).
    #[serde(flatten)]
    pub records: BTreeMap<&'static str, serde_json::Value>,
}

/// One configuration to measure.
#[derive(Debug)]
pub struct MeasureJob<'a> {
    pub source: SeedSource<'a>,
    /// The model's name ([`Plan::models`], [`Plan::model_files`]).
    pub model: String,
    pub out_dir: PathBuf,
}

/// A stage at work, with the seconds it has taken.
struct Running<'a> {
    family: &'static Family,
    stage: Box<dyn Stage + 'a>,
    seconds: f64,
}

/// Runs one measure job with `threads` threads and writes its tables to `job.out_dir`
/// (through a temporary folder renamed into place).
///
/// # Errors
///
/// A seed file missing or unreadable, a seed whose vocabulary differs from the corpus's, a list
/// entirely out of vocabulary, fewer than two seeds, or a write failure.
pub fn measure(
    plan: &Plan,
    lists: &Lists,
    job: &MeasureJob<'_>,
    threads: usize,
    reporter: &Reporter,
) -> Result<()> {
    let label = job.label();
    let n_seeds = seed_files(job, &label)?.len();
    let Seeds {
        vocabulary,
        coverage,
        mut reader,
    } = Seeds::open(&job.source, &|line| reporter.log(line))?;
    let vocabulary = &vocabulary;
    let words = &vocabulary.words;
    let vocab = Vocab::new(words)?;
    let base_pairs = resolve_base_pairs(lists, &vocab, vocabulary)?;
    let setup = Setup {
        plan,
        lists,
        vocabulary,
        model: &job.model,
        vocab: &vocab,
        base_pairs: &base_pairs,
        n_seeds,
        threads,
    };
    let mut stages = Vec::new();
    for family in FAMILIES {
        if let Some(stage) = (family.build)(&setup)? {
            for line in stage.notes() {
                reporter.log(&line);
            }
            stages.push(Running {
                family,
                stage,
                seconds: 0.0,
            });
        }
    }
    let coverage: Vec<CoverageRow> = (coverage.iter())
        .chain(stages.iter().flat_map(|s| s.stage.coverage()))
        .cloned()
        .collect();
    let corpus = vocabulary.corpus.clone();
    let (vectors, dim, seconds_reading) =
        measure_seeds(&mut stages, &mut reader, words, threads, reporter, &label)?;
    let views: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
    let out = TemporaryFolder::beside(&job.out_dir)?;
    let staging = out.path().to_path_buf();
    let named = |error: anyhow::Error| as_published(error, &staging, &job.out_dir);
    (Table::of(names::COVERAGE, &coverage)?.write(out.path(), false)).map_err(|e| named(e.into()))?;
    let across = Across {
        corpus: &corpus,
        model: &job.model,
        vocab: &vocab,
        vectors: &views,
        dim,
        threads,
        label: &label,
        reporter,
        rule_scores: stages.iter().find_map(|s| s.stage.rule_scores()),
    };
    let mut seconds = BTreeMap::new();
    for running in &stages {
        let started = Instant::now();
        running.stage.finish(&across, out.path()).map_err(named)?;
        let total = running.seconds + started.elapsed().as_secs_f64();
        reporter.log(&format!("{} of {label}: {total:.1} s", running.family.title));
        seconds.insert(format!("seconds_{}", running.family.name), total);
    }
    let records = stages.iter().flat_map(|s| s.stage.record()).collect();
    let summary = MeasureSummary {
        corpus,
        algorithm: job.model.clone(),
        n_seeds: n_seeds as u32,
        n_words: words.len(),
        dim,
        seconds_reading,
        seconds,
        records,
    };
    out.publish(&job.out_dir, &summary).map_err(named)
}

/// The plan's base pairs in `vocab`, the words of `vocabulary`.
fn resolve_base_pairs(lists: &Lists, vocab: &Vocab<'_>, vocabulary: &Vocabulary) -> Result<ResolvedPairs> {
    (lists.base_pairs.resolve(vocab)).with_context(|| format!("corpus `{}`", vocabulary.corpus))
}

/// What a measure job of model `model` on `vocabulary` would find wrong with the plan's lists
/// before it reads a seed (a list or query entirely out of vocabulary, too few definitional
/// pairs, …): every family's stage is built, as the job builds it, and dropped; and the
/// debiasing lists are looked up when the plan debiases the corpus's models. Its large arrays
/// are allocated zeroed and never touched, so this costs the lists' lookups alone.
///
/// # Errors
///
/// The first list a stage or the debiasing cannot resolve.
pub fn check_lists(plan: &Plan, lists: &Lists, vocabulary: &Vocabulary, model: &str) -> Result<()> {
    let vocab = Vocab::new(&vocabulary.words)?;
    let base_pairs = resolve_base_pairs(lists, &vocab, vocabulary)?;
    let setup = Setup {
        plan,
        lists,
        vocabulary,
        model,
        vocab: &vocab,
        base_pairs: &base_pairs,
        n_seeds: plan.seeds_of(model),
        threads: 1,
    };
    FAMILIES
        .iter()
        .try_for_each(|family| (family.build)(&setup).map(drop))?;
    // The debiasing lists, when the corpus's trained models are debiased.
    if let Some(debias) = &lists.debias
        && plan.models().iter().any(|m| plan.debiased_of(&m.name).is_some())
    {
        check_debias_lists("debias", &vocab, debias, vocabulary.lowercase)?;
    }
    Ok(())
}

/// Reads every seed in turn and hands it to every stage; returns every seed's vectors with the
/// placeholder words' rows zeroed, their dimension, and the seconds spent reading.
fn measure_seeds(
    stages: &mut [Running<'_>],
    reader: &mut SeedReader<'_>,
    words: &[String],
    threads: usize,
    reporter: &Reporter,
    label: &str,
) -> Result<(Vec<Vec<f32>>, usize, f64)> {
    let placeholders = retest_measures::placeholder_ids(words);
    let mut vectors = Vec::with_capacity(reader.len());
    let (mut dim, mut seconds_reading) = (0, 0.0);
    for s in 0..reader.len() {
        let started = Instant::now();
        let read = reader.read(s, words, &|line| reporter.log(line))?;
        seconds_reading += started.elapsed().as_secs_f64();
        let (path, emb) = (read.path, read.embeddings);
        dim = emb.dim();
        let model = Model::new(words, emb.vectors(), dim)?;
        let original = (read.original.as_ref())
            .map(|o| Model::new(words, o.vectors(), dim))
            .transpose()?;
        let seed = Seed {
            index: s as u32,
            path: &path,
            embeddings: &emb,
            model: &model,
            original: original.as_ref(),
            threads,
        };
        for running in stages.iter_mut() {
            let started = Instant::now();
            running.stage.measure_seed(&seed)?;
            running.seconds += started.elapsed().as_secs_f64();
        }
        drop((model, original));
        let (_, _, mut raw, _) = emb.into_parts();
        // `<unk>` and `<raw_unk>` leave the Procrustes fits across seeds too: a zero row adds
        // exactly nothing to the cross-covariance, and they are never scored.
        for &id in &placeholders {
            raw[id as usize * dim..(id as usize + 1) * dim].fill(0.0);
        }
        vectors.push(raw);
        reporter.add_words(1);
        reporter.log(&format!("measured {label} seed-{s:02}"));
    }
    Ok((vectors, dim, seconds_reading))
}

impl MeasureJob<'_> {
    /// `<corpus> <model>`, for log lines and errors.
    pub fn label(&self) -> String {
        format!("{} {}", self.source.corpus(), self.model)
    }
}

/// The seed files of a job, checked: at least two, all present.
fn seed_files<'j>(job: &'j MeasureJob<'_>, label: &str) -> Result<&'j [PathBuf]> {
    let files = job.source.files();
    if files.len() < 2 {
        bail!(
            "measure {label}: reliability across seeds needs at least 2 seeds, there are {}",
            files.len()
        );
    }
    let missing: Vec<String> = files
        .iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    if !missing.is_empty() {
        bail!(
            "measure {label}: {} of {} seed files are missing (train them first): {}",
            missing.len(),
            files.len(),
            missing.join(", ")
        );
    }
    Ok(files)
}

/// A measure job writes into `<TEMPORARY_PREFIX>XXXXXX` beside its output folder, then renames it.
const TEMPORARY_PREFIX: &str = ".measure-";
/// Length of the random part of that name (`tempfile`'s default, set explicitly).
const TEMPORARY_RANDOM_LEN: usize = 6;

/// Whether `name` is a measure job's temporary folder, `.measure-XXXXXX` with six random
/// letters or digits, as [`TemporaryFolder::beside`] names it.
pub(crate) fn is_temporary_name(name: &str) -> bool {
    name.strip_prefix(TEMPORARY_PREFIX).is_some_and(|random| {
        random.len() == TEMPORARY_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// The temporary sibling folder a measure job writes into, deleted unless published.
struct TemporaryFolder(tempfile::TempDir);

impl TemporaryFolder {
    /// A new temporary folder beside `out`.
    fn beside(out: &Path) -> Result<TemporaryFolder> {
        let parent = out.parent().context("measure folder has a parent")?;
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        let tmp = tempfile::Builder::new()
            .prefix(TEMPORARY_PREFIX)
            .rand_bytes(TEMPORARY_RANDOM_LEN)
            .tempdir_in(parent)
            .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
        Ok(TemporaryFolder(tmp))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `summary` as the done file, then renames the folder to `out`, replacing it.
    fn publish(self, out: &Path, summary: &MeasureSummary) -> Result<()> {
        let json = serde_json::to_string_pretty(summary)? + "\n";
        retest_fs::write_atomic(&self.path().join(DONE_FILE), json.as_bytes())?;
        if out.exists() {
            std::fs::remove_dir_all(out).with_context(|| format!("cannot replace {}", out.display()))?;
        }
        Ok(retest_fs::publish_dir(&self.0.keep(), out)?)
    }
}
