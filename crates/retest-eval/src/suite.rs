//! The standard suite (WordSim-353, SimLex-999, MEN, RG-65, Rare Words, Google analogies, and
//! the MSR analogies where present) from the data mirror's `benchmarks/` folder, and its report
//! as JSON (serde) or a text table.

use std::fmt;
use std::path::Path;

use retest_embeddings::Embeddings;
use serde::Serialize;

use crate::analogy::analogies_with_lookup;
use crate::similarity::similarity_with_lookup;
use crate::vocab::Lookup;
use crate::{
    AnalogyResult, AnalogySet, EvalError, EvalOptions, PairFormat, SimilarityResult, read_analogies,
    read_analogies_unsectioned, read_pairs,
};

/// The similarity benchmarks of the standard suite: (name, path under `benchmarks/`, format).
/// gensim's copies of WS-353 and SimLex-999 are the files its `evaluate_word_pairs` is usually
/// run on; RG-65 (Rubenstein & Goodenough 1965, 65 pairs scored 0–4) and the Stanford Rare
/// Words set (Luong et al. 2013, 2,034 pairs scored 0–10), which Bakarov (2021) reports beside
/// his bias detectors, are the wordvectors.org copies (mfaruqui/eval-word-vectors).
pub const SIMILARITY_BENCHMARKS: [(&str, &str, PairFormat); 5] = [
    ("wordsim353", "gensim/wordsim353.tsv", PairFormat::GensimTsv),
    ("simlex999", "gensim/simlex999.txt", PairFormat::GensimTsv),
    ("men", "MEN/MEN_dataset_natural_form_full", PairFormat::Men),
    ("rg65", "eval-word-vectors/EN-RG-65.txt", PairFormat::Tsv),
    ("rw", "eval-word-vectors/EN-RW-STANFORD.txt", PairFormat::Tsv),
];

/// The analogy benchmark of the standard suite, under `benchmarks/`: the Google analogy set.
pub const ANALOGY_BENCHMARK: &str = "gensim/questions-words.txt";

/// An analogy benchmark that the suite runs when its file is in the benchmark folder and reports
/// as not available when it is not (it is not in the data mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionalAnalogyBenchmark {
    /// The name in the report.
    pub name: &'static str,
    /// Its path under `benchmarks/`.
    pub file: &'static str,
    /// Where the file comes from.
    pub source: &'static str,
}

/// The optional analogy benchmarks: the MSR set of Mikolov, Yih & Zweig (2013), which Bakarov
/// (2021) reports. Its file is read with [`read_analogies_unsectioned`]: one `a b c d` question
/// per line, without sections. No checksum is declared: the data mirror holds no copy to take
/// one from.
pub const OPTIONAL_ANALOGY_BENCHMARKS: [OptionalAnalogyBenchmark; 1] = [OptionalAnalogyBenchmark {
    name: "msr",
    file: "msr/msr.txt",
    source: "Mikolov, Yih & Zweig (2013), Linguistic Regularities in Continuous Space Word \
             Representations: the MSR syntactic analogy questions",
}];

/// Whether an optional benchmark's file was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Availability {
    /// The file was read and the benchmark run.
    #[serde(rename = "ok")]
    Available,
    /// The file is not in the benchmark folder.
    #[serde(rename = "not available")]
    NotAvailable,
}

impl Availability {
    /// The stable name: `ok` or `not available`.
    pub fn as_str(self) -> &'static str {
        match self {
            Availability::Available => "ok",
            Availability::NotAvailable => "not available",
        }
    }
}

/// One optional analogy benchmark of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionalAnalogyResult {
    /// Its name (`msr`).
    pub name: String,
    /// Its path under the benchmark folder.
    pub file: String,
    /// Whether the file was found.
    pub status: Availability,
    /// The result (3CosAdd), when the file was found.
    pub result: Option<AnalogyResult>,
}

