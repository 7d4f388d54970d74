//! The choice of the all-pairs search's filter ([`KnnKernel::Auto`]) by measurement on this CPU:
//! a sample of rows gives each row's bf16 window, the thresholds' seed and the cost of searching
//! a row again; both filters then run on a chunk of rows the way the search runs its tiles, and
//! the lower extrapolated cost per row decides. Only speed depends on it: every filter gives
//! the same ids and cosine bits (see [`super::top_k_neighbours`]).

use std::ops::Range;

use rayon::prelude::*;
pub(super) use retest_tune::Stopwatch;

use super::bf16::{self, PackedBf16};
use super::buffer::{Buffers, BuffersMut};
use super::scan::{ScanCols, ScanRows};
use super::{KnnKernel, RESCORE_GROUP_BYTES, RescoreGroup, Search, SelfMatch};

/// Query rows in the window sample: evenly spaced rows whose bf16 windows are counted and whose
/// k-th best values seed the bf16 filter's thresholds.
pub(super) const AUTO_SAMPLE: usize = 128;

/// The most times the window sample's rows are repeated to time the re-score.
const RESCORE_REPEATS: usize = 2;

/// Chunks of consecutive rows on which both filters are timed, spread evenly over the matrix.
const TIMED_CHUNKS: usize = 1;

/// Rows per timed chunk: a multiple of the bf16 kernel's panel width (so that a chunk ends on a
/// panel boundary) and of its register tile's height (so that it computes no row it then
/// discards).
const TIMED_CHUNK_ROWS: usize = 96;

/// What [`KnnKernel::Auto`] measured to choose the filter of an all-pairs search
/// ([`super::Neighbours::filter_timing`]).
///
/// Costs are nanoseconds of one thread per query row of the whole search, extrapolated from the
/// sample on this CPU under its load at the time; they differ from run to run, and no id or
/// cosine depends on them. `Auto` runs the bf16 filter when `bf16_ns_per_row < f32_ns_per_row`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FilterTiming {
    /// Rows on which both filters were timed: chunks of consecutive rows spread over the matrix.
    pub timed_rows: usize,
    /// Evenly spaced rows whose bf16 windows were counted (they also seed the thresholds).
    pub window_rows: usize,
    /// The f32 filter's cost per row: its tiles, buffers and f64 re-score.
    pub f32_ns_per_row: f64,
    /// The bf16 filter's cost per row with buffers of `bf16_cap`: its tiles, buffers, packing,
    /// f64 re-score of the windows, and the rows predicted to be searched again.
    pub bf16_ns_per_row: f64,
    /// Entries a bf16 buffer row keeps after a cut (chosen by the measured costs below).
    pub bf16_cap: usize,
    /// Share of the window sample whose window exceeds `bf16_cap`: rows the bf16 filter is
    /// predicted to fail and search again with the f32 filter.
    pub bf16_rescue_share: f64,
    /// Cost of searching one row again with the f32 filter (all candidates, f64 re-score).
    pub rescue_ns_per_row: f64,
    /// Cost per candidate re-scored in f64.
    pub rescore_ns: f64,
    /// Wall time the measurement took, in nanoseconds (part of the search's time).
    pub measure_ns: f64,
}

/// What the f32 search of the window sample with the bf16 margin tells (see
/// [`Search::window_sample`]).
#[derive(Debug, Clone)]
pub(super) struct WindowSample {
    /// Each sample row's bf16 window: the candidates within the bf16 margin of its k-th best
    /// (`None`: more than the largest buffer allowed).
    windows: Vec<Option<usize>>,
    /// The admission threshold every row of the bf16 filter starts from; `None`: −∞.
    pub(super) seed: Option<f32>,
    /// The median of the sample rows' k-th best f32 values.
    median_kth: f32,
    /// Measured: one row searched again by the f32 filter, in ns of one thread.
    rescue_ns: f64,
    /// Measured: one candidate re-scored in f64, in ns.
    rescore_ns: f64,
    /// Measured: one buffer slot of one row (fresh memory), in ns.
    slot_ns: f64,
}

