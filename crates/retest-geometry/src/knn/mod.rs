//! Exact top-k cosine neighbours over a whole vocabulary: blocked f32 matrix products (faer), a
//! fused threshold scan into per-row candidate buffers, and an exact f64 re-score that decides
//! the result.

mod bf16;
mod buffer;
mod choice;
mod scan;

use std::borrow::Cow;
use std::time::Instant;

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use pulp::{Simd, WithSimd};
use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
use crate::rows::dot_f64_x4_avx512;
use crate::rows::{check_finite, check_shape, dot_f64, dot_f64_inline};
use crate::{GeometryError, with_pool};
use bf16::PackedBf16;
use buffer::{Buffers, BuffersMut};
#[cfg(test)]
use choice::AUTO_SAMPLE;
pub use choice::FilterTiming;
use choice::{FilterSetup, Stopwatch};
use scan::{ScanCols, ScanRows};

/// Which rows to find neighbours for.
#[derive(Debug, Clone, Copy)]
pub enum Queries<'a> {
    /// Every row, in order: result row `i` is word `i`.
    All,
    /// These word ids, in this order (repeats allowed).
    Ids(&'a [u32]),
}

/// Which rows may be neighbours.
#[derive(Debug, Clone, Copy)]
pub enum Candidates<'a> {
    /// Every row of the matrix (the whole vocabulary).
    All,
    /// Only these word ids (a neighbour pool); order and repeats do not matter.
    Ids(&'a [u32]),
}

/// Whether a query may be its own neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelfMatch {
    /// The query's own row is never a candidate. Exclusion is by identity (word id), not by
    /// similarity: a different word with an identical vector stays a candidate.
    Exclude,
    /// The query's own row is a candidate like any other.
    Include,
}

/// Tile shape of the blocked search: each matrix product is `query_rows × candidate_cols × dim`.
///
/// The result does not depend on it (tested); only speed and the tile's memory
/// (`4 · query_rows · candidate_cols` bytes) do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocking {
    /// Query rows per tile.
    pub query_rows: usize,
    /// Candidate columns per tile (the symmetric all-pairs search uses square tiles of
    /// `query_rows`).
    pub candidate_cols: usize,
}

impl Blocking {
    /// The tile shape measured fastest on the project machine (see `benches/knn.rs`).
    pub const AUTO: Blocking = Blocking {
        query_rows: 1024,
        candidate_cols: 1024,
    };
}

/// The filter of the all-pairs search ([`Queries::All`] with [`Candidates::All`]): how the
/// candidate similarities that decide which pairs are re-scored exactly are computed.
///
/// It never changes the result (ids and cosines are the same bits on every filter, tested); only
/// speed does. Searches of a query list or a candidate list always use the f32 filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KnnKernel {
    /// The bf16 filter when this CPU has it and it measured cheaper than the f32 filter on this
    /// input and this CPU, else the f32 filter (see [`top_k_neighbours`] and [`FilterTiming`]).
    #[default]
    Auto,
    /// The f32 filter: faer's GEMM and threshold scans.
    F32,
    /// The bf16 filter (AVX-512 BF16 register tiles) whenever this CPU has it, else the f32 one.
    Bf16,
}

/// Parameters of [`top_k_neighbours`].
#[derive(Debug, Clone, Copy)]
pub struct KnnParams {
    /// Neighbours per query.
    pub k: usize,
    /// Whether a query may be its own neighbour.
    pub self_match: SelfMatch,
    /// Threads (a rayon pool of this size runs the matrix products and the scan).
    pub threads: usize,
    /// Tile shape.
    pub blocking: Blocking,
    /// The filter of the all-pairs search ([`KnnKernel::Auto`] unless timing the filters).
    pub kernel: KnnKernel,
}

/// The k nearest neighbours of each query, best first.
///
/// Two are equal when their results are (`k`, `ids`, `sims`): the diagnostics of how the search
/// ran (`rescued_rows`, `filter`, `filter_timing`) are not compared.
#[derive(Debug, Clone)]
pub struct Neighbours {
    /// Neighbours per query.
    pub k: usize,
    /// `n_queries × k` word ids, row-major; row `q` lists query `q`'s neighbours by decreasing
    /// cosine, ties by increasing word id.
    pub ids: Vec<u32>,
    /// The cosines of `ids` (the f64 re-score of [`crate::dot_f64`], rounded to f32).
    pub sims: Vec<f32>,
    /// Queries whose f32 candidate buffer could not prove exactness and were searched again
    /// with a larger buffer (diagnostic; does not affect the result).
    pub rescued_rows: usize,
    /// The filter that ran first, [`KnnKernel::F32`] or [`KnnKernel::Bf16`] (diagnostic; does
    /// not affect the result).
    pub filter: KnnKernel,
    /// What [`KnnKernel::Auto`] measured to choose `filter` on this CPU: each filter's cost per
    /// row and the bf16 buffer size (diagnostic; differs from run to run, does not affect the
    /// result). `None` when nothing was measured: a forced filter, a search of a query or
    /// candidate list, or a CPU without AVX-512 BF16.
    pub filter_timing: Option<FilterTiming>,
}

impl PartialEq for Neighbours {
    fn eq(&self, other: &Neighbours) -> bool {
        (self.k, &self.ids, &self.sims) == (other.k, &other.ids, &other.sims)
    }
}

impl Neighbours {
    /// Number of queries.
    pub fn n_queries(&self) -> usize {
        self.ids.len().checked_div(self.k).unwrap_or(0)
    }

    /// Neighbour ids of query `q`, best first.
    pub fn ids_of(&self, q: usize) -> &[u32] {
        &self.ids[q * self.k..(q + 1) * self.k]
    }

    /// Cosines of query `q`'s neighbours, best first.
    pub fn sims_of(&self, q: usize) -> &[f32] {
        &self.sims[q * self.k..(q + 1) * self.k]
    }
}

