//! word2vec with negative sampling — skip-gram (SGNS) and CBOW — as word2vec.c and gensim train
//! it, single-threaded and byte-deterministic.
//!
//! [`train`] takes an encoded corpus (token ids = vocabulary ranks, every token in the
//! vocabulary), the word counts, an [`SgnsConfig`] and a [`SeedPath`], and returns the input
//! vectors as an [`Embedding`]. It reads no file or entropy, and its one clock (the thread's, to
//! choose a prefetch distance, [`Prefetch`]) decides no value: every random draw comes from
//! ChaCha12 streams below the seed path (see "Random streams"), and the same inputs give the same
//! bytes on every machine running the same build, whichever SIMD path and prefetch distance are
//! chosen.
//!
//! # The model and its gradient
//!
//! Each word `w` has an input vector `u_w` (the embedding, word2vec.c's `syn0`) and an output
//! vector `v_w` (`syn1neg`). A training example is an input vector `x` — a context word's `u_c`
//! in skip-gram, the mean `h = (1/|C|) Σ_{c∈C} u_c` of the window's context words in CBOW — and
//! the centre word `o` as the positive target, with `k` negatives `n_1…n_k` drawn from
//! `P(w) ∝ count(w)^0.75`. With `σ(z) = 1/(1 + e^(−z))`, the loss of the example is
//!
//! ```text
//! ℓ = −log σ(x·v_o) − Σ_j log σ(−x·v_{n_j})
//!   = Σ_{t ∈ {o, n_1…n_k}} −[y_t log σ(x·v_t) + (1 − y_t) log σ(−x·v_t)],   y_o = 1, y_{n_j} = 0.
//! ```
//!
//! Since `d/dz [−y log σ(z) − (1 − y) log σ(−z)] = σ(z) − y`, the partial derivatives are
//!
//! ```text
//! ∂ℓ/∂v_t = (σ(x·v_t) − y_t)·x,        ∂ℓ/∂x = Σ_t (σ(x·v_t) − y_t)·v_t.
//! ```
//!
//! A step with learning rate `α` and `g_t = α·(y_t − σ(x·v_t))` is therefore
//! `v_t ← v_t + g_t·x` and `x ← x + Σ_t g_t·v_t`. As in word2vec.c the targets are processed in
//! order, each `g_t` computed with the output rows as already updated by the earlier targets,
//! `Σ_t g_t·v_t` accumulated with each `v_t` *before* its own update (the buffer `neu1e`), and
//! the input updated once after all targets. In CBOW `∂ℓ/∂u_c = (1/|C|)·∂ℓ/∂h`, but word2vec.c
//! (and gensim with `cbow_mean=1`) add the undivided `Σ_t g_t·v_t` to every context vector; we
//! do the same. `σ` comes from word2vec.c's 1000-entry table on `[−6, 6]`, with
//! `g = (y − 1)·α` above 6 and `g = y·α` below −6 (word2vec.c's clipping; gensim skips the
//! pair instead, see [`Saturation`]).
//!
//! # Semantics
//!
//! What follows is what word2vec.c and gensim 4.4 have in common, except in four points where
//! the crate differs from at least one of them and [`SgnsConfig::semantics`] chooses: the initial range ([`Init`]), what a
//! pair outside the sigmoid table gets ([`Saturation`]), the table index ([`SigmoidIndex`]) and
//! the unit of the learning-rate decay ([`Decay`]). The pipeline trains with
//! [`Semantics::RETEST`] (the first value of each); the crate README measures what each
//! difference does to the vectors.
//!
//! * Input vectors start uniform on `[−0.5/dim, 0.5/dim)` (gensim 4: `[−1/dim, 1/dim)`), output
//!   vectors at zero.
//! * Each epoch visits the sentences in corpus order. A sentence longer than
//!   [`MAX_SENTENCE_LEN`] tokens is cut into pieces of at most that many (as gensim's
//!   `corpus_file` reader does); windows never cross a sentence or piece boundary.
//! * Sub-sampling ([`keep_probability`]) is drawn once per token occurrence per epoch, before
//!   windowing, so windows span the kept words.
//! * Each centre word draws a shrink `b ∈ [0, window)`; its context is the kept words within
//!   `window − b` positions.
//! * Skip-gram: for each context word `c` of centre `o`, `x = u_c` and the positive is `o`
//!   (word2vec.c's and gensim's loop order). CBOW: one example per centre word with `x` the
//!   context mean; a centre without context is skipped (no negatives are drawn for it).
//! * Negatives equal to the positive word are discarded, not redrawn (word2vec.c's
//!   `if (target == word) continue;`, gensim's `if target_index == word_index: continue`), so
//!   an example has up to `negative` negatives.
//! * The learning rate falls linearly from `alpha` to `min_alpha` over `epochs × tokens`
//!   words (gensim: over `epochs × sentences` sentences), updated at every sentence
//!   ([`learning_rate`]).
//!
//! # Random streams
//!
//! Below the job's [`SeedPath`] (pipeline seed / corpus / algorithm / seed index):
//! `stream("init")` for the input vectors (one `u32` per value, row by row:
//! `((u >> 8)·2⁻²⁴ − 0.5)·w / dim` with `w` = 1, or 2 for [`Init::Gensim`]); for epoch `e`, `with("epoch").with_index(e)` then
//! `stream("subsample")`, `stream("window")` and `stream("negatives")`.
//!
//! # Speed
//!
//! One (input, target) pair costs one dot product and two AXPYs over `dim` floats. Rows are
//! padded to 64-byte blocks; the kernels work block by block with a summation order fixed in
//! the source, on `std::arch` intrinsics behind a small lane-wise trait, and the whole loop is
//! compiled four times (portable, SSE2, AVX2, AVX-512F) with the widest path the CPU supports
//! chosen at run time — all four give the same bits (tested). The targets of one example are
//! trained in one pass when they are distinct words (all dot products first, then every update
//! with the input's update kept in a register), which is bit-identical to word2vec.c's
//! sequential loop (tested against a plain transcription of it). Negatives come from an exact
//! alias table, one `u64` each, drawn ahead so that their output rows are prefetched into L2 a few
//! examples early (block by block during an example's update pass, which works in L1; how many
//! examples ahead is timed on the first words of the run, see [`Prefetch`]); the two matrices sit
//! on 2 MiB pages where Linux offers transparent huge pages.
//! See the crate README for the FLOP count and measured throughput.

