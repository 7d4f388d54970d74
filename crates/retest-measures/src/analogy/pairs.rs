//! Bolukbasi et al.'s (2016) analogy pairs with B and D free: every pair of close words scored
//! along a seed direction (she − he), made one-to-one greedily, by tiled matrix products.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use pulp::{Simd, WithSimd};
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::SolveError;
use super::solvers::{AnalogySpace, DeltaBound, diff_stats, gemm_margin};

/// Bolukbasi et al.'s vocabulary for pair generation: the 50,000 most frequent words.
pub const PAIRS_RESTRICT_VOCAB: usize = 50_000;
/// Bolukbasi et al.'s number of pairs.
pub const PAIRS_N: usize = 500;

/// What [`generate_pairs`] looks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairOptions {
    /// δ ≥ 0, finite: only words within δ of each other pair (1 in Bolukbasi et al.).
    pub delta: f64,
    /// Whether δ bounds the distance or its square (see [`DeltaBound`]).
    pub bound: DeltaBound,
    /// Pairs wanted (500 in Bolukbasi et al.).
    pub n_pairs: usize,
}

/// One generated pair x : y, aligned with the seed direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeneratedPair {
    /// The row on the seed's first side (`she` of she − he).
    pub x: u32,
    /// The row on the seed's second side.
    pub y: u32,
    /// cos(ŝ₁ − ŝ₂, x̂ − ŷ) > 0.
    pub score: f64,
    /// ‖x̂ − ŷ‖.
    pub distance: f64,
}

/// Tile side of the all-pairs product.
const TILE: usize = 1024;

/// Bolukbasi et al.'s Eq. 3 with B and D free (Nissim, van Noord & van der Goot 2020, Eq. 3):
/// for the seed direction g = ŝ₁ − ŝ₂ (rows `seed.0` and `seed.1`, e.g. she and he), every
/// pair of distinct rows {x, y} of `space` whose unit vectors are within δ
/// (‖x̂ − ŷ‖ ≤ δ, or ‖x̂ − ŷ‖² ≤ δ, as `options.bound` says) is oriented so that
/// S(x, y) = cos(g, x̂ − ŷ) > 0 (pairs with S = 0 are left out). The pairs are taken by
/// descending S (ties: lower x, then lower y), each kept only if neither of its words is in a
/// pair kept before, until `options.n_pairs` are kept or none is left. debiaswe's
/// `best_analogies_dist_thresh` instead lets a word appear once as x and once more as y.
///
/// The Gram matrix of the unit rows is computed in tiles of 1,024 × 1,024 (faer GEMM, f32) over
/// its upper triangle, so the n × n matrix never exists. A pair whose f32 squared distance is
/// beyond δ by more than a margin above the GEMM's rounding error is no candidate. The score
/// S = g · (x̂ − ŷ) / (‖g‖ ‖x̂ − ŷ‖) is then bounded without touching the vectors: the
/// numerator from per-row f64 projections g · û (computed once), the distance from the f32
/// squared distance, each with a rigorous error bound. Tiles run in parallel on rayon's pool.
/// A pass keeps some number k of best candidates; a tile drops a pair whose upper bound is
/// below a score that k candidates are known to reach (the k-th highest lower bound among the
/// pairs it keeps, or the highest such score any tile has published). Only the pairs kept at
/// the end, and those within the margin of δ or too close for a useful bound, are scored
/// exactly in f64 from the vectors, where the threshold is also decided. A pass keeps k
/// candidates (at first 256 per pair wanted, at least 4,096); one that runs out of them before
/// `n_pairs` are chosen, having dropped some, is repeated with eight times as many. The result
/// is exact, every score and distance computed the same way whatever is bounded, and does not
/// depend on the thread count.
///
/// # Errors
///
/// `n_pairs` is 0, δ is negative or not finite, or a seed row is not in the space.
pub fn generate_pairs(
    space: &AnalogySpace,
    seed: (u32, u32),
    options: &PairOptions,
) -> Result<Vec<GeneratedPair>, SolveError> {
    if options.n_pairs == 0 {
        return Err(SolveError::ZeroPairs);
    }
    if !(options.delta.is_finite() && options.delta > 0.0) {
        return Err(SolveError::Delta(options.delta));
    }
    let n_rows = space.n_rows();
    for row in [seed.0, seed.1] {
        if row as usize >= n_rows {
            return Err(SolveError::SeedOutOfRange { row, n_rows });
        }
    }
    let g: Vec<f64> = space
        .row(seed.0)
        .iter()
        .zip(space.row(seed.1))
        .map(|(&x, &y)| f64::from(x) - f64::from(y))
        .collect();
    Ok(generate(
        space,
        &g,
        options,
        options.n_pairs.saturating_mul(256).max(4096),
    ))
}

