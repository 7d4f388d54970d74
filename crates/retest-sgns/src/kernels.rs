//! The vector kernels of the trainer (dot product, gradient steps) over rows padded to whole
//! 64-byte blocks of 16 `f32` lanes, with a summation order fixed in the source.
//!
//! # Determinism
//!
//! Every kernel is written lane by lane: element `i` of a row lives in block `i / 16`, lane
//! `i % 16`, and a dot product keeps `ACCUMULATORS × 16` partial sums, block `b` adding into
//! accumulator `b % ACCUMULATORS` in block order; the partial sums are then combined by one fixed
//! tree (`reduce`). Only IEEE `+` and `×` are used — never `mul_add`, and Rust does not contract
//! `a * b + c` into an FMA on its own — so SSE2, AVX2 and AVX-512 code generated from these
//! functions performs the same operations in the same order and produces the same bits. The
//! tests compare the dispatched paths bit for bit.
//!
//! The padding lanes of a row (`dim..16·⌈dim/16⌉`) stay zero in every matrix and buffer: they
//! start at zero and every update adds `g·0 = ±0` to them.

/// `f32` lanes per block: one 64-byte cache line, one AVX-512 register.
pub(crate) const LANES: usize = 16;

use retest_hugemem::HugeBuf;

use crate::simd::Simd;

/// Independent dot-product accumulators (blocks), to hide the latency of the additions.
const ACCUMULATORS: usize = 4;

/// One 64-byte-aligned block of 16 lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Block(pub(crate) [f32; LANES]);

impl Block {
    pub(crate) const ZERO: Block = Block([0.0; LANES]);
}

/// Number of blocks in a row of `dim` values.
pub(crate) fn blocks_per_row(dim: usize) -> usize {
    dim.div_ceil(LANES)
}

/// A row-major matrix of `rows` rows, each padded to whole blocks.
///
/// The blocks live in a [`HugeBuf`]: a matrix of 2 MiB or more starts on a 2 MiB boundary and
/// is advised for transparent huge pages before its memory is first touched, because the
/// trainer reads rows at random and with 4 KiB pages nearly every row of a 30 MB matrix is a
/// TLB miss.
#[derive(Debug, Clone)]
pub(crate) struct Matrix {
    /// The rows, concatenated.
    data: HugeBuf<Block>,
    n_rows: usize,
    row_blocks: usize,
}

impl Matrix {
    /// A zero matrix, or `None` if its size overflows.
    pub(crate) fn zeros(rows: usize, dim: usize) -> Option<Matrix> {
        let row_blocks = blocks_per_row(dim);
        let len = rows.checked_mul(row_blocks)?;
        Some(Matrix {
            data: HugeBuf::try_filled(len, Block::ZERO)?,
            n_rows: rows,
            row_blocks,
        })
    }

    #[inline(always)]
    pub(crate) fn row(&self, i: usize) -> &[Block] {
        let first = i * self.row_blocks;
        &self.data[first..first + self.row_blocks]
    }

    #[inline(always)]
    pub(crate) fn row_mut(&mut self, i: usize) -> &mut [Block] {
        let first = i * self.row_blocks;
        &mut self.data[first..first + self.row_blocks]
    }

    /// `N` distinct rows for writing.
    ///
    /// # Panics
    /// If two indices are equal or one is out of range.
    #[inline(always)]
    pub(crate) fn rows_mut<const N: usize>(&mut self, rows: [usize; N]) -> [&mut [Block]; N] {
        let (rb, n_rows) = (self.row_blocks, self.n_rows);
        for i in 0..N {
            assert!(rows[i] < n_rows, "row {} out of range", rows[i]);
            for j in 0..i {
                assert!(rows[i] != rows[j], "row {} requested twice", rows[i]);
            }
        }
        let base = self.data.as_mut_ptr();
        std::array::from_fn(|k| {
            // SAFETY: the rows are in range and pairwise distinct (checked above), so these are
            // disjoint sub-slices of `data`, all borrowed from `&mut self` for its lifetime.
            unsafe { std::slice::from_raw_parts_mut(base.add(rows[k] * rb), rb) }
        })
    }

