//! The standard suite (WordSim-353, SimLex-999, MEN, Google analogies) from the data mirror's
//! `benchmarks/` folder, and its report as JSON (serde) or a text table.

use std::fmt;
use std::path::Path;

use retest_embeddings::Embeddings;
use serde::Serialize;

use crate::analogy::analogies_with_lookup;
use crate::similarity::similarity_with_lookup;
use crate::vocab::Lookup;
use crate::{
    AnalogyResult, EvalError, EvalOptions, PairFormat, SimilarityResult, read_analogies, read_pairs,
};

/// The similarity benchmarks of the standard suite: (name, path under `benchmarks/`, format).
/// gensim's copies of WS-353 and SimLex-999 are the files its `evaluate_word_pairs` is usually
/// run on.
pub const SIMILARITY_BENCHMARKS: [(&str, &str, PairFormat); 3] = [
    ("wordsim353", "gensim/wordsim353.tsv", PairFormat::GensimTsv),
    ("simlex999", "gensim/simlex999.txt", PairFormat::GensimTsv),
    ("men", "MEN/MEN_dataset_natural_form_full", PairFormat::Men),
];

/// The analogy benchmark of the standard suite, under `benchmarks/`: the Google analogy set.
pub const ANALOGY_BENCHMARK: &str = "gensim/questions-words.txt";

/// Everything the standard suite measured, with the settings used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalReport {
    /// The settings (gensim's defaults unless changed).
    pub options: EvalOptions,
    /// Vocabulary size of the evaluated embeddings.
    pub n_words: usize,
    /// Their dimension.
    pub dim: usize,
    /// WordSim-353, SimLex-999 and MEN, in that order.
    pub similarity: Vec<SimilarityResult>,
    /// The Google analogy set (3CosAdd).
    pub analogy: AnalogyResult,
}

/// [`standard_suite_with`] with gensim's defaults, [`EvalOptions::GENSIM`].
pub fn standard_suite(benchmarks_dir: &Path, emb: &Embeddings) -> Result<EvalReport, EvalError> {
    standard_suite_with(benchmarks_dir, emb, &EvalOptions::GENSIM)
}

/// Runs [`SIMILARITY_BENCHMARKS`] and [`ANALOGY_BENCHMARK`], read from `benchmarks_dir` (the
/// mirror's `data/benchmarks`). Every file is read before any evaluation starts, so a missing
/// file fails fast with its path.
pub fn standard_suite_with(
    benchmarks_dir: &Path,
    emb: &Embeddings,
    options: &EvalOptions,
) -> Result<EvalReport, EvalError> {
    let pair_sets = SIMILARITY_BENCHMARKS
        .iter()
        .map(|&(name, file, format)| Ok((name, read_pairs(&benchmarks_dir.join(file), format)?)))
        .collect::<Result<Vec<_>, EvalError>>()?;
    let questions = read_analogies(&benchmarks_dir.join(ANALOGY_BENCHMARK))?;
    let lookup = Lookup::new(emb, options);
    Ok(EvalReport {
        options: *options,
        n_words: emb.n_words(),
        dim: emb.dim(),
        similarity: pair_sets
            .iter()
            .map(|(name, pairs)| similarity_with_lookup(emb, &lookup, pairs, name))
            .collect(),
        analogy: analogies_with_lookup(emb, &lookup, &questions),
    })
}

/// A plain-text table: one line per similarity benchmark, per analogy section and the total.
impl fmt::Display for EvalReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} words, dim {}; vocabulary restricted to the first {} rows, case-{}",
            self.n_words,
            self.dim,
            self.options.restrict_vocab,
            self.options.case.as_str()
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "{:<28} {:>9} {:>9} {:>7} {:>8}",
            "similarity", "spearman", "pearson", "pairs", "skipped"
        )?;
        for s in &self.similarity {
            writeln!(
                f,
                "{:<28} {:>9.4} {:>9.4} {:>7} {:>8}",
                s.name, s.spearman, s.pearson, s.pairs_used, s.pairs_skipped
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:<28} {:>9} {:>9} {:>7} {:>8}",
            "analogy (3CosAdd)", "accuracy", "correct", "tried", "skipped"
        )?;
        let a = &self.analogy;
        for s in &a.sections {
            writeln!(
                f,
                "{:<28} {:>9.4} {:>9} {:>7} {:>8}",
                s.name,
                s.accuracy(),
                s.correct,
                s.attempted,
                s.skipped
            )?;
        }
        writeln!(
            f,
            "{:<28} {:>9.4} {:>9} {:>7} {:>8}",
            "total", a.total_accuracy, a.correct, a.attempted, a.skipped
        )
    }
}