/// The pairs along `g`, keeping at first the best `cap` candidates.
fn generate(space: &AnalogySpace, g: &[f64], options: &PairOptions, mut cap: usize) -> Vec<GeneratedPair> {
    let n_rows = space.n_rows();
    let g_norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
    if g_norm == 0.0 {
        return Vec::new();
    }
    loop {
        let found = candidates(space, g, g_norm, options, cap);
        let pairs = one_to_one(&found.kept, n_rows, options.n_pairs);
        if pairs.len() == options.n_pairs || found.total == found.kept.len() {
            return pairs;
        }
        cap = cap.saturating_mul(8);
    }
}

/// The best candidate pairs of one pass.
struct Found {
    /// At most `cap` candidates, in no particular order.
    kept: Vec<GeneratedPair>,
    /// Candidates seen (kept or not).
    total: usize,
}

/// Candidate order: score descending, then x, then y.
fn order(p: &GeneratedPair, q: &GeneratedPair) -> std::cmp::Ordering {
    q.score
        .total_cmp(&p.score)
        .then(p.x.cmp(&q.x))
        .then(p.y.cmp(&q.y))
}

/// Keeps the `cap` best of `v`.
fn prune(v: &mut Vec<GeneratedPair>, cap: usize) {
    if v.len() > cap {
        v.select_nth_unstable_by(cap, order);
        v.truncate(cap);
    }
}