/// The `k` nearest neighbours by cosine of each query among the candidates, exactly.
///
/// `unit_rows` is a row-major `n × dim` matrix of L2-normalised word vectors
/// ([`crate::normalize_rows`]); the cosine of rows `i` and `j` is their dot product
/// `s(i, j) = û_i · û_j`, and the *reference value* of `s` is [`crate::dot_f64`], the dot product
/// of the stored f32 rows evaluated in f64 in a fixed order. Neighbours are ranked by that value,
/// descending, ties broken by the lower word id. Because L2 distance on unit vectors is
/// `‖û_i − û_j‖² = 2 − 2 s(i, j)`, this is the ranking of faiss `IndexFlatL2` and `IndexFlatIP`
/// on the same vectors, up to their float rounding (Du et al. 2021 search with `IndexFlatL2`).
///
/// # Algorithm
///
/// 1. *Filter (f32).* Tiles `S = U_Q · U_Cᵀ` of `query_rows × candidate_cols` are computed with
///    faer's GEMM; a fused scan (16 lanes per compare, AVX2 when available) offers each tile
///    entry to a per-query buffer that keeps the best `cap = k + max(8, k/8)`, touching a
///    buffer only when the value beats its row's threshold, so the `n × n` matrix never exists.
///    When all rows are both queries and candidates, only the tiles on and above the diagonal
///    are computed and each is scanned by rows and by columns, which halves the GEMM work
///    (`n²·dim` instead of `2·n²·dim` flops). Tiles run in parallel as whole sequential tasks
///    (a round-robin schedule of disjoint block pairs; see the source of `Search::symmetric`).
///
///    *bf16 variant* (all pairs, on CPUs with AVX-512 BF16): the same schedule, but each tile is
///    a register-blocked `vdpbf16ps` kernel on the rows rounded once to bfloat16 (f32 sums;
///    twice the multiply rate of f32 FMA) whose epilogue offers the register tile to the row and
///    column buffers directly. Its error bound `e` is measured from the rows' rounding residuals
///    (≈ 0.004 for unit rows; see `bf16.rs`), far wider than the f32 one, so its buffers keep
///    more: at least `cap = k + max(k, 16)`.
///
///    *Choice of filter* ([`KnnParams::kernel`], [`KnnKernel::Auto`] by default), by
///    measurement on the CPU that runs the search: no constant fitted on one CPU decides it.
///    The bf16 filter is cheaper per pair where the hardware doubles the multiply rate, but
///    every candidate within `2e` of a row's k-th best must be re-scored, and a row with more
///    of them than its buffer holds fails the check of step 3 and is searched again by the f32
///    filter. On random vectors that window holds ≈ 30–60 candidates beyond `k`; on trained
///    embeddings, whose cosines crowd near the k-th best, it can hold hundreds (trained SGNS,
///    25,359 words at dim 100: a median of ≈ 180 at `k = 100`, 40 % of rows beyond `2k`). And
///    how much faster its kernel is depends on the CPU (on an Intel Sapphire Rapids the f32
///    filter won at 50,000 × 300 where the bf16 one wins on AMD Zen 4 and Zen 5). So before the
///    search, on one thread:
///    * *window sample*: 128 evenly spaced rows are searched with the f32 filter and the bf16
///      margin (≈ `256/n` of the f32 filter's work), which counts each one's bf16 window and
///      measures the cost of searching a row again, of re-scoring a candidate (the sample's
///      rows repeated so that candidate fetches weigh as in the search's groups) and of a
///      buffer slot; the bf16 buffer size (up to 256 MB of buffers) is the one of least
///      measured cost: a larger one saves the rows whose window it holds from being searched
///      again, and costs memory;
///    * *timed chunks*: both filters run on 96 consecutive rows from the middle of the matrix
///      against every other candidate block, the way the search runs a tile (the GEMM and
///      both scans, or the bf16 kernel and both offers, the rows' own buffers set up as the
///      search sets them up, the column side's rows standing in scratch buffers), alternating
///      by halves, timed by the thread's CPU clock so that time the thread spent descheduled
///      falls on neither (≈ `96/n` of each filter's work);
///    * each filter's cost per row of the whole search is extrapolated: its chunk time over
///      twice the rows times the timed share of the candidates (the search computes each pair
///      once and offers it to both rows), plus its buffers, its f64 re-scores and, for bf16,
///      the packing and the rows the window sample predicts to be searched again. The cheaper
///      one runs.
///
///    Which filter runs is reported in [`Neighbours::filter`], what was measured in
///    [`Neighbours::filter_timing`] ([`FilterTiming`]); neither changes an id or a bit of a
///    cosine. Under `Auto` they, the bf16 buffer size it takes from the measured costs (and
///    with it [`Neighbours::rescued_rows`] and the memory) and the search's speed vary from run
///    to run; a forced filter sizes its buffers by a fixed rule. The same sample
///    seeds the bf16 filter's admission thresholds below the lowest k-th best value it saw
///    (minus its spread and the error bounds), so a row offers ≈ 300 values to its buffer
///    instead of ≈ 1,550 (50,000 × 300) and is not cut while it is scanned; a row whose seed
///    was too high fails the check of step 3 like any other and is searched again.
/// 2. *Re-score (f64).* Each kept candidate within `2e` of the row's k-th best filter value is
///    re-scored with `dot_f64` — grouped by candidate so that each candidate row is read about
///    once per group of queries, with AVX-512 when available (same bits) — and the top `k`
///    taken by (reference value desc, id asc).
/// 3. *Proof of exactness.* The f32 GEMM value `f` of any pair is within
///    `e = (γ₃₂(dim+1) + γ₆₄(dim+1)) · max‖û‖²` of its reference value `t`, with
///    `γ_p(n) = n·u_p / (1 − n·u_p)` (Higham 2002, §3.1; `u₃₂ = 2⁻²⁴`, `u₆₄ = 2⁻⁵³`), whatever
///    the summation order or SIMD width (the bf16 filter has its own `e`). If a buffer that
///    dropped candidates — values not above a seeded threshold are dropped the same way as
///    values below a cut — keeps at least `k` entries and a k-th best filter value `f_k` above
///    its admission threshold `f_min` by more than `2e`, every candidate it dropped (all have
///    `f ≤ f_min`) has `t < f_k − e ≤ t_(k)`, so the true top k are among the kept entries and
///    step 2 is exact.
///    For the same reason a kept entry with `f < f_k − 2e` needs no re-score, and a buffer's
///    threshold may rise to just below `f_k − 2e` when it is cut. Rows that fail the test (dense
///    near-ties, duplicate vectors) are searched again with the f32 filter and twice its buffer
///    until they pass or the buffer holds every candidate.
///
/// The result is therefore a function of the f32 input alone: identical for every thread
/// count, tile shape, filter (bf16 or f32) and CPU (AVX2 or AVX-512 kernels), which is tested
/// against a brute-force f64 reference with planted ties and duplicate vectors.
///
/// # Errors
///
/// Shape mismatches, a zero dimension, non-finite components, ids out of range, `k = 0`,
/// fewer than `k` candidates per query, zero threads or block sizes.
pub fn top_k_neighbours(
    unit_rows: &[f32],
    dim: usize,
    queries: Queries<'_>,
    candidates: Candidates<'_>,
    params: &KnnParams,
) -> Result<Neighbours, GeometryError> {
    search_with(unit_rows, dim, queries, candidates, params, true)
}