    /// The first `dim` values of every row, concatenated.
    pub(crate) fn unpadded(&self, dim: usize) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.n_rows * dim);
        for row in self.data.chunks_exact(self.row_blocks) {
            out.extend(row.iter().flat_map(|b| b.0).take(dim));
        }
        out
    }

    /// Sets the first `dim` values of every row from `next`, row by row, in order.
    pub(crate) fn fill_with(&mut self, dim: usize, mut next: impl FnMut() -> f32) {
        for row in self.data.chunks_exact_mut(self.row_blocks) {
            for i in 0..dim {
                row[i / LANES].0[i % LANES] = next();
            }
        }
    }
}

/// `acc + a ⊙ b` (one multiplication and one addition per lane, rounded separately).
#[inline(always)]
fn add_product<S: Simd>(s: S, acc: S::V, a: &Block, b: &Block) -> S::V {
    s.add(acc, s.mul(s.load(a), s.load(b)))
}

/// The fixed reduction tree: `(acc₀ + acc₁) + (acc₂ + acc₃)` lane by lane, then halving the 16
/// lanes as `s[l] + s[l + w]` for `w = 8, 4, 2, 1`.
#[inline(always)]
fn reduce<S: Simd>(s: S, acc: [S::V; ACCUMULATORS]) -> f32 {
    let mut block = Block::ZERO;
    s.store(&mut block, s.add(s.add(acc[0], acc[1]), s.add(acc[2], acc[3])));
    let v = block.0;
    let mut s8 = [0.0f32; 8];
    for l in 0..8 {
        s8[l] = v[l] + v[l + 8];
    }
    let s4 = [s8[0] + s8[4], s8[1] + s8[5], s8[2] + s8[6], s8[3] + s8[7]];
    let s2 = [s4[0] + s4[2], s4[1] + s4[3]];
    s2[0] + s2[1]
}

/// Adds the products of the last `n % ACCUMULATORS` blocks into accumulators `0, 1, …`.
#[inline(always)]
fn add_rest<S: Simd>(s: S, acc: &mut [S::V; ACCUMULATORS], x: &[Block], y: &[Block]) {
    match (x, y) {
        ([], _) => {}
        ([x0], [y0, ..]) => acc[0] = add_product(s, acc[0], x0, y0),
        ([x0, x1], [y0, y1, ..]) => {
            acc[0] = add_product(s, acc[0], x0, y0);
            acc[1] = add_product(s, acc[1], x1, y1);
        }
        ([x0, x1, x2, ..], [y0, y1, y2, ..]) => {
            acc[0] = add_product(s, acc[0], x0, y0);
            acc[1] = add_product(s, acc[1], x1, y1);
            acc[2] = add_product(s, acc[2], x2, y2);
        }
        _ => unreachable!("rows have equal length"),
    }
}

/// `a · b` in the fixed order described in the module documentation.
#[inline(always)]
pub(crate) fn dot<S: Simd>(s: S, a: &[Block], b: &[Block]) -> f32 {
    let n = a.len();
    let b = &b[..n];
    let full = n - n % ACCUMULATORS;
    let mut acc = [s.zero(); ACCUMULATORS];
    for (xa, xb) in a[..full]
        .chunks_exact(ACCUMULATORS)
        .zip(b[..full].chunks_exact(ACCUMULATORS))
    {
        acc = [
            add_product(s, acc[0], &xa[0], &xb[0]),
            add_product(s, acc[1], &xa[1], &xb[1]),
            add_product(s, acc[2], &xa[2], &xb[2]),
            add_product(s, acc[3], &xa[3], &xb[3]),
        ];
    }
    add_rest(s, &mut acc, &a[full..], &b[full..]);
    reduce(s, acc)
}

