//! The fused threshold scan: offers the entries of a similarity tile to the row buffers, sixteen at
//! a time, touching a buffer only when a value beats its row's threshold.

use std::ops::Range;

use pulp::{Simd, WithSimd};

use super::buffer::BuffersMut;

/// [`scan_rows`] as a `pulp` operation: `pulp::Arch::new().dispatch(ScanRows { .. })` compiles
/// it for AVX2 + FMA when the CPU has them (closures are not reliably inlined into the
/// dispatched function; `#[inline(always)]` methods are).
pub(crate) struct ScanRows<'t, 'h, 'a> {
    pub tile: &'t [f32],
    pub ld: usize,
    pub row_lo: usize,
    pub bufs: &'h mut BuffersMut<'a>,
    pub cols: Range<usize>,
    pub pos0: u32,
}

impl WithSimd for ScanRows<'_, '_, '_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        scan_rows(self.tile, self.ld, self.row_lo, self.bufs, self.cols, self.pos0)
    }
}

/// [`scan_cols`] as a `pulp` operation (see [`ScanRows`]).
pub(crate) struct ScanCols<'t, 'h, 'a> {
    pub tile: &'t [f32],
    pub ld: usize,
    pub n_tile_rows: usize,
    pub col_lo: usize,
    pub bufs: &'h mut BuffersMut<'a>,
    pub pos0: u32,
}

impl WithSimd for ScanCols<'_, '_, '_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        scan_cols(
            self.tile,
            self.ld,
            self.n_tile_rows,
            self.col_lo,
            self.bufs,
            self.pos0,
        )
    }
}

/// Lanes compared per step; a multiple of every x86 SIMD width for f32.
const LANES: usize = 16;

/// Row side: offers tile entry `(r, c)` to buffer row `r` for the rows of `bufs` and the columns
/// `cols` of a column-major tile with leading dimension `ld`.
///
/// `row_lo` is the tile row of `bufs`' first row; tile column `c` is candidate position
/// `pos0 + c`. Per column, the tile segment and the thresholds are both contiguous, so the test
/// "any of 16 values above its threshold" compiles to a vector compare and a mask test.
#[inline(always)]
fn scan_rows(
    tile: &[f32],
    ld: usize,
    row_lo: usize,
    bufs: &mut BuffersMut<'_>,
    cols: Range<usize>,
    pos0: u32,
) {
    let nr = bufs.n_rows();
    for c in cols {
        let col = &tile[c * ld + row_lo..c * ld + row_lo + nr];
        let pos = pos0 + c as u32;
        let mut r = 0;
        while r + LANES <= nr {
            let vals: &[f32; LANES] = col[r..r + LANES].try_into().expect("16 lanes");
            // Each lane is a different row, so an offer cannot change another lane's threshold.
            let mut mask = above(
                vals,
                bufs.thresholds()[r..r + LANES].try_into().expect("16 lanes"),
            );
            while mask != 0 {
                let l = mask.trailing_zeros() as usize;
                bufs.offer(r + l, vals[l], pos);
                mask &= mask - 1;
            }
            r += LANES;
        }
        for (rr, &s) in col.iter().enumerate().skip(r) {
            if s > bufs.threshold(rr) {
                bufs.offer(rr, s, pos);
            }
        }
    }
}

/// Column side: offers tile entry `(r, c)` to buffer row `c − col_lo` for every tile row `r`
/// and the columns `col_lo..col_lo + bufs.n_rows()`; tile row `r` is candidate `pos0 + r`.
///
/// Used by the symmetric all-pairs search, where a tile `S[I, J]` also holds `S[J, I]ᵀ`.
#[inline(always)]
fn scan_cols(
    tile: &[f32],
    ld: usize,
    n_tile_rows: usize,
    col_lo: usize,
    bufs: &mut BuffersMut<'_>,
    pos0: u32,
) {
    for h in 0..bufs.n_rows() {
        let c = col_lo + h;
        let col = &tile[c * ld..c * ld + n_tile_rows];
        let mut r = 0;
        while r + LANES <= n_tile_rows {
            let vals: &[f32; LANES] = col[r..r + LANES].try_into().expect("16 lanes");
            let mut mask = above_scalar(vals, bufs.threshold(h));
            while mask != 0 {
                let l = mask.trailing_zeros() as usize;
                // All lanes are the same row: an offer may have raised its threshold.
                if vals[l] > bufs.threshold(h) {
                    bufs.offer(h, vals[l], pos0 + (r + l) as u32);
                }
                mask &= mask - 1;
            }
            r += LANES;
        }
        for (rr, &s) in col.iter().enumerate().skip(r) {
            if s > bufs.threshold(h) {
                bufs.offer(h, s, pos0 + rr as u32);
            }
        }
    }
}

/// Bit `l` set iff `vals[l] > thr[l]` (a vector compare and a move-mask).
#[inline(always)]
fn above(vals: &[f32; LANES], thr: &[f32; LANES]) -> u32 {
    let mut mask = 0u32;
    for l in 0..LANES {
        mask |= u32::from(vals[l] > thr[l]) << l;
    }
    mask
}

/// Bit `l` set iff `vals[l] > thr`.
#[inline(always)]
fn above_scalar(vals: &[f32; LANES], thr: f32) -> u32 {
    let mut mask = 0u32;
    for (l, v) in vals.iter().enumerate() {
        mask |= u32::from(*v > thr) << l;
    }
    mask
}
