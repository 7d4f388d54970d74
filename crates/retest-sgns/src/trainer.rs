//! The training loop (epochs → sentences → centre words → targets) and the choice of compiled
//! SIMD path.

use rand_core::Rng;
use retest_rng::{ChaCha12Rng, SeedPath};
use retest_tune::{Tuned, Warmup};

use crate::kernels::{self, Block, Matrix};
use crate::negatives::{NegativeStream, UnigramSampler};
use crate::schedule::learning_rate;
use crate::sigmoid::SigmoidTable;
use crate::simd::{self, Simd};
use crate::subsample::KeepThresholds;
use crate::{Architecture, Decay, MAX_SENTENCE_LEN, Progress, SgnsConfig};

/// Words between two progress reports (at sentence boundaries, so reports come every
/// 10,000–20,000 words).
const REPORT_EVERY: u64 = 10_000;

/// How the training loop runs: a SIMD path, and a prefetch distance fixed (`fixed`) or, with
/// `None`, chosen by timing [`Prefetch::CANDIDATES`] on the first words. Every choice gives the
/// same bits; they differ only in speed.
pub type Speed = retest_tune::Speed<SimdPath, Prefetch>;

/// How many (context, centre) pairs ahead the trainer prefetches the output rows of the
/// negatives into L2 (0: not at all). A hint to the caches only: results are the same bits for
/// every distance.
///
/// The rows of the negatives are random rows of the output matrix, mostly outside the caches;
/// on an AMD Zen 5 at dim 300, prefetching them 2 pairs ahead is 1.5× faster than not at all,
/// and 2, 3 and 4 pairs measure alike. Which distance is fastest depends on the CPU's memory
/// latency and how much of it out-of-order execution hides, so [`crate::train`] times
/// [`Prefetch::CANDIDATES`] on the first words of the first epoch and keeps the fastest (see
/// `retest_tune::Warmup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prefetch {
    /// Pairs ahead, at most 4.
    pub pairs_ahead: usize,
}

impl Prefetch {
    /// The distances the warm-up times: 2 pairs ahead first (fastest on Zen 4 and Zen 5).
    pub const CANDIDATES: [Prefetch; 5] = [
        Prefetch { pairs_ahead: 2 },
        Prefetch { pairs_ahead: 1 },
        Prefetch { pairs_ahead: 3 },
        Prefetch { pairs_ahead: 4 },
        Prefetch { pairs_ahead: 0 },
    ];
}

impl std::fmt::Display for Prefetch {
    /// `2 pairs ahead`, `none`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pairs_ahead {
            0 => write!(f, "none"),
            1 => write!(f, "1 pair ahead"),
            n => write!(f, "{n} pairs ahead"),
        }
    }
}

/// The instruction set a training run is compiled for. All paths give the same bits and differ
/// only in speed: [`train`](crate::train) takes [`SimdPath::detect`]; benchmarks and tests
/// choose one with [`train_with`](crate::train_with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimdPath {
    /// Plain Rust on `[f32; 16]` blocks (what LLVM makes of it for the build's target).
    Portable,
    /// SSE2 intrinsics (the x86-64 baseline).
    Sse2,
    /// AVX2 intrinsics.
    Avx2,
    /// AVX-512F intrinsics.
    Avx512,
}

impl SimdPath {
    /// Every path, narrowest first.
    pub const ALL: [SimdPath; 4] = [
        SimdPath::Portable,
        SimdPath::Sse2,
        SimdPath::Avx2,
        SimdPath::Avx512,
    ];