/// The best `cap` candidate pairs along `g` (‖g‖ = `g_norm`) and how many there are.
///
/// A pair of the upper triangle whose squared distance from the f32 Gram tile is beyond δ by
/// more than the rounding margin is no candidate. A pair near the threshold, or whose bounds
/// below would be useless, is scored exactly at once. Every other pair is certainly a
/// candidate and only bounded (see [`Screen`]); tiles keep those whose upper bound reaches the
/// `cap`-th highest lower bound seen (in the tile, or published by any tile: either is at most
/// the `cap`-th best score of all). The kept pairs are scored exactly at the end, and the
/// best `cap` of them are the best `cap` of all candidates.
fn candidates(space: &AnalogySpace, g: &[f64], g_norm: f64, options: &PairOptions, cap: usize) -> Found {
    let n = space.n_rows();
    let dim = space.dim();
    let unit = space.unit_rows();
    let n_tiles = n.div_ceil(TILE);
    let tiles: Vec<(usize, usize)> = (0..n_tiles)
        .flat_map(|bi| (bi..n_tiles).map(move |bj| (bi, bj)))
        .collect();
    let screen = Screen::new(space, g, g_norm, options);
    let published = AtomicU64::new(0.0f64.to_bits());
    let pool = tiles
        .par_iter()
        .map_init(
            || (vec![0.0f32; TILE * TILE], vec![0u8; TILE]),
            |(gram, flags), &(bi, bj)| {
                let (r0, r1) = (bi * TILE, ((bi + 1) * TILE).min(n));
                let (c0, c1) = (bj * TILE, ((bj + 1) * TILE).min(n));
                let (nr, nc) = (r1 - r0, c1 - c0);
                // gram (nr × nc, column-major) = U[r0..r1] · U[c0..c1]ᵀ.
                let dst = MatMut::from_column_major_slice_mut(&mut gram[..nr * nc], nr, nc);
                let lhs = MatRef::from_row_major_slice(&unit[r0 * dim..r1 * dim], nr, dim);
                let rhs = MatRef::from_row_major_slice(&unit[c0 * dim..c1 * dim], nc, dim).transpose();
                matmul(dst, Accum::Replace, lhs, rhs, 1.0f32, Par::Seq);
                let mut pool = Pool::default();
                let mut threshold = 0.0f64;
                let mut reach = 0.0f64;
                let mut next_prune = cap.saturating_mul(2);
                for (jc, column) in gram[..nr * nc].chunks_exact(nr).enumerate() {
                    let j = c0 + jc;
                    let rows = if bi == bj { jc } else { nr };
                    let shared = f64::from_bits(published.load(Relaxed));
                    if shared > threshold {
                        threshold = shared;
                        reach = screen.reach(threshold);
                    }
                    // Most pairs are settled here without a branch: beyond δ, or certainly
                    // candidates bounded below the threshold (counted, not kept).
                    pool.total += pulp::Arch::new().dispatch(Settle {
                        screen: &screen,
                        column: &column[..rows],
                        r0,
                        j,
                        reach,
                        flags: &mut flags[..rows],
                    });
                    // Rows past `rows` up to a multiple of 8 are unflagged, so the flags can be
                    // read 8 at a time.
                    let padded = rows.next_multiple_of(8);
                    flags[rows..padded].fill(0);
                    let flagged = flags[..padded]
                        .chunks_exact(8)
                        .enumerate()
                        .filter(|(_, word)| u64::from_ne_bytes((*word).try_into().unwrap()) != 0)
                        .flat_map(|(w, word)| (0..8).filter(|&b| word[b] != 0).map(move |b| 8 * w + b));
                    for ir in flagged {
                        let i = r0 + ir;
                        let approx = screen.approx(i, j, column[ir]);
                        let candidate = if let Some(diff) = screen.certain(i, j, approx) {
                            pool.total += 1;
                            if screen.below(diff, approx, reach) {
                                continue;
                            }
                            Bounded {
                                i: i as u32,
                                j: j as u32,
                                low: screen.low(diff, approx),
                                high: screen.high(diff, approx),
                                exact: None,
                            }
                        } else {
                            let Some(pair) = exact_candidate(space, g, g_norm, options, i, j) else {
                                continue;
                            };
                            pool.total += 1;
                            if pair.score < threshold {
                                continue;
                            }
                            Bounded {
                                i: i as u32,
                                j: j as u32,
                                low: pair.score,
                                high: pair.score,
                                exact: Some(pair),
                            }
                        };
                        pool.items.push(candidate);
                        if pool.items.len() >= next_prune {
                            threshold = pool.prune(cap, &published);
                            reach = screen.reach(threshold);
                            next_prune = cap.max(pool.items.len()).saturating_mul(2);
                        }
                    }
                }
                pool.prune(cap, &published);
                pool
            },
        )
        .reduce(Pool::default, |mut a, b| {
            a.items.extend(b.items);
            a.total += b.total;
            a.prune(cap, &published);
            a
        });
    let mut kept: Vec<GeneratedPair> = pool
        .items
        .par_iter()
        .map(|c| {
            c.exact.unwrap_or_else(|| {
                exact_candidate(space, g, g_norm, options, c.i as usize, c.j as usize)
                    .expect("a pair bounded as a candidate is one")
            })
        })
        .collect();
    prune(&mut kept, cap);
    Found {
        kept,
        total: pool.total,
    }
}

/// The pair {`i`, `j`} (`i` < `j`) scored exactly from the vectors, if it is a candidate:
/// within δ, distinct, and not orthogonal to `g`.
fn exact_candidate(
    space: &AnalogySpace,
    g: &[f64],
    g_norm: f64,
    options: &PairOptions,
    i: usize,
    j: usize,
) -> Option<GeneratedPair> {
    let (dist2, dot) = diff_stats(g, space.row(i as u32), space.row(j as u32));
    if !options.bound.admits(dist2, options.delta) || dist2 == 0.0 || dot == 0.0 {
        return None;
    }
    let score = dot / (g_norm * dist2.sqrt());
    let (x, y) = if score > 0.0 { (i, j) } else { (j, i) };
    Some(GeneratedPair {
        x: x as u32,
        y: y as u32,
        score: score.abs(),
        distance: dist2.sqrt(),
    })
}

/// A candidate pair {`i`, `j`} (`i` < `j`) and bounds on its exact score.
#[derive(Clone, Copy, Debug)]
struct Bounded {
    i: u32,
    j: u32,
    /// At most the exact score.
    low: f64,
    /// At least the exact score.
    high: f64,
    /// The exact pair, when already scored (then `low` = `high` = its score).
    exact: Option<GeneratedPair>,
}

