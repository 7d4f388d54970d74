//! Embedding stability: how much a word's vector moves between seeds once the seeds' spaces are
//! aligned by orthogonal Procrustes.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;

use crate::procrustes::{F64_BLOCK_ROWS, fit, widen};
use crate::rows::{check_finite, check_shape};
use crate::{GeometryError, with_pool};

/// Embedding stability of every word: `ES(w)` for `w = 0..n` (see [`embedding_stability_for`]).
///
/// # Errors
///
/// As [`embedding_stability_for`].
pub fn embedding_stability(
    models: &[&[f32]],
    n: usize,
    dim: usize,
    threads: usize,
) -> Result<Vec<f64>, GeometryError> {
    let all: Vec<u32> = (0..n as u32).collect();
    embedding_stability_for(models, n, dim, &all, threads)
}

/// Embedding stability of the given words, as Du, Fang & Nguyen (2021, §5.5) compute it.
///
/// Every model is a row-major `n × dim` matrix over the same shared vocabulary (row `w` is the
/// same word in every model). For every unordered pair of models `i < j` — `m(m−1)/2` pairs, 496
/// for 32 seeds, as the original `mlr/calc_word_property.py` loops over `i < j` — the orthogonal
/// `Q_ij` minimising `‖A_i Q − A_j‖_F` is fitted on **all** `n` words with the raw vectors
/// ([`crate::procrustes`]), and
///
/// `ES(w) = (2 / (m(m−1))) · Σ_{i<j} cos(a_w^i Q_ij, a_w^j)`,
///
/// with `cos(x, y) = x·y / (‖x‖‖y‖)` in f64 (0 when either vector is zero). Only the words in
/// `words` are scored, in that order; the fits always use every row.
///
/// Work: per pair `2·n·dim²` flops for `AᵀB` plus `2·|words|·dim²` to apply `Q`, both f64 GEMM,
/// plus a 300 × 300 SVD. Pairs run in parallel (one rayon task per first model `i`, each task
/// sequential), and the per-task sums are added in order of `i`, so the result is identical for
/// every thread count.
///
/// # Errors
///
/// Fewer than two models, zero dimension or rows, a model whose length is not `n × dim`,
/// non-finite components, a word id `≥ n`, zero threads, or an SVD that does not converge.
pub fn embedding_stability_for(
    models: &[&[f32]],
    n: usize,
    dim: usize,
    words: &[u32],
    threads: usize,
) -> Result<Vec<f64>, GeometryError> {
    if models.len() < 2 {
        return Err(GeometryError::TooFewModels {
            n_models: models.len(),
        });
    }
    if threads == 0 {
        return Err(GeometryError::ZeroThreads);
    }
    for m in models {
        check_shape("model", m, dim, Some(n))?;
        check_finite("model", m, dim)?;
    }
    if n == 0 {
        return Err(GeometryError::NoRows {
            what: "embedding_stability",
        });
    }
    if let Some(&id) = words.iter().find(|&&w| w as usize >= n) {
        return Err(GeometryError::IdOutOfRange {
            what: "words",
            id,
            n_rows: n,
        });
    }
    let n_models = models.len();
    let per_first: Vec<Result<Vec<f64>, GeometryError>> = with_pool(threads, || {
        (0..n_models - 1)
            .into_par_iter()
            .map(|i| {
                let mut sums = vec![0.0f64; words.len()];
                for j in i + 1..n_models {
                    let q = fit(models[i], models[j], dim)?;
                    add_aligned_cosines(models[i], models[j], dim, q.as_ref(), words, &mut sums);
                }
                Ok(sums)
            })
            .collect()
    })?;
    let mut total = vec![0.0f64; words.len()];
    for sums in per_first {
        for (t, s) in total.iter_mut().zip(sums?) {
            *t += s;
        }
    }
    let n_pairs = (n_models * (n_models - 1) / 2) as f64;
    Ok(total.into_iter().map(|s| s / n_pairs).collect())
}

/// `sums[r] += cos(a_w Q, b_w)` for `w = words[r]`, blocked through an f64 GEMM.
fn add_aligned_cosines(
    a: &[f32],
    b: &[f32],
    dim: usize,
    q: MatRef<'_, f64>,
    words: &[u32],
    sums: &mut [f64],
) {
    let mut a64 = vec![0.0f64; F64_BLOCK_ROWS * dim];
    let mut y = vec![0.0f64; F64_BLOCK_ROWS * dim];
    for (block, sums) in words.chunks(F64_BLOCK_ROWS).zip(sums.chunks_mut(F64_BLOCK_ROWS)) {
        let rows = block.len();
        for (r, &w) in block.iter().enumerate() {
            let w = w as usize;
            widen(&a[w * dim..(w + 1) * dim], &mut a64[r * dim..(r + 1) * dim]);
        }
        let lhs = MatRef::from_row_major_slice(&a64[..rows * dim], rows, dim);
        let dst = MatMut::from_row_major_slice_mut(&mut y[..rows * dim], rows, dim);
        matmul(dst, Accum::Replace, lhs, q, 1.0, Par::Seq);
        for (r, &w) in block.iter().enumerate() {
            let bw = &b[w as usize * dim..(w as usize + 1) * dim];
            let (mut dot, mut yy, mut bb) = (0.0f64, 0.0f64, 0.0f64);
            for (&yv, &bv) in y[r * dim..(r + 1) * dim].iter().zip(bw) {
                let bv = f64::from(bv);
                dot += yv * bv;
                yy += yv * yv;
                bb += bv * bv;
            }
            let denom = (yy * bb).sqrt();
            sums[r] += if denom > 0.0 { dot / denom } else { 0.0 };
        }
    }
}
