//! Per-row candidate buffers for the top-k scan: a bounded reservoir per query row, stored flat,
//! with the admission threshold of every row kept in one contiguous array for the vector scan.

/// One candidate reservoir per query row, all rows in flat arrays.
///
/// Row `r` keeps the best `cap` entries `(sim, pos)` offered to it — best meaning higher
/// similarity, then lower candidate position. Entries are appended unordered to a buffer of
/// `2·cap` slots; when it is full it is cut back to the best `cap` (a selection, O(cap)) and the
/// row's admission threshold `thr[r]` becomes the similarity of the worst entry kept — or, if
/// higher, the largest f32 below `f_k − margin` (`f_k` the k-th best kept value, `margin` the
/// filter's `2e`), and entries not above it are dropped too: such a value can never rank in the
/// top k (its reference value is below each of the k entries ≥ `f_k`; see `finalize`), and the
/// raised threshold lets fewer values in. A value is offered only if it is strictly greater than
/// the threshold (−∞, or a seed set before the scan with [`Buffers::seed`], until the first cut;
/// a cut never lowers it: every entry is above the old threshold, and the new one is an entry or
/// lies above one), so every value a row ever rejected or cut is ≤ its final threshold — the
/// property the exactness check in `finalize` relies on. Appending costs a store, where a
/// binary-heap insertion costs a sift with unpredictable branches; the lagging threshold admits
/// more values, but the trade was measured 11 % faster overall than a bounded binary heap
/// (V = 26k, k = 100).
#[derive(Debug)]
pub(crate) struct Buffers {
    cut: Cut,
    entries: Vec<(f32, u32)>,
    len: Vec<u32>,
    thr: Vec<f32>,
}

/// A key that orders entries best first when ascending: similarity descending (IEEE total
/// order, as `f32::total_cmp`), then position ascending. One integer compare instead of a float
/// compare and a tie-break branch.
#[inline(always)]
fn best_first(e: &(f32, u32)) -> u64 {
    let b = e.0.to_bits();
    let ordered = if b >> 31 == 1 { !b } else { b | 0x8000_0000 };
    (u64::from(!ordered) << 32) | u64::from(e.1)
}

/// How rows are cut: the shape shared by [`Buffers`] and its views.
#[derive(Debug, Clone, Copy)]
struct Cut {
    /// Entries a row keeps after a cut (≥ `k`); a row holds up to `2·cap`.
    cap: usize,
    /// Neighbours per query.
    k: usize,
    /// The filter's `2e`.
    margin: f64,
}

impl Cut {
    /// The first slot of row `r`.
    #[inline(always)]
    fn base(&self, r: usize) -> usize {
        r * 2 * self.cap
    }

    /// Cuts `row` (its first `len > cap` entries) to the entries above the largest f32 below
    /// `f_k − margin`, or, if more than `cap` are, to its best `cap`; returns the new length and
    /// threshold (the larger of that f32 and the worst entry kept).
    fn apply(&self, row: &mut [(f32, u32)], len: usize) -> (usize, f32) {
        let Cut { cap, k, margin } = *self;
        let f_k = row[..len].select_nth_unstable_by_key(k - 1, best_first).1.0;
        let floor = f64::from(f_k) - margin;
        let mut below = floor as f32;
        if f64::from(below) >= floor {
            below = below.next_down();
        }
        // The k best are in front and all above `below`; move the other entries above it after them.
        let mut kept = k;
        for i in k..len {
            if row[i].0 > below {
                row.swap(kept, i);
                kept += 1;
            }
        }
        if kept <= cap {
            return (kept, below);
        }
        row[..kept].select_nth_unstable_by_key(cap - 1, best_first);
        (cap, row[cap - 1].0)
    }
}

impl Buffers {
    /// Rows of `cap ≥ k` entries for a filter whose values are within `margin / 2` of the
    /// reference values.
    pub(crate) fn new(n_rows: usize, cap: usize, k: usize, margin: f64) -> Buffers {
        debug_assert!(k >= 1 && cap >= k);
        Buffers {
            cut: Cut { cap, k, margin },
            entries: vec![(f32::NEG_INFINITY, u32::MAX); n_rows * 2 * cap],
            len: vec![0; n_rows],
            thr: vec![f32::NEG_INFINITY; n_rows],
        }
    }