mod error;
mod kernels;
mod negatives;
mod schedule;
mod sigmoid;
mod simd;
mod subsample;
mod trainer;

use rand_core::Rng;
use retest_corpus::EncodedCorpusView;
pub use retest_rng::SeedPath;

pub use error::SgnsError;
pub use schedule::learning_rate;
pub use sigmoid::{MAX_EXP, TABLE_SIZE as SIGMOID_TABLE_SIZE};
pub use subsample::keep_probability;

use kernels::Matrix;
use negatives::UnigramSampler;
pub use retest_tune::Tuned;
use retest_tune::Warmup;
use trainer::Trainer;
pub use trainer::{Prefetch, SimdPath, Speed};

/// Longest stretch of tokens trained as one sentence; longer sentences are cut into pieces of
/// this many tokens (gensim's `MAX_WORDS_IN_BATCH`; word2vec.c uses 1000).
pub const MAX_SENTENCE_LEN: usize = 10_000;

/// Largest accepted `negative`.
pub const MAX_NEGATIVE: usize = 1000;

/// Which word2vec model to train.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Architecture {
    /// Skip-gram: each context word predicts the centre word (the paper's SGNS).
    Skipgram,
    /// Continuous bag of words: the mean of the context predicts the centre word (what the
    /// original Du et al. script trained).
    Cbow,
}

impl Architecture {
    /// Stable name, as used in tables and specs.
    pub fn as_str(self) -> &'static str {
        match self {
            Architecture::Skipgram => "skipgram",
            Architecture::Cbow => "cbow",
        }
    }
}

/// The hyperparameters of one run. There is no `Default`: every default is resolved in
/// `retest-spec` and recorded with the output.
#[derive(Debug, Clone, PartialEq)]
pub struct SgnsConfig {
    /// Skip-gram or CBOW.
    pub architecture: Architecture,
    /// Vector dimension (≥ 1).
    pub dim: usize,
    /// Maximum window reach on each side (1..=[`MAX_SENTENCE_LEN`]).
    pub window: usize,
    /// Negatives drawn per example (1..=[`MAX_NEGATIVE`]).
    pub negative: usize,
    /// Exponent of the unigram distribution negatives are drawn from (word2vec: 0.75).
    pub ns_exponent: f64,
    /// Sub-sampling threshold (word2vec: 1e-3); 0 disables sub-sampling.
    pub sample: f64,
    /// Passes over the corpus (≥ 1).
    pub epochs: usize,
    /// Initial learning rate (> 0).
    pub alpha: f32,
    /// Final learning rate (≥ 0).
    pub min_alpha: f32,
    /// The four points where word2vec.c and gensim differ ([`Semantics::RETEST`] in the
    /// pipeline; the other values exist to measure what each difference does).
    pub semantics: Semantics,
}

