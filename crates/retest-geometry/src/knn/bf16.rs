//! The bf16 filter of the all-pairs search (AVX-512 BF16): every row rounded once to bfloat16,
//! dot products with `vdpbf16ps` (f32 accumulation) in a register-blocked kernel whose epilogue
//! offers the register tile straight to the row and column buffers, so no similarity tile is
//! ever stored.
//!
//! # Error bound
//!
//! Let `a` be a stored f32 row, `â` its bf16 rounding (round to nearest even; subnormals and
//! zero become zero, as `vdpbf16ps` treats bf16 subnormals as zero) and `r = a − â` the
//! residual, exactly known. For two rows, `a·b − â·b̂ = â·r_b + r_a·b̂ + r_a·r_b`, so by
//! Cauchy–Schwarz `|a·b − â·b̂| ≤ 2·A·R + R²` with `A = max‖â‖` and `R = max‖r‖` over all rows
//! (both measured, not assumed: `R ≈ 0.6 · 2⁻⁸` for unit rows against the worst case `2⁻⁸`).
//! The products `â_i·b̂_i` are exact in f32 (8 + 8 significant bits); the hardware sums them in
//! f32 in at most `dim` roundings along any lane, each with relative error at most `2⁻²³`
//! (faithful rounding — the bound does not rely on round-to-nearest) and an absolute error of at
//! most `2⁻¹²⁶` when a result is flushed to zero, so the computed value `f` is within
//! `γ(dim + 1)·A² + (dim + 1)·2⁻¹²⁶` of `â·b̂` (Higham 2002, §3.1, `γ(n) = n·u/(1 − n·u)`). With
//! the f64 reference's own error `γ₆₄(dim + 1)·N²` (`N = max‖a‖`), `|f − dot_f64(a, b)| ≤ e`
//! for every pair, which is all the exactness proof of [`super::top_k_neighbours`] needs.

use std::ops::Range;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::buffer::BuffersMut;

/// Columns per packed panel (two 16-lane registers).
pub(crate) const NR: usize = 32;
/// Rows per register tile.
pub(crate) const MR: usize = 12;

/// Whether this CPU runs the bf16 kernel (AVX-512 F + BW + BF16).
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512bf16")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// `x` rounded to bfloat16 (round to nearest, ties to even); zero and subnormals become +0.
/// `x` must be finite; a result may be infinite if `|x|` is close to `f32::MAX`.
#[inline(always)]
pub(crate) fn to_bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    if bits & 0x7f80_0000 == 0 {
        return 0;
    }
    let round = 0x7fff + ((bits >> 16) & 1);
    ((bits + round) >> 16) as u16
}

/// The f32 value of a bfloat16.
#[inline(always)]
pub(crate) fn from_bf16(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// All rows in bf16, in column panels of [`NR`] rows: panel `p` holds rows `NR·p..NR·p + NR`
/// as `[pair][NR]` 32-bit words, word = the bf16 of components `2·pair` (low half) and
/// `2·pair + 1` (high half). Rows past `n` and the odd dimension's partner are zero.
pub(crate) struct PackedBf16 {
    /// Component pairs per row, `⌈dim/2⌉`.
    pairs: usize,
    panels: Vec<u32>,
    /// `e` of the module documentation: `|f − dot_f64| ≤ e` for every pair of rows.
    pub(crate) error: f64,
}

/// The bound `e` of the module documentation for the rows `rows` (`n × dim`, finite):
/// `|f − dot_f64| ≤ e` for every pair of rows; `None` if a component overflows bf16. It needs
/// only the rounding residuals, not a packed copy, so it is known before the bf16 filter is
/// chosen.
pub(crate) fn error_bound(rows: &[f32], dim: usize) -> Option<f64> {
    pulp::Arch::new().dispatch(ErrorBound { rows, dim })
}

/// [`error_bound`] as a `pulp` operation (compiled for AVX2 when the CPU has it).
struct ErrorBound<'a> {
    rows: &'a [f32],
    dim: usize,
}

impl pulp::WithSimd for ErrorBound<'_> {
    type Output = Option<f64>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> Option<f64> {
        let dim = self.dim;
        let (mut max_hat, mut max_res, mut max_row) = (0f64, 0f64, 0f64);
        for row in self.rows.chunks_exact(dim) {
            let (mut hat, mut res, mut raw) = (0f64, 0f64, 0f64);
            let mut finite = true;
            for &x in row {
                let xh = from_bf16(to_bf16(x));
                finite &= xh.is_finite();
                let (x64, h64) = (f64::from(x), f64::from(xh));
                // Both differences and squares are exact or correctly rounded in f64; the
                // slack below covers the rounding of these sums.
                hat += h64 * h64;
                res += (x64 - h64) * (x64 - h64);
                raw += x64 * x64;
            }
            if !finite {
                return None;
            }
            max_hat = max_hat.max(hat);
            max_res = max_res.max(res);
            max_row = max_row.max(raw);
        }
        let slack = 1.0 + 1e-9;
        let (a, r) = ((max_hat * slack).sqrt() * slack, (max_res * slack).sqrt() * slack);
        let gamma = |terms: f64, u: f64| terms * u / (1.0 - terms * u);
        let terms = (dim + 1) as f64;
        Some(
            (2.0 * a * r
                + r * r
                + gamma(terms, f64::from(f32::EPSILON)) * a * a
                + terms * 2f64.powi(-126)
                + gamma(terms, f64::EPSILON / 2.0) * max_row)
                * slack,
        )
    }
}