/// `(a · b, a · c)`, each in exactly [`dot`]'s order (the two sums are interleaved, not mixed), so
/// that the two reductions overlap.
#[inline(always)]
pub(crate) fn dot_pair<S: Simd>(s: S, a: &[Block], b: &[Block], c: &[Block]) -> (f32, f32) {
    let n = a.len();
    let (b, c) = (&b[..n], &c[..n]);
    let full = n - n % ACCUMULATORS;
    let mut acc_b = [s.zero(); ACCUMULATORS];
    let mut acc_c = [s.zero(); ACCUMULATORS];
    for ((xa, xb), xc) in a[..full]
        .chunks_exact(ACCUMULATORS)
        .zip(b[..full].chunks_exact(ACCUMULATORS))
        .zip(c[..full].chunks_exact(ACCUMULATORS))
    {
        for i in 0..ACCUMULATORS {
            acc_b[i] = add_product(s, acc_b[i], &xa[i], &xb[i]);
            acc_c[i] = add_product(s, acc_c[i], &xa[i], &xc[i]);
        }
    }
    add_rest(s, &mut acc_b, &a[full..], &b[full..]);
    add_rest(s, &mut acc_c, &a[full..], &c[full..]);
    (reduce(s, acc_b), reduce(s, acc_c))
}

/// One target's step on one block, with `o` the old output value:
/// `grad += g·o; out = o + g·input`.
#[cfg(test)]
#[inline(always)]
fn step_block<S: Simd>(s: S, g: S::V, input: &Block, out: &mut Block, grad: &mut Block) {
    let o = s.load(out);
    s.store(grad, s.add(s.load(grad), s.mul(g, o)));
    s.store(out, s.add(o, s.mul(g, s.load(input))));
}

/// The gradient step of one (input, target) pair with scaled gradient `g`:
/// `grad += g·out; out += g·input` (the input's own update is accumulated in `grad`): the
/// sequential form that [`step_group`] is tested against.
#[cfg(test)]
#[inline(always)]
pub(crate) fn step<S: Simd>(s: S, g: f32, input: &[Block], out: &mut [Block], grad: &mut [Block]) {
    let n = input.len();
    let (out, grad) = (&mut out[..n], &mut grad[..n]);
    let g = s.splat(g);
    for ((x, o), e) in input.iter().zip(out.iter_mut()).zip(grad.iter_mut()) {
        step_block(s, g, x, o, e);
    }
}

/// The gradient steps of `N` distinct targets with scaled gradients `g`, in one pass over the
/// blocks. For each block `j`, with `x = input[j]`:
///
/// ```text
/// acc = if from_grad { grad[j] } else { 0 }
/// for k in 0..N { o = out_k[j]; acc += g_k·o; out_k[j] = o + g_k·x }
/// if into_input { input[j] = x + acc; if from_grad { grad[j] = 0 } } else { grad[j] = acc }
/// ```
///
/// This is exactly `N` sequential [`step`]s followed (if `into_input`) by [`add_and_clear`]:
/// each lane sees the same operations in the same order, because the targets' rows are distinct
/// and the input is written only after its block was used by every target. Keeping `acc` in a
/// register halves the stores of the sequential form.
///
/// `ahead` are the first blocks of rows (of `input`'s length) to prefetch into L2 along the
/// way, block `j` of each in the pass over block `j` (no effect on results; the pointers are
/// only handed to `prefetcht1`, never read).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_group<S: Simd, const N: usize>(
    s: S,
    g: [f32; N],
    outs: [&mut [Block]; N],
    input: &mut [Block],
    grad: &mut [Block],
    from_grad: bool,
    into_input: bool,
    ahead: &[*const Block],
) {
    let n = input.len();
    let grad = &mut grad[..n];
    let mut outs = outs;
    for o in &mut outs {
        assert!(o.len() >= n, "rows are as long as the input");
    }
    let g: [S::V; N] = std::array::from_fn(|k| s.splat(g[k]));
    for j in 0..n {
        for &row in ahead {
            prefetch_line(row.wrapping_add(j));
        }
        let x = s.load(&input[j]);
        let mut acc = if from_grad { s.load(&grad[j]) } else { s.zero() };
        for k in 0..N {
            let o = s.load(&outs[k][j]);
            acc = s.add(acc, s.mul(g[k], o));
            s.store(&mut outs[k][j], s.add(o, s.mul(g[k], x)));
        }
        if into_input {
            s.store(&mut input[j], s.add(x, acc));
            if from_grad {
                s.store(&mut grad[j], s.zero());
            }
        } else {
            s.store(&mut grad[j], acc);
        }
    }
}