/// How one filter runs: buffer size, margin and starting threshold.
#[derive(Debug, Clone, Copy)]
pub(super) struct FilterSetup {
    pub(super) cap: usize,
    pub(super) margin: f64,
    pub(super) seed: Option<f32>,
}

/// Nanoseconds spent on one filter's timed chunks.
#[derive(Debug, Clone, Copy, Default)]
struct Spent {
    /// Allocating the chunks' buffers.
    alloc: f64,
    /// Their tiles: products and offers.
    tiles: f64,
    /// Candidate columns each chunk row was timed against.
    columns: usize,
}

impl std::ops::Add for Spent {
    type Output = Spent;
    fn add(self, o: Spent) -> Spent {
        Spent {
            alloc: self.alloc + o.alloc,
            tiles: self.tiles + o.tiles,
            columns: self.columns.max(o.columns),
        }
    }
}

/// The largest f32 strictly below `x`.
fn f32_below(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) >= x { y.next_down() } else { y }
}

impl WindowSample {
    /// The bf16 filter's cost per row beyond its tiles with buffers of `cap` (each window
    /// re-scored, or the row searched again when its window exceeds `cap`), and the share of
    /// rows searched again.
    pub(super) fn bf16_rows_ns(&self, cap: usize) -> (f64, f64) {
        let s = self.windows.len() as f64;
        let (mut ns, mut failed) = (0.0, 0usize);
        for w in &self.windows {
            match w {
                Some(w) if *w <= cap => ns += *w as f64 * self.rescore_ns,
                _ => {
                    ns += self.rescue_ns;
                    failed += 1;
                }
            }
        }
        (ns / s, failed as f64 / s)
    }

    /// The bf16 buffer size in `min_cap..=max_cap` with the least measured cost per row: each
    /// larger size lets the rows whose window fits pass instead of being searched again, and
    /// costs one more slot of fresh memory per row.
    pub(super) fn cheapest_cap(&self, min_cap: usize, max_cap: usize) -> usize {
        let cost = |cap: usize| self.bf16_rows_ns(cap).0 + cap as f64 * self.slot_ns;
        let (mut cap, mut best) = (min_cap, cost(min_cap));
        for &w in self.windows.iter().flatten() {
            if w > cap && w <= max_cap {
                let c = cost(w);
                if c < best {
                    (cap, best) = (w, c);
                }
            }
        }
        cap
    }
}

/// The timed chunks: [`TIMED_CHUNKS`] ranges of up to [`TIMED_CHUNK_ROWS`] consecutive rows
/// around evenly spaced centres, each starting on a multiple of the bf16 panel width (they may
/// overlap when `n` is small).
fn timed_chunks(n: usize) -> Vec<Range<usize>> {
    let len = TIMED_CHUNK_ROWS.min(n);
    (0..TIMED_CHUNKS)
        .map(|i| {
            let centre = (2 * i + 1) * n / (2 * TIMED_CHUNKS);
            let start = centre.saturating_sub(len / 2).min(n - len) / bf16::NR * bf16::NR;
            start..start + len
        })
        .collect()
}