    /// The path's name: `"portable"`, `"sse2"`, `"avx2"` or `"avx512f"`.
    pub fn as_str(self) -> &'static str {
        match self {
            SimdPath::Portable => "portable",
            SimdPath::Sse2 => "sse2",
            SimdPath::Avx2 => "avx2",
            SimdPath::Avx512 => "avx512f",
        }
    }

    /// Whether this CPU can run the path.
    pub fn is_available(self) -> bool {
        match self {
            SimdPath::Portable => true,
            #[cfg(target_arch = "x86_64")]
            SimdPath::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => simd::Avx2::detect().is_some(),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => simd::Avx512::detect().is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The widest available path.
    pub fn detect() -> SimdPath {
        [SimdPath::Avx512, SimdPath::Avx2, SimdPath::Sse2]
            .into_iter()
            .find(|isa| isa.is_available())
            .unwrap_or(SimdPath::Portable)
    }
}

/// Everything one training run owns: the weights, the sampling tables and scratch buffers
/// (allocated once; the loop allocates nothing).
pub(crate) struct Trainer<'a> {
    tokens: &'a [u32],
    sentence_ends: &'a [u64],
    config: &'a SgnsConfig,
    /// Input vectors ("syn0"): the embeddings.
    syn0: Matrix,
    /// Output vectors ("syn1neg").
    syn1: Matrix,
    keep: KeepThresholds,
    sampler: UnigramSampler,
    sigmoid: SigmoidTable,
    /// The current sentence after sub-sampling.
    kept: Vec<u32>,
    /// Accumulated update of the input vector(s) ("neu1e").
    grad: Vec<Block>,
    /// CBOW's hidden layer, the mean of the context vectors ("neu1").
    hidden: Vec<Block>,
    /// The positive target followed by the negatives that differ from it.
    targets: Vec<u32>,
    /// The prefetch distance of the negatives' rows, fixed or being timed.
    prefetch: Warmup<Prefetch>,
}

