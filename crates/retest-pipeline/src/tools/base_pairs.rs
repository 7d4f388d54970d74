//! Zhang et al.'s base-pair analyses on any embedding files, without a pipeline
//! (`retest base-pairs`): the tables of the pipeline's base-pair stage, each embedding a seed.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use retest_embeddings::Embeddings;
use retest_measures::{Model, RipaTarget, Rule, Vocab};
use retest_rng::SeedPath;
use retest_spec::BasePairParams;
use retest_tables::{CoverageRow, Table, names};

use crate::driver::project::{Folders, lock_file, resolver};
use crate::lists::load_base_pairs;
use crate::message::as_published;
use crate::stages::base_pairs::{BasePairSetup, BasePairs, Names};
use crate::stages::columns::ZERO_VECTOR;
use crate::stages::seeds::{without_zero_rows, zero_rows_left_out};
use crate::tools::inputs::EmbeddingFiles;
use crate::tools::output::new_folder;

/// What `retest base-pairs` was asked to do.
#[derive(Debug)]
pub struct BasePairsRequest<'a> {
    /// With `lowercase`, capitalised pairs and forms are not applicable.
    pub embeddings: EmbeddingFiles<'a>,
    /// The lists (names in the word-list folder, or paths) and the other parameters; the
    /// defaults are Zhang et al.'s.
    pub params: &'a BasePairParams,
    pub ripa_target: RipaTarget,
    /// Root seed of the random baselines: embedding `i` draws from
    /// `SeedPath::new(seed).with("base-pairs").with_index(i)`.
    pub seed: u64,
    /// Where the word lists and the checksum lock of declared files are.
    pub folders: &'a Folders,
    /// A folder that does not exist yet.
    pub out: &'a Path,
}

/// Runs the base-pair analyses on every embedding file and writes the stage's tables into
/// `req.out` (Parquet and CSV), each embedding a seed: `corpus` is the embedding file as given,
/// `algorithm` is empty and `seed` its position. With two or more embeddings of one vocabulary,
/// also the seeds' agreement and the variance components (`base_pair_seeds`,
/// `base_pair_variance`); with vocabularies that differ, only the per-embedding tables.
///
/// # Errors
///
/// `--out` exists; a list cannot be found, read or parsed; an embedding cannot be read, or has
/// fewer than two of the pairs or none of the professions in its vocabulary, or a neutral pool
/// no larger than `--nbm-k`; a table cannot be written.
pub fn base_pairs_files(req: &BasePairsRequest<'_>) -> Result<()> {
    new_folder(req.out)?;
    let input = BasePairsInput {
        params: req.params,
        ripa_target: req.ripa_target,
        lowercase: req.embeddings.lookup.lowercase,
        seed: req.seed,
        folders: req.folders,
    };
    let embeddings = req.embeddings.paths.iter().map(|path| {
        let emb = req.embeddings.read(path)?;
        Ok((path.display().to_string(), Cow::Owned(emb)))
    });
    let mut err = std::io::stderr().lock();
    let mut tables = base_pair_tables(&input, embeddings, &mut err)?;
    let parent = match req.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).with_context(|| format!("cannot create {}", parent.display()))?;
    // Built as `.<name>.XXXXXX.tmp` beside the new folder, then renamed to it; a killed earlier
    // run for the same --out left one of those, removed now.
    let name = req
        .out
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    remove_stale_folders(&parent, &name);
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .rand_bytes(6)
        .tempdir_in(&parent)
        .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
    for table in &mut tables {
        (table.write(tmp.path(), true)).map_err(|e| as_published(e.into(), tmp.path(), req.out))?;
    }
    retest_fs::publish_dir(&tmp.keep(), req.out)?;
    writeln!(err, "{} tables → {}", tables.len(), req.out.display())?;
    Ok(())
}

/// What the base-pair analyses are run with, the same for every embedding.
#[derive(Clone, Copy, Debug)]
pub struct BasePairsInput<'a> {
    /// The lists (names in the word-list folder, or paths) and the other parameters.
    pub params: &'a BasePairParams,
    pub ripa_target: RipaTarget,
    /// Words are looked up lowercased: capitalised pairs and forms are not applicable.
    pub lowercase: bool,
    /// Root seed of the random baselines: embedding `i` draws from
    /// `SeedPath::new(seed).with("base-pairs").with_index(i)`.
    pub seed: u64,
    /// Where the word lists and the checksum lock of declared files are.
    pub folders: &'a Folders,
}

