//! The subcommands.

use std::io::Write;

use anyhow::{Context, Result};
use retest_data::{PrepareOutcome, PreparedCorpus, Resolver, prepare_corpus};
use retest_pipeline::{Layout, LoadedCorpus, RunLock, train_all};
use retest_spec::{CorpusRecipe, Plan};

use crate::cli::{
    Cli, Command, CorpusCommand, Dirs, EmbeddingsCommand, Format, GloveArgs, RunArgs, SgnsArgs, StatsCommand,
};
use crate::paths::{lock_path, pipeline_path, recipe_folder};
use crate::{score, stats, study};

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Plan { pipeline, format } => plan(&cli.dirs, &pipeline, format),
        Command::Run {
            pipeline,
            run,
            executor,
        } if executor.is_slurm() => crate::cluster::submit(&cli.dirs, &pipeline, &run, &executor),
        Command::Run {
            pipeline,
            run,
            executor,
        } => executor
            .check_local()
            .and_then(|()| study::run_pipeline(&cli.dirs, &pipeline, &run)),
        Command::RunTask(args) => crate::cluster::run_task(&cli.dirs, &args),
        Command::Prepare(args) => crate::cluster::prepare(&cli.dirs, &args),
        Command::Status(args) => crate::cluster::status(&cli.dirs, &args),
        Command::Report {
            pipeline,
            tables,
            out,
        } => crate::report::report_command(&cli.dirs, &pipeline, tables.as_deref(), out.as_deref()),
        Command::Measure { pipeline, run } => study::measure_pipeline(&cli.dirs, &pipeline, &run).map(|_| ()),
        Command::Train { pipeline, run } => {
            train_pipeline(&cli.dirs, &pipeline, &run, |_, _| Ok(())).map(drop)
        }
        Command::Score(args) => score_command(&args),
        Command::Sgns(args) => sgns(&args),
        Command::Glove(args) => glove(&args),
        Command::Corpus(CorpusCommand::Prepare {
            recipe,
            min_count,
            max_tokens,
            force,
        }) => prepare(&cli.dirs, &recipe, min_count, max_tokens, force),
        Command::Corpus(CorpusCommand::List) => list_corpora(&cli.dirs),
        Command::Stats(command) => stats(command),
        Command::Embeddings(EmbeddingsCommand::Info { input }) => {
            let emb = retest_embeddings::read(&input, None)?;
            write!(std::io::stdout(), "{}", retest_embeddings::describe(&emb))?;
            Ok(())
        }
        Command::Embeddings(EmbeddingsCommand::Export {
            input,
            format,
            output,
        }) => {
            let emb = retest_embeddings::read(&input, None)?;
            retest_embeddings::write(&output, &emb, format)?;
            Ok(())
        }
        Command::Eval {
            embeddings,
            benchmarks,
            json,
        } => eval(&embeddings, benchmarks, json),
    }
}

fn plan(dirs: &Dirs, pipeline: &str, format: Format) -> Result<()> {
    let path = pipeline_path(pipeline);
    let recipes = recipe_folder(dirs.corpora.as_deref(), Some(&path));
    let plan = Plan::load(&path, &recipes)?;
    let jobs = plan.jobs();
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let value = serde_json::json!({ "plan": plan, "jobs": jobs });
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Text => {
            writeln!(
                out,
                "# Resolved plan of {} (every default filled in)",
                path.display()
            )?;
            write!(out, "{}", plan.to_yaml())?;
            writeln!(out, "\n# Jobs ({}), in dependency order", jobs.len())?;
            for job in &jobs {
                writeln!(out, "{job}")?;
            }
        }
    }
    Ok(())
}

fn score_command(args: &crate::cli::ScoreArgs) -> Result<()> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    score::score_files(&score::ScoreRequest {
        embeddings: &args.embeddings,
        rules: &args.rules,
        pairs: &args.pairs,
        words: &args.words,
        ripa_target: args.ripa_target,
        nbm_k: args.nbm_k as usize,
        nbm_pool: args.nbm_pool,
        threads,
        out: &args.out,
    })
}

/// A pipeline's corpora, prepared and loaded, after its training stage.
pub struct Trained {
    pub plan: Plan,
    pub corpora: Vec<LoadedCorpus>,
    pub layout: Layout,
    /// Held until the run ends.
    pub _lock: RunLock,
    /// Wall time of preparation and training.
    pub seconds: f64,
}

