//! The run of a pipeline on this machine, stage after stage, each skipping what is already done:
//! prepare the corpora → train → measure → aggregate the tables and the regression input →
//! report → manifest.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use retest_data::{PrepareOutcome, PreparedCorpus, Resolver, prepare_corpus};
use retest_report::{ModelFilesMeta, ReportMeta, ReportSummary};
use retest_spec::{CorpusRecipe, ModelFiles, Plan, debiased_name};

use crate::corpus::{LoadedCorpus, read_prepared_vocab};
use crate::driver::aggregate::{Measured, combine_tables, measure_all};
use crate::driver::cooccurrence::ensure_cooccurrences;
use crate::driver::features::LexiconFiles;
use crate::driver::lock::{CorporaLock, RunLock};
use crate::driver::memory::{
    CorpusSize, Estimate, ListSizes, check as check_memory, check_prepared, estimates, machine_memory,
    model_files_estimate,
};
use crate::driver::project::{Folders, LoadedPlan, RunOptions, recipe_lock_file, resolver};
use crate::driver::regression::regression_input;
use crate::driver::train::train_all;
use crate::lists::Lists;
use crate::message::one_line;
use crate::progress::Reporter;
use crate::stages::job::DONE_FILE;
use crate::stages::job::check_lists;
use crate::stages::seeds::{Vocabulary, file_shapes, reader_lowercases};

/// A pipeline's corpora, prepared and loaded, after its training stage.
#[derive(Debug)]
pub struct Trained {
    pub loaded: LoadedPlan,
    pub corpora: Vec<LoadedCorpus>,
    /// Held until the run ends.
    _lock: RunLock,
    /// Wall time of preparation and training.
    pub seconds: f64,
}

impl Trained {
    pub fn plan(&self) -> &Plan {
        &self.loaded.plan
    }
}

/// Everything up to the per-configuration tables.
#[derive(Debug)]
pub struct MeasuredRun {
    pub trained: Trained,
    pub lists: Lists,
    /// Where the lexical features of the regression input are read from.
    pub lexicon: LexiconFiles,
    pub measured: Vec<Measured>,
    /// Wall time of the measure stage.
    pub seconds: f64,
}

/// What a finished run wrote.
#[derive(Debug)]
pub struct Finished {
    pub pipeline: String,
    pub tables: PathBuf,
    /// The files written into `tables`.
    pub written: Vec<PathBuf>,
    pub report: PathBuf,
    pub summary: ReportSummary,
}

/// Prepares the corpora of pipeline `reference` and trains its embeddings.
///
/// # Errors
///
/// The plan cannot be loaded, another run holds the lock, or some job failed (after every other
/// job ran; finished outputs are kept).
pub fn train_pipeline(folders: &Folders, reference: &str, options: &RunOptions) -> Result<Trained> {
    let check = |_: &LoadedPlan, _: &mut Resolver| Ok(((), None));
    train_checked(folders, reference, options, check, |(), _, _| Ok(())).map(|(trained, ())| trained)
}