/// The candidates a tile (or a group of tiles) keeps, and how many it has seen.
#[derive(Default)]
struct Pool {
    items: Vec<Bounded>,
    total: usize,
}

impl Pool {
    /// Drops the candidates that cannot be among the best `cap` of all: those whose upper
    /// bound is below the `cap`-th highest lower bound kept, or below the highest such
    /// threshold `published` so far, which is raised to this one. Returns the threshold used.
    fn prune(&mut self, cap: usize, published: &AtomicU64) -> f64 {
        let mut threshold = 0.0f64;
        if cap > 0 && self.items.len() >= cap {
            let mut lows: Vec<f64> = self.items.iter().map(|c| c.low).collect();
            let (_, &mut kth, _) = lows.select_nth_unstable_by(cap - 1, |a, b| b.total_cmp(a));
            // Non-negative f64s order as their bits do.
            published.fetch_max(kth.to_bits(), Relaxed);
            threshold = kth;
        }
        threshold = threshold.max(f64::from_bits(published.load(Relaxed)));
        self.items.retain(|c| c.high >= threshold);
        threshold
    }
}

/// Bounds on the score of a pair from its approximate squared distance (from the f32 Gram
/// matrix) and per-row f64 projections on `g`, valid for the score as [`exact_candidate`]
/// computes it.
struct Screen<'a> {
    /// ‖û_r‖² of every row, in f64.
    norms2: &'a [f64],
    /// g · û_r of every row, in f64 in index order.
    projections: Vec<f64>,
    /// A bound on |g · (x̂ − ŷ) − (g · x̂ − g · ŷ)| for the computed values, any rows.
    slack: f64,
    /// ‖g‖.
    g_norm: f64,
    /// A bound on the error of the approximate squared distance.
    margin: f64,
    /// The largest squared distance δ admits.
    squared_limit: f64,
    /// Pairs whose approximate squared distance exceeds this are beyond δ.
    limit: f64,
    /// A pair whose f32 product is below this has an approximate squared distance beyond
    /// `limit`, whatever its rows (−∞ when none is sure to).
    cut: f32,
}

impl<'a> Screen<'a> {
    fn new(space: &'a AnalogySpace, g: &[f64], g_norm: f64, options: &PairOptions) -> Self {
        let dim = space.dim() as f64;
        let projections = (0..space.n_rows() as u32)
            .map(|r| space.row(r).iter().zip(g).map(|(&x, &w)| w * f64::from(x)).sum())
            .collect();
        let max_norm = space.norms2().iter().fold(0.0f64, |m, &v| m.max(v)).sqrt();
        // Each of g · x̂, g · ŷ and g · (x̂ − ŷ), summed in f64 over `dim` terms, is within
        // about dim·ε/2 · ‖g‖ · ‖·‖ of its exact value (‖x̂ − ŷ‖ ≤ 2 max ‖û‖); with room to spare:
        let slack = 4.0 * (dim + 2.0) * f64::EPSILON * g_norm * max_norm.max(1.0);
        // The f32 products of unit rows err by at most about dim·ε₃₂/2 each.
        let margin = gemm_margin(space.dim());
        let squared_limit = options.bound.squared_limit(options.delta);
        let limit = squared_limit + margin;
        // ‖x̂‖² + ‖ŷ‖² − 2s > `limit` when s < min ‖û‖² − limit / 2; lowered by more than the
        // rounding of the f32 conversion and of the f64 sum.
        let min_norm2 = space.norms2().iter().fold(f64::INFINITY, |m, &v| m.min(v));
        let cut = min_norm2 - limit / 2.0;
        let cut = (cut - 1e-6 * (1.0 + cut.abs())) as f32;
        Screen {
            norms2: space.norms2(),
            projections,
            slack,
            g_norm,
            margin,
            squared_limit,
            limit,
            cut: if cut.is_nan() { f32::NEG_INFINITY } else { cut },
        }
    }

    /// The approximate ‖x̂ − ŷ‖² of rows `i` and `j` whose f32 product is `s`.
    fn approx(&self, i: usize, j: usize, s: f32) -> f64 {
        self.norms2[i] + self.norms2[j] - 2.0 * f64::from(s)
    }