/// [`top_k_neighbours`], with the AVX-512 f64 re-score allowed or not (without it, and with
/// [`KnnKernel::F32`], only the portable and AVX2 paths run).
fn search_with(
    unit_rows: &[f32],
    dim: usize,
    queries: Queries<'_>,
    candidates: Candidates<'_>,
    params: &KnnParams,
    allow_avx512: bool,
) -> Result<Neighbours, GeometryError> {
    let n = check_shape("unit_rows", unit_rows, dim, None)?;
    check_finite("unit_rows", unit_rows, dim)?;
    if params.k == 0 {
        return Err(GeometryError::ZeroK);
    }
    if params.threads == 0 {
        return Err(GeometryError::ZeroThreads);
    }
    let Blocking {
        query_rows,
        candidate_cols,
    } = params.blocking;
    if query_rows == 0 || candidate_cols == 0 {
        return Err(GeometryError::ZeroBlock {
            query_rows,
            candidate_cols,
        });
    }
    let check_ids = |what, ids: &[u32]| match ids.iter().find(|&&id| id as usize >= n) {
        Some(&id) => Err(GeometryError::IdOutOfRange { what, id, n_rows: n }),
        None => Ok(()),
    };
    let cand = match candidates {
        Candidates::All => CandidateSet {
            rows: Cow::Borrowed(unit_rows),
            ids: None,
        },
        Candidates::Ids(ids) => {
            check_ids("candidates", ids)?;
            let mut ids = ids.to_vec();
            ids.sort_unstable();
            ids.dedup();
            let mut rows = Vec::with_capacity(ids.len() * dim);
            for &id in &ids {
                rows.extend_from_slice(&unit_rows[id as usize * dim..(id as usize + 1) * dim]);
            }
            CandidateSet {
                rows: Cow::Owned(rows),
                ids: Some(ids),
            }
        }
    };
    let n_cand = cand.len(dim);
    let excluded = usize::from(params.self_match == SelfMatch::Exclude);
    if params.k + excluded > n_cand {
        return Err(GeometryError::TooFewCandidates {
            k: params.k,
            available: n_cand.saturating_sub(excluded),
        });
    }
    let query_ids: Cow<'_, [u32]> = match queries {
        Queries::All => Cow::Owned((0..n as u32).collect()),
        Queries::Ids(ids) => {
            check_ids("queries", ids)?;
            Cow::Borrowed(ids)
        }
    };
    let symmetric = matches!((queries, candidates), (Queries::All, Candidates::All));

    // Rigorous bound on |f32 GEMM value − dot_f64 value| for any pair (see the doc comment).
    let max_sq_norm = unit_rows
        .chunks_exact(dim)
        .map(|r| dot_f64(r, r))
        .fold(0.0f64, f64::max);
    let gamma = |n_terms: f64, u: f64| n_terms * u / (1.0 - n_terms * u);
    let terms = (dim + 1) as f64;
    let margin =
        2.0 * (gamma(terms, f64::from(f32::EPSILON) / 2.0) + gamma(terms, f64::EPSILON / 2.0)) * max_sq_norm;

    #[cfg(target_arch = "x86_64")]
    let avx512 = allow_avx512 && is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vl");
    #[cfg(not(target_arch = "x86_64"))]
    let avx512 = false;
    let search = Search {
        unit_rows,
        dim,
        avx512,
        cand: &cand,
        self_match: params.self_match,
        params,
    };
    // The bf16 filter (all pairs only, CPUs with AVX-512 BF16): a wider margin, so a wider buffer.
    let bf16_error = if params.kernel != KnnKernel::F32 && symmetric && bf16::available() {
        bf16::error_bound(unit_rows, dim)
    } else {
        None
    };
    let cap = (params.k + (params.k / 8).max(8)).min(n_cand);
    let bf16_min_cap = (params.k + params.k.max(16)).min(n_cand);
    let bf16_max_cap = (BF16_BUFFER_BYTES / (16 * query_ids.len()))
        .max(bf16_min_cap)
        .min(n_cand);
    with_pool(params.threads, || {
        let mut filter_timing = None;
        let (packed, first_cap, seed) = match bf16_error {
            Some(error) => {
                let start = Instant::now();
                // The sample is searched on one thread whatever the pool's size: its times are
                // costs of one thread, like those of the timed chunks.
                let sample = with_pool(1, || search.window_sample(error, margin / 2.0, bf16_max_cap))?;
                // `Auto` sizes the bf16 buffers by the measured costs; a forced bf16 filter by a
                // fixed rule, so that what it reports (`rescued_rows`) does not depend on timing.
                let bf16_cap = match params.kernel {
                    KnnKernel::Auto => sample.cheapest_cap(bf16_min_cap, bf16_max_cap),
                    KnnKernel::Bf16 | KnnKernel::F32 => bf16_min_cap,
                };
                let packing = Stopwatch::start();
                let packed = PackedBf16::pack(unit_rows, dim, error);
                let pack_ns = packing.ns();
                let bf16_runs = match params.kernel {
                    KnnKernel::Auto => {
                        let f32_setup = FilterSetup {
                            cap,
                            margin,
                            seed: None,
                        };
                        let bf16_setup = FilterSetup {
                            cap: bf16_cap,
                            margin: 2.0 * error,
                            seed: sample.seed,
                        };
                        let mut timing =
                            search.time_filters(&sample, f32_setup, bf16_setup, &packed, pack_ns);
                        timing.measure_ns = start.elapsed().as_secs_f64() * 1e9;
                        filter_timing = Some(timing);
                        choice::cheaper(&timing) == KnnKernel::Bf16
                    }
                    KnnKernel::Bf16 => true,
                    KnnKernel::F32 => false,
                };
                if bf16_runs {
                    (Some(packed), bf16_cap, sample.seed)
                } else {
                    (None, cap, None)
                }
            }
            None => (None, cap, None),
        };
        let first_margin = packed.as_ref().map_or(margin, |p| 2.0 * p.error);
        let mut bufs = Buffers::new(query_ids.len(), first_cap, params.k, first_margin);
        if let Some(seed) = seed {
            bufs.seed(seed);
        }
        if symmetric {
            search.symmetric(&mut bufs, packed.as_ref());
        } else {
            search.general(&query_ids, &mut bufs);
        }
        let mut out_ids = vec![0u32; query_ids.len() * params.k];
        let mut out_sims = vec![0f32; query_ids.len() * params.k];
        // No `settle` here: cutting the rows back to `cap` first would only raise thresholds,
        // which can fail rows that pass as they are (`kept` needs no bound on a row's length).
        let mut failed = search.finalize(&query_ids, &bufs, first_margin, &mut out_ids, &mut out_sims);
        let rescued_rows = failed.len();
        // Rescues run the f32 filter (with its own margin), from twice its usual buffer.
        let mut cap = cap;
        while !failed.is_empty() {
            cap = (cap * 2).min(n_cand);
            let ids: Vec<u32> = failed.iter().map(|&q| query_ids[q]).collect();
            let mut bufs = Buffers::new(ids.len(), cap, params.k, margin);
            search.general(&ids, &mut bufs);
            let mut ids_k = vec![0u32; ids.len() * params.k];
            let mut sims_k = vec![0f32; ids.len() * params.k];
            let again = search.finalize(&ids, &bufs, margin, &mut ids_k, &mut sims_k);
            let k = params.k;
            for (i, &q) in failed.iter().enumerate() {
                out_ids[q * k..(q + 1) * k].copy_from_slice(&ids_k[i * k..(i + 1) * k]);
                out_sims[q * k..(q + 1) * k].copy_from_slice(&sims_k[i * k..(i + 1) * k]);
            }
            failed = again.into_iter().map(|i| failed[i]).collect();
        }
        Ok(Neighbours {
            k: params.k,
            ids: out_ids,
            sims: out_sims,
            rescued_rows,
            filter: if packed.is_some() {
                KnnKernel::Bf16
            } else {
                KnnKernel::F32
            },
            filter_timing,
        })
    })?
}