/// The packing loop of [`PackedBf16::pack`] as a `pulp` operation: each row's words (two
/// bf16 components each) are formed in a row-sized scratch, then stored to their panel.
struct Pack<'a> {
    rows: &'a [f32],
    dim: usize,
    panels: &'a mut [u32],
}

impl pulp::WithSimd for Pack<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let dim = self.dim;
        let pairs = dim.div_ceil(2);
        let mut words = vec![0u32; pairs];
        for (i, row) in self.rows.chunks_exact(dim).enumerate() {
            let (even, odd) = (row.chunks_exact(2), row.chunks_exact(2).remainder());
            for (w, xy) in words.iter_mut().zip(even) {
                *w = u32::from(to_bf16(xy[0])) | (u32::from(to_bf16(xy[1])) << 16);
            }
            if let [x] = odd {
                words[pairs - 1] = u32::from(to_bf16(*x));
            }
            let base = (i / NR) * pairs * NR + i % NR;
            for (p, &w) in words.iter().enumerate() {
                self.panels[base + p * NR] = w;
            }
        }
    }
}

impl PackedBf16 {
    /// Packs `rows` (`n × dim`, finite) with its [`error_bound`]; `None` if a component
    /// overflows bf16.
    #[cfg(test)]
    pub(crate) fn new(rows: &[f32], dim: usize) -> Option<PackedBf16> {
        Some(PackedBf16::pack(rows, dim, error_bound(rows, dim)?))
    }

    /// Packs `rows` (`n × dim`, finite, no component overflowing bf16), whose
    /// [`error_bound`] is `error`.
    pub(crate) fn pack(rows: &[f32], dim: usize, error: f64) -> PackedBf16 {
        let n = rows.len() / dim;
        let pairs = dim.div_ceil(2);
        let mut panels = vec![0u32; n.div_ceil(NR) * pairs * NR];
        pulp::Arch::new().dispatch(Pack {
            rows,
            dim,
            panels: &mut panels,
        });
        PackedBf16 { pairs, panels, error }
    }

    /// The computed bf16 similarity of rows `i` and `j` (the kernel's value, for tests).
    #[cfg(test)]
    pub(crate) fn dot(&self, i: usize, j: usize) -> f32 {
        let word = |row: usize, p: usize| self.panels[(row / NR) * self.pairs * NR + p * NR + row % NR];
        let mut acc = 0f32;
        for p in 0..self.pairs {
            let (x, y) = (word(i, p), word(j, p));
            let lo = from_bf16(x as u16) * from_bf16(y as u16);
            let hi = from_bf16((x >> 16) as u16) * from_bf16((y >> 16) as u16);
            acc = (acc + hi) + lo;
        }
        acc
    }
}

/// Rows `rows` (a block of the kernel's row side) in register-tile panels of [`MR`] rows, as
/// `[panel][pair][MR]` words (rows past the end are zero); packed once per block, read by every
/// tile of that block.
pub(crate) fn pack_rows(packed: &PackedBf16, rows: Range<usize>) -> Vec<u32> {
    let pairs = packed.pairs;
    let mut apack = vec![0u32; rows.len().div_ceil(MR) * pairs * MR];
    // Panel by panel and pair by pair, so that both the reads (within one panel of `NR` rows)
    // and the writes (one word after another) stay sequential.
    for (ap, dst) in apack.chunks_exact_mut(pairs * MR).enumerate() {
        let r0 = rows.start + ap * MR;
        let r1 = (r0 + MR).min(rows.end);
        for (p, dst) in dst.chunks_exact_mut(MR).enumerate() {
            for (m, row) in (r0..r1).enumerate() {
                dst[m] = packed.panels[(row / NR) * pairs * NR + p * NR + row % NR];
            }
        }
    }
    apack
}

