//! The GloVe co-occurrence table of a corpus: counted once, stored beside the prepared corpus,
//! shared by every seed (and every pipeline using the same corpus and window).

use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retest_glove::{
    CooccurConfig, Cooccurrences, GloveConfig, count_cooccurrences_to_writer, read_cooccurrences,
};
use retest_spec::GloveParams;

use crate::corpus::LoadedCorpus;
use crate::progress::Reporter;

/// The trainer's configuration from the resolved plan parameters.
pub fn glove_config(p: &GloveParams) -> GloveConfig {
    GloveConfig {
        dim: p.dim as usize,
        x_max: p.x_max,
        alpha: p.alpha,
        eta: p.eta,
        iterations: p.iterations as usize,
    }
}

/// The co-occurrence file of a prepared corpus for a window (the table does not depend on the
/// memory budget, so the budget is not part of the name).
pub fn cooccurrence_path(prepared_dir: &Path, window: u32) -> PathBuf {
    prepared_dir.join(format!("cooccurrence-window{window}.bin"))
}

/// Loads the co-occurrence table of `corpus`, counting it first if no earlier run did.
pub fn cooccurrences_for(
    corpus: &LoadedCorpus,
    params: &GloveParams,
    reporter: &Reporter,
) -> Result<Cooccurrences> {
    let path = ensure_cooccurrences(corpus, params, reporter)?;
    read_cooccurrence_file(&path)
}

/// Reads a co-occurrence file written by [`ensure_cooccurrences`].
pub(crate) fn read_cooccurrence_file(path: &Path) -> Result<Cooccurrences> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    read_cooccurrences(BufReader::with_capacity(1 << 20, file)).with_context(|| format!("{}", path.display()))
}

/// Counts the co-occurrence table of `corpus` unless an earlier run did; returns its file.
/// Counting streams sorted runs to disk when the in-memory table exceeds the budget, and the
/// file is renamed into place only when complete.
pub fn ensure_cooccurrences(
    corpus: &LoadedCorpus,
    params: &GloveParams,
    reporter: &Reporter,
) -> Result<PathBuf> {
    let path = cooccurrence_path(&corpus.prepared.dir, params.window);
    if !path.is_file() {
        let started = std::time::Instant::now();
        let dir = &corpus.prepared.dir;
        let spill = tempfile::Builder::new()
            .prefix(".spill-")
            .tempdir_in(dir)
            .with_context(|| format!("cannot create a spill folder in {}", dir.display()))?;
        let config = CooccurConfig {
            window: params.window as usize,
            memory_bytes: params.memory_mb * (1 << 20),
        };
        let mut stats = None;
        retest_fs::write_atomic_with(&path, |w| -> Result<()> {
            let counted =
                count_cooccurrences_to_writer(&corpus.view(), &config, spill.path(), &mut |_| {}, w)
                    .with_context(|| format!("counting co-occurrences of `{}`", corpus.name()))?;
            stats = Some(counted);
            Ok(())
        })?;
        let stats = stats.expect("a finished write counted the co-occurrences");
        reporter.log(&format!(
            "counted co-occurrences of {} (window {}) in {:.1} s: {} records from {} tokens, {}",
            corpus.name(),
            params.window,
            started.elapsed().as_secs_f64(),
            stats.n_records,
            stats.n_tokens,
            match stats.n_runs {
                0 => "all in memory".to_owned(),
                n => format!("{n} sorted runs spilled to disk and merged"),
            }
        ));
    }
    Ok(path)
}
