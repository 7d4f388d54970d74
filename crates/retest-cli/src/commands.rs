//! The subcommands.

use std::io::Write;

use anyhow::{Context, Result};
use retest_data::{PrepareOutcome, PreparedCorpus, Resolver, prepare_corpus};
use retest_spec::{CorpusRecipe, Job, Plan};

use crate::cli::{Cli, Command, CorpusCommand, Dirs, EmbeddingsCommand, Format, StatsCommand};
use crate::paths::{lock_path, pipeline_path, recipe_folder};
use crate::stats;

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Plan { pipeline, format } => plan(&cli.dirs, &pipeline, format),
        Command::Run { pipeline, force } => run_pipeline(&cli.dirs, &pipeline, force),
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
            write!(out, "{}", serde_yaml::to_string(&plan)?)?;
            writeln!(out, "\n# Jobs ({}), in dependency order", jobs.len())?;
            for job in &jobs {
                writeln!(out, "{job}")?;
            }
        }
    }
    Ok(())
}

fn run_pipeline(dirs: &Dirs, pipeline: &str, force: bool) -> Result<()> {
    let path = pipeline_path(pipeline);
    let recipes = recipe_folder(dirs.corpora.as_deref(), Some(&path));
    let plan = Plan::load(&path, &recipes)?;
    let mut resolver = Resolver::from_env(&lock_path(&recipes))?;
    for recipe in &plan.corpora {
        prepare_one(dirs, recipe, &mut resolver, force)?;
    }
    let pending: Vec<Job> = plan
        .jobs()
        .into_iter()
        .filter(|job| !matches!(job, Job::PrepareCorpus { .. }))
        .collect();
    anyhow::bail!(
        "pipeline `{}`: corpora prepared; {} later jobs (co-occurrence, training, measurement, reliability) \
         cannot run in retest {} yet — `retest plan {}` lists them",
        plan.name,
        pending.len(),
        env!("CARGO_PKG_VERSION"),
        path.display()
    )
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
fn prepare_one(
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
