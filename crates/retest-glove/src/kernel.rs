//! The training hot loop: one AdaGrad step per co-occurrence record on `f32` parameters, written
//! lane by lane over 16-float blocks with a fixed accumulation order, and compiled three times
//! (portable, AVX2, AVX-512F) with identical results.
//!
//! Every path performs the same IEEE-754 single-precision operation on each lane (`+ − × ÷`,
//! `sqrt`, `min`/`max` against ±[`GRAD_CLIP`]; Rust never contracts `a·b + c` into an FMA), and
//! the dot product always reduces 16 partial sums in the same tree, so the bits do not depend
//! on the vector width the CPU offers. [`SimdPath::detect`] picks the widest path available.

use retest_hugemem::HugeBuf;

/// Floats per block: the width of the widest vector unit (AVX-512), and of the fixed set of
/// partial sums in the dot product.
pub(crate) const LANES: usize = 16;

/// glove.c's `grad_clip_value`: each component of the step `f(x)·diff·w` is clipped to
/// `[−100, 100]` before multiplying by `η`.
pub(crate) const GRAD_CLIP: f32 = 100.0;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{_MM_HINT_T0 as HINT_L1, _MM_HINT_T1 as HINT_L2};
#[cfg(not(target_arch = "x86_64"))]
const HINT_L1: i32 = 0;
#[cfg(not(target_arch = "x86_64"))]
const HINT_L2: i32 = 0;

/// How far ahead the training loop prefetches the parameter rows of later records: some records
/// ahead into L2 (0: not at all), then fewer ahead, with the biases, into L1 (0: not at all). A
/// hint to the caches only: results are the same bits for every setting.
///
/// Which distances are fastest depends on the CPU and on the row length: on an AMD Zen 4 at
/// dim 300 the two-stage prefetch (16 records into L2) was 1.6× faster than L1 alone, while on a
/// Zen 5 the same stage cost up to 16 % at dim 300 and saved 20 % at dim 100. [`crate::train`] therefore
/// times [`Prefetch::CANDIDATES`] on the first records of the first iteration and keeps the
/// fastest (see `retest_tune::Warmup`).
///
/// The distances are compile-time constants of the loop (one copy per candidate: with distances
/// read at run time the loop measured 6 % slower at dim 100), so a `Prefetch` is always one of
/// [`Prefetch::CANDIDATES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prefetch {
    l2_ahead: usize,
    l1_ahead: usize,
}

/// Calls `$f::<L2, L1>($args)` for the candidate `$p`; the list is [`Prefetch::CANDIDATES`]'s.
macro_rules! with_prefetch {
    ($p:expr, $f:ident, $args:expr) => {
        with_prefetch!(@ $p, $f, $args; (16, 2) (8, 2) (32, 2) (0, 2) (0, 4) (0, 0))
    };
    (@ $p:expr, $f:ident, $args:expr; $(($l2:literal, $l1:literal))*) => {
        match ($p.l2_ahead, $p.l1_ahead) {
            $(($l2, $l1) => $f::<$l2, $l1>($args),)*
            _ => unreachable!("a Prefetch is one of the candidates"),
        }
    };
}

impl Prefetch {
    /// The settings the warm-up times: the two-stage prefetch (16 records at dim 300 are 78 KB
    /// of rows: far inside L2, more than L1 holds) and its neighbours, L1 alone, and none.
    pub const CANDIDATES: [Prefetch; 6] = [
        Prefetch::at(16, 2),
        Prefetch::at(8, 2),
        Prefetch::at(32, 2),
        Prefetch::at(0, 2),
        Prefetch::at(0, 4),
        Prefetch::at(0, 0),
    ];

    const fn at(l2_ahead: usize, l1_ahead: usize) -> Prefetch {
        Prefetch { l2_ahead, l1_ahead }
    }

    /// The candidate that prefetches `l2_ahead` records ahead into L2 and `l1_ahead` into L1
    /// (0: that stage not at all), if there is one.
    pub fn new(l2_ahead: usize, l1_ahead: usize) -> Option<Prefetch> {
        Prefetch::CANDIDATES
            .into_iter()
            .find(|p| (p.l2_ahead, p.l1_ahead) == (l2_ahead, l1_ahead))
    }

    /// Records ahead whose rows are prefetched into L2 (0: no L2 stage).
    pub fn l2_ahead(self) -> usize {
        self.l2_ahead
    }

