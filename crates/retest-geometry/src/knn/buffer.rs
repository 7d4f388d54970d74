//! Per-row candidate buffers for the top-k scan: a bounded reservoir per query row, stored flat,
//! with the admission threshold of every row kept in one contiguous array for the vector scan.

/// One candidate reservoir per query row, all rows in flat arrays.
///
/// Row `r` keeps the best `cap` entries `(sim, pos)` offered to it — best meaning higher
/// similarity, then lower candidate position. Entries are appended unordered to a buffer of
/// `2·cap` slots; when it is full it is cut back to the best `cap` (a selection, O(cap)) and the
/// row's admission threshold `thr[r]` becomes the similarity of the worst entry kept. A value is
/// offered only if it is strictly greater than the threshold (−∞ until the first cut), so every
/// value a row ever rejected or cut is ≤ its final threshold — the property the exactness check
/// in `finalize` relies on. Appending costs a store, where a binary-heap insertion costs a sift
/// with unpredictable branches; the lagging threshold admits more values, but the trade was
/// measured 11 % faster overall than a bounded binary heap (V = 26k, k = 100).
#[derive(Debug)]
pub(crate) struct Buffers {
    cap: usize,
    entries: Vec<(f32, u32)>,
    len: Vec<u32>,
    thr: Vec<f32>,
}

/// Orders entries best first: similarity descending, then position ascending.
#[inline(always)]
fn best_first(a: &(f32, u32), b: &(f32, u32)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
}

/// Cuts `row` (its first `len` entries) back to its best `cap` and returns the new length.
fn cut(row: &mut [(f32, u32)], len: usize, cap: usize) -> usize {
    if len > cap {
        row[..len].select_nth_unstable_by(cap - 1, best_first);
        cap
    } else {
        len
    }
}

impl Buffers {
    pub(crate) fn new(n_rows: usize, cap: usize) -> Buffers {
        Buffers {
            cap,
            entries: vec![(f32::NEG_INFINITY, u32::MAX); n_rows * 2 * cap],
            len: vec![0; n_rows],
            thr: vec![f32::NEG_INFINITY; n_rows],
        }
    }

    pub(crate) fn cap(&self) -> usize {
        self.cap
    }

    pub(crate) fn view(&mut self) -> BuffersMut<'_> {
        BuffersMut {
            cap: self.cap,
            entries: &mut self.entries,
            len: &mut self.len,
            thr: &mut self.thr,
        }
    }

    /// Cuts every row back to at most `cap` entries (threshold updated when a row is cut).
    pub(crate) fn settle(&mut self) {
        let cap = self.cap;
        for ((row, len), thr) in self
            .entries
            .chunks_mut(2 * cap)
            .zip(&mut self.len)
            .zip(&mut self.thr)
        {
            if *len as usize > cap {
                *len = cut(row, *len as usize, cap) as u32;
                *thr = row[cap - 1].0;
            }
        }
    }

    /// The entries of row `r` (unordered; at most `cap` after [`Buffers::settle`]).
    pub(crate) fn row(&self, r: usize) -> &[(f32, u32)] {
        let base = r * 2 * self.cap;
        &self.entries[base..base + self.len[r] as usize]
    }

    /// The admission threshold of row `r` (−∞ if the row was never cut).
    pub(crate) fn threshold(&self, r: usize) -> f32 {
        self.thr[r]
    }
}

/// A mutable view of a contiguous range of rows of [`Buffers`].
#[derive(Debug)]
pub(crate) struct BuffersMut<'a> {
    cap: usize,
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
        let cap = self.cap;
        let (e0, e1) = self.entries.split_at_mut(mid * 2 * cap);
        let (l0, l1) = self.len.split_at_mut(mid);
        let (t0, t1) = self.thr.split_at_mut(mid);
        (
            BuffersMut {
                cap,
                entries: e0,
                len: l0,
                thr: t0,
            },
            BuffersMut {
                cap,
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

    /// Appends `(sim, pos)` to row `r`, cutting the row when its buffer is full. The caller has
    /// checked `sim > threshold(r)`.
    #[inline(always)]
    pub(crate) fn offer(&mut self, r: usize, sim: f32, pos: u32) {
        let n = self.len[r] as usize;
        let base = r * 2 * self.cap;
        self.entries[base + n] = (sim, pos);
        if n + 1 < 2 * self.cap {
            self.len[r] = (n + 1) as u32;
        } else {
            self.cut_row(r);
        }
    }

    #[inline(never)]
    fn cut_row(&mut self, r: usize) {
        let cap = self.cap;
        let row = &mut self.entries[r * 2 * cap..(r + 1) * 2 * cap];
        self.len[r] = cut(row, 2 * cap, cap) as u32;
        self.thr[r] = row[cap - 1].0;
    }
}