impl<'a> Trainer<'a> {
    /// Sets up a run; the caller has validated the configuration and the corpus.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        tokens: &'a [u32],
        sentence_ends: &'a [u64],
        counts: &[u64],
        config: &'a SgnsConfig,
        syn0: Matrix,
        syn1: Matrix,
        sampler: UnigramSampler,
        prefetch: Warmup<Prefetch>,
    ) -> Trainer<'a> {
        let row_blocks = kernels::blocks_per_row(config.dim);
        Trainer {
            tokens,
            sentence_ends,
            config,
            syn0,
            syn1,
            keep: KeepThresholds::new(counts, config.sample),
            sampler,
            sigmoid: SigmoidTable::new(config.semantics.sigmoid_index, config.semantics.saturation),
            kept: Vec::with_capacity(MAX_SENTENCE_LEN),
            grad: vec![Block::ZERO; row_blocks],
            hidden: vec![Block::ZERO; row_blocks],
            targets: Vec::with_capacity(config.negative + 1),
            prefetch,
        }
    }

    /// The trained input vectors, and what the prefetch warm-up measured.
    pub(crate) fn finish(self) -> (Matrix, Tuned<Prefetch>) {
        (self.syn0, self.prefetch.outcome())
    }

    /// Trains with the given path.
    ///
    /// # Panics
    /// If the CPU does not support `isa`.
    pub(crate) fn run(&mut self, isa: SimdPath, seed: &SeedPath, progress: &mut dyn FnMut(Progress)) {
        let unavailable = || format!("{} is not available on this CPU", isa.as_str());
        match isa {
            SimdPath::Portable => self.run_all(simd::Portable, seed, progress),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Sse2 => self.run_all(simd::Sse2::new(), seed, progress),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => {
                let token = simd::Avx2::detect().unwrap_or_else(|| panic!("{}", unavailable()));
                // SAFETY: the token proves that the CPU supports AVX2.
                unsafe { self.run_avx2(token, seed, progress) }
            }
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => {
                let token = simd::Avx512::detect().unwrap_or_else(|| panic!("{}", unavailable()));
                // SAFETY: the token proves that the CPU supports AVX-512F.
                unsafe { self.run_avx512(token, seed, progress) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => panic!("{}", unavailable()),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn run_avx2(&mut self, s: simd::Avx2, seed: &SeedPath, progress: &mut dyn FnMut(Progress)) {
        self.run_all(s, seed, progress);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn run_avx512(&mut self, s: simd::Avx512, seed: &SeedPath, progress: &mut dyn FnMut(Progress)) {
        self.run_all(s, seed, progress);
    }

    /// All epochs. Inlined into each `run_*` so that the kernels are compiled for its ISA.
    ///
    /// Epoch `e` draws from three streams below `seed / "epoch" / e`: `"subsample"` (one `u32`
    /// per occurrence of a word that may be dropped), `"window"` (one `u32` per kept centre
    /// word) and `"negatives"` (one `u64` per negative). Separate streams keep each kind of
    /// draw independent of the others (changing `negative` does not change which words are
    /// sub-sampled).
    #[inline(always)]
    fn run_all<S: Simd>(&mut self, s: S, seed: &SeedPath, progress: &mut dyn FnMut(Progress)) {
        let epochs = self.config.epochs as u64;
        let words_total = self.tokens.len() as u64 * epochs;
        let (alpha0, min_alpha) = (self.config.alpha, self.config.min_alpha);
        // The learning rate's unit: corpus tokens, or sentence pieces (gensim's examples).
        let decay = self.config.semantics.decay;
        let pieces_total = match decay {
            Decay::Words => 0,
            Decay::Sentences => count_pieces(self.sentence_ends) * epochs,
        };
        let mut pieces_done = 0u64;
        let rate = |words_done: u64, pieces_done: u64| match decay {
            Decay::Words => learning_rate(alpha0, min_alpha, words_done, words_total),
            Decay::Sentences => learning_rate(alpha0, min_alpha, pieces_done, pieces_total),
        };
        let mut words_done = 0u64;
        let mut next_report = REPORT_EVERY;
        for epoch in 0..epochs {
            let path = seed.clone().with("epoch").with_index(epoch);
            let mut subsample_rng = path.stream("subsample");
            let mut window_rng = path.stream("window");
            let mut negatives = NegativeStream::new(path.stream("negatives"));
            let mut start = 0usize;
            for &end in self.sentence_ends {
                let end = end as usize;
                for piece in self.tokens[start..end].chunks(MAX_SENTENCE_LEN) {
                    let alpha = rate(words_done, pieces_done);
                    negatives.pairs_ahead = self.prefetch.setting().pairs_ahead;
                    self.keep.subsample(piece, &mut subsample_rng, &mut self.kept);
                    match self.config.architecture {
                        Architecture::Skipgram => {
                            self.skipgram_sentence(s, alpha, &mut window_rng, &mut negatives)
                        }
                        Architecture::Cbow => self.cbow_sentence(s, alpha, &mut window_rng, &mut negatives),
                    }
                    self.prefetch.done(piece.len());
                    words_done += piece.len() as u64;
                    pieces_done += 1;
                    if words_done >= next_report && words_done < words_total {
                        progress(Progress {
                            words_done,
                            words_total,
                            alpha,
                        });
                        next_report = (words_done / REPORT_EVERY + 1) * REPORT_EVERY;
                    }
                }
                start = end;
            }
        }
        progress(Progress {
            words_done,
            words_total,
            alpha: rate(words_done, pieces_done),
        });
    }

    /// Skip-gram over the current (sub-sampled) sentence, as word2vec.c and gensim: for each
    /// centre word and each context word in its shrunk window, the *context* word's input
    /// vector is trained to predict the centre word (positive) against the negatives. (This is
    /// the same set of pairs as "centre predicts context", visited so that the input row is
    /// reused across the targets.)
    #[inline(always)]
    fn skipgram_sentence<S: Simd>(
        &mut self,
        s: S,
        alpha: f32,
        window_rng: &mut ChaCha12Rng,
        negatives: &mut NegativeStream,
    ) {
        let Trainer {
            config,
            syn0,
            syn1,
            sampler,
            sigmoid,
            kept,
            grad,
            targets,
            ..
        } = self;
        let n = kept.len();
        for pos in 0..n {
            let centre = kept[pos];
            prefetch_ahead(s, pos, config.window, kept, syn0, syn1);
            let (lo, hi) = window_bounds(pos, n, config.window, window_rng);
            for (c, &context) in (lo..hi).zip(&kept[lo..hi]) {
                if c == pos {
                    continue;
                }
                let context = context as usize;
                let ahead = draw_targets(centre, config.negative, negatives, sampler, targets);
                let input = syn0.row_mut(context);
                train_targets(s, input, syn1, grad, targets, ahead, sigmoid, alpha, true);
            }
        }
    }

    /// CBOW over the current sentence (word2vec.c with `cbow_mean`): the mean of the context
    /// words' input vectors predicts the centre word against the negatives, and the
    /// accumulated update is added, undivided, to every context word's input vector.
    #[inline(always)]
    fn cbow_sentence<S: Simd>(
        &mut self,
        s: S,
        alpha: f32,
        window_rng: &mut ChaCha12Rng,
        negatives: &mut NegativeStream,
    ) {
        let Trainer {
            config,
            syn0,
            syn1,
            sampler,
            sigmoid,
            kept,
            grad,
            hidden,
            targets,
            ..
        } = self;
        let n = kept.len();
        for pos in 0..n {
            let centre = kept[pos];
            prefetch_ahead(s, pos, config.window, kept, syn0, syn1);
            let (lo, hi) = window_bounds(pos, n, config.window, window_rng);
            let n_context = hi - lo - 1;
            if n_context == 0 {
                continue;
            }
            // hidden = (Σ context rows, left to right) · (1 / n_context), summing up to
            // `SUM_ROWS` rows per pass over the blocks.
            let mut rows: [&[Block]; SUM_ROWS] = [&[]; SUM_ROWS];
            let (mut m, mut started) = (0, false);
            for c in (lo..hi).filter(|&c| c != pos) {
                rows[m] = syn0.row(kept[c] as usize);
                m += 1;
                if m == SUM_ROWS {
                    kernels::sum_rows(s, hidden, &rows, started);
                    (m, started) = (0, true);
                }
            }
            if m > 0 {
                kernels::sum_rows(s, hidden, &rows[..m], started);
            }
            kernels::scale(s, hidden, 1.0 / n_context as f32);
            let ahead = draw_targets(centre, config.negative, negatives, sampler, targets);
            if train_targets(s, hidden, syn1, grad, targets, ahead, sigmoid, alpha, false) {
                for (c, &context) in (lo..hi).zip(&kept[lo..hi]) {
                    if c != pos {
                        kernels::add(s, syn0.row_mut(context as usize), grad);
                    }
                }
                kernels::clear(grad);
            }
        }
    }
}

/// Number of pieces of at most [`MAX_SENTENCE_LEN`] tokens the sentences are cut into (an empty
/// sentence counts as none).
fn count_pieces(sentence_ends: &[u64]) -> u64 {
    let mut start = 0u64;
    let mut pieces = 0u64;
    for &end in sentence_ends {
        pieces += (end - start).div_ceil(MAX_SENTENCE_LEN as u64);
        start = end;
    }
    pieces
}

/// Prefetches into L2 the rows the next centre word will need first: its own output row and the
/// input row of the word entering the window on the right (no effect on results; into L1 was
/// measured 3% slower).
#[inline(always)]
fn prefetch_ahead<S: Simd>(_: S, pos: usize, window: usize, kept: &[u32], syn0: &Matrix, syn1: &Matrix) {
    if let Some(&next) = kept.get(pos + 1) {
        kernels::prefetch(syn1.row(next as usize));
    }
    if let Some(&entering) = kept.get(pos + 1 + window) {
        kernels::prefetch(syn0.row(entering as usize));
    }
}

/// The window of the centre at `pos` in a sentence of `n` words: a shrink `b` uniform on
/// `[0, window)` (from one `u32`: `b = ⌊u·window / 2³²⌋`, biased by at most `window / 2³²`)
/// leaves the reach `window − b ∈ [1, window]` on each side, cut at the sentence ends.
/// Returns the half-open range of positions, centre included.
#[inline(always)]
fn window_bounds(pos: usize, n: usize, window: usize, rng: &mut ChaCha12Rng) -> (usize, usize) {
    let shrink = ((u64::from(rng.next_u32()) * window as u64) >> 32) as usize;
    let reach = window - shrink;
    (pos.saturating_sub(reach), (pos + reach + 1).min(n))
}

/// Fills `targets` with the positive word and the next `negative` draws that differ from it
/// (a draw equal to the positive is discarded, not redrawn, as in word2vec.c and gensim), and
/// returns the negatives drawn ahead for the pair [`Prefetch::pairs_ahead`] pairs later, whose
/// output rows [`train_targets`] prefetches.
#[inline(always)]
fn draw_targets<'n>(
    positive: u32,
    negative: usize,
    negatives: &'n mut NegativeStream,
    sampler: &UnigramSampler,
    targets: &mut Vec<u32>,
) -> &'n [u32] {
    let (now, ahead) = negatives.take(negative, sampler);
    targets.clear();
    targets.push(positive);
    targets.extend(now.iter().copied().filter(|&t| t != positive));
    ahead
}

/// Most context rows CBOW sums in one pass.
const SUM_ROWS: usize = 8;

/// Most targets trained in one pass (see [`train_targets`]).
const GROUP: usize = 8;

/// One SGD step of the negative-sampling loss for one input vector (a context word's input
/// vector in skip-gram, the context mean in CBOW) against `targets` (positive first, label 1;
/// then negatives, label 0), with word2vec.c's sequential semantics: the targets are taken in
/// order, each seeing the output rows as updated by the targets before it (a word drawn twice
/// is updated twice); their input updates `g_k·v_k` are summed in order (`neu1e`) and applied
/// to the input after the last target. A pair with `g = 0` (clipped) is skipped: its update
/// would add only zeros.
///
/// How: the targets are cut greedily into groups of at most [`GROUP`] *distinct* words. Within a
/// group, no target's update touches another target's row or the input, so every dot product
/// can be taken first (independent, so the CPU overlaps them) and then all updates applied in
/// one pass ([`kernels::step_group`]), with the same operations in the same order per lane as
/// the sequential loop — bit-identical to it.
///
/// With `into_input` (skip-gram) the input is updated in place and `grad` is left zero; without
/// it (CBOW) the summed update is left in `grad` and the return value says whether it is
/// non-zero. `grad` must be zero on entry.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn train_targets<S: Simd>(
    s: S,
    input: &mut [Block],
    syn1: &mut Matrix,
    grad: &mut [Block],
    targets: &[u32],
    ahead: &[u32],
    sigmoid: &SigmoidTable,
    alpha: f32,
    into_input: bool,
) -> bool {
    // The rows of a later pair's negatives go into L2 during the first group's updates, which
    // work in L1 while the lines arrive (block by block, or whole rows first when there are
    // more of them than fit in a group). Whole rows: prefetching only the first lines (into
    // L1), or every other line (into L2), and leaving the rest to the hardware prefetcher was
    // measured 25–30% slower.
    let mut pending = [std::ptr::null::<Block>(); GROUP];
    let mut n_pending = 0;
    if ahead.len() <= GROUP {
        for (p, &t) in pending.iter_mut().zip(ahead) {
            *p = syn1.row(t as usize).as_ptr();
        }
        n_pending = ahead.len();
    } else {
        for &t in ahead {
            kernels::prefetch(syn1.row(t as usize));
        }
    }
    let mut grad_live = false;
    let mut start = 0;
    while start < targets.len() {
        let mut end = start + 1;
        while end < targets.len() && end - start < GROUP && !targets[start..end].contains(&targets[end]) {
            end += 1;
        }
        let mut rows = [0usize; GROUP];
        let mut g = [0.0f32; GROUP];
        let mut m = 0;
        // The group's dot products, two at a time (the input as it is now: no update of this
        // group touches it before they are all taken).
        let group = &targets[start..end];
        let mut f = [0.0f32; GROUP];
        for (k, pair) in group.chunks(2).enumerate() {
            match *pair {
                [t] => f[2 * k] = kernels::dot(s, input, syn1.row(t as usize)),
                [t, u] => {
                    (f[2 * k], f[2 * k + 1]) =
                        kernels::dot_pair(s, input, syn1.row(t as usize), syn1.row(u as usize))
                }
                _ => unreachable!("chunks of 1 or 2"),
            }
        }
        for (k, &target) in group.iter().enumerate() {
            let f = f[k];
            let label = if start + k == 0 { 1.0 } else { 0.0 };
            let gk = sigmoid.gradient(f, label, alpha);
            if gk != 0.0 {
                rows[m] = target as usize;
                g[m] = gk;
                m += 1;
            }
        }
        let to_input = into_input && end == targets.len();
        if m > 0 {
            let ahead = &pending[..std::mem::take(&mut n_pending)];
            step_group(s, m, &rows, &g, syn1, input, grad, grad_live, to_input, ahead);
            grad_live = !to_input;
        } else if to_input && grad_live {
            kernels::add_and_clear(s, input, grad);
            grad_live = false;
        }
        start = end;
    }
    for &row in &pending[..n_pending] {
        for j in 0..input.len() {
            kernels::prefetch_line(row.wrapping_add(j));
        }
    }
    grad_live
}

/// [`kernels::step_group`] for the first `m` of `rows` and `g` (`1 ≤ m ≤ GROUP`, rows distinct).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn step_group<S: Simd>(
    s: S,
    m: usize,
    rows: &[usize; GROUP],
    g: &[f32; GROUP],
    syn1: &mut Matrix,
    input: &mut [Block],
    grad: &mut [Block],
    from_grad: bool,
    into_input: bool,
    ahead: &[*const Block],
) {
    macro_rules! with_len {
        ($($n:literal)*) => {
            match m {
                $($n => {
                    let outs = syn1.rows_mut::<$n>(std::array::from_fn(|k| rows[k]));
                    let g: [f32; $n] = std::array::from_fn(|k| g[k]);
                    kernels::step_group(s, g, outs, input, grad, from_grad, into_input, ahead)
                })*
                _ => unreachable!("group sizes are 1..=GROUP"),
            }
        };
    }
    with_len!(1 2 3 4 5 6 7 8);
}

#[cfg(test)]
mod tests;
