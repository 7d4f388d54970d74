//! Intrinsic quality benchmarks of word embeddings, with gensim 4's semantics so that numbers
//! compare directly with `KeyedVectors.evaluate_word_pairs` / `evaluate_word_analogies`.
//!
//! * Word similarity ([`evaluate_similarity`]): Spearman's ρ (average ranks for ties) and
//!   Pearson's r between human scores and cosine similarities, pairs with an out-of-vocabulary
//!   word skipped and counted.
//! * Word analogy ([`evaluate_analogies`]): 3CosAdd on unit vectors with the question words
//!   excluded, accuracy per section and in total, out-of-vocabulary questions skipped. The
//!   nearest-neighbour search is exact and batched (question blocks × vocabulary blocks, GEMM).
//! * The analogy solvers' accuracy on the Google set ([`google_accuracy`]): each solver ×
//!   constraint of `retest_measures::solve` (3CosAdd, 3CosMul, Bolukbasi et al.'s formula), micro
//!   and macro, as in Nissim, van Noord & van der Goot (2020).
//! * The similarity and Google-set evaluations use gensim's defaults ([`EvalOptions::GENSIM`]):
//!   only the 300,000 first (most frequent) rows take part, and words match case-insensitively,
//!   each upper-cased form standing for its most frequent vocabulary row.
//! * [`standard_suite`] runs WordSim-353, SimLex-999, MEN, RG-65, Rare Words and the Google
//!   analogy set from the data mirror's `benchmarks/` folder, and the MSR analogy set when its
//!   file is there (it is not in the mirror; the report then says `not available`); its
//!   [`EvalReport`] serialises with serde (JSON for the CLI) and prints as a table.
//!
//! The readers ([`read_pairs`], [`read_analogies`]) accept the mirror's files and report a
//! malformed line with its file and line number.

mod analogy;
mod benchmarks;
mod error;
mod similarity;
pub mod stats;
mod suite;
mod vocab;

pub use analogy::{
    AnalogyResult, SectionResult, SolverAccuracy, evaluate_analogies, evaluate_analogies_with,
    google_accuracy,
};
pub use benchmarks::{
    AnalogySection, AnalogySet, PairFormat, WordPair, read_analogies, read_analogies_unsectioned, read_pairs,
};
pub use error::EvalError;
pub use similarity::{SimilarityResult, Undefined, evaluate_similarity, evaluate_similarity_with};
pub use suite::{
    ANALOGY_BENCHMARK, Availability, EvalReport, OPTIONAL_ANALOGY_BENCHMARKS, OptionalAnalogyBenchmark,
    OptionalAnalogyResult, SIMILARITY_BENCHMARKS, standard_suite, standard_suite_with,
};
pub use vocab::{CaseHandling, EvalOptions};
