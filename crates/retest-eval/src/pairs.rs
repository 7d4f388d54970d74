//! Bolukbasi et al.'s (2016) analogy pairs with B and D free: every pair of close words scored
//! along a seed direction (she − he), made one-to-one greedily, by tiled matrix products.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;

use crate::error::SolveError;
use crate::solvers::{AnalogySpace, DeltaBound, diff_stats, gemm_margin};

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
/// its upper triangle, so the n × n matrix never exists; a pair whose f32 squared distance is
/// within δ plus a margin above the GEMM's rounding error is scored again exactly in f64 from
/// the vectors, and the threshold is decided on that value. Tiles run in parallel on rayon's
/// pool, each keeping its best candidates; a pass that runs out of kept candidates before
/// `n_pairs` are chosen, having dropped some, is repeated with eight times as many, so the
/// result is exact and does not depend on the thread count.
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
    if !(options.delta.is_finite() && options.delta >= 0.0) {
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
    Ok(generate(space, &g, options, (options.n_pairs * 32).max(4096)))
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
        cap *= 8;
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

fn candidates(space: &AnalogySpace, g: &[f64], g_norm: f64, options: &PairOptions, cap: usize) -> Found {
    let n = space.n_rows();
    let dim = space.dim();
    let unit = space.unit_rows();
    let n_tiles = n.div_ceil(TILE);
    let tiles: Vec<(usize, usize)> = (0..n_tiles)
        .flat_map(|bi| (bi..n_tiles).map(move |bj| (bi, bj)))
        .collect();
    let margin = gemm_margin(dim);
    let limit = options.bound.squared_limit(options.delta) + margin;
    let norms2 = space.norms2();
    tiles
        .par_iter()
        .map_init(
            || vec![0.0f32; TILE * TILE],
            |gram, &(bi, bj)| {
                let (r0, r1) = (bi * TILE, ((bi + 1) * TILE).min(n));
                let (c0, c1) = (bj * TILE, ((bj + 1) * TILE).min(n));
                let (nr, nc) = (r1 - r0, c1 - c0);
                // gram (nr × nc, column-major) = U[r0..r1] · U[c0..c1]ᵀ.
                let dst = MatMut::from_column_major_slice_mut(&mut gram[..nr * nc], nr, nc);
                let lhs = MatRef::from_row_major_slice(&unit[r0 * dim..r1 * dim], nr, dim);
                let rhs = MatRef::from_row_major_slice(&unit[c0 * dim..c1 * dim], nc, dim).transpose();
                matmul(dst, Accum::Replace, lhs, rhs, 1.0f32, Par::Seq);
                let mut kept = Vec::new();
                let mut total = 0;
                for (jc, column) in gram[..nr * nc].chunks_exact(nr).enumerate() {
                    let j = c0 + jc;
                    let rows = if bi == bj { jc } else { nr };
                    for (ir, &s) in column[..rows].iter().enumerate() {
                        let i = r0 + ir;
                        if norms2[i] + norms2[j] - 2.0 * f64::from(s) > limit {
                            continue;
                        }
                        let (dist2, dot) = diff_stats(g, space.row(i as u32), space.row(j as u32));
                        if !options.bound.admits(dist2, options.delta) || dist2 == 0.0 || dot == 0.0 {
                            continue;
                        }
                        let score = dot / (g_norm * dist2.sqrt());
                        let (x, y) = if score > 0.0 { (i, j) } else { (j, i) };
                        kept.push(GeneratedPair {
                            x: x as u32,
                            y: y as u32,
                            score: score.abs(),
                            distance: dist2.sqrt(),
                        });
                        total += 1;
                        if kept.len() >= 2 * cap {
                            prune(&mut kept, cap);
                        }
                    }
                }
                prune(&mut kept, cap);
                Found { kept, total }
            },
        )
        .reduce(
            || Found {
                kept: Vec::new(),
                total: 0,
            },
            |mut a, b| {
                a.kept.extend(b.kept);
                a.total += b.total;
                prune(&mut a.kept, cap);
                a
            },
        )
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
}
