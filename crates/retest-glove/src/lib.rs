//! GloVe (Pennington, Socher & Manning 2014) with the semantics of stanfordnlp/GloVe's tools —
//! `cooccur` ([`count_cooccurrences`]), `shuffle` and `glove` ([`train`]) — exact and bounded in
//! memory when counting, single-threaded and byte-deterministic per seed when training.
//!
//! `vocab_count` is `retest-corpus`'s job: the encoded corpus arrives with ids in frequency
//! order and rare words removed.
//!
//! ```
//! use retest_corpus::{CorpusBuilder, UnkHandling, WikiTextOptions};
//! use retest_glove::{CooccurConfig, GloveConfig, count_cooccurrences, train};
//! use retest_rng::SeedPath;
//!
//! let text = "the cat sat on the mat\nthe dog sat on the log\n";
//! let mut builder = CorpusBuilder::new(None);
//! builder.read_wikitext(text.as_bytes(), &WikiTextOptions { unk: UnkHandling::Keep }).unwrap();
//! let corpus = builder.finish(1);
//! let spill = std::env::temp_dir();
//! let cooc = count_cooccurrences(
//!     &corpus.view(),
//!     &CooccurConfig { window: 15, memory_bytes: 1 << 20 },
//!     &spill,
//!     &mut |_| {},
//! )
//! .unwrap();
//! let the = corpus.vocab().id("the").unwrap();
//! let sat = corpus.vocab().id("sat").unwrap();
//! // "the _ sat" twice at distance 2, "sat _ the" twice at distance 2: 4 × 1/2.
//! assert_eq!(cooc.get(the, sat), Some(2.0));
//! let config = GloveConfig { dim: 8, x_max: 100.0, alpha: 0.75, eta: 0.05, iterations: 3 };
//! let model = train(&cooc, corpus.vocab().len(), &config, &SeedPath::new(1), &mut |_| {}).unwrap();
//! assert_eq!(model.vectors.len(), corpus.vocab().len() * 8);
//! ```
//!
//! # The model, its loss and its gradient
//!
//! Each word `i` has a word vector `w_i` and a bias `b_i`, and as a context word a vector
//! `w̃_i` and a bias `b̃_i`. With the co-occurrence counts `X_ij` ([`Cooccurrences`]) and the
//! weighting `f(x) = min(1, (x/x_max)^α)`, GloVe minimises (glove.c's cost carries the ½)
//!
//! ```text
//! J = ½ · Σ_{(i,j): X_ij > 0} f(X_ij) · diff_ij²,     diff_ij = w_i·w̃_j + b_i + b̃_j − ln X_ij.
//! ```
//!
//! One record's term `J_ij` has the partial derivatives
//!
//! ```text
//! ∂J_ij/∂w_i = f(X_ij)·diff_ij·w̃_j,   ∂J_ij/∂w̃_j = f(X_ij)·diff_ij·w_i,
//! ∂J_ij/∂b_i = ∂J_ij/∂b̃_j = f(X_ij)·diff_ij.
//! ```
//!
//! Training is stochastic AdaGrad over the records in a shuffled order, glove.c's way: for a
//! vector component with gradient `g`, `t = η·clip(g, ±100)`, the step is `t/√G` with the
//! accumulator `G` (initialised to 1) as it was before the step, then `G += t²` — so the
//! first step is `η·g`, and `G = 1 + Σ t²` sums *scaled* squared gradients. Biases take the
//! step `g/√G_b`, `G_b += g²` (no `η`: see [`train`]). The exact per-record update is in the
//! documentation of the kernel (`kernel::step_range`).
//!
//! # Co-occurrence counting
//!
//! [`count_cooccurrences`] counts each pair within `window` words of the same sentence with
//! weight `1/distance`, symmetrically, in exact integer units so that the result is the same
//! bits for every memory budget (see the [`cooccur`] module). Under a small
//! [`CooccurConfig::memory_bytes`] sorted runs spill to disk and are merged;
//! [`count_cooccurrences_to_writer`] streams the merged table to a file without holding it.
//! [`write_cooccurrences`] / [`read_cooccurrences`] store the table (format in [`mod@format`]): it
//! is computed once per corpus and shared by every seed.
//!
//! # Determinism
//!
//! No entropy, and no clock that reaches a value (the training loop times its prefetch
//! distances, [`Prefetch`], which change only speed): the initial values come from
//! `seed.stream("init")` and the record order from `seed.stream("shuffle")` (ChaCha12,
//! `retest-rng`). Training is single-threaded and
//! the kernel's bits do not depend on the CPU's SIMD width; `ln` and `pow` are computed with
//! retest-detmath's `+ − × ÷` implementations (`Profile::GLOVE`), not the platform libm. Same
//! inputs and seed ⇒ the same bytes.

pub mod cooccur;
mod error;
pub mod format;
mod kernel;
mod records;
mod reference;
mod shuffle;
mod train;

pub use cooccur::{
    CooccurConfig, CountStats, MAX_FAN_IN, count_cooccurrences, count_cooccurrences_to_writer,
};
pub use error::GloveError;
pub use format::{read_cooccurrences, write_cooccurrences};
pub use kernel::{Prefetch, SimdPath};
pub use records::{CoocRecord, Cooccurrences};
pub use reference::train_reference;
pub use retest_tune::Tuned;
pub use train::{GloveConfig, IterationProgress, Speed, TrainedGlove, train, train_with};

#[cfg(test)]
mod tests;
