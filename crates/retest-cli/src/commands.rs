//! The subcommands.

use std::io::Write;

use anyhow::{Context, Result};
use retest_pipeline::{
    Folders, LoadedPlan, Overwrite, RecipeOverrides, measure_pipeline, prepare_recipe, train_glove_file,
    train_pipeline, train_sgns_file,
};
use retest_spec::{Architecture, Constraint, CorpusRecipe, GloveParams, SgnsParams, defaults};

use crate::cli::{
    AnalogiesArgs, BasePairsArgs, Cli, Command, CorpusCommand, EmbeddingsCommand, Format, GloveArgs,
    SgnsArgs, StatsCommand,
};
use crate::{stats, study};

pub fn run(cli: Cli) -> Result<()> {
    let folders = cli.dirs.folders();
    match cli.command {
        Command::Plan { pipeline, format } => plan(&folders, &pipeline, format),
        Command::Run {
            pipeline,
            run,
            executor,
        } if executor.is_slurm() => crate::cluster::submit(&folders, &pipeline, &run, &executor),
        Command::Run {
            pipeline,
            run,
            executor,
        } => executor
            .check_local()
            .and_then(|()| study::run(&folders, &pipeline, &run)),
        Command::RunTask(args) => crate::cluster::run_task(&folders, &args),
        Command::Prepare(args) => crate::cluster::prepare(&folders, &args),
        Command::Status(args) => crate::cluster::status(&folders, &args),
        Command::Report {
            pipeline,
            tables,
            out,
        } => crate::report::report_command(&folders, &pipeline, tables.as_deref(), out.as_deref()),
        Command::Measure { pipeline, run } => measure_pipeline(&folders, &pipeline, &run.options()).map(drop),
        Command::Train { pipeline, run } => train_pipeline(&folders, &pipeline, &run.options()).map(drop),
        Command::Reliability(args) => crate::reliability::run(&folders, &args),
        Command::Score(args) => score_command(&args, &folders),
        Command::Weat(args) => retest_pipeline::weat_files(&retest_pipeline::WeatRequest {
            embeddings: args.input.files(&args.embeddings, args.tests.lowercase),
            tests: &args.tests.tests,
            tests_only: &args.tests.tests_only,
            settings: args.tests.weat_settings(),
            folders: &folders,
            out: args.table.file(),
        }),
        Command::Query(args) => retest_pipeline::query_files(&retest_pipeline::QueryRequest {
            embeddings: args.input.files(&args.embeddings, args.tests.lowercase),
            tests: &args.tests.tests,
            tests_only: &args.tests.tests_only,
            settings: retest_pipeline::QuerySettings {
                measures: &args.measures,
                weat: args.tests.weat_settings(),
                rnsb_holdout: args.rnsb_holdout,
            },
            folders: &folders,
            out: args.table.file(),
        }),
        Command::Debias(args) => debias(&args, &folders),
        Command::DirectBias(args) => {
            retest_pipeline::direct_bias_files(&retest_pipeline::DirectBiasRequest {
                embeddings: args.input.files(&args.embeddings, args.lowercase),
                pairs: &args.pairs,
                words: &args.words,
                c: args.c,
                components: args.components,
                out: args.table.file(),
            })
        }
        Command::Analogies(args) => analogies(&args),
        Command::Validity(args) => validity(&args, &folders),
        Command::BasePairs(args) => base_pairs(&args, &folders),
        Command::Sgns(args) => sgns(&args),
        Command::Glove(args) => glove(&args),
        Command::Corpus(CorpusCommand::Prepare {
            recipe,
            min_count,
            max_tokens,
            force,
        }) => {
            let overrides = RecipeOverrides {
                min_count,
                max_tokens,
            };
            let dir = prepare_recipe(&folders, &recipe, overrides, force)?;
            writeln!(crate::stdout::stdout(), "{}", dir.display())?;
            Ok(())
        }
        Command::Corpus(CorpusCommand::List) => list_corpora(&folders),
        Command::Stats(command) => stats(command),
        Command::Lock { files, refresh } => lock(&files, refresh),
        Command::Embeddings(EmbeddingsCommand::Info { input, format }) => {
            let emb = retest_embeddings::read(&input, format.format)?;
            write!(crate::stdout::stdout(), "{}", retest_embeddings::describe(&emb))?;
            Ok(())
        }
        Command::Embeddings(EmbeddingsCommand::Export {
            input,
            input_format,
            format,
            output,
            force,
        }) => retest_pipeline::export_embeddings(
            &input,
            input_format,
            &output,
            format,
            Overwrite::forced(force),
        ),
        Command::Measures => measures(),
        Command::Eval {
            embeddings,
            input,
            benchmarks,
            json,
            out,
            force,
        } => eval(
            input.files(&embeddings, false),
            benchmarks,
            json,
            out.as_deref(),
            force,
        ),
    }
}