/// The four points where the crate, word2vec.c and gensim 4.4 do not all train alike, each a
/// switch.
///
/// Everything else in the crate documentation holds for every value. [`Semantics::RETEST`] is
/// what the pipeline trains with; [`Semantics::WORD2VEC_C`] and [`Semantics::GENSIM`] reproduce
/// the two references in these four points (not in what the crate README lists besides, e.g.
/// word2vec.c's 1000-word sentences or its `</s>` tokens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Semantics {
    /// Range of the initial input vectors.
    pub init: Init,
    /// What a pair whose dot product lies outside the sigmoid table gets.
    pub saturation: Saturation,
    /// How a dot product inside the table finds its entry.
    pub sigmoid_index: SigmoidIndex,
    /// What the learning rate decays with.
    pub decay: Decay,
}

impl Semantics {
    /// The crate's choices: word2vec.c's initialisation and clipping, the exact table index,
    /// decay by words.
    pub const RETEST: Semantics = Semantics {
        init: Init::Word2vecC,
        saturation: Saturation::Clip,
        sigmoid_index: SigmoidIndex::Exact,
        decay: Decay::Words,
    };

    /// word2vec.c in these four points (`InitNet`, `TrainModelThread`). word2vec.c's rate is
    /// `α₀·(1 − p)` floored at `10⁻⁴·α₀`; `min_alpha = 10⁻⁴·alpha` comes within `10⁻⁴·α₀` of it.
    pub const WORD2VEC_C: Semantics = Semantics {
        init: Init::Word2vecC,
        saturation: Saturation::Clip,
        sigmoid_index: SigmoidIndex::Truncated,
        decay: Decay::Words,
    };

    /// gensim 4.4's `Word2Vec(corpus_file=…)` in these four points (`prep_vectors`,
    /// `w2v_fast_sentence_sg_neg` / `_cbow_neg`, `get_next_alpha`).
    pub const GENSIM: Semantics = Semantics {
        init: Init::Gensim,
        saturation: Saturation::Skip,
        sigmoid_index: SigmoidIndex::Truncated,
        decay: Decay::Sentences,
    };
}

/// Range of the initial input vectors (output vectors always start at zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Init {
    /// Uniform on `[−0.5/dim, 0.5/dim)`: word2vec.c's `InitNet`, gensim before 4.0.
    Word2vecC,
    /// Uniform on `[−1/dim, 1/dim)`: gensim 4's `prep_vectors` (`rng.random() · 2 − 1`, then
    /// `/ vector_size`). Twice word2vec.c's width, from the same draws.
    Gensim,
}

impl Init {
    /// Stable name, as used in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Init::Word2vecC => "word2vec_c",
            Init::Gensim => "gensim",
        }
    }
}

/// What a (input, target) pair gets when its dot product `f` lies outside the sigmoid table
/// `[−MAX_EXP, MAX_EXP]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Saturation {
    /// word2vec.c: `σ` is taken as 1 above `MAX_EXP` and 0 below `−MAX_EXP`, so a pair on the
    /// wrong side (a negative with `f > 6`, the positive with `f < −6`) gets the full step
    /// `∓α` and a pair on the right side none.
    Clip,
    /// gensim: the pair is skipped (no update of either vector) when `|f| ≥ MAX_EXP`, on
    /// either side.
    Skip,
}

impl Saturation {
    /// Stable name, as used in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Saturation::Clip => "clip",
            Saturation::Skip => "skip",
        }
    }
}

/// How a dot product `f ∈ [−MAX_EXP, MAX_EXP]` is mapped to an entry of the sigmoid table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SigmoidIndex {
    /// `⌊(f + 6)·1000/12⌋`: the bin that holds `f`.
    Exact,
    /// `⌊(f + 6)·83⌋`: word2vec.c's and gensim's `(f + MAX_EXP) * (EXP_TABLE_SIZE / MAX_EXP / 2)`
    /// on integer constants, which C evaluates as `1000 / 6 / 2 = 83`. The lookup reads σ at
    /// `0.996·(f + 6) − 6` instead of `f`, up to 0.048 (0.4% of the range) to the left, so σ
    /// comes out lower by up to ≈ 0.006 (0.009 counting the bins; largest near `f = 0`), and the last four entries are
    /// never used. Computed in `f32` as word2vec.c does (gensim adds 6 in `f64`, which
    /// can move an `f` at a bin edge to the next bin).
    Truncated,
}