/// Everything the standard suite measured, with the settings used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalReport {
    /// The settings (gensim's defaults unless changed).
    pub options: EvalOptions,
    /// Vocabulary size of the evaluated embeddings.
    pub n_words: usize,
    /// Their dimension.
    pub dim: usize,
    /// The [`SIMILARITY_BENCHMARKS`], in that order.
    pub similarity: Vec<SimilarityResult>,
    /// The Google analogy set (3CosAdd).
    pub analogy: AnalogyResult,
    /// The [`OPTIONAL_ANALOGY_BENCHMARKS`], in that order, run or marked not available.
    pub optional_analogy: Vec<OptionalAnalogyResult>,
    /// The words of the rows that take part whose vector is all zeros (padding rows of some
    /// pretrained files), in row order: their cosine with every word is 0, as gensim's.
    pub zero_vectors: Vec<String>,
}

/// [`standard_suite_with`] with gensim's defaults, [`EvalOptions::GENSIM`].
pub fn standard_suite(benchmarks_dir: &Path, emb: &Embeddings) -> Result<EvalReport, EvalError> {
    standard_suite_with(benchmarks_dir, emb, &EvalOptions::GENSIM)
}

/// Runs [`SIMILARITY_BENCHMARKS`], [`ANALOGY_BENCHMARK`] and those of the
/// [`OPTIONAL_ANALOGY_BENCHMARKS`] whose file is present, read from `benchmarks_dir` (the
/// mirror's `data/benchmarks`). Every file is read before any evaluation starts, so a missing
/// required file fails fast with its path; a missing optional file is reported as
/// [`Availability::NotAvailable`], and a malformed one is an error like any other.
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
    let optional = OPTIONAL_ANALOGY_BENCHMARKS
        .iter()
        .map(|b| {
            let path = benchmarks_dir.join(b.file);
            let set = if path.is_file() {
                Some(read_analogies_unsectioned(&path, b.name)?)
            } else {
                None
            };
            Ok((b, set))
        })
        .collect::<Result<Vec<(&OptionalAnalogyBenchmark, Option<AnalogySet>)>, EvalError>>()?;
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
        optional_analogy: optional
            .iter()
            .map(|(b, set)| OptionalAnalogyResult {
                name: b.name.to_owned(),
                file: b.file.to_owned(),
                status: match set {
                    Some(_) => Availability::Available,
                    None => Availability::NotAvailable,
                },
                result: set.as_ref().map(|q| analogies_with_lookup(emb, &lookup, q)),
            })
            .collect(),
        zero_vectors: (emb.words().iter().take(lookup.n_rows()).enumerate())
            .filter(|&(row, _)| emb.is_zero_row(row))
            .map(|(_, word)| word.clone())
            .collect(),
    })
}

/// A plain-text table: one line per similarity benchmark, per analogy section and the total,
/// then one line per optional analogy benchmark (its total, or `not available`).
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
        for s in &self.similarity {
            if let Some(why) = s.undefined() {
                writeln!(f, "  {}: NaN: {}", s.name, why.reason())?;
            } else if s.pairs_zero_vector > 0 {
                writeln!(
                    f,
                    "  {}: {} of the pairs {} a word with an all-zero vector (cosine 0)",
                    s.name,
                    s.pairs_zero_vector,
                    if s.pairs_zero_vector == 1 { "has" } else { "have" }
                )?;
            }
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
        )?;
        if a.attempted == 0 {
            writeln!(
                f,
                "  total: NaN: no question has its four words in the vocabulary"
            )?;
        }
        for o in &self.optional_analogy {
            match &o.result {
                Some(r) => writeln!(
                    f,
                    "{:<28} {:>9.4} {:>9} {:>7} {:>8}",
                    o.name, r.total_accuracy, r.correct, r.attempted, r.skipped
                )?,
                None => writeln!(f, "{:<28} {} (no {})", o.name, o.status.as_str(), o.file)?,
            }
        }
        Ok(())
    }
}