    pub(crate) fn view(&mut self) -> BuffersMut<'_> {
        BuffersMut {
            cut: self.cut,
            entries: &mut self.entries,
            len: &mut self.len,
            thr: &mut self.thr,
        }
    }

    /// Cuts every row back to at most `cap` entries (threshold updated when a row is cut).
    pub(crate) fn settle(&mut self) {
        let c = self.cut;
        for ((row, len), thr) in self
            .entries
            .chunks_mut(2 * c.cap)
            .zip(&mut self.len)
            .zip(&mut self.thr)
        {
            if *len as usize > c.cap {
                let (kept, t) = c.apply(row, *len as usize);
                *len = kept as u32;
                *thr = t;
            }
        }
    }

    /// The entries of row `r` (unordered; at most `cap` after [`Buffers::settle`]).
    pub(crate) fn row(&self, r: usize) -> &[(f32, u32)] {
        let base = self.cut.base(r);
        &self.entries[base..base + self.len[r] as usize]
    }

    /// The k-th best value kept in row `r`, which must hold at least `k` entries.
    pub(crate) fn kth_value(&self, r: usize) -> f32 {
        let mut values: Vec<f32> = self.row(r).iter().map(|e| e.0).collect();
        *values
            .select_nth_unstable_by(self.cut.k - 1, |a, b| b.total_cmp(a))
            .1
    }

    /// The admission threshold of row `r` (−∞ if the row was never seeded nor cut).
    pub(crate) fn threshold(&self, r: usize) -> f32 {
        self.thr[r]
    }

    /// Starts every row's admission threshold at `seed` instead of −∞: values not above it are
    /// never offered. Only speed depends on the seed — a row whose seed turns out too high fails
    /// the exactness check of `finalize` (see `Search::kept`) and is searched again.
    pub(crate) fn seed(&mut self, seed: f32) {
        self.thr.fill(seed);
    }

    /// Empties every row and starts its admission threshold at `threshold` (reuses the memory
    /// of scratch rows that only receive offers, as in the timing of the filters).
    pub(crate) fn clear(&mut self, threshold: f32) {
        self.len.fill(0);
        self.thr.fill(threshold);
    }
}

/// A mutable view of a contiguous range of rows of [`Buffers`].
#[derive(Debug)]
pub(crate) struct BuffersMut<'a> {
    cut: Cut,
    entries: &'a mut [(f32, u32)],
    len: &'a mut [u32],
    thr: &'a mut [f32],
}

impl<'a> BuffersMut<'a> {
    pub(crate) fn n_rows(&self) -> usize {
        self.len.len()
    }

    /// Splits into rows `[0, mid)` and `[mid, n)`.
    pub(crate) fn split_at(self, mid: usize) -> (BuffersMut<'a>, BuffersMut<'a>) {
        let cut = self.cut;
        let (e0, e1) = self.entries.split_at_mut(cut.base(mid));
        let (l0, l1) = self.len.split_at_mut(mid);
        let (t0, t1) = self.thr.split_at_mut(mid);
        (
            BuffersMut {
                cut,
                entries: e0,
                len: l0,
                thr: t0,
            },
            BuffersMut {
                cut,
                entries: e1,
                len: l1,
                thr: t1,
            },
        )
    }