    /// Classifies the pairs of rows `r0 + k` and `j` whose f32 products are `column[k]`:
    /// `flags[k]` is 1 (else 0) when the pair is within the margin of δ and not certainly a candidate
    /// below the threshold of `reach` (see [`Screen::certain`] and [`Screen::below`]). Returns
    /// the number of certain candidates below the threshold. The same as those calls, row by
    /// row, but a chunk of 16 rows whose f32 products are all below `cut` is passed over at
    /// once and the others are classified without branches.
    #[inline(always)]
    fn settle(&self, column: &[f32], r0: usize, j: usize, reach: f64, flags: &mut [u8]) -> usize {
        let rows = column.len();
        let (norms2, projections) = (&self.norms2[r0..r0 + rows], &self.projections[r0..r0 + rows]);
        let (norm_j, projection_j) = (self.norms2[j], self.projections[j]);
        let mut settled = 0;
        let chunks = column
            .chunks(16)
            .zip(norms2.chunks(16))
            .zip(projections.chunks(16))
            .zip(flags.chunks_mut(16));
        for (((column, norms2), projections), flags) in chunks {
            if column.iter().fold(false, |any, &s| any | (s >= self.cut)) {
                settled +=
                    self.settle_chunk(column, norms2, projections, (norm_j, projection_j), reach, flags);
            } else {
                flags.fill(0);
            }
        }
        settled
    }

    /// [`Screen::settle`] on rows whose squared norms are `norms2` and projections
    /// `projections`, paired with a row of squared norm and projection `j`.
    #[inline(always)]
    fn settle_chunk(
        &self,
        column: &[f32],
        norms2: &[f64],
        projections: &[f64],
        j: (f64, f64),
        reach: f64,
        flags: &mut [u8],
    ) -> usize {
        let (norm_j, projection_j) = j;
        let mut settled = 0;
        let rows = column.iter().zip(norms2).zip(projections).zip(flags);
        for (((&s, &norm_i), &projection_i), flag) in rows {
            let approx = norm_i + norm_j - 2.0 * f64::from(s);
            let diff = (projection_i - projection_j).abs();
            let within = approx <= self.limit;
            let certain = (approx + 2.0 * self.margin <= self.squared_limit)
                & (approx > 2.0 * self.margin)
                & (diff > 2.0 * self.slack);
            let dot_high = diff + self.slack;
            let below = certain & (dot_high * dot_high < reach * (approx - self.margin));
            settled += usize::from(below);
            *flag = u8::from(within & !below);
        }
        settled
    }

    /// |g · x̂ − g · ŷ| from the projections, if the pair {`i`, `j`} with approximate squared
    /// distance `approx` is certainly a candidate (within δ, apart, not orthogonal to `g`)
    /// with useful bounds; `None` when it must be scored exactly to tell.
    fn certain(&self, i: usize, j: usize, approx: f64) -> Option<f64> {
        let diff = (self.projections[i] - self.projections[j]).abs();
        let within = approx + 2.0 * self.margin <= self.squared_limit;
        (within && approx > 2.0 * self.margin && diff > 2.0 * self.slack).then_some(diff)
    }

    /// A lower bound on the score of a certain pair (see [`Screen::certain`]).
    fn low(&self, diff: f64, approx: f64) -> f64 {
        (diff - self.slack) / (self.g_norm * (approx + self.margin).sqrt()) * (1.0 - 1e-9)
    }

    /// An upper bound on the score of a certain pair (see [`Screen::certain`]).
    fn high(&self, diff: f64, approx: f64) -> f64 {
        (diff + self.slack) / (self.g_norm * (approx - self.margin).sqrt()) * (1.0 + 1e-9)
    }

    /// What [`Screen::below`] compares against for a score threshold `t` ≥ 0: t²‖g‖², lowered
    /// enough to absorb the rounding of the score and of the comparison.
    fn reach(&self, t: f64) -> f64 {
        t * t * self.g_norm * self.g_norm * (1.0 - 1e-9)
    }

    /// Whether the score of a certain pair is below the threshold of `reach` (see
    /// [`Screen::reach`]), without a division or a square root. False whenever `reach` is 0.
    fn below(&self, diff: f64, approx: f64, reach: f64) -> bool {
        let dot_high = diff + self.slack;
        dot_high * dot_high < reach * (approx - self.margin)
    }
}