impl SigmoidIndex {
    /// Stable name, as used in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            SigmoidIndex::Exact => "exact",
            SigmoidIndex::Truncated => "truncated",
        }
    }
}

/// What the linear learning-rate decay is proportional to ([`learning_rate`] with words or
/// sentences as the unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decay {
    /// Corpus tokens processed out of `epochs × tokens` (word2vec.c; gensim when it is given
    /// only `total_words`).
    Words,
    /// Sentences (pieces of at most [`MAX_SENTENCE_LEN`] tokens) processed out of
    /// `epochs × pieces`: gensim's `get_next_alpha` whenever `total_examples` is known, which
    /// `Word2Vec(corpus_file=…)` always passes. Where long and short sentences are unevenly
    /// spread through the corpus, the rate falls faster or slower than with words.
    Sentences,
}

impl Decay {
    /// Stable name, as used in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Decay::Words => "words",
            Decay::Sentences => "sentences",
        }
    }
}

/// Trained input vectors, `n_words × dim`, row-major; row `i` is word id `i`.
///
/// Two embeddings are equal when their vectors are: `prefetch`, how fast the run went, is not
/// compared.
#[derive(Debug, Clone)]
pub struct Embedding {
    /// Vector dimension.
    pub dim: usize,
    /// `n_words · dim` values, row-major.
    pub vectors: Vec<f32>,
    /// The prefetch distance chosen by timing and what each candidate cost per corpus word
    /// (not measured when [`Speed`] fixed it).
    pub prefetch: Tuned<Prefetch>,
}

impl PartialEq for Embedding {
    fn eq(&self, other: &Embedding) -> bool {
        (self.dim, &self.vectors) == (other.dim, &other.vectors)
    }
}

impl Embedding {
    /// Number of words (rows).
    pub fn n_words(&self) -> usize {
        self.vectors.len().checked_div(self.dim).unwrap_or(0)
    }

    /// The vector of word id `i`.
    ///
    /// # Panics
    /// If `i >= self.n_words()`.
    pub fn vector(&self, i: usize) -> &[f32] {
        &self.vectors[i * self.dim..(i + 1) * self.dim]
    }
}

/// Training progress, reported every ~10,000 words (at sentence boundaries) and once at the
/// end, when `words_done == words_total`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Corpus tokens processed so far, over all epochs (before sub-sampling).
    pub words_done: u64,
    /// `epochs × corpus tokens`.
    pub words_total: u64,
    /// The learning rate in use.
    pub alpha: f32,
}

/// The SIMD path [`train`] uses on this CPU: `"avx512f"`, `"avx2"`, `"sse2"` or `"portable"` (for logs;
/// the result does not depend on it).
pub fn simd_path() -> &'static str {
    SimdPath::detect().as_str()
}

/// Trains word vectors on `corpus` (see the crate documentation for the exact semantics).
///
/// `counts[w]` is the corpus count of word id `w` (the vocabulary's counts, which define the
/// sub-sampling and negative-sampling distributions); `seed` is the job's seed path. `progress`
/// is called every ~10,000 words and at the end.
///
/// Errors, checked before any work: an empty corpus, a configuration value out of range,
/// `counts.len()` different from the vocabulary size, all counts zero, or matrices too large to
/// allocate. (Token ids below the vocabulary size are an invariant of [`EncodedCorpusView`].)
pub fn train(
    corpus: &EncodedCorpusView<'_>,
    counts: &[u64],
    config: &SgnsConfig,
    seed: &SeedPath,
    progress: &mut dyn FnMut(Progress),
) -> Result<Embedding, SgnsError> {
    train_with(
        corpus,
        counts,
        config,
        seed,
        progress,
        Speed::on(SimdPath::detect()),
    )
}

/// [`train`] with a chosen SIMD path and, optionally, a fixed prefetch distance (for benchmarks
/// and tests: the result is the same bits for every choice). Fails, before any work, if this
/// CPU does not support the path.
pub fn train_with(
    corpus: &EncodedCorpusView<'_>,
    counts: &[u64],
    config: &SgnsConfig,
    seed: &SeedPath,
    progress: &mut dyn FnMut(Progress),
    speed: Speed,
) -> Result<Embedding, SgnsError> {
    let path = speed.simd;
    if !path.is_available() {
        return Err(SgnsError::SimdUnavailable(path.as_str()));
    }
    if let Some(fixed) = speed.fixed.filter(|p| p.pairs_ahead > negatives::MAX_PAIRS_AHEAD) {
        return Err(SgnsError::InvalidConfig {
            field: "prefetch",
            value: fixed.pairs_ahead.to_string(),
            expected: "at most 4 pairs ahead",
        });
    }
    let prefetch = speed.warmup(&Prefetch::CANDIDATES, WARMUP_ROUNDS, WARMUP_CHUNK);
    train_tuned(corpus, counts, config, seed, progress, path, prefetch)
}