/// Offers every pair of rows `rows_i × rows_j` to the buffers: `s(i, j)` to row `i` of `hi`, and
/// when `hj` is given also to row `j` of `hj` (the column side of the symmetric search). With
/// `hj = None`, `rows_i` and `rows_j` must be the same block; `exclude_self` then masks `i = j`.
/// Block starts must be multiples of [`NR`]; `apack` is [`pack_rows`] of `rows_i`.
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW and BF16 ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn block_pair(
    packed: &PackedBf16,
    rows_i: Range<usize>,
    rows_j: Range<usize>,
    hi: &mut BuffersMut<'_>,
    mut hj: Option<&mut BuffersMut<'_>>,
    exclude_self: bool,
    apack: &[u32],
) {
    let pairs = packed.pairs;
    debug_assert!(rows_i.start.is_multiple_of(NR) && rows_j.start.is_multiple_of(NR));
    let ni = rows_i.len();
    let a_panels = ni.div_ceil(MR);
    debug_assert_eq!(apack.len(), a_panels * pairs * MR);
    for j0 in rows_j.clone().step_by(NR) {
        let ncv = (rows_j.end - j0).min(NR);
        let col_valid = if ncv == NR { u32::MAX } else { (1u32 << ncv) - 1 };
        let b = &packed.panels[(j0 / NR) * pairs * NR..(j0 / NR + 1) * pairs * NR];
        // The rows whose buffers the next column panel may append to: their next free slot,
        // untouched since their last tile, is fetched while this panel computes.
        if let Some(hj) = hj.as_deref() {
            let next = j0 + NR - rows_j.start;
            for c in next..(next + NR).min(hj.n_rows()) {
                hj.prefetch_slot(c);
            }
        }
        for ap in 0..a_panels {
            let i0 = rows_i.start + ap * MR;
            let mrv = (rows_i.end - i0).min(MR);
            // The same for the row side, one register tile ahead.
            for h in (i0 + MR - rows_i.start..i0 + 2 * MR - rows_i.start).take_while(|&h| h < ni) {
                hi.prefetch_slot(h);
            }
            let a = &apack[ap * pairs * MR..(ap + 1) * pairs * MR];
            // SAFETY: the caller guarantees the features; `a` holds `pairs · MR` words and `b`
            // `pairs · NR`, as `tile` reads.
            let acc = unsafe { tile(a.as_ptr(), b.as_ptr(), pairs) };
            // Row side: row i0 + r against columns j0.., threshold broadcast.
            for (r, acc_r) in acc.iter().enumerate().take(mrv) {
                let h = i0 - rows_i.start + r;
                let t = _mm512_set1_ps(hi.threshold(h));
                let mut mask = (u32::from(_mm512_cmp_ps_mask::<_CMP_GT_OQ>(acc_r[0], t))
                    | (u32::from(_mm512_cmp_ps_mask::<_CMP_GT_OQ>(acc_r[1], t)) << 16))
                    & col_valid;
                if hj.is_none() && exclude_self {
                    let d = (i0 + r).wrapping_sub(j0);
                    if d < NR {
                        mask &= !(1u32 << d);
                    }
                }
                // SAFETY: the caller guarantees the features.
                unsafe {
                    offer_lanes(acc_r, mask, |l, v| {
                        if v > hi.threshold(h) {
                            hi.offer(h, v, (j0 + l) as u32);
                        }
                    })
                };
            }
            // Column side: column j0 + l against rows i0.., thresholds loaded as a vector.
            if let Some(hj) = hj.as_deref_mut() {
                let c0 = j0 - rows_j.start;
                let thr = &hj.thresholds()[c0..c0 + ncv];
                let (m0, m1) = (col_valid as u16, (col_valid >> 16) as u16);
                // SAFETY: masked loads read only the `ncv` valid thresholds.
                let (t0, t1) = unsafe {
                    (
                        _mm512_maskz_loadu_ps(m0, thr.as_ptr()),
                        _mm512_maskz_loadu_ps(m1, thr.as_ptr().wrapping_add(16)),
                    )
                };
                for (r, acc_r) in acc.iter().enumerate().take(mrv) {
                    let mask = (u32::from(_mm512_mask_cmp_ps_mask::<_CMP_GT_OQ>(m0, acc_r[0], t0))
                        | (u32::from(_mm512_mask_cmp_ps_mask::<_CMP_GT_OQ>(m1, acc_r[1], t1)) << 16))
                        & col_valid;
                    // SAFETY: the caller guarantees the features.
                    unsafe {
                        offer_lanes(acc_r, mask, |l, v| {
                            if v > hj.threshold(c0 + l) {
                                hj.offer(c0 + l, v, (i0 + r) as u32);
                            }
                        })
                    };
                }
            }
        }
    }
}