/// Prepares the corpora of a pipeline and trains its embeddings. `check` runs first, once the
/// plan is loaded, so what the later stages read (word lists, lexicon) fails before hours of training.
pub fn train_pipeline<T>(
    dirs: &Dirs,
    pipeline: &str,
    args: &RunArgs,
    check: impl FnOnce(&Plan, &mut Resolver) -> Result<T>,
) -> Result<(Trained, T)> {
    let started = std::time::Instant::now();
    let path = pipeline_path(pipeline);
    let recipes = recipe_folder(dirs.corpora.as_deref(), Some(&path));
    let plan = Plan::load(&path, &recipes)?;
    let lock = RunLock::acquire(&Layout::new(&dirs.results, &plan).run)?;
    let mut resolver = Resolver::from_env(&lock_path(&recipes))?;
    let checked = check(&plan, &mut resolver)?;
    // A corpus that cannot be prepared fails alone: the others still train, and the run
    // reports every failure at the end.
    let mut corpora = Vec::new();
    let mut failures = Vec::new();
    for recipe in &plan.corpora {
        match prepare_one(dirs, recipe, &mut resolver, args.force).and_then(LoadedCorpus::load) {
            Ok(corpus) => corpora.push(corpus),
            Err(error) => {
                writeln!(std::io::stderr(), "FAILED corpus `{}`: {error:#}", recipe.name)?;
                failures.push(format!("{error:#}"));
            }
        }
    }
    let mut trainable = plan.clone();
    trainable
        .corpora
        .retain(|recipe| corpora.iter().any(|c| c.name() == recipe.name));
    let layout = Layout::new(&dirs.results, &plan);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let summary = train_all(&trainable, &layout, &corpora, jobs, args.force)?;
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
            .map(|(name, error)| format!("{name}: {error:#}")),
    );
    if let Some(first) = failures.first() {
        anyhow::bail!(
            "{} job(s) failed; finished ones are kept. First: {first}",
            failures.len()
        );
    }
    let trained = Trained {
        plan,
        corpora,
        layout,
        _lock: lock,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((trained, checked))
}

/// Reads a whitespace-tokenised text file (one sentence per line, plain or compressed) into an
/// encoded corpus, for the single-model commands.
fn text_corpus(input: &std::path::Path, min_count: u64) -> Result<retest_corpus::EncodedCorpus> {
    anyhow::ensure!(min_count >= 1, "--min-count must be at least 1");
    let file = std::fs::File::open(input).with_context(|| format!("cannot open {}", input.display()))?;
    let (_, stream) = retest_corpus::decompress(file).with_context(|| format!("{}", input.display()))?;
    let mut builder = retest_corpus::CorpusBuilder::new(None);
    builder
        .read_wikitext(
            stream,
            &retest_corpus::WikiTextOptions {
                unk: retest_corpus::UnkHandling::Keep,
            },
        )
        .with_context(|| format!("{}", input.display()))?;
    let corpus = builder.finish(min_count);
    anyhow::ensure!(
        !corpus.tokens().is_empty(),
        "{}: no word occurs at least {min_count} times (--min-count)",
        input.display()
    );
    Ok(corpus)
}

