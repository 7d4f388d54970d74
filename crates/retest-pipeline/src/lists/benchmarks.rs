//! The benchmark files the measure stages read besides the word lists: the word-similarity
//! benchmarks of the set-level `quality` table and the Google analogy set. Each is declared in
//! the word-list folder (`benchmarks/<name>.yaml`: source and checksum), found by the resolver
//! like a declared list, and hashed into the measure key with the lists.

use std::path::PathBuf;

use retest_eval::{PairFormat, SIMILARITY_BENCHMARKS};

/// The declaration name of the Google analogy set.
pub const GOOGLE_ANALOGIES: &str = "google-analogies";

/// The benchmark files a plan's stages read.
#[derive(Clone, Debug, Default)]
pub struct Benchmarks {
    /// Every word-similarity benchmark of `retest eval` (name, file, format), when the plan has
    /// a `set_level` section.
    pub similarity: Vec<(&'static str, PathBuf, PairFormat)>,
    /// The Google analogy set, when the plan's `analogies` section asks for its accuracy.
    pub google: Option<PathBuf>,
}

/// The word-similarity benchmarks' declaration names and formats.
pub(crate) fn similarity_names() -> impl Iterator<Item = (&'static str, PairFormat)> {
    SIMILARITY_BENCHMARKS
        .into_iter()
        .map(|(name, _, format)| (name, format))
}