    /// Consecutive views of `rows_per_chunk` rows (the last may be shorter).
    pub(crate) fn chunks(self, rows_per_chunk: usize) -> Vec<BuffersMut<'a>> {
        let mut out = Vec::new();
        let mut rest = self;
        while rest.n_rows() > rows_per_chunk {
            let (head, tail) = rest.split_at(rows_per_chunk);
            out.push(head);
            rest = tail;
        }
        if rest.n_rows() > 0 {
            out.push(rest);
        }
        out
    }

    #[inline(always)]
    pub(crate) fn thresholds(&self) -> &[f32] {
        self.thr
    }

    #[inline(always)]
    pub(crate) fn threshold(&self, r: usize) -> f32 {
        self.thr[r]
    }

    /// Hints the CPU to bring row `r`'s next free slot into cache (no effect on any value).
    #[inline(always)]
    pub(crate) fn prefetch_slot(&self, r: usize) {
        let slot = &self.entries[self.cut.base(r) + self.len[r] as usize];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it never faults and reads or writes nothing
        // observable; the pointer points into a live slice. SSE is in the x86-64 baseline.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                std::ptr::from_ref(slot).cast(),
            )
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// Appends `(sim, pos)` to row `r`, cutting the row when its buffer is full. The caller has
    /// checked `sim > threshold(r)`.
    #[inline(always)]
    pub(crate) fn offer(&mut self, r: usize, sim: f32, pos: u32) {
        let n = self.len[r] as usize;
        let base = self.cut.base(r);
        self.entries[base + n] = (sim, pos);
        if n + 1 < 2 * self.cut.cap {
            self.len[r] = (n + 1) as u32;
        } else {
            self.cut_row(r);
        }
    }

    #[inline(never)]
    fn cut_row(&mut self, r: usize) {
        let c = self.cut;
        let row = &mut self.entries[c.base(r)..c.base(r + 1)];
        let (kept, t) = c.apply(row, 2 * c.cap);
        self.len[r] = kept as u32;
        self.thr[r] = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_orders_like_total_cmp_then_position() {
        let vals = [
            f32::NEG_INFINITY,
            -1.0,
            -0.0,
            0.0,
            1e-40,
            0.5,
            0.5,
            1.0,
            f32::INFINITY,
        ];
        let mut entries = Vec::new();
        for (i, &v) in vals.iter().enumerate() {
            entries.push((v, 7 - i as u32 % 3));
            entries.push((v, 100 + i as u32));
        }
        for a in &entries {
            for b in &entries {
                let want = b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
                assert_eq!(best_first(a).cmp(&best_first(b)), want, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_cut_keeps_the_best_and_raises_the_threshold_only_below_the_margin() {
        let mut row: Vec<(f32, u32)> = (0..20).map(|i| (i as f32 / 20.0, i)).collect();
        // cap 10, k 3, a wide margin: the worst kept entry (0.5) sets the threshold.
        let (kept, thr) = Cut {
            cap: 10,
            k: 3,
            margin: 1.0,
        }
        .apply(&mut row.clone(), 20);
        assert_eq!((kept, thr), (10, 0.5));
        // A narrow margin: f_k = 0.85, so everything not above 0.85 − 0.12 = 0.73 goes.
        let (kept, thr) = Cut {
            cap: 10,
            k: 3,
            margin: 0.12,
        }
        .apply(&mut row, 20);
        assert!(
            f64::from(thr) < f64::from(0.85f32) - 0.12 && thr > 0.7299,
            "{thr}"
        );
        let mut ids: Vec<u32> = row[..kept].iter().map(|e| e.1).collect();
        ids.sort_unstable();
        assert_eq!(ids, vec![15, 16, 17, 18, 19]);
    }

    /// The exactness check needs every value a row dropped to be ≤ its final threshold: with a
    /// seed close below the k-th best (so that `f_k − margin` falls under it), cuts must still
    /// never lower the threshold below the seed, nor any threshold below an earlier one.
    #[test]
    fn cuts_never_lower_a_seeded_threshold() {
        let (cap, k, margin) = (8, 3, 0.5);
        let seed = 0.6f32;
        let mut bufs = Buffers::new(1, cap, k, margin);
        bufs.seed(seed);
        let mut view = bufs.view();
        let mut last = seed;
        let mut offered = 0;
        // Values just above the seed, in a scrambled order, many times the buffer's size.
        for i in 0..200u32 {
            let sim = seed + f32::from(((i * 37) % 101) as u16 + 1) * 1e-3;
            if sim > view.threshold(0) {
                view.offer(0, sim, i);
                offered += 1;
            }
            let thr = view.threshold(0);
            assert!(thr >= last, "offer {i}: threshold {thr} fell below {last}");
            last = thr;
        }
        assert!(
            offered > 2 * cap,
            "not vacuous: the row was cut ({offered} offers)"
        );
        assert!(last > seed);
    }
}
