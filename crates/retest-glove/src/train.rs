//! GloVe training: configuration, initialisation, the per-seed shuffle and the iteration loop
//! around the [`kernel`](crate::kernel).

use rand_core::Rng;
use retest_detmath::Profile;
use retest_hugemem::HugeBuf;
use retest_rng::SeedPath;
use retest_tune::{Tuned, Warmup};

use crate::error::GloveError;
use crate::kernel::{Block, LANES, Params, Prefetch, SimdPath, TrainRecord};
use crate::records::Cooccurrences;
use crate::shuffle::shuffle;

/// `log2` of the slots of `prepare_records`' cache of `(ln x, f(x))` per `x` (2 MiB).
const WEIGHT_CACHE_BITS: u32 = 17;

/// Records between two intra-iteration progress reports.
const PROGRESS_EVERY: usize = 1 << 20;

/// Records per chunk, and chunks per candidate, of the prefetch warm-up: 6 candidates × 3 ×
/// 16,384 records, about 2 % of the first iteration on a 14M-record table.
const WARMUP_CHUNK: usize = 1 << 14;
const WARMUP_ROUNDS: usize = 3;

/// How the training loop runs: a SIMD path, and prefetch distances fixed (`fixed`) or, with
/// `None`, chosen by timing [`Prefetch::CANDIDATES`] on the first records. Every choice gives the
/// same bits; they differ only in speed.
pub type Speed = retest_tune::Speed<SimdPath, Prefetch>;

/// Hyper-parameters of GloVe training. There is no `Default`: the pipeline's defaults (the
/// paper's: dim 300, x_max 100, α 0.75, η 0.05, 15 iterations) live in the spec.
#[derive(Debug, Clone, PartialEq)]
pub struct GloveConfig {
    /// Vector dimension (glove.c `-vector-size`).
    pub dim: usize,
    /// Cut-off of the weighting function `f(x) = min(1, (x/x_max)^α)` (glove.c `-x-max`).
    pub x_max: f64,
    /// Exponent of the weighting function (glove.c `-alpha`).
    pub alpha: f64,
    /// AdaGrad's initial learning rate (glove.c `-eta`).
    pub eta: f64,
    /// Passes over the co-occurrence records (glove.c `-iter`).
    pub iterations: usize,
}

impl GloveConfig {
    /// Checks every value's domain.
    pub fn validate(&self) -> Result<(), GloveError> {
        let bad = |what: String| Err(GloveError::InvalidConfig { what });
        if self.dim == 0 {
            return bad("dim must be at least 1".into());
        }
        if !(self.x_max.is_finite() && self.x_max > 0.0) {
            return bad(format!("x_max must be finite and positive, got {}", self.x_max));
        }
        if !(self.alpha.is_finite() && self.alpha >= 0.0) {
            return bad(format!(
                "alpha must be finite and non-negative, got {}",
                self.alpha
            ));
        }
        // η·100 (the largest clipped step) must stay far from f32 overflow.
        if !(self.eta.is_finite() && self.eta > 0.0 && self.eta <= 1e6) {
            return bad(format!("eta must be in (0, 1e6], got {}", self.eta));
        }
        Ok(())
    }
}

/// Progress of [`train`]: reported about every million records and at the end of every
/// iteration (then with its cost).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IterationProgress {
    /// The current iteration, from 1.
    pub iteration: usize,
    /// Iterations in total.
    pub n_iterations: usize,
    /// Records done in this iteration.
    pub records_done: u64,
    /// Records per iteration.
    pub n_records: u64,
    /// The iteration's cost (see [`TrainedGlove::cost_per_iteration`]) once it is finished.
    pub cost: Option<f64>,
}

impl IterationProgress {
    /// `records_done` of the `n_records` records of iteration `iteration` done.
    pub(crate) fn during(
        iteration: usize,
        n_iterations: usize,
        records_done: usize,
        n_records: usize,
    ) -> Self {
        IterationProgress {
            iteration,
            n_iterations,
            records_done: records_done as u64,
            n_records: n_records as u64,
            cost: None,
        }
    }

    /// Iteration `iteration` finished, with its cost.
    pub(crate) fn finished(iteration: usize, n_iterations: usize, n_records: usize, cost: f64) -> Self {
        IterationProgress {
            cost: Some(cost),
            ..IterationProgress::during(iteration, n_iterations, n_records, n_records)
        }
    }
}

/// A trained model. Two are equal when their vectors and costs are: `prefetch`, how fast the
/// run went, is not compared.
#[derive(Debug, Clone)]
pub struct TrainedGlove {
    /// Vector dimension.
    pub dim: usize,
    /// `n_words × dim` values, row `w` = `W_w + W̃_w` (glove.c `-model 2`: word plus context
    /// vector, biases left out), in vocabulary order.
    pub vectors: Vec<f32>,
    /// For each iteration, `Σ ½·f(X_ij)·diff²` over the records divided by their number — the
    /// number glove.c prints as `iter: NNN, cost: …`. Each record's term uses the parameters as
    /// they were when the record was visited.
    pub cost_per_iteration: Vec<f64>,
    /// The prefetch distances chosen by timing and what each candidate cost per record (not
    /// measured when [`Speed`] fixed them).
    pub prefetch: Tuned<Prefetch>,
}