    /// Records ahead whose rows and biases are prefetched into L1 (0: no L1 stage).
    pub fn l1_ahead(self) -> usize {
        self.l1_ahead
    }
}

impl std::fmt::Display for Prefetch {
    /// `L2 16 + L1 2`, `L1 2`, `none`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.l2_ahead, self.l1_ahead) {
            (0, 0) => write!(f, "none"),
            (0, l1) => write!(f, "L1 {l1}"),
            (l2, 0) => write!(f, "L2 {l2}"),
            (l2, l1) => write!(f, "L2 {l2} + L1 {l1}"),
        }
    }
}

/// 16 components of a vector and their AdaGrad accumulators, adjacent so that one record's
/// row is one contiguous stream of cache lines.
///
/// `g` holds `G − 1`, where `G` is glove.c's `gradsq` (initialised to 1): the denominator is
/// `√(1 + g)`. Storing the excess keeps squared steps far below `f32`'s resolution at 1
/// (≈ 6·10⁻⁸) from being rounded away, which plain `f32` accumulators starting at 1 would do.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Block {
    pub(crate) w: [f32; LANES],
    pub(crate) g: [f32; LANES],
}

impl Block {
    pub(crate) const ZERO: Block = Block {
        w: [0.0; LANES],
        g: [0.0; LANES],
    };
}

/// One training record, prepared once per seed: the word and context ids, `ln x` and the
/// weight `f(x)`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
pub(crate) struct TrainRecord {
    pub(crate) i: u32,
    pub(crate) j: u32,
    pub(crate) ln_x: f32,
    pub(crate) weight: f32,
}

/// The model: word rows `W`, context rows `W̃` (each `n_blocks` blocks per word) and the biases
/// with their accumulators (`[b, G_b]`, `f64`, `G_b` starting at 1 as in glove.c).
#[derive(Debug, Clone)]
pub(crate) struct Params {
    pub(crate) n_blocks: usize,
    pub(crate) main: HugeBuf<Block>,
    pub(crate) ctx: HugeBuf<Block>,
    pub(crate) bias_main: Vec<[f64; 2]>,
    pub(crate) bias_ctx: Vec<[f64; 2]>,
}

/// The instruction sets the training loop is compiled for. Every path gives the same bits; they
/// differ only in speed. [`train`](crate::train) takes [`SimdPath::detect`]; benchmarks and
/// tests choose one with [`train_with`](crate::train_with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimdPath {
    /// Whatever the target's baseline is (SSE2 on x86-64).
    Portable,
    /// AVX2 (256-bit).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512F (512-bit).
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl SimdPath {
    /// The widest path this CPU supports.
    pub fn detect() -> SimdPath {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return SimdPath::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return SimdPath::Avx2;
            }
        }
        SimdPath::Portable
    }

    /// Every path this CPU supports, narrowest first.
    pub fn available() -> Vec<SimdPath> {
        let mut v = vec![SimdPath::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(SimdPath::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                v.push(SimdPath::Avx512);
            }
        }
        v
    }

    /// Stable name (`portable`, `avx2`, `avx512f`).
    pub fn as_str(self) -> &'static str {
        match self {
            SimdPath::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => "avx512f",
        }
    }

    /// Runs the records `range` of `records` through [`step_range`] on this path, prefetching
    /// as `prefetch` says; returns `cost` plus their costs `½·f(x)·diff²`, added one by one (so
    /// that cutting a range in two gives the same bits).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        self,
        params: &mut Params,
        records: &[TrainRecord],
        range: std::ops::Range<usize>,
        eta: f32,
        prefetch: Prefetch,
        scratch: &mut Vec<[f32; LANES]>,
        cost: f64,
    ) -> f64 {
        scratch.resize(2 * params.n_blocks, [0.0; LANES]);
        let args = (params, records, range, eta, scratch.as_mut_slice(), cost);
        match self {
            SimdPath::Portable => with_prefetch!(prefetch, step_range, args),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `SimdPath::Avx2` is only constructed after detecting AVX2.
            SimdPath::Avx2 => unsafe { with_prefetch!(prefetch, step_range_avx2, args) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `SimdPath::Avx512` is only constructed after detecting AVX-512F.
            SimdPath::Avx512 => unsafe { with_prefetch!(prefetch, step_range_avx512, args) },
        }
    }
}

