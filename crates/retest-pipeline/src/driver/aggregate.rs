//! The measure stage over every (corpus, algorithm) configuration of a plan, and the aggregate
//! stage: the tables of all configurations side by side in `results/<pipeline>/tables/`, and the
//! regression input.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retest_spec::{Job, Plan};
use retest_tables::{CoverageRow, Row, Table, TableName, names, parquet_path};
use serde::Serialize;

use crate::corpus::LoadedCorpus;
use crate::driver::layout::{Configuration, Layout};
use crate::driver::model_files::FileSums;
use crate::lists::Lists;
use crate::progress::Reporter;
use crate::stages::job::{DONE_FILE, MeasureJob, group_tables, is_optional, measure};
use crate::stages::seeds::{SeedSource, reader_lowercases};

/// A measured configuration: where its tables are.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    pub corpus: String,
    pub algorithm: String,
    pub dir: PathBuf,
    /// Whether this run measured it (false: already done).
    pub measured: bool,
    /// A model read from files: its files and their checksums.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_files: Option<FileSums>,
    /// What the measure job recorded beside its tables (its `measure.json`), when readable.
    #[serde(skip)]
    pub summary: Option<serde_json::Value>,
}

/// Runs the measure job of every (corpus, algorithm) configuration that has no tables yet
/// (all of them with `force`), one after the other, each with `threads` threads: a
/// configuration holds all its seeds in memory (for embedding stability), so configurations do
/// not run side by side.
///
/// # Errors
///
/// The first failing job; configurations measured before it keep their tables.
pub fn measure_all(
    plan: &Plan,
    layout: &Layout,
    corpora: &[LoadedCorpus],
    lists: &Lists,
    threads: usize,
    force: bool,
) -> Result<Vec<Measured>> {
    let jobs: Vec<Job> = plan
        .jobs()
        .into_iter()
        .filter(|j| matches!(j, Job::Measure { .. }))
        .collect();
    // The bar counts seeds scored.
    let n_jobs = jobs.len() as u64;
    let n_seeds: u64 = (jobs.iter())
        .map(|job| match job {
            Job::Measure { model, .. } => plan.seeds_of(model) as u64,
            _ => 0,
        })
        .sum();
    let reporter = Reporter::new(n_jobs, n_seeds);
    let mut out = Vec::new();
    for (i, job) in jobs.into_iter().enumerate() {
        let Job::Measure { corpus, model } = job else {
            continue;
        };
        reporter.set_jobs(i as u64, n_jobs);
        let (source, dir, seed_files) = configuration(plan, layout, corpora, lists, &corpus, &model)?;
        let n_seeds = source.files().len() as u64;
        let done = Layout::is_measured(&dir) && !force;
        if done {
            reporter.add_words(n_seeds);
            reporter.log(&format!("measure {corpus} {model}: already done"));
        } else {
            let started = std::time::Instant::now();
            let job = MeasureJob {
                source,
                model: model.clone(),
                out_dir: dir.clone(),
            };
            let name = format!("measure {corpus} {model}");
            reporter.begin(&name);
            measure(plan, lists, &job, threads, &reporter)?;
            reporter.end(&name);
            reporter.log(&format!(
                "measured {corpus} {model} in {:.1} s → {}",
                started.elapsed().as_secs_f64(),
                dir.display()
            ));
        }
        let summary = std::fs::read_to_string(dir.join(DONE_FILE))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok());
        out.push(Measured {
            corpus,
            algorithm: model,
            dir,
            measured: !done,
            seed_files,
            summary,
        });
    }
    reporter.finish();
    Ok(out)
}

/// Where the seeds of configuration (`corpus`, `model`) come from, the folder of its measure job
/// and, for a model read from files, the files' checksums (which name that folder).
fn configuration<'a>(
    plan: &'a Plan,
    layout: &Layout,
    corpora: &'a [LoadedCorpus],
    lists: &'a Lists,
    corpus: &str,
    model: &'a str,
) -> Result<(SeedSource<'a>, PathBuf, Option<FileSums>)> {
    let loaded = || {
        (corpora.iter())
            .find(|c| c.name() == corpus)
            .with_context(|| format!("corpus `{corpus}` was not prepared"))
    };
    let configuration = Configuration::of(
        plan,
        model,
        || loaded().map(LoadedCorpus::key),
        |files| FileSums::of(files, &layout.model_file_checksums()),
    )?;
    let dir = layout.configuration_dir(plan, corpus, &configuration, lists);
    let source = seed_source(plan, layout, corpus, &loaded, lists, &configuration)?;
    // The base's files name the base's configuration; a debiased one is named by its folder.
    let sums = match configuration {
        Configuration::Files { sums, .. } => Some(sums),
        _ => None,
    };
    Ok((source, dir, sums))
}