fn plan(folders: &Folders, pipeline: &str, format: Format) -> Result<()> {
    let loaded = LoadedPlan::load(folders, pipeline)?;
    let memory = retest_pipeline::check_plan(&loaded)?;
    let LoadedPlan { project, plan, .. } = loaded;
    let jobs = plan.jobs();
    let mut out = crate::stdout::stdout();
    match format {
        Format::Json => {
            let memory: serde_json::Map<String, serde_json::Value> = memory
                .iter()
                .map(|(corpus, estimates)| (corpus.clone(), serde_json::json!(estimates)))
                .collect();
            let value = serde_json::json!({ "plan": plan, "jobs": jobs, "memory": memory });
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Text => {
            writeln!(
                out,
                "# Resolved plan of {} (every default filled in)",
                project.pipeline_file.display()
            )?;
            write!(out, "{}", plan.to_yaml())?;
            writeln!(out, "\n# Jobs ({}), in dependency order", jobs.len())?;
            for job in &jobs {
                writeln!(out, "{job}")?;
            }
            writeln!(
                out,
                "\n# Memory per job (the large arrays it holds; this machine: {})",
                retest_pipeline::machine_memory().map_or("unknown".into(), retest_pipeline::gigabytes)
            )?;
            for (corpus, estimates) in &memory {
                match estimates {
                    None => writeln!(out, "{corpus}: not prepared yet (checked once it is)")?,
                    Some(estimates) => {
                        for e in estimates {
                            writeln!(
                                out,
                                "{corpus} {}: {} ({})",
                                e.job,
                                retest_pipeline::gigabytes(e.bytes),
                                e.detail
                            )?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn score_command(args: &crate::cli::ScoreArgs, folders: &Folders) -> Result<()> {
    let pool_exclude = args.scoring.pool_exclude(folders)?;
    retest_pipeline::score_files(&retest_pipeline::ScoreRequest {
        embeddings: args.input.files(&args.embeddings, args.lowercase),
        pairs: &args.pairs,
        words: &args.words,
        scoring: args.scoring.scoring(&pool_exclude),
        out: args.table.file(),
    })
}

/// `retest validity`: the criterion named, then the pipeline's function.
fn validity(args: &crate::cli::ValidityArgs, folders: &Folders) -> Result<()> {
    let criterion = retest_pipeline::CriterionSource::named(&args.criterion, args.census_year)?;
    let pairs =
        (args.pairs.clone()).unwrap_or_else(|| folders.wordlists(None).join(defaults::VALIDITY_PAIRS));
    let pool_exclude = args.scoring.pool_exclude(folders)?;
    retest_pipeline::validity_files(&retest_pipeline::ValidityRequest {
        embeddings: args.input.files(&args.embeddings, args.lowercase),
        criterion,
        pairs: &pairs,
        scoring: args.scoring.scoring(&pool_exclude),
        folders,
        out: args.table.file(),
    })
}

/// `retest debias`: the method's function on the lists named.
fn debias(args: &crate::cli::DebiasArgs, folders: &Folders) -> Result<()> {
    match args.method {
        crate::cli::DebiasMethod::Hard => retest_pipeline::debias_file(&retest_pipeline::DebiasRequest {
            input: &args.embedding,
            input_format: args.input.format,
            lookup: retest_pipeline::WordLookup {
                lowercase: args.lowercase,
            },
            lists: retest_pipeline::DebiasListNames {
                definitional: &args.definitional,
                equalize: &args.equalize,
                gender_specific: &args.gender_specific,
            },
            folders,
            output: &args.output,
            format: args.output_format,
            overwrite: Overwrite::forced(args.force),
        }),
    }
}

/// `retest analogies`: the flags turned into a solver, then the pipeline's function.
fn analogies(args: &AnalogiesArgs) -> Result<()> {
    let solver = retest_pipeline::analogy_solver(args.solver, args.delta, args.squared_delta)?;
    retest_pipeline::analogies_files(&retest_pipeline::AnalogiesRequest {
        embeddings: args.input.files(&args.embeddings, args.lowercase),
        queries: &args.queries,
        solver,
        constraint: if args.unconstrained {
            Constraint::Unconstrained
        } else {
            Constraint::Constrained
        },
        top_n: args.top_n,
        restrict_vocab: args.restrict_vocab,
        out: args.table.file(),
    })
}

/// `retest base-pairs`: the flags as the plan section's parameters, then the pipeline's
/// function.
fn base_pairs(args: &BasePairsArgs, folders: &Folders) -> Result<()> {
    let flip = defaults::ZHANG_FLIP.map(|pair| pair.map(str::to_owned));
    let params = retest_spec::BasePairParams {
        pairs: args.pairs.clone(),
        professions: args.targets.clone(),
        truth: args.truth.clone(),
        pool_exclude: args.pool_exclude.clone(),
        most_frequent: args.most_frequent,
        nbm_k: args.nbm_k,
        flip,
        example: args.example.clone(),
        random_samples: args.random_samples,
    };
    retest_pipeline::base_pairs_files(&retest_pipeline::BasePairsRequest {
        embeddings: args.input.files(&args.embeddings, args.lowercase),
        params: &params,
        ripa_target: args.ripa_target,
        seed: args.seed,
        folders,
        out: &args.out,
    })
}

/// `retest sgns`: one model from a whitespace-tokenised text file.
fn sgns(args: &SgnsArgs) -> Result<()> {
    let params = SgnsParams {
        architecture: if args.cbow {
            Architecture::Cbow
        } else {
            Architecture::Skipgram
        },
        dim: args.dim,
        window: args.window,
        negative: args.negative,
        ns_exponent: defaults::SGNS_NS_EXPONENT,
        sample: args.sample,
        epochs: args.epochs,
        alpha: args.alpha,
        min_alpha: args.min_alpha,
        threads_per_model: args.threads,
    };
    train_sgns_file(&args.file.model(), &params)
}

/// `retest glove`: one model from a whitespace-tokenised text file.
fn glove(args: &GloveArgs) -> Result<()> {
    let params = GloveParams {
        dim: args.dim,
        window: args.window,
        x_max: args.x_max,
        alpha: args.alpha,
        eta: args.eta,
        iterations: args.iter,
        memory_mb: (args.memory * 1024.0).ceil() as u64,
        threads_per_model: args.threads,
    };
    train_glove_file(&args.file.model(), &params)
}

/// `retest measures`: the registry of measures, one per line, in columns as wide as their
/// longest entry.
fn measures() -> Result<()> {
    use retest_spec::Measure;
    let rows: Vec<[&str; 5]> = std::iter::once(["name", "label", "family", "reference", "computes"])
        .chain(Measure::ALL.map(|m| {
            [
                m.name(),
                m.label(),
                m.family().as_str(),
                m.reference().as_str(),
                m.summary(),
            ]
        }))
        .collect();
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2), width(3)];
    let mut out = crate::stdout::stdout();
    for row in &rows {
        for (cell, w) in row.iter().zip(widths) {
            write!(out, "{cell:<w$} ")?;
        }
        writeln!(out, "{}", row[4])?;
    }
    Ok(())
}

fn list_corpora(folders: &Folders) -> Result<()> {
    let recipes = folders.recipes(None);
    let mut out = crate::stdout::stdout();
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

/// `retest lock [--refresh] FILE...`: one line per source file, as it is recorded or verified.
fn lock(files: &[std::path::PathBuf], refresh: bool) -> Result<()> {
    let mode = if refresh {
        retest_pipeline::LockMode::Refresh
    } else {
        retest_pipeline::LockMode::Verify
    };
    let mut out = crate::stdout::stdout();
    for file in files {
        for outcome in retest_pipeline::lock_declared(file, mode)? {
            writeln!(out, "{outcome}")?;
        }
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
    writeln!(
        crate::stdout::stdout(),
        "{}",
        serde_json::to_string_pretty(&value)?
    )?;
    Ok(())
}

fn eval(
    embeddings: retest_pipeline::EmbeddingFiles<'_>,
    benchmarks: Option<std::path::PathBuf>,
    json: bool,
    out: Option<&std::path::Path>,
    force: bool,
) -> Result<()> {
    let benchmarks = match benchmarks {
        Some(dir) => dir,
        None => std::env::var_os("RETEST_DATA_DIR")
            .map(|data| std::path::PathBuf::from(data).join("benchmarks"))
            .context(
                "no benchmark folder: pass --benchmarks DIR or set RETEST_DATA_DIR to the data mirror",
            )?,
    };
    retest_pipeline::eval_files(&retest_pipeline::EvalRequest {
        embeddings,
        benchmarks: &benchmarks,
        json,
        out: out.map(|path| retest_pipeline::TableFile {
            path,
            overwrite: Overwrite::forced(force),
        }),
    })
}