impl Search<'_> {
    /// Counts the bf16 window of each of [`AUTO_SAMPLE`] evenly spaced rows, seeds the bf16
    /// filter's thresholds, and measures the costs the choice of its buffer size needs (one
    /// thread; run it in a one-thread pool).
    ///
    /// The bf16 filter's wide window keeps every candidate within `2·e_bf16` of a row's k-th best
    /// filter value for the re-score, and a row with more such candidates than its buffer holds
    /// fails the exactness check and is searched again by the f32 filter: on trained embeddings,
    /// whose cosines crowd near the k-th best, that can cost more than the faster kernel saves.
    /// The windows are counted on f32 values (up to `max_cap`) by an f32 search of the sample
    /// rows with the bf16 margin, about `2·AUTO_SAMPLE / n` of the f32 filter's work. Its time
    /// per row is the cost of searching a row again (plus `k` re-scores), its f64 re-score of
    /// the windows gives the cost per re-scored candidate, and its buffers' allocation the cost
    /// of a buffer slot.
    ///
    /// The same sample seeds the rows' admission thresholds. Without a seed a row admits every
    /// value until its buffer first fills, and its threshold climbs towards the k-th best only
    /// cut by cut: ≈ 1,550 offers and 5 cuts per row at 50,000 × 300 for ≈ 160 entries kept in
    /// the end. With the f32 k-th best value `g_s` of each sample row (`e_32`: the f32 filter's
    /// error bound, `f32_error`; `e`: the bf16 one), `L = min g_s`, `M` their median, every row
    /// starts from the largest f32 below `t₀ = L − (M − L) − 3e − e_32`. Exactness does not
    /// depend on the seed: values not above it are never offered, which is the same as being
    /// rejected by a threshold, and `Search::kept` checks every row with a finite threshold —
    /// seeded or cut — the same way (fewer than `k` entries, or a k-th best kept value `f_k`
    /// not more than `2e` above the threshold, fails, and the row is searched again by the f32
    /// filter without a seed). The seed only decides how often that happens: the seed alone
    /// never fails a row whose own f32 k-th best is `g ≥ L − (M − L)`, because its k best
    /// candidates have reference values `≥ g − e_32`, so their bf16 values are
    /// `≥ g − e_32 − e ≥ t₀ + 2e` (strictly above the seed, so at least k entries are kept) and
    /// `f_k − seed > 2e`; only rows further below the sample's lowest than the sample's spread
    /// can be failed by it (none on random vectors, a few isolated words on trained
    /// embeddings); a cut during the scan is checked as without a seed.
    pub(super) fn window_sample(&self, bf16_error: f64, f32_error: f64, max_cap: usize) -> WindowSample {
        let (dim, k) = (self.dim, self.params.k);
        let n = self.cand.len(dim);
        let s = AUTO_SAMPLE.min(n);
        let sample: Vec<u32> = (0..s).map(|i| ((2 * i + 1) * n / (2 * s)) as u32).collect();
        let margin = 2.0 * bf16_error;
        let t = Stopwatch::start();
        let mut bufs = Buffers::new(s, max_cap, k, margin);
        let alloc_ns = t.ns();
        let t = Stopwatch::start();
        self.general(&sample, &mut bufs);
        let search_ns = t.ns();
        bufs.settle();
        // Each sample row's window (`None`: more than `max_cap`).
        let kept: Vec<Option<Vec<u32>>> = (0..s).map(|r| self.kept(r, &bufs, margin)).collect();
        let windows: Vec<Option<usize>> = kept.iter().map(|c| c.as_ref().map(Vec::len)).collect();
        let rescore_ns = self.time_rescore(&sample, &kept);
        // Each sample row's k-th best f32 value (its buffer holds at least k entries, the k
        // best among them: nothing above the k-th best is ever rejected or cut).
        let mut g: Vec<f32> = (0..s).map(|r| bufs.kth_value(r)).collect();
        g.sort_unstable_by(f32::total_cmp);
        let (low, median) = (f64::from(g[0]), f64::from(g[s / 2]));
        let seed = f32_below(low - (median - low) - 3.0 * bf16_error - f32_error);
        WindowSample {
            windows,
            seed: (seed > -1.0).then_some(seed),
            median_kth: g[s / 2],
            rescue_ns: search_ns / s as f64 + k as f64 * rescore_ns,
            rescore_ns,
            slot_ns: alloc_ns / (s * max_cap) as f64,
        }
    }

    /// Times the f64 re-score of the window sample's kept candidates (`kept`, rows `sample`)
    /// and returns its cost per candidate. The search re-scores groups of thousands of rows
    /// (`RESCORE_GROUP_BYTES`), so each candidate row it fetches serves about `G·w/n` pairs (`G`
    /// rows per group, `w` kept per row); the sample's rows are repeated that many times (at
    /// most [`RESCORE_REPEATS`]) into one group, so that fetches weigh as much as in the search.
    fn time_rescore(&self, sample: &[u32], kept: &[Option<Vec<u32>>]) -> f64 {
        let (dim, k) = (self.dim, self.params.k);
        let n = self.cand.len(dim);
        let rescored: usize = kept.iter().flatten().map(Vec::len).sum();
        let passed = kept.iter().flatten().count();
        if passed == 0 {
            return 0.0;
        }
        let group = (RESCORE_GROUP_BYTES / (4 * dim)).clamp(1, n);
        let repeats = (group * rescored / passed).div_ceil(n).clamp(1, RESCORE_REPEATS);
        let queries: Vec<u32> = (0..repeats).flat_map(|_| sample.iter().copied()).collect();
        let kept: Vec<Option<Vec<u32>>> = (0..repeats).flat_map(|_| kept.iter().cloned()).collect();
        let (mut ids, mut sims) = (vec![0u32; queries.len() * k], vec![0f32; queries.len() * k]);
        let t = Stopwatch::start();
        pulp::Arch::new().dispatch(RescoreGroup {
            search: self,
            queries: &queries,
            kept: &kept,
            ids: &mut ids,
            sims: &mut sims,
        });
        t.ns() / (repeats * rescored) as f64
    }

    /// Times the f32 filter (`f32`) and the bf16 filter (`bf16` on `packed`) on the timed chunks
    /// and extrapolates each one's cost per row of the whole search ([`FilterTiming`] without
    /// `measure_ns`); `pack_ns` is what packing the rows for the bf16 filter took.
    ///
    /// Each chunk's rows are searched against every candidate block the way the search runs a
    /// tile: the f32 filter's GEMM and row and column scans, or the bf16 kernel with its row and
    /// column offers. Row offers go to the chunk's own buffers, set up as the search sets up
    /// every row's (buffer size, margin, seed); column offers go to scratch rows standing for
    /// the candidate block's rows, emptied before each block: the bf16 ones start from the seed
    /// (or, without one, just below the sample's median k-th best value), where the search's
    /// rows stand for most of the run; the f32 ones reject every value (see below). The two filters alternate by halves of the candidate blocks, so a
    /// change of load while measuring falls on both. The search computes each pair once and
    /// offers it twice, `n²/2` products for `n` rows; the chunks' `m` rows compute `m·n` and
    /// offer them twice, so a row of the search costs the chunks' tile time over `2m`, plus
    /// its buffers' share, its re-scores and, for bf16, the rows searched again
    /// ([`WindowSample::cheapest_cap`]).
    pub(super) fn time_filters(
        &self,
        sample: &WindowSample,
        f32: FilterSetup,
        bf16: FilterSetup,
        packed: &PackedBf16,
        pack_ns: f64,
    ) -> FilterTiming {
        let (dim, k) = (self.dim, self.params.k);
        let n = self.cand.len(dim);
        let chunks = timed_chunks(n);
        let rows: usize = chunks.iter().map(ExactSizeIterator::len).sum();
        let threads = rayon::current_num_threads().clamp(1, chunks.len());
        let per_task = chunks.len().div_ceil(threads);
        // Column offers stand for the other half of each row's offers. A seeded bf16 row offers
        // at the same rate all run long, from its seed; an f32 row, unseeded, makes nearly all
        // of its offers while its threshold climbs, which the chunk's own rows already go
        // through, so its column side only compares.
        let scratch_f32 = f32::INFINITY;
        let scratch_bf16 = bf16
            .seed
            .unwrap_or_else(|| f32_below(f64::from(sample.median_kth) - bf16.margin));
        let (spent_f32, spent_bf16) = chunks
            .par_chunks(per_task)
            .map(|group| self.time_group(group, (f32, scratch_f32), (bf16, scratch_bf16), packed))
            .reduce(
                || (Spent::default(), Spent::default()),
                |a, b| (a.0 + b.0, a.1 + b.1),
            );
        let m = rows as f64;
        // A row of the search: n/2 products, n offers; a timed row: c products, 2c offers.
        let per_row =
            |spent: Spent| spent.alloc / m + spent.tiles * n as f64 / (2.0 * spent.columns as f64 * m);
        let (bf16_rows_ns, bf16_rescue_share) = sample.bf16_rows_ns(bf16.cap);
        FilterTiming {
            timed_rows: rows,
            window_rows: sample.windows.len(),
            f32_ns_per_row: per_row(spent_f32) + k as f64 * sample.rescore_ns,
            bf16_ns_per_row: per_row(spent_bf16) + pack_ns / n as f64 + bf16_rows_ns,
            bf16_cap: bf16.cap,
            bf16_rescue_share,
            rescue_ns_per_row: sample.rescue_ns,
            rescore_ns: sample.rescore_ns,
            measure_ns: 0.0,
        }
    }

    /// [`Search::time_filters`] for one group of chunks on the calling thread: the time spent
    /// by each filter (f32, bf16).
    fn time_group(
        &self,
        group: &[Range<usize>],
        (f32, scratch_f32): (FilterSetup, f32),
        (bf16, scratch_bf16): (FilterSetup, f32),
        packed: &PackedBf16,
    ) -> (Spent, Spent) {
        let (dim, k) = (self.dim, self.params.k);
        let n = self.cand.len(dim);
        let rows: usize = group.iter().map(ExactSizeIterator::len).sum();
        let b32 = self.params.blocking.query_rows;
        let b16 = b32.div_ceil(bf16::NR) * bf16::NR;
        let new_buffers = |setup: FilterSetup, n_rows: usize| {
            let mut bufs = Buffers::new(n_rows, setup.cap, k, setup.margin);
            if let Some(seed) = setup.seed {
                bufs.seed(seed);
            }
            bufs
        };
        let (mut spent_f32, mut spent_bf16) = (Spent::default(), Spent::default());
        let t = Stopwatch::start();
        let mut bufs_f32 = new_buffers(f32, rows);
        spent_f32.alloc = t.ns();
        let t = Stopwatch::start();
        let mut bufs_bf16 = new_buffers(bf16, rows);
        spent_bf16.alloc = t.ns();
        let mut scratch_f32_bufs = Buffers::new(b32.min(n), f32.cap, k, f32.margin);
        let mut scratch_bf16_bufs = Buffers::new(b16.min(n), bf16.cap, k, bf16.margin);
        let apacks: Vec<Vec<u32>> = group.iter().map(|c| bf16::pack_rows(packed, c.clone())).collect();
        let longest = group.iter().map(ExactSizeIterator::len).max().unwrap_or(0);
        let mut tile = vec![0f32; longest * b32.min(n)];
        // Every other candidate block, its first half and then its second for each filter.
        let timed_blocks = |b: usize| -> Vec<Range<usize>> {
            (0..n.div_ceil(b))
                .step_by(2)
                .map(|j| j * b..((j + 1) * b).min(n))
                .collect()
        };
        let (blocks_f32, blocks_bf16) = (timed_blocks(b32), timed_blocks(b16));
        spent_f32.columns = blocks_f32.iter().map(ExactSizeIterator::len).sum();
        spent_bf16.columns = blocks_bf16.iter().map(ExactSizeIterator::len).sum();
        let half_of = |blocks: &[Range<usize>], half: usize| {
            blocks[blocks.len() * half / 2..blocks.len() * (half + 1) / 2].to_vec()
        };
        for half in 0..2 {
            let t = Stopwatch::start();
            for block in half_of(&blocks_f32, half) {
                scratch_f32_bufs.clear(scratch_f32);
                self.f32_chunk_tiles(group, block, &mut bufs_f32, &mut scratch_f32_bufs, &mut tile);
            }
            spent_f32.tiles += t.ns();
            let t = Stopwatch::start();
            if half == 0 {
                self.bf16_chunk_diagonals(group, &mut bufs_bf16, packed, &apacks);
            }
            for block in half_of(&blocks_bf16, half) {
                scratch_bf16_bufs.clear(scratch_bf16);
                self.bf16_chunk_tiles(
                    group,
                    block,
                    &mut bufs_bf16,
                    &mut scratch_bf16_bufs,
                    packed,
                    &apacks,
                );
            }
            spent_bf16.tiles += t.ns();
        }
        (spent_f32, spent_bf16)
    }

    /// The f32 filter's tiles of each chunk of `group` against candidate block `block`, as the
    /// search runs a tile: GEMM (the chunk's own row excluded), the chunk's rows' offers to
    /// `bufs` (the group's rows, in order) by the row scan, the block's rows' offers to
    /// `scratch` by the column scan.
    fn f32_chunk_tiles(
        &self,
        group: &[Range<usize>],
        block: Range<usize>,
        bufs: &mut Buffers,
        scratch: &mut Buffers,
        tile: &mut [f32],
    ) {
        let dim = self.dim;
        let rows = &self.cand.rows[..];
        let nc = block.len();
        let arch = pulp::Arch::new();
        let mut rest = bufs.view();
        let (mut block_rows, _) = scratch.view().split_at(nc);
        for chunk in group {
            let m = chunk.len();
            let (mut h, tail) = rest.split_at(m);
            rest = tail;
            self.gemm(
                tile,
                &rows[chunk.start * dim..chunk.end * dim],
                &rows[block.start * dim..block.end * dim],
            );
            if self.self_match == SelfMatch::Exclude {
                for p in chunk.start.max(block.start)..chunk.end.min(block.end) {
                    tile[(p - block.start) * m + (p - chunk.start)] = f32::NEG_INFINITY;
                }
            }
            let tile = &tile[..m * nc];
            arch.dispatch(ScanRows {
                tile,
                ld: m,
                row_lo: 0,
                bufs: &mut h,
                cols: 0..nc,
                pos0: block.start as u32,
            });
            arch.dispatch(ScanCols {
                tile,
                ld: m,
                n_tile_rows: m,
                col_lo: 0,
                bufs: &mut block_rows,
                pos0: chunk.start as u32,
            });
        }
    }

    /// The bf16 kernel on each chunk of `group` against itself (row offers only, the query
    /// excluded as on the search's diagonal tiles); `apacks` are the chunks in the kernel's row
    /// layout.
    fn bf16_chunk_diagonals(
        &self,
        group: &[Range<usize>],
        bufs: &mut Buffers,
        packed: &PackedBf16,
        apacks: &[Vec<u32>],
    ) {
        let exclude = self.self_match == SelfMatch::Exclude;
        let mut rest = bufs.view();
        for (chunk, apack) in group.iter().zip(apacks) {
            let (mut h, tail) = rest.split_at(chunk.len());
            rest = tail;
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `packed` exists only when `bf16::available()`; the chunk starts on a
            // multiple of the panel width.
            unsafe {
                bf16::block_pair(packed, chunk.clone(), chunk.clone(), &mut h, None, exclude, apack)
            };
            #[cfg(not(target_arch = "x86_64"))]
            let _ = (packed, apack, exclude, &mut h);
        }
    }

    /// The bf16 kernel on each chunk of `group` against the rows of candidate block `block`
    /// outside the chunk (the chunk itself: [`Search::bf16_chunk_diagonals`]), as the search
    /// runs a tile: the chunk's rows offer to `bufs` on the kernel's row side, the block's rows
    /// to `scratch` on its column side.
    fn bf16_chunk_tiles(
        &self,
        group: &[Range<usize>],
        block: Range<usize>,
        bufs: &mut Buffers,
        scratch: &mut Buffers,
        packed: &PackedBf16,
        apacks: &[Vec<u32>],
    ) {
        let mut rest = bufs.view();
        for (chunk, apack) in group.iter().zip(apacks) {
            let (mut h, tail) = rest.split_at(chunk.len());
            rest = tail;
            let parts = [
                block.start..block.end.min(chunk.start),
                block.start.max(chunk.end)..block.end,
            ];
            for part in parts.into_iter().filter(|p| !p.is_empty()) {
                let (_, block_rows) = scratch.view().split_at(part.start - block.start);
                let (mut block_rows, _): (BuffersMut<'_>, _) = block_rows.split_at(part.len());
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `packed` exists only when `bf16::available()`; `chunk` and `part`
                // start on multiples of the panel width (a chunk ends on one, or at `n`).
                unsafe {
                    bf16::block_pair(
                        packed,
                        chunk.clone(),
                        part,
                        &mut h,
                        Some(&mut block_rows),
                        false,
                        apack,
                    )
                };
                #[cfg(not(target_arch = "x86_64"))]
                let _ = (packed, apack, part, &mut h, &mut block_rows);
            }
        }
    }
}