/// `retest glove`: one model from a whitespace-tokenised text file.
fn glove(args: &GloveArgs) -> Result<()> {
    let mut err = std::io::stderr().lock();
    let started = std::time::Instant::now();
    let corpus = text_corpus(&args.input, args.min_count)?;
    writeln!(
        err,
        "vocabulary: {} words, {} tokens ({:.1} s)",
        corpus.vocab().len(),
        corpus.tokens().len(),
        started.elapsed().as_secs_f64()
    )?;
    let counted = std::time::Instant::now();
    let spill_parent = args
        .output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let spill = tempfile::Builder::new()
        .prefix(".retest-spill-")
        .tempdir_in(spill_parent)?;
    let config = retest_glove::CooccurConfig {
        window: args.window as usize,
        memory_bytes: (args.memory * (1u64 << 30) as f64) as u64,
    };
    let cooc = retest_glove::count_cooccurrences(&corpus.view(), &config, spill.path(), &mut |_| {})?;
    writeln!(
        err,
        "co-occurrences: {} records, window {} ({:.1} s)",
        cooc.len(),
        args.window,
        counted.elapsed().as_secs_f64()
    )?;
    let glove_config = retest_glove::GloveConfig {
        dim: args.dim as usize,
        x_max: args.x_max,
        alpha: args.alpha,
        eta: args.eta,
        iterations: args.iter as usize,
    };
    let seed = retest_rng::SeedPath::new(args.seed).with("glove");
    let mut iteration_started = std::time::Instant::now();
    let trained = retest_glove::train(&cooc, corpus.vocab().len(), &glove_config, &seed, &mut |p| {
        if let Some(cost) = p.cost {
            let _ = writeln!(
                std::io::stderr(),
                "iter {:>3}, cost {cost:.6} ({:.1} s)",
                p.iteration,
                iteration_started.elapsed().as_secs_f64()
            );
            iteration_started = std::time::Instant::now();
        }
    })?;
    let words: Vec<String> = corpus.vocab().words().iter().map(|w| w.to_string()).collect();
    let mut meta = retest_embeddings::toml::Table::new();
    meta.insert("retest_version".into(), env!("CARGO_PKG_VERSION").into());
    meta.insert("algorithm".into(), "glove".into());
    meta.insert("input".into(), args.input.display().to_string().into());
    meta.insert(
        "input_sha256".into(),
        retest_data::sha256_file(&args.input)?.into(),
    );
    for (key, value) in [
        ("dim", i64::from(args.dim)),
        ("window", i64::from(args.window)),
        ("min_count", args.min_count as i64),
        ("iterations", i64::from(args.iter)),
        ("seed", args.seed as i64),
    ] {
        meta.insert(key.into(), value.into());
    }
    for (key, value) in [("x_max", args.x_max), ("alpha", args.alpha), ("eta", args.eta)] {
        meta.insert(key.into(), value.into());
    }
    let costs: Vec<retest_embeddings::toml::Value> =
        trained.cost_per_iteration.iter().map(|&c| c.into()).collect();
    meta.insert("cost_per_iteration".into(), costs.into());
    let embeddings =
        retest_embeddings::Embeddings::new(words, trained.dim, trained.vectors)?.with_metadata(Some(meta));
    retest_embeddings::write(&args.output, &embeddings, args.format)?;
    writeln!(
        err,
        "wrote {} ({:.1} s in all)",
        args.output.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `retest sgns`: one model from a whitespace-tokenised text file.
fn sgns(args: &SgnsArgs) -> Result<()> {
    let started = std::time::Instant::now();
    let corpus = text_corpus(&args.input, args.min_count)?;
    let read_secs = started.elapsed().as_secs_f64();
    let config = retest_sgns::SgnsConfig {
        architecture: if args.cbow {
            retest_sgns::Architecture::Cbow
        } else {
            retest_sgns::Architecture::Skipgram
        },
        dim: args.dim as usize,
        window: args.window as usize,
        negative: args.negative as usize,
        ns_exponent: retest_spec::defaults::SGNS_NS_EXPONENT,
        sample: args.sample,
        epochs: args.epochs as usize,
        alpha: args.alpha as f32,
        min_alpha: args.min_alpha as f32,
    };
    let seed = retest_rng::SeedPath::new(args.seed)
        .with("sgns")
        .with(config.architecture.as_str());
    let bar = indicatif::ProgressBar::new(corpus.tokens().len() as u64 * u64::from(args.epochs)).with_style(
        indicatif::ProgressStyle::with_template("train [{bar:30}] {percent:>3}% {per_sec} ETA {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let train_started = std::time::Instant::now();
    let embedding = retest_sgns::train(
        &corpus.view(),
        corpus.vocab().counts(),
        &config,
        &seed,
        &mut |p| bar.set_position(p.words_done),
    )?;
    bar.finish_and_clear();
    let train_secs = train_started.elapsed().as_secs_f64();
    let words: Vec<String> = corpus.vocab().words().iter().map(|w| w.to_string()).collect();
    let mut meta = retest_embeddings::toml::Table::new();
    meta.insert("retest_version".into(), env!("CARGO_PKG_VERSION").into());
    meta.insert("algorithm".into(), "sgns".into());
    meta.insert("architecture".into(), config.architecture.as_str().into());
    meta.insert("input".into(), args.input.display().to_string().into());
    meta.insert(
        "input_sha256".into(),
        retest_data::sha256_file(&args.input)?.into(),
    );
    for (key, value) in [
        ("dim", i64::from(args.dim)),
        ("window", i64::from(args.window)),
        ("negative", i64::from(args.negative)),
        ("min_count", args.min_count as i64),
        ("epochs", i64::from(args.epochs)),
        ("seed", args.seed as i64),
    ] {
        meta.insert(key.into(), value.into());
    }
    meta.insert("sample".into(), args.sample.into());
    meta.insert("alpha".into(), args.alpha.into());
    meta.insert("min_alpha".into(), args.min_alpha.into());
    meta.insert("ns_exponent".into(), config.ns_exponent.into());
    meta.insert("deterministic".into(), true.into());
    meta.insert("threads".into(), 1i64.into());
    let embeddings = retest_embeddings::Embeddings::new(words, embedding.dim, embedding.vectors)?
        .with_metadata(Some(meta));
    retest_embeddings::write(&args.output, &embeddings, args.format)?;
    let words_trained = corpus.tokens().len() as f64 * f64::from(args.epochs);
    writeln!(
        std::io::stderr(),
        "{} {} words × {} epochs, {} types: read {read_secs:.1} s, trained {train_secs:.1} s ({:.0} words/s, {}) → {}",
        config.architecture.as_str(),
        corpus.tokens().len(),
        args.epochs,
        corpus.vocab().len(),
        words_trained / train_secs,
        retest_sgns::simd_path(),
        args.output.display()
    )?;
    Ok(())
}

fn prepare(
    dirs: &Dirs,
    reference: &str,
    min_count: Option<u64>,
    max_tokens: Option<u64>,
    force: bool,
) -> Result<()> {
    let recipes = recipe_folder(dirs.corpora.as_deref(), None);
    let path = recipes.path_of(reference, std::path::Path::new("."));
    let mut recipe = CorpusRecipe::load(&path)?;
    if let Some(min_count) = min_count {
        anyhow::ensure!(min_count >= 1, "--min-count must be at least 1");
        recipe.min_count = min_count;
    }
    if let Some(max_tokens) = max_tokens {
        anyhow::ensure!(max_tokens >= 1, "--max-tokens must be at least 1");
        recipe.max_tokens = Some(max_tokens);
    }
    let mut resolver = Resolver::from_env(&lock_path(&recipes))?;
    let prepared = prepare_one(dirs, &recipe, &mut resolver, force)?;
    writeln!(std::io::stdout(), "{}", prepared.dir.display())?;
    Ok(())
}

/// Prepares one corpus under `<results>/corpora/` and logs one line about it.
pub(crate) fn prepare_one(
    dirs: &Dirs,
    recipe: &CorpusRecipe,
    resolver: &mut Resolver,
    force: bool,
) -> Result<PreparedCorpus> {
    let out_root = dirs.results.join("corpora");
    let started = std::time::Instant::now();
    let (prepared, outcome) = prepare_corpus(recipe, resolver, &out_root, force)
        .with_context(|| format!("preparing corpus `{}`", recipe.name))?;
    let s = &prepared.stats.stats;
    let mut err = std::io::stderr().lock();
    let verb = match outcome {
        PrepareOutcome::Prepared => format!("prepared in {:.1} s", started.elapsed().as_secs_f64()),
        PrepareOutcome::AlreadyPrepared => "already prepared".to_owned(),
    };
    writeln!(
        err,
        "corpus {}: {verb}: {} tokens, {} types (min_count {}), {} sentences, OOV share {:.4}",
        recipe.name, s.tokens, s.types, s.min_count, s.sentences, s.oov_share
    )?;
    Ok(prepared)
}

fn list_corpora(dirs: &Dirs) -> Result<()> {
    let recipes = recipe_folder(dirs.corpora.as_deref(), None);
    let mut out = std::io::stdout().lock();
    for name in recipes.names() {
        let recipe = CorpusRecipe::load(&recipes.path_of(&name, std::path::Path::new(".")))?;
        writeln!(
            out,
            "{:<28} {:<11} {}",
            recipe.name,
            recipe.reader.as_str(),
            recipe.description
        )?;
    }
    Ok(())
}

fn stats(command: StatsCommand) -> Result<()> {
    let value = match command {
        StatsCommand::Icc { file, form, csv } => {
            stats::icc_json(&stats::read_csv_matrix(&file, csv.delimiter)?, form.as_deref())?
        }
        StatsCommand::Alpha { file, csv } => {
            stats::alpha_json(&stats::read_csv_matrix(&file, csv.delimiter)?)?
        }
        StatsCommand::Kappa { file, csv } => {
            stats::kappa_json(&stats::read_csv_matrix(&file, csv.delimiter)?)?
        }
    };
    writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&value)?)?;
    Ok(())
}

fn eval(embeddings: &[std::path::PathBuf], benchmarks: Option<std::path::PathBuf>, json: bool) -> Result<()> {
    let dir = match benchmarks {
        Some(dir) => dir,
        None => std::env::var_os("RETEST_DATA_DIR")
            .map(|data| std::path::PathBuf::from(data).join("benchmarks"))
            .context(
                "no benchmark folder: pass --benchmarks DIR or set RETEST_DATA_DIR to the data mirror",
            )?,
    };
    let mut out = std::io::stdout().lock();
    for path in embeddings {
        let emb = retest_embeddings::read(path, None)?;
        let report = retest_eval::standard_suite(&dir, &emb)?;
        if json {
            let value = serde_json::json!({ "embeddings": path, "report": report });
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        } else {
            writeln!(out, "# {}\n{report}", path.display())?;
        }
    }
    Ok(())
}
