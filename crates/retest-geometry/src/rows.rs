//! Row-major matrices of word vectors: shape checks, L2 normalisation and the reference dot
//! product that decides every comparison in this crate.

use crate::GeometryError;

/// Checks that `v` holds `n_rows × dim` values (or any whole number of rows when `n_rows` is
/// `None`) and returns the number of rows.
pub(crate) fn check_shape(
    what: &'static str,
    v: &[f32],
    dim: usize,
    n_rows: Option<usize>,
) -> Result<usize, GeometryError> {
    if dim == 0 {
        return Err(GeometryError::ZeroDimension);
    }
    match n_rows {
        Some(n) => {
            let expected = n.saturating_mul(dim);
            if v.len() != expected {
                return Err(GeometryError::ShapeMismatch {
                    what,
                    expected,
                    found: v.len(),
                });
            }
            Ok(n)
        }
        None => {
            if !v.len().is_multiple_of(dim) {
                let expected = v.len().div_ceil(dim) * dim;
                return Err(GeometryError::ShapeMismatch {
                    what,
                    expected,
                    found: v.len(),
                });
            }
            Ok(v.len() / dim)
        }
    }
}

/// Fails on the first row holding a NaN or an infinity.
pub(crate) fn check_finite(what: &'static str, v: &[f32], dim: usize) -> Result<(), GeometryError> {
    match v
        .chunks_exact(dim)
        .position(|row| row.iter().any(|x| !x.is_finite()))
    {
        Some(row) => Err(GeometryError::NonFinite { what, row }),
        None => Ok(()),
    }
}

/// Each row of the row-major `n × dim` matrix `v` divided by its L2 norm: `v̂ = v / ‖v‖₂`.
///
/// The norm and the division are computed in f64 and the result rounded once to f32, so the
/// output is the same on every machine. A zero row stays zero (its cosine with anything is then
/// 0, the convention used throughout the workspace).
///
/// # Panics
///
/// If `dim` is 0 or `v.len()` is not a multiple of `dim`.
pub fn normalize_rows(v: &[f32], dim: usize) -> Vec<f32> {
    assert!(
        dim > 0 && v.len().is_multiple_of(dim),
        "normalize_rows: {} values are not rows of {dim}",
        v.len()
    );
    let mut out = Vec::with_capacity(v.len());
    for row in v.chunks_exact(dim) {
        let norm = dot_f64(row, row).sqrt();
        if norm > 0.0 {
            out.extend(row.iter().map(|&x| (f64::from(x) / norm) as f32));
        } else {
            out.extend(row.iter().map(|_| 0.0f32));
        }
    }
    out
}

/// The L2 norm of every row, in f64: `‖v_i‖₂ = sqrt(dot_f64(v_i, v_i))`.
///
/// # Panics
///
/// If `dim` is 0 or `v.len()` is not a multiple of `dim`.
pub fn row_norms(v: &[f32], dim: usize) -> Vec<f64> {
    assert!(
        dim > 0 && v.len().is_multiple_of(dim),
        "row_norms: {} values are not rows of {dim}",
        v.len()
    );
    v.chunks_exact(dim).map(|row| dot_f64(row, row).sqrt()).collect()
}

/// The dot product of two f32 vectors, evaluated in f64 in a fixed order.
///
/// Each product of two f32 values is exact in f64; the products are summed into eight
/// interleaved partial sums (lane `l` takes the terms `i ≡ l mod 8`) which are then combined
/// pairwise. The order is spelled out in the code, Rust neither reassociates nor contracts
/// floating-point operations, so the result is bit-identical on every x86-64 CPU whatever its
/// SIMD width. This is the similarity that decides neighbour ranks and ties in
/// [`crate::top_k_neighbours`]; its absolute error is below `γ₆₄(d) · ‖a‖‖b‖ ≈ d · 1.1e-16`.
///
/// # Panics
///
/// If the lengths differ.
#[inline]
pub fn dot_f64(a: &[f32], b: &[f32]) -> f64 {
    assert_eq!(a.len(), b.len(), "dot_f64: lengths differ");
    dot_f64_inline(a, b)
}

/// [`dot_f64`], always inlined, so that inside a `pulp` dispatch it is compiled for the
/// dispatched instruction set. The operations and their order are the same, so is the value.
#[inline(always)]
pub(crate) fn dot_f64_inline(a: &[f32], b: &[f32]) -> f64 {
    let mut acc = [0.0f64; 8];
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for l in 0..8 {
            acc[l] += f64::from(x[l]) * f64::from(y[l]);
        }
    }
    for (l, (x, y)) in ca.remainder().iter().zip(cb.remainder()).enumerate() {
        acc[l] += f64::from(*x) * f64::from(*y);
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// The cosine of two vectors, `a·b / (‖a‖‖b‖)`, in f64 with [`dot_f64`]; 0 when either is zero.
pub fn cosine_f64(a: &[f32], b: &[f32]) -> f64 {
    let denom = (dot_f64(a, a) * dot_f64(b, b)).sqrt();
    if denom > 0.0 { dot_f64(a, b) / denom } else { 0.0 }
}