/// Which filter [`KnnKernel::Auto`] runs by the measured costs.
pub(super) fn cheaper(timing: &FilterTiming) -> KnnKernel {
    if timing.bf16_ns_per_row < timing.f32_ns_per_row {
        KnnKernel::Bf16
    } else {
        KnnKernel::F32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(windows: Vec<Option<usize>>) -> WindowSample {
        WindowSample {
            windows,
            seed: None,
            median_kth: 0.5,
            rescue_ns: 10_000.0,
            rescore_ns: 10.0,
            slot_ns: 1.0,
        }
    }

    #[test]
    fn the_cap_grows_only_while_the_rows_it_saves_from_a_rescue_pay_for_its_memory() {
        // 3 of 4 rows fit 120; one needs 900 (a rescue costs 10,000 ns, a slot 1 ns per row).
        let s = sample(vec![Some(110), Some(115), Some(120), Some(900)]);
        assert_eq!(s.cheapest_cap(116, 2000), 120);
        let (ns, share) = s.bf16_rows_ns(120);
        assert_eq!(share, 0.25);
        assert_eq!(ns, (1100.0 + 1150.0 + 1200.0 + 10_000.0) / 4.0);
        // Re-scoring a window of 900 (900 ns) instead of a rescue saves 4,550 ns per row on
        // average; 784 more slots cost 3,920 ns at 5 ns a slot (pays), 7,840 ns at 10 (does not).
        let s = WindowSample {
            rescore_ns: 1.0,
            slot_ns: 5.0,
            ..sample(vec![Some(110), Some(900)])
        };
        assert_eq!(s.cheapest_cap(116, 2000), 900);
        let s = WindowSample { slot_ns: 10.0, ..s };
        assert_eq!(s.cheapest_cap(116, 2000), 116);
        // Windows beyond the largest buffer allowed are never chosen.
        assert_eq!(s.cheapest_cap(116, 800), 116);
    }

    #[test]
    fn the_cheaper_measured_filter_is_chosen() {
        let timing = |f32_ns_per_row, bf16_ns_per_row| FilterTiming {
            timed_rows: 256,
            window_rows: 128,
            f32_ns_per_row,
            bf16_ns_per_row,
            bf16_cap: 200,
            bf16_rescue_share: 0.0,
            rescue_ns_per_row: 1.0,
            rescore_ns: 1.0,
            measure_ns: 1.0,
        };
        assert_eq!(cheaper(&timing(100.0, 60.0)), KnnKernel::Bf16);
        assert_eq!(cheaper(&timing(100.0, 130.0)), KnnKernel::F32);
        assert_eq!(cheaper(&timing(100.0, 100.0)), KnnKernel::F32);
    }

    #[test]
    fn timed_chunks_are_aligned_inside_the_matrix_and_spread() {
        for n in [1, 31, 100, 700, 3000, 50_000] {
            let chunks = timed_chunks(n);
            assert_eq!(chunks.len(), TIMED_CHUNKS);
            for c in &chunks {
                assert!(c.end <= n && !c.is_empty(), "{n}: {c:?}");
                assert_eq!(c.start % bf16::NR, 0, "{n}: {c:?}");
                assert_eq!(c.len(), TIMED_CHUNK_ROWS.min(n));
            }
        }
        let chunks = timed_chunks(50_000);
        assert!(chunks.windows(2).all(|w| w[0].end <= w[1].start));
        for (i, c) in chunks.iter().enumerate() {
            let centre = (2 * i + 1) * 50_000 / (2 * TIMED_CHUNKS);
            assert!(c.contains(&centre), "{c:?} {centre}");
        }
    }
}