/// `dst = ((r₀ + r₁) + …) + r_last` lane by lane (`started = false`), or
/// `dst = ((dst + r₀) + …) + r_last` (`started = true`), in one pass over the blocks.
#[inline(always)]
pub(crate) fn sum_rows<S: Simd>(s: S, dst: &mut [Block], rows: &[&[Block]], started: bool) {
    let Some((first, rest)) = rows.split_first() else {
        return;
    };
    for (j, d) in dst.iter_mut().enumerate() {
        let mut acc = if started {
            s.add(s.load(d), s.load(&first[j]))
        } else {
            s.load(&first[j])
        };
        for r in rest {
            acc = s.add(acc, s.load(&r[j]));
        }
        s.store(d, acc);
    }
}

/// `row += grad`.
#[inline(always)]
pub(crate) fn add<S: Simd>(s: S, row: &mut [Block], grad: &[Block]) {
    for (r, e) in row.iter_mut().zip(grad) {
        s.store(r, s.add(s.load(r), s.load(e)));
    }
}

/// `row += grad; grad = 0`.
#[inline(always)]
pub(crate) fn add_and_clear<S: Simd>(s: S, row: &mut [Block], grad: &mut [Block]) {
    for (r, e) in row.iter_mut().zip(grad.iter_mut()) {
        s.store(r, s.add(s.load(r), s.load(e)));
        s.store(e, s.zero());
    }
}

/// `v *= x`.
#[inline(always)]
pub(crate) fn scale<S: Simd>(s: S, v: &mut [Block], x: f32) {
    let x = s.splat(x);
    for b in v {
        s.store(b, s.mul(s.load(b), x));
    }
}

/// `v = 0`.
#[inline(always)]
pub(crate) fn clear(v: &mut [Block]) {
    v.fill(Block::ZERO);
}

/// Hints the CPU to bring `row` into the L2 cache (`prefetcht1`; no effect on results, a
/// no-op off x86-64). L2 rather than L1: the trainer prefetches ~100 lines per pair, many from
/// DRAM, and into L1 (`prefetcht0`) they kept the L1 miss buffers full and the demand loads
/// waiting (measured 25% slower); the kernels then pull the lines from L2.
#[inline(always)]
pub(crate) fn prefetch(row: &[Block]) {
    for block in row {
        prefetch_line(block);
    }
}

