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

/// Four [`dot_f64`] at once with AVX-512: `out[j] = dot_f64(a[j], b[j])`, bit for bit. Each
/// 8-lane f64 register is the eight partial sums, updated in the same order by a fused
/// multiply-add, which equals `dot_f64`'s multiply and add because the product of two f32 values
/// is exact in f64 (the tail by a masked one: the lanes past the end are left as they are), and
/// the lanes are combined in the same pairwise order; four independent pairs hide the add
/// latency.
///
/// # Safety
///
/// The CPU must have AVX-512 F and VL. (Rows of unequal lengths are passed to [`dot_f64`],
/// which panics on them.)
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) unsafe fn dot_f64_x4_avx512(a: [&[f32]; 4], b: [&[f32]; 4]) -> [f64; 4] {
    use std::arch::x86_64::*;
    let mut out = [0f64; 4];
    let len = a[0].len();
    if a.iter().chain(&b).any(|v| v.len() != len) {
        for j in 0..4 {
            out[j] = dot_f64(a[j], b[j]);
        }
        return out;
    }
    let (chunks, rem) = (len / 8, len % 8);
    let mut acc = [_mm512_setzero_pd(); 4];
    for c in 0..chunks {
        for j in 0..4 {
            // SAFETY: `8·c + 8 ≤ len` for both rows.
            let (x, y) = unsafe {
                (
                    _mm512_cvtps_pd(_mm256_loadu_ps(a[j].as_ptr().add(8 * c))),
                    _mm512_cvtps_pd(_mm256_loadu_ps(b[j].as_ptr().add(8 * c))),
                )
            };
            // `x·y` is exact in f64 (two 24-bit significands), so the fused multiply-add
            // rounds once exactly where `dot_f64` rounds its sum: the same bits, one
            // instruction fewer.
            acc[j] = _mm512_fmadd_pd(x, y, acc[j]);
        }
    }
    if rem > 0 {
        let m: __mmask8 = (1u8 << rem) - 1;
        for j in 0..4 {
            // SAFETY: the masked loads read only the `rem` elements past `8·chunks`.
            let (x, y) = unsafe {
                (
                    _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, a[j].as_ptr().add(8 * chunks))),
                    _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, b[j].as_ptr().add(8 * chunks))),
                )
            };
            acc[j] = _mm512_mask3_fmadd_pd(x, y, acc[j], m);
        }
    }
    for j in 0..4 {
        let mut l = [0f64; 8];
        // SAFETY: `l` holds 8 f64.
        unsafe { _mm512_storeu_pd(l.as_mut_ptr(), acc[j]) };
        out[j] = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
    }
    out
}

/// The cosine of two vectors, `a·b / (‖a‖‖b‖)`, in f64 with [`dot_f64`]; 0 when either is zero.
pub fn cosine_f64(a: &[f32], b: &[f32]) -> f64 {
    let denom = (dot_f64(a, a) * dot_f64(b, b)).sqrt();
    if denom > 0.0 { dot_f64(a, b) / denom } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_avx512_dot_gives_the_bits_of_dot_f64() {
        #[cfg(target_arch = "x86_64")]
        {
            if !(is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vl")) {
                return;
            }
            let mut state = 0x2545_f491_4f6c_dd1du64;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 3.0
            };
            for len in (0..41).chain([99, 100, 300, 301]) {
                let rows: Vec<Vec<f32>> = (0..8)
                    .map(|r| {
                        (0..len)
                            .map(|i| match (r + i) % 11 {
                                0 => 0.0,
                                1 => -0.0,
                                2 => 1e-30 * next(),
                                3 => 1e-41 * next(), // f32 subnormals
                                4 => 1e30 * next(),
                                _ => next(),
                            })
                            .collect()
                    })
                    .collect();
                let a = [&rows[0][..], &rows[1][..], &rows[2][..], &rows[3][..]];
                let b = [&rows[4][..], &rows[5][..], &rows[0][..], &rows[7][..]];
                // SAFETY: the features were detected.
                let got = unsafe { dot_f64_x4_avx512(a, b) };
                for j in 0..4 {
                    assert_eq!(
                        got[j].to_bits(),
                        dot_f64(a[j], b[j]).to_bits(),
                        "len {len} pair {j}"
                    );
                }
            }
            // Signed zeros: a sum of −0 products stays −0 in both.
            let z = [-0.0f32; 13];
            let o = [1.0f32; 13];
            // SAFETY: the features were detected.
            let got = unsafe { dot_f64_x4_avx512([&z, &z, &o, &z], [&o, &z, &z, &z]) };
            for (j, (x, y)) in [(&z, &o), (&z, &z), (&o, &z), (&z, &z)].iter().enumerate() {
                assert_eq!(got[j].to_bits(), dot_f64(&x[..], &y[..]).to_bits());
            }
        }
    }
}