/// The most memory the bf16 filter's buffers may take when the sample asks for a larger buffer
/// than `k + max(k, 16)` (16 bytes per slot per row).
const BF16_BUFFER_BYTES: usize = 256 << 20;

impl Search<'_> {
    /// The candidates of buffer row `r` that must be re-scored, or `None` if
    /// the row's buffer cannot prove exactness (see [`top_k_neighbours`]).
    fn kept(&self, r: usize, bufs: &Buffers, margin: f64) -> Option<Vec<u32>> {
        let k = self.params.k;
        let entries = bufs.row(r);
        // A threshold of −∞ means no value was ever rejected or cut (no seed, no cut): the row
        // holds every candidate, at least k. Otherwise values up to the threshold may be missing,
        // and with a seed the row may even hold fewer than k entries.
        let seeded_or_cut = bufs.threshold(r) > f32::NEG_INFINITY;
        if seeded_or_cut && entries.len() < k {
            return None;
        }
        // The k-th best kept filter value.
        let f_k = f64::from(bufs.kth_value(r));
        if seeded_or_cut {
            // Check that the k-th best kept value clears the threshold.
            let f_min = f64::from(bufs.threshold(r));
            if f_k - f_min <= margin {
                return None;
            }
        }
        // Kept entries with `f < f_k − margin` have a reference value below that of each of the
        // k entries with `f ≥ f_k` (the argument above, applied inside the buffer), so they
        // cannot rank in the top k and are not re-scored.
        Some(
            entries
                .iter()
                .filter(|e| f64::from(e.0) >= f_k - margin)
                .map(|e| e.1)
                .collect(),
        )
    }
}

/// Query rows re-scored together: their f32 rows (about this many bytes) stay in cache while
/// the candidate rows they need stream by in increasing order.
const RESCORE_GROUP_BYTES: usize = 4 << 20;

/// Candidate positions per bucket of the re-score's counting sort.
const RESCORE_BUCKET: usize = 256;

/// The f64 re-score of one group of query rows, as a `pulp` operation (see `scan::ScanRows`):
/// every (query, candidate) pair of the group is scored with `dot_f64` in the order of the
/// candidate position (a counting sort by buckets of [`RESCORE_BUCKET`]), so each candidate row
/// is fetched about once per group instead of once per pair; then each row's top k is written.
struct RescoreGroup<'s, 'o> {
    search: &'s Search<'s>,
    queries: &'s [u32],
    kept: &'s [Option<Vec<u32>>],
    ids: &'o mut [u32],
    sims: &'o mut [f32],
}

impl WithSimd for RescoreGroup<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        let RescoreGroup {
            search,
            queries,
            kept,
            ids,
            sims,
        } = self;
        let (dim, k) = (search.dim, search.params.k);
        let mut offsets = Vec::with_capacity(kept.len() + 1);
        offsets.push(0usize);
        for c in kept {
            offsets.push(offsets.last().copied().unwrap_or(0) + c.as_ref().map_or(0, Vec::len));
        }
        let total = offsets[kept.len()];
        let n_buckets = search.cand.len(dim).div_ceil(RESCORE_BUCKET);
        let mut starts = vec![0usize; n_buckets + 1];
        for p in kept.iter().flatten().flatten() {
            starts[*p as usize / RESCORE_BUCKET + 1] += 1;
        }
        for b in 0..n_buckets {
            starts[b + 1] += starts[b];
        }
        // (candidate position, group row, flat slot), bucketed by position.
        let mut pairs = vec![(0u32, 0u32, 0u32); total];
        for (lr, c) in kept.iter().enumerate() {
            for (i, &p) in c.iter().flatten().enumerate() {
                let b = p as usize / RESCORE_BUCKET;
                pairs[starts[b]] = (p, lr as u32, (offsets[lr] + i) as u32);
                starts[b] += 1;
            }
        }
        let query = |lr: u32| {
            let q = queries[lr as usize] as usize;
            &search.unit_rows[q * dim..(q + 1) * dim]
        };
        let row = |p: u32| &search.cand.rows[p as usize * dim..(p as usize + 1) * dim];
        let mut scores = vec![0f64; total];
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if search.avx512 {
            for (i, quad) in pairs.chunks_exact(4).enumerate() {
                for &(ahead, lr, _) in pairs.iter().skip(4 * i + PREFETCH_AHEAD).take(4) {
                    prefetch(row(ahead));
                    prefetch(query(lr));
                }
                let a = [0, 1, 2, 3].map(|j| query(quad[j].1));
                let b = [0, 1, 2, 3].map(|j| row(quad[j].0));
                // SAFETY: `search.avx512` is set only when the CPU has AVX-512 F and VL.
                let s = unsafe { dot_f64_x4_avx512(a, b) };
                for j in 0..4 {
                    scores[quad[j].2 as usize] = s[j];
                }
            }
            done = pairs.len() / 4 * 4;
        }
        for (i, &(p, lr, slot)) in pairs.iter().enumerate().skip(done) {
            if let Some(&(ahead, _, _)) = pairs.get(i + PREFETCH_AHEAD) {
                prefetch(row(ahead));
            }
            scores[slot as usize] = dot_f64_inline(query(lr), row(p));
        }
        for (lr, c) in kept.iter().enumerate() {
            let Some(c) = c else { continue };
            let mut exact: Vec<(f64, u32)> = scores[offsets[lr]..offsets[lr + 1]]
                .iter()
                .copied()
                .zip(c.iter().copied())
                .collect();
            exact.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            for (slot, (s, p)) in exact.iter().take(k).enumerate() {
                ids[lr * k + slot] = search.cand.word_at(*p);
                sims[lr * k + slot] = *s as f32;
            }
        }
    }
}