impl PartialEq for TrainedGlove {
    fn eq(&self, other: &TrainedGlove) -> bool {
        (self.dim, &self.vectors, &self.cost_per_iteration)
            == (other.dim, &other.vectors, &other.cost_per_iteration)
    }
}

/// `(rand()/RAND_MAX − 0.5)/dim` with a ChaCha `u32` for `rand()`: uniform on
/// `[−0.5/dim, 0.5/dim]`.
#[inline]
pub(crate) fn init_value(rng: &mut impl Rng, dim: usize) -> f64 {
    (rng.next_u32() as f64 / u32::MAX as f64 - 0.5) / dim as f64
}

/// The weight `f(x) = 1` if `x > x_max`, else `(x/x_max)^α` (glove.c's test and formula).
pub(crate) fn weight(x: f64, config: &GloveConfig) -> f64 {
    if x > config.x_max {
        1.0
    } else {
        Profile::GLOVE.powf(x / config.x_max, config.alpha)
    }
}

/// Checks the inputs shared by [`train`] and [`train_reference`](crate::train_reference).
pub(crate) fn check_inputs(
    cooc: &Cooccurrences,
    vocab_size: usize,
    config: &GloveConfig,
) -> Result<(), GloveError> {
    config.validate()?;
    if vocab_size != cooc.vocab_size() {
        return Err(GloveError::VocabMismatch {
            cooccurrences: cooc.vocab_size(),
            requested: vocab_size,
        });
    }
    if cooc.is_empty() {
        return Err(GloveError::NoCooccurrences);
    }
    Ok(())
}

/// Trains GloVe on `cooc` as glove.c does on one thread, deterministically for `seed`.
///
/// # Semantics (glove.c, commit 52f7dbc)
///
/// * Parameters: word vectors `w_i` and context vectors `w̃_j` (`dim` each) and biases
///   `b_i`, `b̃_j`, all drawn as `(rand()/RAND_MAX − 0.5)/dim` in glove.c's memory order (word
///   rows then context rows, each row's `dim` components then its bias) from
///   `seed.stream("init")`, one `u32` per value; AdaGrad accumulators start at 1.
/// * Order: the records are shuffled **once per seed** with `seed.stream("shuffle")` (a
///   uniform Fisher–Yates permutation; glove.c's `shuffle` tool shuffles the file once, and on
///   a table this size its chunked shuffle is one full permutation), and every iteration visits
///   them in that order, as `glove -threads 1` reads the shuffled file.
/// * Step (see [the crate documentation](crate) for the loss and gradient): per record,
///   `diff = w_i·w̃_j + b_i + b̃_j − ln X_ij`, `fdiff = f(X_ij)·diff`; components of the vector
///   gradient are clipped to ±100 and scaled by `η`, AdaGrad-normalised by the accumulators as
///   they were before the step; non-finite steps are skipped as in glove.c. As in glove.c since
///   2020 (gradient clipping moved `η` into the vector step), the **bias step is
///   `fdiff/√G_b` without `η`** (upstream pull request #209 would change this; we follow the
///   released code so that cost curves compare).
/// * Output: `W + W̃` (`-model 2`).
///
/// # Precision and speed
///
/// Vectors and their accumulators are `f32` (each accumulator stored as `G − 1`, see
/// `kernel::Block`), biases, costs and `diff` are `f64`; `ln x` and `f(x)` are computed once per
/// record with the crate's deterministic `ln`/`exp`. The loop is single-threaded; its bits do
/// not depend on the SIMD path (portable, AVX2, AVX-512F) that the CPU selects, nor on the
/// prefetch distances, which the first records of the first iteration choose by timing
/// ([`Speed`]).
pub fn train(
    cooc: &Cooccurrences,
    vocab_size: usize,
    config: &GloveConfig,
    seed: &SeedPath,
    progress: &mut dyn FnMut(IterationProgress),
) -> Result<TrainedGlove, GloveError> {
    train_with(
        cooc,
        vocab_size,
        config,
        seed,
        progress,
        Speed::on(SimdPath::detect()),
    )
}

/// [`train`] with a chosen SIMD path and, optionally, fixed prefetch distances (for benchmarks
/// and tests: the result is the same bits for every choice). Fails if this CPU does not
/// support the path.
pub fn train_with(
    cooc: &Cooccurrences,
    vocab_size: usize,
    config: &GloveConfig,
    seed: &SeedPath,
    progress: &mut dyn FnMut(IterationProgress),
    speed: Speed,
) -> Result<TrainedGlove, GloveError> {
    let path = speed.simd;
    if !SimdPath::available().contains(&path) {
        return Err(GloveError::InvalidConfig {
            what: format!("SIMD path {} is not supported by this CPU", path.as_str()),
        });
    }
    let prefetch = speed.warmup(&Prefetch::CANDIDATES, WARMUP_ROUNDS, WARMUP_CHUNK);
    train_tuned(cooc, vocab_size, config, seed, progress, path, prefetch)
}

