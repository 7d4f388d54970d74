//! Orthogonal Procrustes: the orthogonal map that best aligns one embedding onto another.

use faer::diag::Diag;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::matmul::matmul;
use faer::linalg::svd::{ComputeSvdVectors, svd, svd_scratch};
use faer::{Accum, Mat, MatRef, Par};

use crate::GeometryError;
use crate::rows::{check_finite, check_shape};

/// Rows converted to f64 per block of the cross-covariance product.
pub(crate) const F64_BLOCK_ROWS: usize = 2048;

/// The orthogonal `Q` (`dim × dim`, returned row-major) minimising `‖A·Q − B‖_F`, for row-major
/// `n × dim` matrices `A` (`a`) and `B` (`b`) whose row `w` is the same word in both.
///
/// Schönemann (1966): with the SVD `AᵀB = U Σ Vᵀ`, the minimiser over all orthogonal matrices
/// is `Q = U Vᵀ`. `AᵀB` is accumulated in f64 (blocks of rows converted from f32, faer GEMM),
/// and the SVD is faer's, run sequentially so the result does not depend on a thread count.
///
/// Like `scipy.linalg.orthogonal_procrustes`, which Du et al. (2021) call, `Q` may be a
/// reflection (`det Q = −1`): the problem is posed over the orthogonal group, not over rotations
/// only. Restricting to rotations (flipping the sign of the last column of `U` when
/// `det(U Vᵀ) < 0`) would change the alignment only for embeddings that are mirror images of
/// each other; it is not done, to match the original study. The vectors are used raw: no
/// centring, no length normalisation (Du et al. 2021, `calc_word_property.alignment_similarity`).
///
/// # Errors
///
/// Zero dimension or rows, lengths not `n × dim`, non-finite components, or an SVD that does not
/// converge.
pub fn procrustes(a: &[f32], b: &[f32], n: usize, dim: usize) -> Result<Vec<f64>, GeometryError> {
    check_shape("a", a, dim, Some(n))?;
    check_shape("b", b, dim, Some(n))?;
    if n == 0 {
        return Err(GeometryError::NoRows { what: "procrustes" });
    }
    check_finite("a", a, dim)?;
    check_finite("b", b, dim)?;
    let q = fit(a, b, dim)?;
    let mut out = vec![0.0; dim * dim];
    for r in 0..dim {
        for c in 0..dim {
            out[r * dim + c] = q[(r, c)];
        }
    }
    Ok(out)
}

/// `Q = U Vᵀ` from the SVD of `AᵀB` (inputs already checked).
pub(crate) fn fit(a: &[f32], b: &[f32], dim: usize) -> Result<Mat<f64>, GeometryError> {
    let m = cross_covariance(a, b, dim);
    orthogonal_factor(m.as_ref())
}

/// `AᵀB` in f64, summed over blocks of [`F64_BLOCK_ROWS`] rows.
pub(crate) fn cross_covariance(a: &[f32], b: &[f32], dim: usize) -> Mat<f64> {
    let mut m = Mat::<f64>::zeros(dim, dim);
    let mut a64 = vec![0.0f64; F64_BLOCK_ROWS * dim];
    let mut b64 = vec![0.0f64; F64_BLOCK_ROWS * dim];
    for (ablk, bblk) in a.chunks(F64_BLOCK_ROWS * dim).zip(b.chunks(F64_BLOCK_ROWS * dim)) {
        let rows = ablk.len() / dim;
        widen(ablk, &mut a64[..ablk.len()]);
        widen(bblk, &mut b64[..bblk.len()]);
        let at = MatRef::from_row_major_slice(&a64[..ablk.len()], rows, dim).transpose();
        let bm = MatRef::from_row_major_slice(&b64[..bblk.len()], rows, dim);
        matmul(m.as_mut(), Accum::Add, at, bm, 1.0, Par::Seq);
    }
    m
}

/// f32 → f64, element-wise (exact).
pub(crate) fn widen(src: &[f32], dst: &mut [f64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = f64::from(*s);
    }
}

/// The orthogonal polar factor `U Vᵀ` of a square matrix `M = U Σ Vᵀ`.
fn orthogonal_factor(m: MatRef<'_, f64>) -> Result<Mat<f64>, GeometryError> {
    let dim = m.nrows();
    let mut s = Diag::<f64>::zeros(dim);
    let mut u = Mat::<f64>::zeros(dim, dim);
    let mut v = Mat::<f64>::zeros(dim, dim);
    let par = Par::Seq;
    let scratch = svd_scratch::<f64>(
        dim,
        dim,
        ComputeSvdVectors::Full,
        ComputeSvdVectors::Full,
        par,
        Default::default(),
    );
    let mut buf = MemBuffer::new(scratch);
    svd(
        m,
        s.as_mut(),
        Some(u.as_mut()),
        Some(v.as_mut()),
        par,
        MemStack::new(&mut buf),
        Default::default(),
    )
    .map_err(|_| GeometryError::SvdFailed { dim })?;
    let mut q = Mat::<f64>::zeros(dim, dim);
    matmul(
        q.as_mut(),
        Accum::Replace,
        u.as_ref(),
        v.as_ref().transpose(),
        1.0,
        par,
    );
    Ok(q)
}