/// Calls `offer(l, value)` for each lane `l` of the 32-lane row `acc_r` whose bit is set in
/// `mask`, in increasing lane order (nothing is stored when `mask` is empty).
///
/// # Safety
///
/// AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn offer_lanes(acc_r: &[__m512; 2], mut mask: u32, mut offer: impl FnMut(usize, f32)) {
    if mask == 0 {
        return;
    }
    let mut vals = [0f32; NR];
    // SAFETY: `vals` holds 32 f32.
    unsafe {
        _mm512_storeu_ps(vals.as_mut_ptr(), acc_r[0]);
        _mm512_storeu_ps(vals.as_mut_ptr().add(16), acc_r[1]);
    }
    while mask != 0 {
        let l = mask.trailing_zeros() as usize;
        offer(l, vals[l]);
        mask &= mask - 1;
    }
}

/// The `MR × NR` register tile `Σ_pair a[pair][r] · b[pair][c]` (bf16 pairs, f32 sums).
///
/// # Safety
///
/// AVX-512 F + BF16; `a` points to `pairs · MR` and `b` to `pairs · NR` readable words.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
#[inline]
unsafe fn tile(a: *const u32, b: *const u32, pairs: usize) -> [[__m512; 2]; MR] {
    let mut acc = [[_mm512_setzero_ps(); 2]; MR];
    for p in 0..pairs {
        // SAFETY: in bounds by the caller's contract; the vectors are reinterpreted, not converted.
        unsafe {
            let bp = b.add(p * NR);
            let b0: __m512bh = std::mem::transmute(_mm512_loadu_si512(bp.cast()));
            let b1: __m512bh = std::mem::transmute(_mm512_loadu_si512(bp.add(16).cast()));
            let ap = a.add(p * MR);
            for (r, acc_r) in acc.iter_mut().enumerate() {
                let x: __m512bh = std::mem::transmute(_mm512_set1_epi32(*ap.add(r) as i32));
                acc_r[0] = _mm512_dpbf16_ps(acc_r[0], x, b0);
                acc_r[1] = _mm512_dpbf16_ps(acc_r[1], x, b1);
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_to_nearest_even_and_flushes_subnormals() {
        assert_eq!(to_bf16(1.0), 0x3f80);
        // 1 + 2⁻⁸ is halfway between 1 and 1 + 2⁻⁷: ties to even (1).
        assert_eq!(to_bf16(1.0 + 2f32.powi(-8)), 0x3f80);
        // 1 + 3·2⁻⁸ is halfway between 1 + 2⁻⁷ and 1 + 2⁻⁶: ties to even (1 + 2⁻⁶).
        assert_eq!(to_bf16(1.0 + 3.0 * 2f32.powi(-8)), 0x3f82);
        assert_eq!(to_bf16(1.0 + 2f32.powi(-8) + 2f32.powi(-20)), 0x3f81);
        assert_eq!(to_bf16(-2.5), 0xc020);
        assert_eq!(to_bf16(f32::from_bits(1)), 0);
        assert_eq!(to_bf16(-0.0), 0);
        assert!(from_bf16(to_bf16(f32::MAX)).is_infinite());
        for x in [0.1f32, -0.37, 3.0e-20, 1.0e30] {
            let h = from_bf16(to_bf16(x));
            assert!((h - x).abs() <= x.abs() * 2f32.powi(-8), "{x} {h}");
        }
    }

    #[test]
    fn the_bound_holds_for_every_pair_and_the_kernel_matches_the_reference_sum() {
        use crate::rows::dot_f64;
        let dim = 37;
        let n = 45;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let raw: Vec<f32> = (0..n * dim).map(|_| next() as f32).collect();
        let unit = crate::normalize_rows(&raw, dim);
        let packed = PackedBf16::new(&unit, dim).expect("finite");
        assert!(packed.error < 0.01 && packed.error > 1e-4, "{}", packed.error);
        let mut worst = 0f64;
        for i in 0..n {
            for j in 0..n {
                let t = dot_f64(&unit[i * dim..(i + 1) * dim], &unit[j * dim..(j + 1) * dim]);
                let f = f64::from(packed.dot(i, j));
                worst = worst.max((f - t).abs());
            }
        }
        assert!(worst <= packed.error, "{worst} > {}", packed.error);
        // Not vacuous: the bf16 values really are that far off.
        assert!(worst > packed.error / 50.0, "{worst} vs {}", packed.error);

        if !available() {
            return;
        }
        // The kernel's sums: every offered value equals the scalar model's value up to the f32
        // accumulation bound (the lane order of the hardware sum is not specified).
        let mut bufs = super::super::buffer::Buffers::new(n, n, n, 1.0);
        let apack = pack_rows(&packed, 0..n);
        {
            let mut view = bufs.view();
            // SAFETY: `available()` checked the features.
            unsafe { block_pair(&packed, 0..n, 0..n, &mut view, None, false, &apack) };
        }
        for i in 0..n {
            let row = bufs.row(i);
            assert_eq!(row.len(), n);
            for &(s, j) in row {
                let model = packed.dot(i, j as usize);
                assert!((s - model).abs() <= 1e-5, "{i} {j}: {s} vs {model}");
            }
        }
    }
}