/// Where the seeds of `configuration` on corpus `corpus` come from; `loaded` finds the prepared
/// corpus of trained seeds.
fn seed_source<'a>(
    plan: &'a Plan,
    layout: &Layout,
    corpus: &str,
    loaded: &dyn Fn() -> Result<&'a LoadedCorpus>,
    lists: &'a Lists,
    configuration: &Configuration<'a>,
) -> Result<SeedSource<'a>> {
    Ok(match configuration {
        Configuration::Trained { model, corpus_key } => {
            let embeddings_dir = layout.embeddings_dir(plan, corpus, corpus_key, model);
            SeedSource::Trained {
                corpus: loaded()?,
                lowercase: reader_lowercases(plan, corpus),
                files: (0..plan.n_seeds)
                    .map(|s| Layout::seed_file(&embeddings_dir, s))
                    .collect(),
            }
        }
        Configuration::Files { files, .. } => SeedSource::Files(files),
        Configuration::Debiased { base, .. } => SeedSource::Debiased {
            base: Box::new(seed_source(plan, layout, corpus, loaded, lists, base)?),
            lists: (lists.debias.as_ref()).expect("a plan with debiased models has debiasing lists"),
        },
    })
}

/// The tables of every configuration, concatenated in plan order and written to `out` as
/// Parquet and CSV; the coverage table as [`combine_coverage`] combines it. The bias
/// scores are too large to concatenate in memory (tens of millions of rows per configuration):
/// they are copied as they are into `out/<name>/<corpus>-<algorithm>.parquet`, one file per
/// configuration, which Polars, Arrow and DuckDB read as one table (`bias_scores/*.parquet`).
///
/// # Errors
///
/// A configuration's table that cannot be read, or a write failure.
pub fn combine_tables(measured: &[Measured], out: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for name in group_tables() {
        if name == names::BIAS_SCORES {
            written.extend(copy_per_configuration(measured, name, out)?);
            continue;
        }
        if name == names::COVERAGE.name() {
            written.extend(combine_coverage(measured)?.write(out, true)?);
            continue;
        }
        let mut parts = Vec::new();
        for m in measured {
            let path = parquet_path(&m.dir, name);
            if is_optional(name) && !path.is_file() {
                continue;
            }
            parts.push(Table::read(name, &path)?);
        }
        if parts.is_empty() {
            continue;
        }
        written.extend(Table::concat(name, &parts)?.write(out, true)?);
    }
    let full = names::BIAS_SCORES_FULL;
    if measured.iter().any(|m| parquet_path(&m.dir, full).is_file()) {
        written.extend(copy_per_configuration(measured, full, out)?);
    }
    Ok(written)
}

/// The coverage tables of every configuration, each row once: the configurations trained on one
/// corpus share its vocabulary and the first one's table is taken; a model read from files has
/// a vocabulary of its own, and its rows are added unless an identical row is already there.
fn combine_coverage(measured: &[Measured]) -> Result<Table> {
    let mut rows: Vec<CoverageRow> = Vec::new();
    let mut corpora_seen: Vec<&str> = Vec::new();
    for m in measured {
        if m.seed_files.is_none() {
            if corpora_seen.contains(&m.corpus.as_str()) {
                continue;
            }
            corpora_seen.push(&m.corpus);
        }
        for row in read_rows(&m.dir, names::COVERAGE)? {
            if !rows.contains(&row) {
                rows.push(row);
            }
        }
    }
    Ok(Table::of(names::COVERAGE, &rows)?)
}

/// Copies table `name` of every configuration into a fresh `out/<name>/` folder, which then
/// replaces the previous one.
fn copy_per_configuration(measured: &[Measured], name: &str, out: &Path) -> Result<Vec<PathBuf>> {
    let dir = out.join(name);
    let tmp = out.join(format!(".{name}.partial"));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).with_context(|| format!("cannot remove {}", tmp.display()))?;
    }
    std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    let mut files = Vec::new();
    for m in measured {
        let from = parquet_path(&m.dir, name);
        if !from.is_file() {
            continue;
        }
        let file = format!("{}-{}.parquet", m.corpus, m.algorithm);
        std::fs::copy(&from, tmp.join(&file))
            .with_context(|| format!("cannot copy {} into {}", from.display(), tmp.display()))?;
        files.push(dir.join(file));
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("cannot replace {}", dir.display()))?;
    }
    retest_fs::publish_dir(&tmp, &dir)?;
    Ok(files)
}

/// Reads the rows of one combined table from `dir`.
///
/// # Errors
///
/// The file cannot be read, or its columns are not those of `R`.
pub fn read_rows<R: Row>(dir: &Path, table: TableName<R>) -> Result<Vec<R>> {
    let name = table.name();
    let read = || Table::read(name, &parquet_path(dir, name))?.rows::<R>();
    read().with_context(|| format!("reading table `{name}`"))
}
