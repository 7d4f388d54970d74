//! The GloVe co-occurrence table of a corpus: counted once, stored beside the prepared corpus,
//! shared by every seed (and every pipeline using the same corpus and window).
//!
//! Counting writes two temporaries into the prepared corpus's folder: a spill folder
//! (`.spill-XXXXXX/`, for sorted runs when the table outgrows its memory budget) and the table
//! being written (`.cooccurrence-window<W>.bin.XXXXXX.tmp`, by `retest_fs`). A process killed
//! while counting leaves both; [`stale_temporaries`] finds them by those names.

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

/// The spill folder of a counting is `<SPILL_PREFIX>XXXXXX` in the prepared corpus's folder.
const SPILL_PREFIX: &str = ".spill-";
/// Length of the random part of the spill folder's name (`tempfile`'s default, set explicitly).
const SPILL_RANDOM_LEN: usize = 6;
/// The co-occurrence file of a window `W` is `<COOCCURRENCE_PREFIX>W<COOCCURRENCE_SUFFIX>`.
const COOCCURRENCE_PREFIX: &str = "cooccurrence-window";
const COOCCURRENCE_SUFFIX: &str = ".bin";

/// The co-occurrence file of a prepared corpus for a window (the table does not depend on the
/// memory budget, so the budget is not part of the name).
pub fn cooccurrence_path(prepared_dir: &Path, window: u32) -> PathBuf {
    prepared_dir.join(format!("{COOCCURRENCE_PREFIX}{window}{COOCCURRENCE_SUFFIX}"))
}

/// The temporaries that countings killed before they finished left in the prepared corpus
/// folder `dir`, sorted: spill folders `.spill-XXXXXX`, temporaries of a co-occurrence file
/// (`.cooccurrence-window<W>.bin.XXXXXX.tmp`), and `.tmpXXXXXX` files, the name the table was
/// written under before it went through `retest_fs`. Only those exact names (six random letters
/// or digits), folders for the first and files for the others. Removing them is safe only while
/// no other process counts co-occurrences of this corpus: a running count's have the same names.
pub(crate) fn stale_temporaries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| {
            let Ok(kind) = entry.file_type() else {
                return false;
            };
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return false;
            };
            if kind.is_dir() {
                name.strip_prefix(SPILL_PREFIX).is_some_and(is_random)
            } else if kind.is_file() {
                retest_fs::temporary_target(name).is_some_and(is_cooccurrence_file_name)
                    || name.strip_prefix(".tmp").is_some_and(is_random)
            } else {
                false
            }
        })
        .map(|entry| entry.path())
        .collect();
    found.sort();
    found
}

/// Whether `name` is `cooccurrence-window<W>.bin`, as [`cooccurrence_path`] names a table.
fn is_cooccurrence_file_name(name: &str) -> bool {
    name.strip_prefix(COOCCURRENCE_PREFIX)
        .and_then(|rest| rest.strip_suffix(COOCCURRENCE_SUFFIX))
        .is_some_and(|window| !window.is_empty() && window.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `s` is the random part of a temporary's name: six ASCII letters or digits.
fn is_random(s: &str) -> bool {
    s.len() == SPILL_RANDOM_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
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
            .prefix(SPILL_PREFIX)
            .rand_bytes(SPILL_RANDOM_LEN)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temporaries_are_the_counting_names_only() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for folder in [".spill-aB3xY9", ".spill-short", "spill-aB3xY9", ".tmpQ1w2E3"] {
            std::fs::create_dir(d.join(folder)).unwrap();
        }
        std::fs::write(d.join(".spill-aB3xY9/retest-glove-run-000000.bin"), "run").unwrap();
        for file in [
            ".cooccurrence-window15.bin.Zz9Zz9.tmp",
            ".cooccurrence-window.bin.Zz9Zz9.tmp",
            ".corpus.bin.Zz9Zz9.tmp",
            ".tmpK8j7H6",
            ".tmpK8j7H",
            ".tmp-notes",
            ".spill-Zz9Zz9",
            "cooccurrence-window15.bin",
        ] {
            std::fs::write(d.join(file), "x").unwrap();
        }
        assert_eq!(
            stale_temporaries(d),
            [
                d.join(".cooccurrence-window15.bin.Zz9Zz9.tmp"),
                d.join(".spill-aB3xY9"),
                d.join(".tmpK8j7H6"),
            ]
        );
    }
}