/// [`prefetch`] of the one block at `block` (any address: it is not dereferenced).
#[inline(always)]
pub(crate) fn prefetch_line(block: *const Block) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T1, _mm_prefetch};
        // SAFETY: prefetching has no architectural effect and cannot fault, whatever the
        // address.
        unsafe { _mm_prefetch::<_MM_HINT_T1>(block.cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = block;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Portable;

    fn blocks(values: &[f32]) -> Vec<Block> {
        let mut out = vec![Block::ZERO; blocks_per_row(values.len())];
        for (i, &v) in values.iter().enumerate() {
            out[i / LANES].0[i % LANES] = v;
        }
        out
    }

    fn values(n: usize, seed: u32) -> Vec<f32> {
        // A small deterministic generator is enough for kernel tests.
        let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x >> 8) as f32 / (1 << 24) as f32 - 0.5
            })
            .collect()
    }

    #[test]
    fn dot_is_accurate_for_every_length() {
        for dim in [1usize, 15, 16, 17, 50, 63, 64, 65, 100, 300, 301] {
            let (a, b) = (values(dim, 1), values(dim, 2));
            let want: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
            let got = dot(Portable, &blocks(&a), &blocks(&b));
            assert!((f64::from(got) - want).abs() < 1e-5, "dim {dim}: {got} vs {want}");
        }
    }

    #[test]
    fn dot_follows_the_documented_order() {
        // Recompute with explicit partial sums s[b % 4][lane] and the documented tree.
        let dim = 300;
        let (a, b) = (values(dim, 3), values(dim, 4));
        let mut acc = [[0.0f32; LANES]; ACCUMULATORS];
        for i in 0..dim {
            acc[(i / LANES) % ACCUMULATORS][i % LANES] += a[i] * b[i];
        }
        let mut s = [0.0f32; LANES];
        for l in 0..LANES {
            s[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
        }
        for width in [8, 4, 2, 1] {
            for l in 0..width {
                s[l] += s[l + width];
            }
        }
        assert_eq!(dot(Portable, &blocks(&a), &blocks(&b)).to_bits(), s[0].to_bits());
    }

    /// `dot_pair` is two `dot`s, bit for bit, for every length (all remainders of the
    /// accumulator cycle).
    #[test]
    fn dot_pair_equals_two_dots() {
        for dim in [1usize, 15, 16, 17, 33, 50, 63, 64, 65, 100, 300, 301] {
            let (a, b, c) = (
                blocks(&values(dim, 5)),
                blocks(&values(dim, 6)),
                blocks(&values(dim, 7)),
            );
            let (p, q) = dot_pair(Portable, &a, &b, &c);
            assert_eq!(p.to_bits(), dot(Portable, &a, &b).to_bits(), "dim {dim}");
            assert_eq!(q.to_bits(), dot(Portable, &a, &c).to_bits(), "dim {dim}");
        }
    }

    /// `step_group` is `N` sequential steps (then adding the sum to the input), bit for bit,
    /// in all four modes.
    #[test]
    fn step_group_equals_sequential_steps() {
        let s = Portable;
        for dim in [16usize, 50, 300] {
            let input0 = blocks(&values(dim, 5));
            let outs0: Vec<Vec<Block>> = (0..3).map(|k| blocks(&values(dim, 6 + k))).collect();
            let grad0 = blocks(&values(dim, 9));
            let g = [0.0123f32, -0.5, 0.031];
            for (from_grad, into_input) in [(false, false), (false, true), (true, false), (true, true)] {
                // Sequential reference.
                let mut input_a = input0.clone();
                let mut outs_a = outs0.clone();
                let mut grad_a = if from_grad {
                    grad0.clone()
                } else {
                    vec![Block::ZERO; input0.len()]
                };
                for k in 0..3 {
                    step(s, g[k], &input_a, &mut outs_a[k], &mut grad_a);
                }
                if into_input {
                    add_and_clear(s, &mut input_a, &mut grad_a);
                }
                // Grouped.
                let mut input_b = input0.clone();
                let mut outs_b = outs0.clone();
                let mut grad_b = if from_grad {
                    grad0.clone()
                } else {
                    vec![Block::ZERO; input0.len()]
                };
                let [o0, o1, o2] = &mut outs_b[..] else {
                    unreachable!()
                };
                step_group(
                    s,
                    g,
                    [&mut o0[..], &mut o1[..], &mut o2[..]],
                    &mut input_b,
                    &mut grad_b,
                    from_grad,
                    into_input,
                    &[],
                );
                assert_eq!(input_a, input_b, "input, dim {dim}, {from_grad} {into_input}");
                assert_eq!(outs_a, outs_b, "outputs, dim {dim}, {from_grad} {into_input}");
                assert_eq!(grad_a, grad_b, "grad, dim {dim}, {from_grad} {into_input}");
            }
            // And one step is what it says.
            let (x, o, e) = (values(dim, 5), values(dim, 6), values(dim, 9));
            let mut out = outs0[0].clone();
            let mut grad = grad0.clone();
            step(s, 0.0123, &input0, &mut out, &mut grad);
            for i in 0..dim {
                assert_eq!(out[i / LANES].0[i % LANES], o[i] + 0.0123 * x[i]);
                assert_eq!(grad[i / LANES].0[i % LANES], e[i] + 0.0123 * o[i]);
            }
        }
    }

    /// Every kernel gives the same bits on every path this CPU has.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn every_path_gives_the_same_bits() {
        use crate::simd::{Avx2, Avx512, Sse2};
        fn run<S: Simd>(s: S, dim: usize) -> (Vec<u32>, Vec<Block>, Vec<Block>, Vec<Block>) {
            let input = blocks(&values(dim, 11));
            let next = blocks(&values(dim, 12));
            let mut out = blocks(&values(dim, 13));
            let mut grad = blocks(&values(dim, 14));
            let mut row = blocks(&values(dim, 15));
            let (p, q) = dot_pair(s, &input, &next, &out);
            let f = vec![
                dot(s, &input, &next).to_bits(),
                dot(s, &next, &out).to_bits(),
                p.to_bits(),
                q.to_bits(),
            ];
            let mut other = next.clone();
            step_group(
                s,
                [-0.031, 0.7],
                [&mut out[..], &mut other[..]],
                &mut row,
                &mut grad,
                true,
                false,
                &[next.as_ptr()],
            );
            add(s, &mut row, &grad);
            scale(s, &mut row, 1.0 / 3.0);
            let mut grad2 = grad.clone();
            add_and_clear(s, &mut out, &mut grad2);
            (f, out, grad, row)
        }
        for dim in [1usize, 16, 50, 64, 300] {
            let want = run(Portable, dim);
            assert_eq!(run(Sse2::new(), dim), want, "sse2, dim {dim}");
            if let Some(s) = Avx2::detect() {
                assert_eq!(run(s, dim), want, "avx2, dim {dim}");
            }
            if let Some(s) = Avx512::detect() {
                assert_eq!(run(s, dim), want, "avx512, dim {dim}");
            }
        }
    }

    #[test]
    fn padding_stays_zero() {
        let dim = 20;
        let input = blocks(&values(dim, 1));
        let mut out = blocks(&values(dim, 2));
        let mut grad = blocks(&values(dim, 3));
        step(Portable, 0.5, &input, &mut out, &mut grad);
        let mut row = blocks(&values(dim, 4));
        add_and_clear(Portable, &mut row, &mut grad);
        for v in [&out, &row] {
            assert!(v[1].0[dim % LANES..].iter().all(|&x| x == 0.0));
        }
        assert!(grad.iter().all(|b| *b == Block::ZERO));
    }

    #[test]
    fn matrix_layout() {
        let mut m = Matrix::zeros(3, 20).unwrap();
        let mut k = 0.0;
        m.fill_with(20, || {
            k += 1.0;
            k
        });
        let flat = m.unpadded(20);
        assert_eq!(flat.len(), 60);
        assert_eq!(flat, (1..=60).map(|x| x as f32).collect::<Vec<_>>());
        assert_eq!(m.row(1)[0].0[0], 21.0);
        let [a, b] = m.rows_mut([2, 0]);
        a[0].0[0] = b[0].0[0];
        assert_eq!(m.row(2)[0].0[0], 1.0);
        assert!(Matrix::zeros(usize::MAX / 2, 300).is_none());
    }

    /// A matrix of at least a huge page starts on a huge-page boundary and has the same layout
    /// as a small one: exactly its rows, zero, in order.
    #[test]
    fn large_matrix_layout() {
        use retest_hugemem::HUGE_PAGE;
        let (rows, dim) = (2000, 300);
        assert!(rows * blocks_per_row(dim) * size_of::<Block>() >= HUGE_PAGE);
        let mut m = Matrix::zeros(rows, dim).unwrap();
        assert_eq!(m.row(0).as_ptr() as usize % HUGE_PAGE, 0);
        assert!((0..rows).all(|i| m.row(i).iter().all(|b| *b == Block::ZERO)));
        let mut k = 0u32;
        m.fill_with(dim, || {
            k += 1;
            k as f32
        });
        let flat = m.unpadded(dim);
        assert_eq!(flat.len(), rows * dim);
        assert!(flat.iter().enumerate().all(|(i, &x)| x == (i + 1) as f32));
        assert_eq!(m.row(rows - 1)[0].0[0], ((rows - 1) * dim + 1) as f32);
        assert!(m.row(rows - 1)[18].0[dim % LANES..].iter().all(|&x| x == 0.0));
        let [a, b] = m.rows_mut([rows - 1, 0]);
        a[0].0[0] = b[0].0[0];
        assert_eq!(m.row(rows - 1)[0].0[0], 1.0);
    }

    #[test]
    #[should_panic(expected = "requested twice")]
    fn rows_mut_refuses_aliasing() {
        let mut m = Matrix::zeros(3, 20).unwrap();
        let _ = m.rows_mut([1, 2, 1]);
    }
}