/// [`Screen::settle`] as a `pulp` operation: compiled for the CPU's vector instructions, the
/// same operations in the same order, so the same flags.
struct Settle<'a, 's> {
    screen: &'a Screen<'s>,
    column: &'a [f32],
    r0: usize,
    j: usize,
    reach: f64,
    flags: &'a mut [u8],
}

impl WithSimd for Settle<'_, '_> {
    type Output = usize;
    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) -> usize {
        self.screen
            .settle(self.column, self.r0, self.j, self.reach, self.flags)
    }
}

/// The greedy one-to-one choice: best first, a pair kept only when neither word is used.
fn one_to_one(kept: &[GeneratedPair], n_rows: usize, n_pairs: usize) -> Vec<GeneratedPair> {
    let mut sorted = kept.to_vec();
    sorted.sort_unstable_by(order);
    let mut used = vec![false; n_rows];
    let mut pairs = Vec::with_capacity(n_pairs);
    for p in sorted {
        if used[p.x as usize] || used[p.y as usize] {
            continue;
        }
        used[p.x as usize] = true;
        used[p.y as usize] = true;
        pairs.push(p);
        if pairs.len() == n_pairs {
            break;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use retest_test_support::RandomData;

    use super::*;

    #[test]
    fn a_pass_that_ran_out_of_candidates_is_repeated_with_more() {
        let dim = 6;
        let raw = RandomData::new("retest-eval-pairs-cap").gaussian(400, dim, 1);
        let words = (0..400).map(|i| format!("w{i}")).collect();
        let emb = retest_embeddings::Embeddings::new(words, dim, raw).unwrap();
        let space = AnalogySpace::new(&emb, None).unwrap();
        let g: Vec<f64> = (0..dim)
            .map(|j| f64::from(space.row(0)[j]) - f64::from(space.row(1)[j]))
            .collect();
        let options = PairOptions {
            delta: 1.0,
            bound: DeltaBound::Distance,
            n_pairs: 150,
        };
        let all = generate(&space, &g, &options, usize::MAX / 2);
        assert!(all.len() > 100, "{}", all.len());
        // Starting from 1 candidate kept, the passes grow to 8, 64, 512, …: the same pairs.
        assert_eq!(generate(&space, &g, &options, 1), all);
        assert_eq!(generate(&space, &g, &options, 7), all);
    }

    #[test]
    fn bounding_scores_changes_no_bit_of_the_pairs() {
        // A narrow cone: nearly every pair is within δ, so with few candidates kept most pairs
        // are only bounded; with room for all, every candidate is scored exactly.
        let (n, dim) = (1500, 10);
        let noise = RandomData::new("retest-eval-pairs-bounds").gaussian(n, dim, 2);
        let raw = noise.iter().map(|&z| 0.3 + 0.15 * z).collect();
        let words = (0..n).map(|i| format!("w{i}")).collect();
        let emb = retest_embeddings::Embeddings::new(words, dim, raw).unwrap();
        let space = AnalogySpace::new(&emb, None).unwrap();
        let g: Vec<f64> = (0..dim)
            .map(|j| f64::from(space.row(3)[j]) - f64::from(space.row(8)[j]))
            .collect();
        let g_norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
        for bound in [DeltaBound::Distance, DeltaBound::SquaredDistance] {
            let options = PairOptions {
                delta: 1.0,
                bound,
                n_pairs: 200,
            };
            let everything = candidates(&space, &g, g_norm, &options, usize::MAX / 2);
            assert!(everything.total > n * (n - 1) / 4, "{}", everything.total);
            for cap in [1, 50, 4096] {
                let few = candidates(&space, &g, g_norm, &options, cap);
                assert_eq!(few.total, everything.total);
                let mut expected = everything.kept.clone();
                prune(&mut expected, cap);
                let (mut a, mut b) = (few.kept, expected);
                a.sort_unstable_by(order);
                b.sort_unstable_by(order);
                assert_eq!(a, b, "{bound:?}, cap {cap}");
            }
            assert_eq!(
                generate(&space, &g, &options, 4096),
                generate(&space, &g, &options, usize::MAX / 2)
            );
        }
    }
}