/// The base-pair stage's tables of `embeddings` (each named, and a seed in the order given),
/// as [`base_pairs_files`] writes them, with the `coverage` table last. An embedding's all-zero
/// rows are left out (a coverage row and a warning on `warn` say which); so are the analyses'
/// notes, and that the vocabularies differ when they do. An embedding is read only when its turn
/// comes.
///
/// # Errors
///
/// A list cannot be found, read or parsed; an embedding cannot be read, or has fewer than two of
/// the pairs or none of the professions in its vocabulary, or a neutral pool no larger than
/// `nbm_k`; there is no embedding; `warn` cannot be written.
pub fn base_pair_tables<'e>(
    input: &BasePairsInput<'_>,
    embeddings: impl IntoIterator<Item = Result<(String, Cow<'e, Embeddings>)>>,
    warn: &mut dyn Write,
) -> Result<Vec<Table>> {
    let folder = input.folders.wordlists(None);
    let mut resolver = resolver(&lock_file(&input.folders.recipes(None)))?;
    let lists = load_base_pairs(input.params, &folder, &mut resolver, &mut Vec::new())?;
    let setup = || BasePairSetup {
        params: input.params,
        rules: Rule::ALL.to_vec(),
        ripa_target: input.ripa_target,
        lowercase: input.lowercase,
        root: SeedPath::new(input.seed).with("base-pairs"),
        names: Names::COMMAND,
    };
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let mut seeds = Vec::new();
    let mut zero_rows = Vec::new();
    // The analyses resolved once per distinct vocabulary, with the vocabulary's words.
    let mut resolved: Vec<(Vec<String>, BasePairs<'_>)> = Vec::new();
    for (i, embedding) in embeddings.into_iter().enumerate() {
        let (name, emb) = embedding?;
        let (emb, zero) = if (0..emb.n_words()).any(|row| emb.is_zero_row(row)) {
            let (emb, zero) = without_zero_rows(emb.into_owned());
            (Cow::Owned(emb), zero)
        } else {
            (emb, Vec::new())
        };
        if !zero.is_empty() {
            let source = format!("embedding `{name}`");
            writeln!(warn, "warning: {}", zero_rows_left_out(&source, "", &zero))?;
            zero_rows.push(CoverageRow::of(
                &name,
                &name,
                ZERO_VECTOR,
                emb.n_words() + zero.len(),
                &zero,
            ));
        }
        let words = emb.words();
        let model = Model::new(words, emb.vectors(), emb.dim()).with_context(|| name.clone())?;
        let at = match resolved.iter().position(|(w, _)| w == words) {
            Some(at) => at,
            None => {
                let vocab = Vocab::new(words).with_context(|| name.clone())?;
                // Its messages name the embedding file themselves.
                let analyses = BasePairs::resolve(setup(), &lists, &name, "", &vocab)?;
                for line in &analyses.notes {
                    writeln!(warn, "warning: {line}")?;
                }
                resolved.push((words.to_vec(), analyses));
                resolved.len() - 1
            }
        };
        let seed = resolved[at]
            .1
            .measure_seed(&model, i as u32, threads)
            .with_context(|| format!("base pairs of {name}"))?;
        seeds.push(seed);
    }
    let one_vocabulary = resolved.len() == 1;
    let Some((_, analyses)) = resolved.first() else {
        bail!("no embedding file");
    };
    let mut tables = analyses.tables_for(&seeds, one_vocabulary && seeds.len() >= 2)?;
    let coverage: Vec<CoverageRow> = (zero_rows.into_iter())
        .chain(resolved.iter().flat_map(|(_, a)| a.coverage.clone()))
        .collect();
    tables.push(Table::of(names::COVERAGE, &coverage)?);
    if !one_vocabulary {
        writeln!(
            warn,
            "warning: the embeddings' vocabularies differ: no agreement across them (base_pair_seeds, \
             base_pair_variance)"
        )?;
    }
    Ok(tables)
}

/// Removes the folders in `parent` that a killed run building folder `name` left
/// (`.<name>.XXXXXX.tmp`, as [`retest_fs::temporary_target`] recognises them). Best effort.
fn remove_stale_folders(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && entry.file_name().to_str().and_then(retest_fs::temporary_target) == Some(name) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