/// Candidate rows fetched ahead of their re-score (random rows of a large matrix: without the
/// hint the re-score waits on memory; measured 3.5× faster with it).
const PREFETCH_AHEAD: usize = 12;

/// Hints the CPU to bring `row` into cache. It has no effect on any value.
#[inline(always)]
fn prefetch(row: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    for line in row.chunks(16) {
        // SAFETY: a prefetch is only a hint: it never faults, reads nothing into a register and
        // writes nothing; the pointer points into a live slice. SSE is in the x86-64 baseline.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.as_ptr().cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = row;
}

/// The candidate rows: the whole matrix, or a gathered subset with its word ids (ascending, so
/// that a lower candidate position is a lower word id).
struct CandidateSet<'a> {
    rows: Cow<'a, [f32]>,
    ids: Option<Vec<u32>>,
}

impl CandidateSet<'_> {
    fn len(&self, dim: usize) -> usize {
        self.rows.len() / dim
    }

    fn position_of(&self, word: u32) -> Option<u32> {
        match &self.ids {
            None => Some(word),
            Some(ids) => ids.binary_search(&word).ok().map(|p| p as u32),
        }
    }

    fn word_at(&self, pos: u32) -> u32 {
        match &self.ids {
            None => pos,
            Some(ids) => ids[pos as usize],
        }
    }
}

struct Search<'a> {
    unit_rows: &'a [f32],
    dim: usize,
    /// Whether the re-score may use the AVX-512 f64 dot (same bits as `dot_f64`).
    avx512: bool,
    cand: &'a CandidateSet<'a>,
    self_match: SelfMatch,
    params: &'a KnnParams,
}

