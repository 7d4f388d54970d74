//! Helpers shared by the tests and benchmarks of the workspace (a `[dev-dependencies]` only):
//! the data mirror, small encoded corpora, reproducible random vectors and rotations, a tiny
//! deterministic generator ([`Lcg`]), and tiny embeddings written by hand; the one way tests
//! start the `retest` binary, with one environment policy; and a crate's own source files, read
//! by its architecture tests ([`sources`]).
//!
//! The mirror is the folder named by `RETEST_DATA_DIR`, else `../shared/data` beside the
//! workspace. Tests read its real files and fail, never skip, when it or a file is missing.

use std::path::{Path, PathBuf};

use rand_core::Rng;
use retest_embeddings::Embeddings;
use retest_rng::SeedPath;

mod command;
mod corpora;
mod lcg;
mod messages;
mod names;
pub mod sources;

pub use command::{
    REMOVED_VARS, RETEST_PREFIX, arg, checked_stderr, hermetic, output, retest, run_cached, stderr,
};
pub use corpora::{WIKI_VALID, corpus_from_text, wiki_valid, wikitext_corpus};
pub use lcg::Lcg;
pub use messages::{assert_each_clause_once, assert_message, error_line, redacted};
pub use names::assert_names_round_trip;

/// The variable naming the data mirror.
pub const DATA_DIR_VAR: &str = "RETEST_DATA_DIR";

/// The workspace root (the folder holding `Cargo.toml`, `corpora/`, `pipelines/`).
pub fn workspace_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    dir.canonicalize()
        .unwrap_or_else(|e| panic!("workspace folder {}: {e}", dir.display()))
}

/// The data mirror: `$RETEST_DATA_DIR`, else `../shared/data` beside the workspace.
///
/// # Panics
/// If the folder has no `MANIFEST.md`, with a message naming the folder and the variable.
pub fn data_dir() -> PathBuf {
    mirror_at(std::env::var_os(DATA_DIR_VAR).map(PathBuf::from))
}

/// A file of the data mirror, by its path inside the mirror (`wikitext-103/wiki.valid.tokens`).
///
/// # Panics
/// If the mirror or the file is missing, with a message naming both and the variable.
pub fn data_file(relative: &str) -> PathBuf {
    file_in(&data_dir(), relative)
}

fn mirror_at(from_env: Option<PathBuf>) -> PathBuf {
    let dir = from_env.unwrap_or_else(|| workspace_dir().join("../shared/data"));
    assert!(
        dir.join("MANIFEST.md").is_file(),
        "data mirror not found: {} has no MANIFEST.md; set {DATA_DIR_VAR} to the mirror folder \
         (shared/data)",
        dir.display()
    );
    dir
}

fn file_in(mirror: &Path, relative: &str) -> PathBuf {
    let path = mirror.join(relative);
    assert!(
        path.is_file(),
        "{relative} is missing from the data mirror {} (see its MANIFEST.md; set {DATA_DIR_VAR} \
         to another mirror if needed)",
        mirror.display()
    );
    path
}

/// Reproducible random test data from one named `retest-rng` stream family, so that each
/// crate's tests keep their own data (`RandomData::new("retest-geometry-tests")`).
#[derive(Debug, Clone, Copy)]
pub struct RandomData {
    label: &'static str,
}

impl RandomData {
    pub const fn new(label: &'static str) -> RandomData {
        RandomData { label }
    }

    /// `n × dim` standard-normal values (Box–Muller on ChaCha12 uniforms), reproducible by
    /// `seed`.
    pub fn gaussian(&self, n: usize, dim: usize, seed: u64) -> Vec<f32> {
        let mut rng = SeedPath::new(seed).with(self.label).stream("gaussian");
        let mut uniform = move || ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let mut out = Vec::with_capacity(n * dim);
        while out.len() < n * dim {
            let (u1, u2) = (uniform(), uniform());
            let r = (-2.0 * u1.ln()).sqrt();
            let t = std::f64::consts::TAU * u2;
            out.push((r * t.cos()) as f32);
            if out.len() < n * dim {
                out.push((r * t.sin()) as f32);
            }
        }
        out
    }

    /// A random orthogonal `dim × dim` matrix (row-major `f64`): Gram–Schmidt, twice per row,
    /// on Gaussian rows.
    pub fn random_orthogonal(&self, dim: usize, seed: u64) -> Vec<f64> {
        let g = self.gaussian(dim, dim, seed);
        let mut q: Vec<f64> = g.iter().map(|&x| f64::from(x)).collect();
        for i in 0..dim {
            for _ in 0..2 {
                for j in 0..i {
                    let d: f64 = (0..dim).map(|c| q[i * dim + c] * q[j * dim + c]).sum();
                    for c in 0..dim {
                        q[i * dim + c] -= d * q[j * dim + c];
                    }
                }
            }
            let norm = (0..dim).map(|c| q[i * dim + c].powi(2)).sum::<f64>().sqrt();
            for c in 0..dim {
                q[i * dim + c] /= norm;
            }
        }
        q
    }
}

/// `x · Q` for row-major `x` (`n × dim`, `f32`) and `Q` (`dim × dim`, `f64`), rounded to `f32`.
pub fn rotate(x: &[f32], q: &[f64], dim: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks_exact(dim) {
        for c in 0..dim {
            let v: f64 = (0..dim).map(|r| f64::from(row[r]) * q[r * dim + c]).sum();
            out.push(v as f32);
        }
    }
    out
}

/// Writes `contents` to the file `name` in `dir` and returns its path.
///
/// # Panics
/// If the file cannot be written, with its path.
pub fn write_file(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

/// How many of the values of `a` differ from those of `b` at the same place (as far as the
/// shorter one goes): two seeds of a trainer should differ almost everywhere.
pub fn n_differing(a: &[f32], b: &[f32]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

/// Embeddings from `(word, vector)` rows written out by hand; the dimension is the rows' length.
///
/// # Panics
/// If [`Embeddings::new`] refuses them (a repeated word, a non-finite value, …), with its
/// message.
pub fn embeddings<const DIM: usize>(rows: &[(&str, [f32; DIM])]) -> Embeddings {
    let words = rows.iter().map(|(w, _)| (*w).to_owned()).collect();
    let vectors = rows.iter().flat_map(|(_, v)| *v).collect();
    Embeddings::new(words, DIM, vectors).unwrap_or_else(|e| panic!("test embeddings: {e}"))
}

#[cfg(test)]
mod tests;

/// word2vec text `text` with the row of `word` set to zeros (a padding row, as some pretrained
/// files hold).
///
/// # Panics
///
/// `text` has no row of `word`.
pub fn with_zero_row(text: &str, word: &str) -> String {
    let prefix = format!("{word} ");
    let mut found = false;
    let out = (text.lines())
        .map(|line| match line.strip_prefix(&prefix) {
            Some(values) => {
                found = true;
                format!("{word}{}\n", " 0".repeat(values.split(' ').count()))
            }
            None => format!("{line}\n"),
        })
        .collect();
    assert!(found, "no row of `{word}`");
    out
}