/// Corpus words per chunk, and chunks per candidate, of the prefetch warm-up: 5 candidates × 3
/// × 16,384 words, about 5 % of one epoch of a 5M-token corpus.
const WARMUP_CHUNK: usize = 1 << 14;
const WARMUP_ROUNDS: usize = 3;

/// [`train_with`] on an available `path`, with the prefetch distance `prefetch` gives.
pub(crate) fn train_tuned(
    corpus: &EncodedCorpusView<'_>,
    counts: &[u64],
    config: &SgnsConfig,
    seed: &SeedPath,
    progress: &mut dyn FnMut(Progress),
    path: SimdPath,
    prefetch: Warmup<Prefetch>,
) -> Result<Embedding, SgnsError> {
    validate(config)?;
    let tokens = corpus.tokens();
    if tokens.is_empty() {
        return Err(SgnsError::EmptyCorpus);
    }
    let n_words = corpus.vocab_size();
    if counts.len() != n_words {
        return Err(SgnsError::CountsLength {
            counts: counts.len(),
            vocab: n_words,
        });
    }
    let sampler = UnigramSampler::new(counts, config.ns_exponent)?;
    let too_large = SgnsError::TooLarge {
        words: n_words,
        dim: config.dim,
    };
    let mut syn0 = Matrix::zeros(n_words, config.dim).ok_or_else(|| too_large.clone())?;
    let syn1 = Matrix::zeros(n_words, config.dim).ok_or(too_large)?;

    let mut init = seed.stream("init");
    let dim = config.dim as f32;
    // Word2vecC: `(u − 0.5) / dim`; Gensim: `(2u − 1) / dim`, the same draws twice as wide
    // (multiplying by 1 or 2 is exact, so Word2vecC's bits are those of `(u − 0.5) / dim`).
    let width = match config.semantics.init {
        Init::Word2vecC => 1.0f32,
        Init::Gensim => 2.0f32,
    };
    syn0.fill_with(config.dim, || {
        let u = (init.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0);
        (u - 0.5) * width / dim
    });

    let mut trainer = Trainer::new(
        tokens,
        corpus.sentence_ends(),
        counts,
        config,
        syn0,
        syn1,
        sampler,
        prefetch,
    );
    trainer.run(path, seed, progress);
    let (vectors, prefetch) = trainer.finish();
    Ok(Embedding {
        dim: config.dim,
        vectors: vectors.unpadded(config.dim),
        prefetch,
    })
}

fn validate(config: &SgnsConfig) -> Result<(), SgnsError> {
    fn invalid(field: &'static str, value: impl ToString, expected: &'static str) -> SgnsError {
        SgnsError::InvalidConfig {
            field,
            value: value.to_string(),
            expected,
        }
    }
    if config.dim == 0 {
        return Err(invalid("dim", config.dim, "at least 1"));
    }
    if !(1..=MAX_SENTENCE_LEN).contains(&config.window) {
        return Err(invalid("window", config.window, "between 1 and 10000"));
    }
    if !(1..=MAX_NEGATIVE).contains(&config.negative) {
        return Err(invalid("negative", config.negative, "between 1 and 1000"));
    }
    if config.epochs == 0 {
        return Err(invalid("epochs", config.epochs, "at least 1"));
    }
    if !config.ns_exponent.is_finite() {
        return Err(invalid("ns_exponent", config.ns_exponent, "a finite number"));
    }
    if !(config.sample.is_finite() && config.sample >= 0.0) {
        return Err(invalid("sample", config.sample, "a finite number ≥ 0"));
    }
    if !(config.alpha.is_finite() && config.alpha > 0.0) {
        return Err(invalid("alpha", config.alpha, "a finite number > 0"));
    }
    if !(config.min_alpha.is_finite() && config.min_alpha >= 0.0) {
        return Err(invalid("min_alpha", config.min_alpha, "a finite number ≥ 0"));
    }
    Ok(())
}