impl Search<'_> {
    /// `tile[..nr·nc]` (column-major, leading dimension `nr`) = `lhs · rhsᵀ` for row-major
    /// `lhs` (`nr × dim`) and `rhs` (`nc × dim`), on the calling thread.
    fn gemm(&self, tile: &mut [f32], lhs: &[f32], rhs: &[f32]) {
        let dim = self.dim;
        let (nr, nc) = (lhs.len() / dim, rhs.len() / dim);
        let lhs = MatRef::from_row_major_slice(lhs, nr, dim);
        let rhs = MatRef::from_row_major_slice(rhs, nc, dim).transpose();
        let dst = MatMut::from_column_major_slice_mut(&mut tile[..nr * nc], nr, nc);
        matmul(dst, Accum::Replace, lhs, rhs, 1.0f32, Par::Seq);
    }

    /// All rows against all rows, computing only the tiles on and above the diagonal.
    ///
    /// The rows are cut into blocks of `b = query_rows`. The tile of blocks `I ≤ J` is
    /// `S[I, J] = U_I · U_Jᵀ`; each entry is offered to its row in `I` (row side) and, when
    /// `I < J`, also to its column's row in `J` (column side), since `s(j, i) = s(i, j)`. On a
    /// diagonal tile the row side alone covers both orders, and the diagonal itself is masked to
    /// −∞ when the query is excluded. Each ordered pair `(i, j)` is offered exactly once.
    ///
    /// Parallel schedule: a tile writes to the buffers of blocks `I` and `J` only, so tiles whose
    /// blocks are pairwise disjoint run at the same time without locks. The off-diagonal tiles are
    /// grouped into rounds of disjoint pairs by the circle method of round-robin tournaments
    /// (`B − 1` rounds of `B/2` tiles for `B` blocks, one more block as a bye when `B` is odd),
    /// after one round of all diagonal tiles. Each tile is one sequential task (GEMM and scan on
    /// one thread), so threads synchronise once per round, not inside tiles — on a shared,
    /// saturated machine fine-grained synchronisation cost more than it saved.
    ///
    /// With `packed`, each tile is the bf16 kernel (`bf16::block_pair`, blocks rounded up to a
    /// multiple of its panel width) instead of an f32 GEMM and scan.
    fn symmetric(&self, bufs: &mut Buffers, packed: Option<&PackedBf16>) {
        let (dim, n) = (self.dim, self.cand.len(self.dim));
        let b = match packed {
            Some(_) => self.params.blocking.query_rows.div_ceil(bf16::NR) * bf16::NR,
            None => self.params.blocking.query_rows,
        };
        let n_blocks = n.div_ceil(b);
        let rows = &self.cand.rows[..];
        let block_rows = |i: usize| &rows[i * b * dim..((i + 1) * b).min(n) * dim];
        let mut views: Vec<Option<BuffersMut<'_>>> = bufs.view().chunks(b).into_iter().map(Some).collect();
        let exclude = self.self_match == SelfMatch::Exclude;
        let tile_len = if packed.is_some() { 0 } else { b * b };
        let block_range = |i: usize| i * b..((i + 1) * b).min(n);
        // Each block's rows in the bf16 kernel's row-side layout, packed once.
        let apacks: Vec<Vec<u32>> = match packed {
            Some(packed) => (0..n_blocks)
                .into_par_iter()
                .map(|i| bf16::pack_rows(packed, block_range(i)))
                .collect(),
            None => Vec::new(),
        };
        // The bf16 kernel on the tile of blocks `i` and `j` (`hj = None`: the diagonal tile).
        let bf16_tile = |packed: &PackedBf16,
                         i: usize,
                         j: usize,
                         hi: &mut BuffersMut<'_>,
                         hj: Option<&mut BuffersMut<'_>>| {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `packed` exists only when `bf16::available()`.
            unsafe {
                bf16::block_pair(
                    packed,
                    block_range(i),
                    block_range(j),
                    hi,
                    hj,
                    exclude,
                    &apacks[i],
                )
            };
            #[cfg(not(target_arch = "x86_64"))]
            let _ = (packed, i, j, hi, hj, &apacks);
        };

        // Diagonal tiles: all blocks at once.
        let diagonal: Vec<(usize, BuffersMut<'_>)> = views
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (i, v.take().expect("block view")))
            .collect();
        let diagonal: Vec<(usize, BuffersMut<'_>)> = diagonal
            .into_par_iter()
            .map_init(
                || vec![0f32; tile_len],
                |tile, (i, mut h)| {
                    if let Some(packed) = packed {
                        bf16_tile(packed, i, i, &mut h, None);
                        return (i, h);
                    }
                    let lhs = block_rows(i);
                    let nr = lhs.len() / dim;
                    self.gemm(tile, lhs, lhs);
                    if exclude {
                        for r in 0..nr {
                            tile[r * nr + r] = f32::NEG_INFINITY;
                        }
                    }
                    let tile = &tile[..nr * nr];
                    let pos0 = (i * b) as u32;
                    pulp::Arch::new().dispatch(ScanRows {
                        tile,
                        ld: nr,
                        row_lo: 0,
                        bufs: &mut h,
                        cols: 0..nr,
                        pos0,
                    });
                    (i, h)
                },
            )
            .collect();
        for (i, h) in diagonal {
            views[i] = Some(h);
        }

        // Off-diagonal tiles, round by round.
        let slots = n_blocks + n_blocks % 2;
        for round in 0..slots.saturating_sub(1) {
            let mut pairs = Vec::with_capacity(slots / 2);
            let fixed = slots - 1;
            pairs.push((round, fixed));
            for step in 1..slots / 2 {
                pairs.push(((round + step) % fixed, (round + fixed - step) % fixed));
            }
            let tasks: Vec<(usize, usize, BuffersMut<'_>, BuffersMut<'_>)> = pairs
                .into_iter()
                .filter(|&(i, j)| i < n_blocks && j < n_blocks)
                .map(|(i, j)| {
                    let (i, j) = (i.min(j), i.max(j));
                    let hi = views[i].take().expect("block view");
                    let hj = views[j].take().expect("block view");
                    (i, j, hi, hj)
                })
                .collect();
            let done: Vec<(usize, usize, BuffersMut<'_>, BuffersMut<'_>)> = tasks
                .into_par_iter()
                .map_init(
                    || vec![0f32; tile_len],
                    |tile, (i, j, mut hi, mut hj)| {
                        if let Some(packed) = packed {
                            bf16_tile(packed, i, j, &mut hi, Some(&mut hj));
                            return (i, j, hi, hj);
                        }
                        let (lhs, rhs) = (block_rows(i), block_rows(j));
                        let (nr, nc) = (lhs.len() / dim, rhs.len() / dim);
                        self.gemm(tile, lhs, rhs);
                        let tile = &tile[..nr * nc];
                        let arch = pulp::Arch::new();
                        let (pos_i, pos_j) = ((i * b) as u32, (j * b) as u32);
                        arch.dispatch(ScanRows {
                            tile,
                            ld: nr,
                            row_lo: 0,
                            bufs: &mut hi,
                            cols: 0..nc,
                            pos0: pos_j,
                        });
                        arch.dispatch(ScanCols {
                            tile,
                            ld: nr,
                            n_tile_rows: nr,
                            col_lo: 0,
                            bufs: &mut hj,
                            pos0: pos_i,
                        });
                        (i, j, hi, hj)
                    },
                )
                .collect();
            for (i, j, hi, hj) in done {
                views[i] = Some(hi);
                views[j] = Some(hj);
            }
        }
    }

    /// Queries (word ids) against the candidate set, row side only. Each block of `query_rows`
    /// queries is one sequential task over all candidate tiles of `candidate_cols`.
    fn general(&self, query_ids: &[u32], bufs: &mut Buffers) {
        let dim = self.dim;
        let n_cand = self.cand.len(dim);
        let br = self.params.blocking.query_rows;
        let bc = self.params.blocking.candidate_cols;
        let views = bufs.view().chunks(br);
        views.into_par_iter().zip(query_ids.par_chunks(br)).for_each_init(
            || (vec![0f32; br * bc], vec![0f32; br * dim]),
            |(tile, lhs), (mut h, block)| {
                let nr = block.len();
                for (r, &q) in block.iter().enumerate() {
                    let src = &self.unit_rows[q as usize * dim..(q as usize + 1) * dim];
                    lhs[r * dim..(r + 1) * dim].copy_from_slice(src);
                }
                let self_pos: Vec<Option<u32>> = match self.self_match {
                    SelfMatch::Exclude => block.iter().map(|&q| self.cand.position_of(q)).collect(),
                    SelfMatch::Include => vec![None; nr],
                };
                let arch = pulp::Arch::new();
                for c0 in (0..n_cand).step_by(bc) {
                    let c1 = (c0 + bc).min(n_cand);
                    self.gemm(tile, &lhs[..nr * dim], &self.cand.rows[c0 * dim..c1 * dim]);
                    for (r, p) in self_pos.iter().enumerate() {
                        if let Some(p) = *p
                            && (c0..c1).contains(&(p as usize))
                        {
                            tile[(p as usize - c0) * nr + r] = f32::NEG_INFINITY;
                        }
                    }
                    let tile = &tile[..nr * (c1 - c0)];
                    arch.dispatch(ScanRows {
                        tile,
                        ld: nr,
                        row_lo: 0,
                        bufs: &mut h,
                        cols: 0..c1 - c0,
                        pos0: c0 as u32,
                    });
                }
            },
        );
    }

    /// Re-scores every row's kept candidates in f64, writes the top k, and returns the rows
    /// whose buffers cannot prove exactness (see [`top_k_neighbours`]).
    fn finalize(
        &self,
        query_ids: &[u32],
        bufs: &Buffers,
        margin: f64,
        out_ids: &mut [u32],
        out_sims: &mut [f32],
    ) -> Vec<usize> {
        let k = self.params.k;
        let kept: Vec<Option<Vec<u32>>> = (0..query_ids.len())
            .into_par_iter()
            .map(|r| self.kept(r, bufs, margin))
            .collect();
        let group = (RESCORE_GROUP_BYTES / (4 * self.dim)).max(1);
        let arch = pulp::Arch::new();
        out_ids
            .par_chunks_mut(group * k)
            .zip(out_sims.par_chunks_mut(group * k))
            .zip(kept.par_chunks(group))
            .zip(query_ids.par_chunks(group))
            .for_each(|(((ids, sims), kept), queries)| {
                arch.dispatch(RescoreGroup {
                    search: self,
                    queries,
                    kept,
                    ids,
                    sims,
                });
            });
        kept.iter()
            .enumerate()
            .filter(|(_, c)| c.is_none())
            .map(|(r, _)| r)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize_rows;

    /// A xorshift stream of uniform values in [−0.5, 0.5) from `state` (nonzero).
    fn uniform(mut state: u64) -> impl FnMut() -> f32 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f32 / (1u64 << 53) as f32 - 0.5
        }
    }

    /// Random unit rows at a low dimension (dense near-ties) with planted near-duplicates a bf16
    /// rounding cannot tell apart: rows `4·i + 1..4·i + 4` are row `4·i` plus noise of 1e-4 for
    /// `i < 40`, and rows 200..230 are one vector plus noise of 1e-6.
    fn near_ties(n: usize, dim: usize) -> Vec<f32> {
        let mut next = uniform(0x853c_49e6_748f_ea9b);
        let mut raw: Vec<f32> = (0..n * dim).map(|_| next()).collect();
        for i in 0..40 {
            for j in 1..4 {
                for c in 0..dim {
                    raw[(4 * i + j) * dim + c] = raw[4 * i * dim + c] + 1e-4 * next();
                }
            }
        }
        for r in 201..230 {
            for c in 0..dim {
                raw[r * dim + c] = raw[200 * dim + c] + 1e-6 * next();
            }
        }
        normalize_rows(&raw, dim)
    }

    fn brute_top_k(unit: &[f32], dim: usize, q: usize, k: usize) -> Vec<u32> {
        let n = unit.len() / dim;
        let mut all: Vec<(f64, u32)> = (0..n)
            .filter(|&c| c != q)
            .map(|c| {
                (
                    dot_f64(&unit[q * dim..(q + 1) * dim], &unit[c * dim..(c + 1) * dim]),
                    c as u32,
                )
            })
            .collect();
        all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        all.into_iter().take(k).map(|e| e.1).collect()
    }

    /// One thread, 256-row tiles, the given `k` and filter.
    fn single_thread(k: usize, kernel: KnnKernel) -> KnnParams {
        KnnParams {
            k,
            self_match: SelfMatch::Exclude,
            threads: 1,
            blocking: Blocking {
                query_rows: 256,
                candidate_cols: 256,
            },
            kernel,
        }
    }

    /// The all-pairs search with the f32 filter and no `Auto` choice: the reference the other
    /// filters must match bit for bit.
    fn f32_reference(unit: &[f32], dim: usize, k: usize) -> Neighbours {
        let p = single_thread(k, KnnKernel::F32);
        search_with(unit, dim, Queries::All, Candidates::All, &p, false).unwrap()
    }

    /// The all-pairs search as callers run it (`Auto` included), one thread.
    fn search_all(unit: &[f32], dim: usize, k: usize, kernel: KnnKernel) -> Neighbours {
        let p = single_thread(k, kernel);
        top_k_neighbours(unit, dim, Queries::All, Candidates::All, &p).unwrap()
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn the_bf16_and_f32_paths_give_the_same_bits() {
        for (n, dim, k) in [(700, 6, 20), (900, 33, 10), (1100, 300, 30)] {
            let unit = near_ties(n, dim);
            for (qr, threads) in [(64, 1), (96, 2), (1024, 1)] {
                let p = KnnParams {
                    k,
                    self_match: SelfMatch::Exclude,
                    threads,
                    blocking: Blocking {
                        query_rows: qr,
                        candidate_cols: qr,
                    },
                    kernel: KnnKernel::Bf16,
                };
                let fast = search_with(&unit, dim, Queries::All, Candidates::All, &p, true).unwrap();
                let p = KnnParams {
                    kernel: KnnKernel::F32,
                    ..p
                };
                let plain = search_with(&unit, dim, Queries::All, Candidates::All, &p, false).unwrap();
                assert_eq!(fast.ids, plain.ids, "n {n} dim {dim} tile {qr}");
                assert_eq!(bits(&fast.sims), bits(&plain.sims), "n {n} dim {dim} tile {qr}");
                for q in (0..n).step_by(37).chain(200..203) {
                    assert_eq!(fast.ids_of(q), &brute_top_k(&unit, dim, q, k)[..], "query {q}");
                }
            }
        }
    }

    /// Unit rows that all lie within about `spread` of one direction: every cosine crowds near
    /// the k-th best, so the bf16 window holds nearly every candidate.
    fn crowded(n: usize, dim: usize, spread: f32) -> Vec<f32> {
        let mut next = uniform(0x2545_f491_4f6c_dd1d);
        let centre: Vec<f32> = (0..dim).map(|_| next()).collect();
        let raw: Vec<f32> = (0..n * dim).map(|i| centre[i % dim] + spread * next()).collect();
        normalize_rows(&raw, dim)
    }

    /// Random unit vectors at dim 300, where the bf16 window is narrow, and crowded rows, where
    /// it holds nearly every candidate.
    fn auto_cases() -> [(Vec<f32>, usize, usize); 3] {
        [
            (near_ties(3000, 300), 300, 20),
            (crowded(1500, 50, 0.02), 50, 20),
            (crowded(2100, 8, 0.5), 8, 40),
        ]
    }

    #[test]
    fn every_filter_gives_the_same_bits_and_auto_runs_the_one_it_measured_cheaper() {
        for (unit, dim, k) in auto_cases() {
            let n = unit.len() / dim;
            let plain = f32_reference(&unit, dim, k);
            assert_eq!(plain.filter, KnnKernel::F32);
            assert_eq!(plain.filter_timing, None);
            for kernel in [KnnKernel::Auto, KnnKernel::F32, KnnKernel::Bf16] {
                let got = search_all(&unit, dim, k, kernel);
                assert_eq!(got.ids, plain.ids, "dim {dim} {kernel:?}");
                assert_eq!(bits(&got.sims), bits(&plain.sims), "dim {dim} {kernel:?}");
                match (kernel, bf16::available()) {
                    (KnnKernel::Auto, true) => {
                        let t = got.filter_timing.expect("Auto measures both filters");
                        assert_eq!(got.filter, choice::cheaper(&t), "dim {dim}: {t:?}");
                        assert!(t.f32_ns_per_row > 0.0 && t.bf16_ns_per_row > 0.0, "{t:?}");
                        assert!(t.bf16_cap >= k + k.max(16) && t.bf16_cap < n, "{t:?}");
                        assert_eq!(t.window_rows, AUTO_SAMPLE.min(n));
                        assert!(t.timed_rows > 0 && t.measure_ns > 0.0, "{t:?}");
                    }
                    (_, true) => {
                        assert_eq!(got.filter, kernel, "dim {dim}");
                        assert_eq!(got.filter_timing, None);
                    }
                    (_, false) => {
                        assert_eq!(got.filter, KnnKernel::F32, "dim {dim}");
                        assert_eq!(got.filter_timing, None);
                    }
                }
            }
            for q in (0..n).step_by(97) {
                assert_eq!(plain.ids_of(q), &brute_top_k(&unit, dim, q, k)[..], "query {q}");
            }
        }
    }

    #[test]
    fn the_window_sample_sees_crowded_rows_fail_the_smallest_bf16_buffer() {
        if !bf16::available() {
            return;
        }
        // (case, whether most or nearly none of its rows fail with `k + max(k, 16)`).
        for ((unit, dim, k), crowded) in auto_cases().into_iter().zip([false, true, true]) {
            let n = unit.len() / dim;
            let params = single_thread(k, KnnKernel::Auto);
            let cand = CandidateSet {
                rows: Cow::Borrowed(&unit),
                ids: None,
            };
            let search = Search {
                unit_rows: &unit,
                dim,
                avx512: true,
                cand: &cand,
                self_match: SelfMatch::Exclude,
                params: &params,
            };
            let error = bf16::error_bound(&unit, dim).expect("finite");
            let sample = search.window_sample(error, 1e-6, n - 1);
            let (_, share) = sample.bf16_rows_ns(k + k.max(16));
            if crowded {
                assert!(share > 0.5, "dim {dim}: {share}");
            } else {
                assert!(share < 0.1, "dim {dim}: {share}");
            }
        }
    }

    /// Tight clusters, whose rows' k-th best cosines are all high, and a few isolated rows of
    /// random direction, none of them in the `Auto` sample, whose k-th best is far lower.
    fn clusters_and_loners(n: usize, dim: usize, loners: &[usize]) -> Vec<f32> {
        let mut next = uniform(0x6a09_e667_f3bc_c909);
        let centres: Vec<f32> = (0..20 * dim).map(|_| next()).collect();
        let mut raw: Vec<f32> = (0..n * dim)
            .map(|i| centres[(i / dim % 20) * dim + i % dim] + 0.3 * next())
            .collect();
        for &r in loners {
            for x in &mut raw[r * dim..(r + 1) * dim] {
                *x = next();
            }
        }
        normalize_rows(&raw, dim)
    }

    #[test]
    fn rows_below_the_seeded_threshold_are_searched_again_and_stay_exact() {
        let (n, dim, k) = (2400, 64, 20);
        let s = AUTO_SAMPLE.min(n);
        let sample: Vec<usize> = (0..s).map(|i| (2 * i + 1) * n / (2 * s)).collect();
        let loners: Vec<usize> = (0..n).step_by(53).filter(|r| !sample.contains(r)).collect();
        assert!(loners.len() > 30);
        let unit = clusters_and_loners(n, dim, &loners);
        let plain = f32_reference(&unit, dim, k);
        for kernel in [KnnKernel::Auto, KnnKernel::Bf16] {
            let got = search_all(&unit, dim, k, kernel);
            assert_eq!(got.ids, plain.ids, "{kernel:?}");
            assert_eq!(bits(&got.sims), bits(&plain.sims), "{kernel:?}");
            if bf16::available() && got.filter == KnnKernel::Bf16 {
                // Not vacuous: the seed from the clustered sample rows is above every loner's
                // k-th best, so each loner holds fewer than k entries and is searched again.
                assert!(
                    got.rescued_rows >= loners.len(),
                    "{kernel:?}: {}",
                    got.rescued_rows
                );
            }
        }
        for &q in loners.iter().chain(&sample[..8]) {
            assert_eq!(plain.ids_of(q), &brute_top_k(&unit, dim, q, k)[..], "query {q}");
        }
    }

    /// The bf16 filter's buffers, settled, for all rows of `unit` (self excluded).
    fn bf16_buffers(unit: &[f32], dim: usize, k: usize, margin_scale: f64) -> Option<(Buffers, f64)> {
        if !bf16::available() {
            return None;
        }
        let n = unit.len() / dim;
        let packed = PackedBf16::new(unit, dim)?;
        let margin = 2.0 * packed.error * margin_scale;
        let params = KnnParams {
            k,
            self_match: SelfMatch::Exclude,
            threads: 1,
            blocking: Blocking {
                query_rows: 128,
                candidate_cols: 128,
            },
            kernel: KnnKernel::Bf16,
        };
        let cand = CandidateSet {
            rows: Cow::Borrowed(unit),
            ids: None,
        };
        let search = Search {
            unit_rows: unit,
            dim,
            avx512: true,
            cand: &cand,
            self_match: SelfMatch::Exclude,
            params: &params,
        };
        let mut bufs = Buffers::new(n, (2 * k).min(n - 1), k, margin);
        search.symmetric(&mut bufs, Some(&packed));
        bufs.settle();
        // Rows that pass the exactness check, with the entries kept for the re-score.
        let kept: Vec<Option<Vec<u32>>> = (0..n).map(|r| search.kept(r, &bufs, margin)).collect();
        let mut flat = Buffers::new(n, n, k, margin);
        {
            let mut view = flat.view();
            for (r, c) in kept.iter().enumerate() {
                for &p in c.iter().flatten() {
                    view.offer(r, 0.0, p);
                }
            }
        }
        let passed = kept.iter().filter(|c| c.is_some()).count() as f64 / n as f64;
        Some((flat, passed))
    }

    #[test]
    fn the_bf16_kept_set_holds_the_exact_top_k() {
        let (n, dim, k) = (1200, 40, 15);
        let unit = near_ties(n, dim);
        let Some((kept, passed)) = bf16_buffers(&unit, dim, k, 1.0) else {
            return;
        };
        assert!(passed > 0.9, "{passed}");
        let mut checked = 0;
        for q in 0..n {
            let row: Vec<u32> = kept.row(q).iter().map(|e| e.1).collect();
            if row.is_empty() {
                continue; // failed the check: rescued by the f32 path
            }
            for id in brute_top_k(&unit, dim, q, k) {
                assert!(row.contains(&id), "query {q}: true neighbour {id} not kept");
            }
            checked += 1;
        }
        assert!(checked > n / 2);
        // Not vacuous: a hundredth of the proven margin loses true neighbours.
        let (kept, _) = bf16_buffers(&unit, dim, k, 0.01).expect("bf16");
        let lost = (0..n).any(|q| {
            let row: Vec<u32> = kept.row(q).iter().map(|e| e.1).collect();
            !row.is_empty() && brute_top_k(&unit, dim, q, k).iter().any(|id| !row.contains(id))
        });
        assert!(lost, "a margin 100x too small should drop a true neighbour");
    }
}