/// What [`step_range`] works on: the parameters, the records and the range of them to visit,
/// `η`, scratch space for `2·n_blocks` blocks and the cost so far.
type StepArgs<'a> = (
    &'a mut Params,
    &'a [TrainRecord],
    std::ops::Range<usize>,
    f32,
    &'a mut [[f32; LANES]],
    f64,
);

/// Defines `$name`: [`step_range`] compiled with the target feature `$feature` enabled (it is
/// inlined there, so its loops use that instruction set). Callable only where the CPU has it.
macro_rules! step_range_with_feature {
    ($name:ident, $feature:literal) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        fn $name<const L2: usize, const L1: usize>(args: StepArgs<'_>) -> f64 {
            step_range::<L2, L1>(args)
        }
    };
}

step_range_with_feature!(step_range_avx2, "avx2");
step_range_with_feature!(step_range_avx512, "avx512f");

/// Hints the cache (level chosen by `HINT`, an `_MM_HINT_*`) to fetch the `n_blocks` blocks
/// (2 lines each) from `row`.
#[inline(always)]
fn prefetch_row<const HINT: i32>(row: *const Block, n_blocks: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::_mm_prefetch;
        for b in 0..n_blocks {
            let p = row.wrapping_add(b) as *const i8;
            // SAFETY: SSE is part of the x86-64 baseline, and a prefetch never faults, whatever
            // the address.
            unsafe {
                _mm_prefetch::<HINT>(p);
                _mm_prefetch::<HINT>(p.wrapping_add(64));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (row, n_blocks);
}

/// Hints the cache to fetch the line at `p`.
#[inline(always)]
fn prefetch_line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `prefetch_row`.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<HINT_L1>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// `x` clipped to `[−GRAD_CLIP, GRAD_CLIP]`, ±∞ included (glove.c's `fmin(fmax(x, −c), c)`;
/// `x` is never NaN here: `fdiff` is saturated and the parameters stay finite).
#[inline(always)]
fn clip(x: f32) -> f32 {
    let x = if x < -GRAD_CLIP { -GRAD_CLIP } else { x };
    if x > GRAD_CLIP { GRAD_CLIP } else { x }
}

/// Restores the vector components saved before a step (rare: only for non-finite steps).
#[cold]
#[inline(never)]
fn undo(wi: &mut [Block], cj: &mut [Block], old_main: &[[f32; LANES]], old_ctx: &[[f32; LANES]]) {
    for (a, old) in wi.iter_mut().zip(old_main) {
        a.w = *old;
    }
    for (b, old) in cj.iter_mut().zip(old_ctx) {
        b.w = *old;
    }
}

/// The sum of 16 partial sums in a fixed tree (8 + 8, 4 + 4, 2 + 2, 1 + 1).
///
/// Not inlined: seeing the tree, LLVM would otherwise vectorise the accumulation loops in
/// pairs of lanes instead of whole blocks.
#[inline(never)]
fn reduce(mut acc: [f32; LANES]) -> f32 {
    let mut half = LANES / 2;
    while half > 0 {
        for l in 0..half {
            acc[l] += acc[l + half];
        }
        half /= 2;
    }
    acc[0]
}

/// glove.c's update for each record in `range`, in order (see the crate documentation for the
/// loss and its gradient), prefetching the rows of the record `L2` ahead into L2 and of the one
/// `L1` ahead into L1 (0: not at all; see [`Prefetch`]); returns `cost`
/// plus each record's `½·fdiff·diff`:
///
/// ```text
/// diff  = w_i·w̃_j + b_i + b̃_j − ln x          (dot in f32, the rest in f64)
/// fdiff = f(x)·diff;   skip the record if diff or fdiff is not finite
/// cost += ½·fdiff·diff
/// per component k:  t₁ = clip(fdiff·w̃_jk)·η,  t₂ = clip(fdiff·w_ik)·η
///                   u₁ = t₁/√G_ik,  u₂ = t₂/√G̃_jk;  G_ik += t₁²,  G̃_jk += t₂²
/// w_i −= u₁,  w̃_j −= u₂, undone if Σu₁ or Σu₂ is not finite (glove.c applies neither then)
/// b_i −= fdiff/√G_bi,  b̃_j −= fdiff/√G_b̃j  (each skipped if not finite);  G_b += fdiff²
/// ```
#[inline(always)]
fn step_range<const L2: usize, const L1: usize>(
    (params, records, range, eta, scratch, mut cost): StepArgs<'_>,
) -> f64 {
    let n = params.n_blocks;
    let (old_main, old_ctx) = scratch.split_at_mut(n);
    let (old_main, old_ctx) = (&mut old_main[..n], &mut old_ctx[..n]);
    for k in range {
        // Two stages: rows far ahead into L2, the near ones from there into L1, so that the
        // misses of many records are in flight at once without evicting the current rows from
        // L1.
        if let Some(ahead) = records.get(k + L2).filter(|_| L2 > 0) {
            prefetch_row::<HINT_L2>(params.main.as_ptr().wrapping_add(ahead.i as usize * n), n);
            prefetch_row::<HINT_L2>(params.ctx.as_ptr().wrapping_add(ahead.j as usize * n), n);
        }
        if let Some(ahead) = records.get(k + L1).filter(|_| L1 > 0) {
            prefetch_row::<HINT_L1>(params.main.as_ptr().wrapping_add(ahead.i as usize * n), n);
            prefetch_row::<HINT_L1>(params.ctx.as_ptr().wrapping_add(ahead.j as usize * n), n);
            prefetch_line(params.bias_main.as_ptr().wrapping_add(ahead.i as usize));
            prefetch_line(params.bias_ctx.as_ptr().wrapping_add(ahead.j as usize));
        }
        let r = records[k];
        let (i, j) = (r.i as usize, r.j as usize);
        let wi = &mut params.main[i * n..(i + 1) * n];
        let cj = &mut params.ctx[j * n..(j + 1) * n];

        let mut acc = [0.0f32; LANES];
        for (a, b) in wi.iter().zip(cj.iter()) {
            let (aw, bw) = (a.w, b.w);
            for l in 0..LANES {
                acc[l] += aw[l] * bw[l];
            }
        }
        let dot = reduce(acc);
        let bi = &mut params.bias_main[i];
        let bj = &mut params.bias_ctx[j];
        let diff = dot as f64 + bi[0] + bj[0] - r.ln_x as f64;
        let fdiff = r.weight as f64 * diff;
        if !(diff.is_finite() && fdiff.is_finite()) {
            continue;
        }
        cost += 0.5 * fdiff * diff;

        // The step is applied at once; the old components are kept in `scratch` so that a
        // step whose sum is not finite (glove.c skips it) can be undone exactly. `fdiff` is
        // saturated to the `f32` range so that `f·w` is never `∞·0`: products beyond ±100 are
        // clipped anyway, and no NaN can reach an accumulator.
        let f = fdiff.clamp(-f64::from(f32::MAX), f64::from(f32::MAX)) as f32;
        let mut sum_main = [0.0f32; LANES];
        let mut sum_ctx = [0.0f32; LANES];
        for (((a, b), old_a), old_b) in wi
            .iter_mut()
            .zip(cj.iter_mut())
            .zip(old_main.iter_mut())
            .zip(old_ctx.iter_mut())
        {
            // Whole blocks in locals, lane loops over them: what LLVM vectorises best.
            let (aw, bw, mut ag, mut bg) = (a.w, b.w, a.g, b.g);
            let mut new_a = [0.0f32; LANES];
            let mut new_b = [0.0f32; LANES];
            for l in 0..LANES {
                let t1 = clip(f * bw[l]) * eta;
                let t2 = clip(f * aw[l]) * eta;
                let u1 = t1 / (1.0 + ag[l]).sqrt();
                let u2 = t2 / (1.0 + bg[l]).sqrt();
                ag[l] += t1 * t1;
                bg[l] += t2 * t2;
                sum_main[l] += u1;
                sum_ctx[l] += u2;
                new_a[l] = aw[l] - u1;
                new_b[l] = bw[l] - u2;
            }
            (a.w, b.w, a.g, b.g, *old_a, *old_b) = (new_a, new_b, ag, bg, aw, bw);
        }
        if !(reduce(sum_main).is_finite() && reduce(sum_ctx).is_finite()) {
            undo(wi, cj, old_main, old_ctx);
        }

        let step_i = fdiff / bi[1].sqrt();
        let step_j = fdiff / bj[1].sqrt();
        if step_i.is_finite() {
            bi[0] -= step_i;
        }
        if step_j.is_finite() {
            bj[0] -= step_j;
        }
        bi[1] += fdiff * fdiff;
        bj[1] += fdiff * fdiff;
    }
    cost
}