/// [`train_with`] on a supported `path`, with the prefetch distances `prefetch` gives.
pub(crate) fn train_tuned(
    cooc: &Cooccurrences,
    vocab_size: usize,
    config: &GloveConfig,
    seed: &SeedPath,
    progress: &mut dyn FnMut(IterationProgress),
    path: SimdPath,
    mut prefetch: Warmup<Prefetch>,
) -> Result<TrainedGlove, GloveError> {
    check_inputs(cooc, vocab_size, config)?;
    let mut params = init_params(vocab_size, config.dim, seed);
    let records = prepare_records(cooc, config, seed);
    let n = records.len();
    let eta = config.eta as f32;
    let mut scratch = Vec::new();
    let mut cost_per_iteration = Vec::with_capacity(config.iterations);
    for iteration in 1..=config.iterations {
        let mut cost = 0.0;
        let mut start = 0;
        while start < n {
            let end = (start + PROGRESS_EVERY).min(n);
            // The chunk's costs are summed from 0 in record order, however the warm-up cuts it.
            let mut chunk_cost = 0.0;
            let mut from = start;
            while from < end {
                let p = prefetch.setting();
                let to = end.min(from.saturating_add(prefetch.remaining()));
                chunk_cost = path.run(&mut params, &records, from..to, eta, p, &mut scratch, chunk_cost);
                prefetch.done(to - from);
                from = to;
            }
            cost += chunk_cost;
            start = end;
            if end < n {
                progress(IterationProgress::during(iteration, config.iterations, end, n));
            }
        }
        let mean = cost / n as f64;
        cost_per_iteration.push(mean);
        progress(IterationProgress::finished(iteration, config.iterations, n, mean));
    }
    Ok(TrainedGlove {
        dim: config.dim,
        vectors: output_vectors(&params, vocab_size, config.dim),
        cost_per_iteration,
        prefetch: prefetch.outcome(),
    })
}

/// Draws the initial parameters (see [`train`]).
pub(crate) fn init_params(vocab_size: usize, dim: usize, seed: &SeedPath) -> Params {
    let n_blocks = dim.div_ceil(LANES);
    let mut rng = seed.stream("init");
    let mut draw = |rows: &mut [Block], biases: &mut Vec<[f64; 2]>| {
        for row in rows.chunks_exact_mut(n_blocks) {
            for k in 0..dim {
                row[k / LANES].w[k % LANES] = init_value(&mut rng, dim) as f32;
            }
            biases.push([init_value(&mut rng, dim), 1.0]);
        }
    };
    let mut main = HugeBuf::filled(vocab_size * n_blocks, Block::ZERO);
    let mut bias_main = Vec::with_capacity(vocab_size);
    draw(&mut main, &mut bias_main);
    let mut ctx = HugeBuf::filled(vocab_size * n_blocks, Block::ZERO);
    let mut bias_ctx = Vec::with_capacity(vocab_size);
    draw(&mut ctx, &mut bias_ctx);
    Params {
        n_blocks,
        main,
        ctx,
        bias_main,
        bias_ctx,
    }
}

/// The records in this seed's order, with `ln x` and `f(x)` (see [`train`]).
pub(crate) fn prepare_records(
    cooc: &Cooccurrences,
    config: &GloveConfig,
    seed: &SeedPath,
) -> HugeBuf<TrainRecord> {
    // `ln x` and `f(x)` are pure functions of `x`, and a few thousand values of `x` (small sums
    // of `1/d`) make up most records: a direct-mapped cache of the last value per slot gives
    // the same bits as computing each record's pair afresh, at a fraction of the `ln`/`pow`
    // calls.
    let mut cache = vec![(u64::MAX, [0.0f32; 2]); 1 << WEIGHT_CACHE_BITS];
    let mut prepare = |x: f64| -> [f32; 2] {
        let bits = x.to_bits();
        let slot = (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - WEIGHT_CACHE_BITS)) as usize;
        let (key, value) = &mut cache[slot];
        if *key != bits {
            *key = bits;
            *value = [Profile::GLOVE.ln(x) as f32, weight(x, config) as f32];
        }
        *value
    };
    let mut records = HugeBuf::from_exact_iter(
        cooc.iter().map(|r| {
            let [ln_x, weight] = prepare(r.x);
            TrainRecord {
                i: r.i,
                j: r.j,
                ln_x,
                weight,
            }
        }),
        TrainRecord::default(),
    );
    shuffle(&mut records, &mut seed.stream("shuffle"));
    records
}

fn output_vectors(params: &Params, vocab_size: usize, dim: usize) -> Vec<f32> {
    let n = params.n_blocks;
    let mut out = Vec::with_capacity(vocab_size * dim);
    for w in 0..vocab_size {
        let (a, b) = (&params.main[w * n..(w + 1) * n], &params.ctx[w * n..(w + 1) * n]);
        out.extend((0..dim).map(|k| a[k / LANES].w[k % LANES] + b[k / LANES].w[k % LANES]));
    }
    out
}