/// Prepares, trains and measures what is missing. The word lists and the lexicon are found
/// before training, so that a missing one fails before hours of work.
///
/// # Errors
///
/// As [`train_pipeline`], and a word list, the lexicon or a measure job that fails.
pub fn measure_pipeline(folders: &Folders, reference: &str, options: &RunOptions) -> Result<MeasuredRun> {
    let check = |loaded: &LoadedPlan, resolver: &mut Resolver| {
        let plan = &loaded.plan;
        let lists = Lists::load(plan, &loaded.project.wordlists, resolver)
            .with_context(|| format!("pipeline `{}`: loading word lists", plan.name))?;
        let lexicon = LexiconFiles::resolve(&loaded.project.lexicon, resolver)
            .with_context(|| format!("pipeline `{}`: finding the lexicon", plan.name))?;
        let sizes = ListSizes::of(&lists);
        model_files_estimates(plan, Some(sizes))?;
        Ok(((lists, lexicon), Some(sizes)))
    };
    // Each corpus's lists, once prepared: a list out of its vocabulary fails before training.
    let check_corpus = |(lists, _): &(Lists, LexiconFiles), plan: &Plan, corpus: &LoadedCorpus| {
        check_corpus_lists(
            plan,
            lists,
            &corpus_vocabulary(plan, corpus.name(), &corpus.vocab),
        )
    };
    let (trained, (lists, lexicon)) = train_checked(folders, reference, options, check, check_corpus)?;
    let started = Instant::now();
    let measured = measure_all(
        &trained.loaded.plan,
        &trained.loaded.layout,
        &trained.corpora,
        &lists,
        options.jobs(),
        options.force,
    )?;
    Ok(MeasuredRun {
        trained,
        lists,
        lexicon,
        measured,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Every stage of pipeline `reference`, then the manifest.
///
/// # Errors
///
/// As [`measure_pipeline`], and the aggregation, report or manifest that cannot be written.
pub fn run_pipeline(folders: &Folders, reference: &str, options: &RunOptions) -> Result<Finished> {
    let run = measure_pipeline(folders, reference, options)?;
    let started = Instant::now();
    let layout = &run.trained.loaded.layout;
    let tables = layout.tables();
    let mut written = combine_tables(&run.measured, &tables)?;
    let lexicon = run.lexicon.load()?;
    let (mut regression, left_out) = regression_input(&tables, &lexicon)
        .with_context(|| format!("building the regression input from {}", tables.display()))?;
    written.extend(
        regression
            .write(&tables, true)
            .with_context(|| format!("writing the regression input into {}", tables.display()))?,
    );
    writeln!(
        std::io::stderr(),
        "regression input: {} rows; {left_out} (analysis, configuration, rule, scale, word) rows left out \
         for lack of word properties, a WordNet sense or a Brown tag",
        regression.height()
    )?;
    let pipeline = run.trained.plan().name.clone();
    let model_files = measured_model_files(&run)?;
    let plan = run.trained.plan();
    let debiased: Vec<(String, String)> = (plan.models().iter().map(|m| m.name.clone()))
        .chain(plan.model_files.iter().map(|m| m.name.clone()))
        .filter_map(|model| Some((plan.debiased_of(&model)?, model)))
        .collect();
    let meta = ReportMeta {
        pipeline: pipeline.clone(),
        variants: run
            .trained
            .plan()
            .variants
            .iter()
            .map(|m| (m.name.clone(), m.algorithm().as_str().to_owned()))
            .collect(),
        corpus_tokens: (run.trained.corpora.iter())
            .map(|c| (c.name().to_owned(), c.prepared.stats.stats.tokens))
            .collect(),
        corpus_words: (run.trained.corpora.iter())
            .map(|c| (c.name().to_owned(), c.prepared.stats.stats.types))
            .collect(),
        dims: with_debiased(
            (plan.models().iter())
                .map(|m| (m.name.clone(), m.dim()))
                .chain(model_files.iter().map(|(m, dim, _)| (m.name.clone(), *dim)))
                .collect(),
            &debiased,
        ),
        debiased,
        model_files: (model_files.iter())
            .map(|(m, _, n_words)| ModelFilesMeta {
                name: m.name.clone(),
                files: m.files.iter().map(|f| f.display().to_string()).collect(),
                shared_words: *n_words,
            })
            .collect(),
        commit: crate::driver::manifest::git_commit(),
    };
    let summary = write_report(&tables, &layout.report(), &meta)?;
    crate::driver::manifest::write(&run, started.elapsed().as_secs_f64())?;
    Ok(Finished {
        pipeline,
        tables,
        written,
        report: layout.report(),
        summary,
    })
}

/// Each model's dimension, followed by its debiased copy's (`debiased`: (copy, model) pairs).
fn with_debiased(dims: Vec<(String, u32)>, debiased: &[(String, String)]) -> Vec<(String, u32)> {
    (dims.into_iter())
        .flat_map(|(name, dim)| {
            let copy =
                (debiased.iter().find(|(_, model)| *model == name)).map(|(copy, _)| (copy.clone(), dim));
            std::iter::once((name, dim)).chain(copy)
        })
        .collect()
}

/// Each model of the plan read from files, with its dimension and the words all its files
/// share, from its measure job's summary.
fn measured_model_files(run: &MeasuredRun) -> Result<Vec<(&ModelFiles, u32, u64)>> {
    let plan = run.trained.plan();
    let mut out = Vec::new();
    for m in &run.measured {
        if let Some(files) = plan.model_files_named(&m.algorithm) {
            let summary = m.summary.as_ref();
            let shape =
                summary.and_then(|s| Some((u32::try_from(s["dim"].as_u64()?).ok()?, s["n_words"].as_u64()?)));
            let (dim, n_words) = shape
                .with_context(|| format!("{}: no `dim` and `n_words`", m.dir.join(DONE_FILE).display()))?;
            out.push((files, dim, n_words));
        }
    }
    Ok(out)
}

/// Writes the report of the tables in `tables` into `out`.
///
/// # Errors
///
/// A table cannot be read or a report file cannot be written.
pub fn write_report(tables: &Path, out: &Path, meta: &ReportMeta) -> Result<ReportSummary> {
    retest_report::write_report(tables, out, meta).with_context(|| {
        format!(
            "pipeline `{}`: writing the report into {}",
            meta.pipeline,
            out.display()
        )
    })
}

/// What the report of the finished run in `run_dir` needs beside its tables: the pipeline name
/// and, from the run's manifest when there is one, the plan's variants and the corpora's sizes.
pub fn report_meta(run_dir: &Path, pipeline: &str) -> ReportMeta {
    let manifest = std::fs::read_to_string(run_dir.join("manifest.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    let variants = manifest
        .as_ref()
        .and_then(|m| m["plan"]["variants"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|v| {
            let name = v["name"].as_str()?;
            let algorithm = ["sgns", "glove"].into_iter().find(|a| v.get(a).is_some())?;
            Some((name.to_owned(), algorithm.to_owned()))
        })
        .collect();
    let corpus_stat = |stat: &str| -> Vec<(String, u64)> {
        (manifest
            .as_ref()
            .and_then(|m| m["corpora"].as_array())
            .into_iter()
            .flatten())
        .filter_map(|c| {
            Some((
                c["name"].as_str()?.to_owned(),
                c["prepared"]["stats"][stat].as_u64()?,
            ))
        })
        .collect()
    };
    // A configuration's dimension: its own block (a variant) or its algorithm's.
    let plan = manifest.as_ref().map(|m| &m["plan"]);
    let algorithms = (plan
        .and_then(|p| p["algorithms"].as_array())
        .into_iter()
        .flatten())
    .filter_map(|a| Some((a.as_str()?.to_owned(), plan?[a.as_str()?]["dim"].as_u64()?)));
    let variant_dims = (plan.and_then(|p| p["variants"].as_array()).into_iter().flatten()).filter_map(|v| {
        let dim = ["sgns", "glove"].into_iter().find_map(|a| v[a]["dim"].as_u64())?;
        Some((v["name"].as_str()?.to_owned(), dim))
    });
    // The debiased models, `<model>+<method>`, beside their models.
    let debias = plan.map(|p| &p["debias"]);
    let method = debias.and_then(|d| d["method"].as_str()).unwrap_or("hard");
    let debiased: Vec<(String, String)> = (debias.and_then(|d| d["models"].as_array()).into_iter().flatten())
        .filter_map(|m| Some((debiased_name(m.as_str()?, method), m.as_str()?.to_owned())))
        .collect();
    // Models read from files: their files from the measured configurations, their shape from
    // their measure jobs' summaries.
    let measured = |key: &str| (manifest.as_ref().and_then(|m| m[key].as_array()).into_iter()).flatten();
    let model_files: Vec<(ModelFilesMeta, u32)> = measured("measured")
        .filter_map(|m| {
            let files = m["seed_files"]["files"].as_array()?;
            let job = format!("measure {} {}", m["corpus"].as_str()?, m["algorithm"].as_str()?);
            let summary = (manifest.as_ref()?["jobs"]["measure"].as_array()?.iter())
                .find(|j| j["job"].as_str() == Some(&job))
                .map(|j| &j["summary"])?;
            let meta = ModelFilesMeta {
                name: m["algorithm"].as_str()?.to_owned(),
                files: files
                    .iter()
                    .filter_map(|f| Some(f["file"].as_str()?.to_owned()))
                    .collect(),
                shared_words: summary["n_words"].as_u64()?,
            };
            Some((meta, u32::try_from(summary["dim"].as_u64()?).ok()?))
        })
        .collect();
    let file_dims = model_files
        .iter()
        .map(|(m, dim)| (m.name.clone(), u64::from(*dim)));
    ReportMeta {
        pipeline: pipeline.to_owned(),
        variants,
        corpus_tokens: corpus_stat("tokens"),
        corpus_words: corpus_stat("types"),
        dims: with_debiased(
            (algorithms.chain(variant_dims).chain(file_dims))
                .filter_map(|(name, dim)| Some((name, u32::try_from(dim).ok()?)))
                .collect(),
            &debiased,
        ),
        debiased,
        model_files: model_files.into_iter().map(|(m, _)| m).collect(),
        commit: manifest
            .as_ref()
            .and_then(|m| m["git_commit"].as_str())
            .map(str::to_owned),
    }
}

/// Loads the plan, takes the run's lock, runs `check` (what later stages read), then prepares
/// every corpus and trains. A corpus that cannot be prepared fails alone: the others still
/// train, and the run reports every failure at the end.
fn train_checked<T>(
    folders: &Folders,
    reference: &str,
    options: &RunOptions,
    check: impl FnOnce(&LoadedPlan, &mut Resolver) -> Result<(T, Option<ListSizes>)>,
    check_corpus: impl Fn(&T, &Plan, &LoadedCorpus) -> Result<()>,
) -> Result<(Trained, T)> {
    let started = Instant::now();
    let loaded = LoadedPlan::load(folders, reference)?;
    let lock = RunLock::acquire(&loaded.layout.run)?;
    crate::driver::stale::remove(
        &crate::driver::stale::run_temporaries(&loaded.layout),
        &loaded.layout.run,
    )?;
    let mut resolver = resolver(&loaded.project.lock)?;
    let (checked, sizes) = check(&loaded, &mut resolver)?;
    // Held through training, which counts co-occurrences a GloVe job needs and finds missing.
    let _corpora_lock = CorporaLock::acquire(&loaded.layout.corpora())?;
    let plan = &loaded.plan;
    let mut corpora = Vec::new();
    let mut failures = Vec::new();
    for recipe in &plan.corpora {
        match prepare_logged(&folders.results, recipe, &mut resolver, options.force)
            .and_then(LoadedCorpus::load)
            .and_then(|corpus| check_nbm_k(plan, &corpus.words()).map(|()| corpus))
            .and_then(|corpus| check_prepared(plan, &corpus.prepared, sizes).map(|()| corpus))
            .and_then(|corpus| check_corpus(&checked, plan, &corpus).map(|()| corpus))
        {
            Ok(corpus) => corpora.push(corpus),
            Err(error) => {
                let error = one_line(&error.context(format!("corpus `{}`", recipe.name)));
                writeln!(std::io::stderr(), "FAILED {error}")?;
                failures.push(error);
            }
        }
    }
    let mut trainable = plan.clone();
    trainable
        .corpora
        .retain(|recipe| corpora.iter().any(|c| c.name() == recipe.name));
    let summary = train_all(
        &trainable,
        &loaded.layout,
        &corpora,
        options.jobs(),
        options.force,
    )?;
    writeln!(
        std::io::stderr(),
        "training: {} trained, {} already done, {} failed",
        summary.trained,
        summary.skipped,
        summary.failed.len()
    )?;
    failures.extend(
        summary
            .failed
            .iter()
            .map(|(name, error)| format!("{name}: {}", one_line(error))),
    );
    if !failures.is_empty() {
        anyhow::bail!(
            "{} failed (finished jobs are kept):\n  {}",
            if failures.len() == 1 {
                "1 job".to_owned()
            } else {
                format!("{} jobs", failures.len())
            },
            // A failure of several lines keeps its lines under its first.
            failures.join("\n").replace('\n', "\n  ")
        );
    }
    let trained = Trained {
        loaded,
        corpora,
        _lock: lock,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((trained, checked))
}

/// NBM's k against the neighbour pool a corpus's vocabulary can give, before any training: the
/// whole vocabulary less `<unk>` and `<raw_unk>`, or at most the neutral pool's candidates (the
/// most frequent lowercase words; the measure job checks the exact pool). The caller names the
/// corpus.
///
/// # Errors
///
/// A k of `measures.nbm_k` (with NBM among the rules) or of `base_pairs.nbm_k` that is not below
/// the pool's size.
fn check_nbm_k(plan: &Plan, words: &[String]) -> Result<()> {
    let neutral =
        || retest_measures::neutral_pool(words, [], retest_measures::NEUTRAL_POOL_MOST_FREQUENT).len();
    let mut checks = Vec::new();
    if plan.measures.rules.contains(&retest_measures::Rule::Nbm) {
        let pool = match plan.measures.nbm_pool {
            retest_measures::NbmPool::Vocabulary => {
                words.len() - retest_measures::placeholder_ids(words).len()
            }
            retest_measures::NbmPool::Neutral => neutral(),
        };
        checks.push(("measures.nbm_k", plan.measures.nbm_k, pool));
    }
    if let Some(p) = &plan.base_pairs {
        checks.push(("base_pairs.nbm_k", p.nbm_k, neutral()));
    }
    for (field, k, pool) in checks {
        if k as usize >= pool {
            // k is at least 1, so a pool of one word or none leaves no k that works.
            let fix = match pool {
                0 | 1 => "NBM needs a vocabulary of at least 2 words".to_owned(),
                _ => format!("k must be at most {}", pool - 1),
            };
            anyhow::bail!(
                "{field} is {k}, but NBM's neighbour pool has {pool} word{}: {fix}",
                if pool == 1 { "" } else { "s" }
            );
        }
    }
    Ok(())
}

/// The vocabulary `vocab` of the plan's prepared corpus `corpus`, as its measure jobs see it.
fn corpus_vocabulary(plan: &Plan, corpus: &str, vocab: &retest_corpus::Vocab) -> Vocabulary {
    Vocabulary::of_corpus(corpus, vocab, reader_lowercases(plan, corpus))
}

/// The plan's lists against a prepared corpus's `vocabulary`, as its measure jobs will resolve
/// them ([`check_lists`]).
///
/// # Errors
///
/// A list or query the measure jobs could not resolve.
fn check_corpus_lists(plan: &Plan, lists: &Lists, vocabulary: &Vocabulary) -> Result<()> {
    let model = plan.models().first().map(|m| m.name.clone()).unwrap_or_default();
    check_lists(plan, lists, vocabulary, &model)
}

/// What `retest plan` checks beyond the pipeline file, before anything runs: every word list,
/// query, pair and tests file the plan names is found and read (as a run reads them), and on
/// each corpus already prepared every job's memory estimate fits this machine. Returns each
/// corpus's estimates, `None` for a corpus not prepared yet (checked right after preparation).
///
/// # Errors
///
/// A list that cannot be found or read, the checksum lock, or a job beyond this machine's
/// memory (naming the corpus).
pub fn check_plan(loaded: &LoadedPlan) -> Result<Vec<(String, Option<Vec<Estimate>>)>> {
    let plan = &loaded.plan;
    let mut resolver = resolver(&loaded.project.lock)?;
    let lists = Lists::load(plan, &loaded.project.wordlists, &mut resolver)
        .with_context(|| format!("pipeline `{}`: loading word lists", plan.name))?;
    let sizes = Some(ListSizes::of(&lists));
    let mut out = Vec::new();
    for recipe in &plan.corpora {
        let prepared = retest_data::find_prepared(recipe, &resolver.lock, &loaded.layout.corpora())?;
        if let Some(prepared) = &prepared {
            let vocab = read_prepared_vocab(prepared).with_context(|| format!("corpus `{}`", recipe.name))?;
            let vocabulary = corpus_vocabulary(plan, &recipe.name, &vocab);
            (check_nbm_k(plan, &vocabulary.words))
                .and_then(|()| check_corpus_lists(plan, &lists, &vocabulary))
                .with_context(|| format!("corpus `{}`", recipe.name))?;
        }
        let jobs = prepared.map(|p| estimates(plan, &CorpusSize::of(plan, &p), sizes));
        if let (Some(jobs), Some(available)) = (&jobs, machine_memory()) {
            check_memory(jobs, available).with_context(|| format!("corpus `{}`", recipe.name))?;
        }
        out.push((recipe.name.clone(), jobs));
    }
    out.extend(model_files_estimates(plan, sizes)?);
    Ok(out)
}

/// The measure job's estimate of each model read from files, under its corpus label, from the
/// files' headers: checks that each model's files have one dimension and that the job fits this
/// machine's memory, before any work.
///
/// # Errors
///
/// A file whose header cannot be read, files of two dimensions, or a job beyond this machine's
/// memory.
fn model_files_estimates(
    plan: &Plan,
    lists: Option<ListSizes>,
) -> Result<Vec<(String, Option<Vec<Estimate>>)>> {
    let mut out = Vec::new();
    for model in &plan.model_files {
        let estimate = model_files_estimate(plan, model, &file_shapes(model)?, lists);
        if let Some(available) = machine_memory() {
            check_memory(std::slice::from_ref(&estimate), available)?;
        }
        out.push((model.corpus.clone(), Some(vec![estimate])));
    }
    Ok(out)
}

/// Prepares every corpus of pipeline `reference` and counts the GloVe co-occurrences its
/// training jobs read: everything a training task needs.
///
/// # Errors
///
/// The plan cannot be loaded, or a corpus cannot be prepared or counted.
pub fn prepare_pipeline(loaded: &LoadedPlan, force: bool) -> Result<()> {
    let plan = &loaded.plan;
    let mut resolver = resolver(&loaded.project.lock)?;
    let _corpora_lock = CorporaLock::acquire(&loaded.layout.corpora())?;
    for recipe in &plan.corpora {
        let prepared = prepare_logged(&loaded.layout.results, recipe, &mut resolver, force)?;
        let counts = plan.cooccurrence_counts();
        if counts.is_empty() {
            continue;
        }
        let corpus = LoadedCorpus::load(prepared)?;
        for params in &counts {
            let path = ensure_cooccurrences(&corpus, params, &Reporter::new(0, 0))?;
            writeln!(
                std::io::stderr(),
                "corpus {}: co-occurrences (window {}) in {}",
                recipe.name,
                params.window,
                path.display()
            )?;
        }
    }
    Ok(())
}

/// Changes to a recipe for one preparation (`retest corpus prepare --min-count --max-tokens`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RecipeOverrides {
    pub min_count: Option<u64>,
    pub max_tokens: Option<u64>,
}

/// Prepares the corpus of recipe `reference` (a path, or a name in the recipe folder) and
/// returns its folder. Checksums the recipe does not give are recorded in the lock file beside
/// the recipe file.
///
/// # Errors
///
/// The recipe cannot be read, an override is 0, or the preparation fails.
pub fn prepare_recipe(
    folders: &Folders,
    reference: &str,
    overrides: RecipeOverrides,
    force: bool,
) -> Result<PathBuf> {
    let recipes = folders.recipes(None);
    let mut recipe = CorpusRecipe::load(&recipes.path_of(reference, Path::new(".")))?;
    if let Some(min_count) = overrides.min_count {
        anyhow::ensure!(min_count >= 1, "--min-count must be at least 1");
        recipe.min_count = min_count;
    }
    if let Some(max_tokens) = overrides.max_tokens {
        anyhow::ensure!(max_tokens >= 1, "--max-tokens must be at least 1");
        recipe.max_tokens = Some(max_tokens);
    }
    let mut resolver = resolver(&recipe_lock_file(&recipe.file))?;
    let _corpora_lock = CorporaLock::acquire(&folders.results.join("corpora"))?;
    Ok(prepare_logged(&folders.results, &recipe, &mut resolver, force)?.dir)
}

/// Prepares one corpus under `<results>/corpora/` and logs one line about it.
fn prepare_logged(
    results: &Path,
    recipe: &CorpusRecipe,
    resolver: &mut Resolver,
    force: bool,
) -> Result<PreparedCorpus> {
    let started = Instant::now();
    let (prepared, outcome) = prepare_corpus(recipe, resolver, &results.join("corpora"), force)
        .with_context(|| format!("corpus `{}`", recipe.name))?;
    let s = &prepared.stats.stats;
    let verb = match outcome {
        PrepareOutcome::Prepared => format!("prepared in {:.1} s", started.elapsed().as_secs_f64()),
        PrepareOutcome::AlreadyPrepared => "already prepared".to_owned(),
    };
    writeln!(
        std::io::stderr(),
        "corpus {}: {verb}: {} tokens, {} types (min_count {}), {} sentences, OOV share {:.4}",
        recipe.name,
        s.tokens,
        s.types,
        s.min_count,
        s.sentences,
        s.oov_share
    )?;
    Ok(prepared)
}
