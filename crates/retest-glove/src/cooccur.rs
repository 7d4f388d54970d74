//! Co-occurrence counting with glove.c `cooccur` semantics, exact weights and bounded memory.
//!
//! # What is counted
//!
//! For every token at position `p` of a sentence and each of the previous `window` tokens of
//! the same sentence at distance `d = 1, 2, …`, the weight `1/d` is added to `X(w_{p−d}, w_p)`
//! and to `X(w_p, w_{p−d})` (glove.c's defaults `-symmetric 1`, distance weighting on).
//! Sentences bound the window as lines do in `cooccur.c` (its history resets at a newline);
//! tokens of words below `min_count` are already gone from the encoded corpus, so — as in
//! `cooccur.c`, which skips out-of-vocabulary words before they enter the history — they do not
//! count for distance.
//!
//! # Exact, order-free sums
//!
//! glove.c sums the `1/d` in `double`, in an order that depends on its memory limit (dense
//! table, overflow buffer, sorted runs, merge). Here every weight is an integer number of units
//! of `1/L` with `L = lcm(1, …, window)` (360 360 for window 15): `1/d = (L/d)·(1/L)` exactly.
//! Counts are accumulated as `u64` units, so addition is exact and associative, and the result
//! cannot depend on the order of additions — not on the memory budget, the number of spilled
//! runs, their merge order or on threads. Each merged count becomes `x = units / L` once, in
//! `f64` (correctly rounded for counts below 2⁵³ units), which is at least as accurate as
//! glove.c's running `double` sum. The counter checks up front that the largest possible count,
//! `2·T·Σ_{d≤window} L/d` for `T` tokens, fits in 64 bits (windows up to 20 always fit corpora of
//! up to 10¹⁰ tokens) and returns [`GloveError::WindowTooWide`] otherwise.
//!
//! # Memory
//!
//! Half of [`CooccurConfig::memory_bytes`] holds a dense table of `u64` counts for the frequent
//! pairs — as glove.c's bigram table, row `i` stores columns `j < min(V, P/(i+1))` for the largest
//! `P` that fits (and at most `T·window` cells for `T` tokens) — and the other half an
//! open-addressing hash table of `(i·V + j, units)` slots for the rest, grown by doubling. When the hash table is three-quarters full, its entries are sorted by
//! `(i, j)` and written to a run file in the spill directory; at the end the runs (merged at most
//! [`MAX_FAN_IN`] at a time), the last in-memory entries and the dense table are merged into
//! the `(i, j)`-sorted output, summing equal pairs. Run files are deleted when counting ends,
//! also on error. The returned table itself is not part of the budget;
//! [`count_cooccurrences_to_writer`] streams it to a file instead.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

use retest_corpus::EncodedCorpusView;
use retest_hugemem::HugeBuf;

use crate::error::GloveError;
use crate::format::RecordWriter;
use crate::records::{CoocRecord, Cooccurrences};

/// Most runs merged in one pass (more are first merged into intermediate runs).
pub const MAX_FAN_IN: usize = 64;

/// Tokens between two progress reports.
const PROGRESS_EVERY: u64 = 1 << 20;

/// Settings of co-occurrence counting. There is no `Default`: the pipeline's defaults
/// (window 15, glove.c's `-memory 4.0` GB) live in the spec.
///
/// Always symmetric with `1/distance` weights (glove.c's defaults).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CooccurConfig {
    /// Context words on each side (glove.c `-window-size`, 15 by default).
    pub window: usize,
    /// Budget in bytes of the in-memory tables before sorted runs spill to disk (glove.c
    /// `-memory`, which is in GB). Budgets too small for one token's updates are rounded up to a
    /// few KiB.
    pub memory_bytes: u64,
}

/// What a counting run did, besides its output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountStats {
    /// Tokens counted.
    pub n_tokens: u64,
    /// Non-zero records in the output.
    pub n_records: u64,
    /// Cells of the dense table (8 bytes each).
    pub dense_cells: u64,
    /// Slots of the hash table (16 bytes each).
    pub sparse_slots: u64,
    /// Runs written to the spill directory (0 when everything fitted in memory).
    pub n_runs: usize,
}

/// Counts the co-occurrences of `corpus` (see the [module documentation](self) for the exact
/// semantics) and returns the merged table, sorted by `(i, j)`.
///
/// `spill_dir` receives the sorted runs when the budget is exceeded (created if missing; files
/// `retest-glove-run-NNNNNN.bin`, removed before returning). `progress` is called with the
/// number of tokens done, about every million tokens and at the end.
///
/// The result is the same, bit for bit, for every `memory_bytes`.
pub fn count_cooccurrences(
    corpus: &EncodedCorpusView<'_>,
    config: &CooccurConfig,
    spill_dir: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<Cooccurrences, GloveError> {
    let mut records = Vec::new();
    count_into(corpus, config, spill_dir, progress, |r| {
        records.push(r);
        Ok(())
    })?;
    records.shrink_to_fit();
    Ok(Cooccurrences::from_valid(corpus.vocab_size(), records))
}

/// As [`count_cooccurrences`], but streams the merged table into `w` in the file format of
/// [`write_cooccurrences`](crate::write_cooccurrences) (same bytes), so that memory stays within
/// the budget however large the table is. The header's record count is patched at the end
/// (hence `Seek`).
pub fn count_cooccurrences_to_writer<W: Write + Seek>(
    corpus: &EncodedCorpusView<'_>,
    config: &CooccurConfig,
    spill_dir: &Path,
    progress: &mut dyn FnMut(u64),
    w: &mut W,
) -> Result<CountStats, GloveError> {
    let mut writer = RecordWriter::new(w, corpus.vocab_size() as u64).map_err(GloveError::Read)?;
    let stats = count_into(corpus, config, spill_dir, progress, |r| writer.push(&r))?;
    writer.finish().map_err(GloveError::Read)?;
    Ok(stats)
}

/// Exact weights: `1/d` is `per_distance[d]` units of `1/lcm`.
#[derive(Debug)]
struct Units {
    lcm: u64,
    per_distance: Vec<u64>,
}

impl Units {
    fn new(window: usize, n_tokens: u64) -> Result<Units, GloveError> {
        let too_wide = || GloveError::WindowTooWide { window, n_tokens };
        let mut lcm: u64 = 1;
        for d in 1..=window as u64 {
            let g = gcd(lcm, d);
            lcm = (lcm / g).checked_mul(d).ok_or_else(too_wide)?;
        }
        let per_distance: Vec<u64> = (0..=window as u64)
            .map(|d| lcm.checked_div(d).unwrap_or(0))
            .collect();
        let per_token: u128 = per_distance.iter().map(|&u| u as u128).sum();
        if 2 * n_tokens as u128 * per_token > u64::MAX as u128 {
            return Err(too_wide());
        }
        Ok(Units { lcm, per_distance })
    }

    #[inline]
    fn to_f64(&self, units: u64) -> f64 {
        units as f64 / self.lcm as f64
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Dense counts for the pairs `(i, j)` with `j < row_len[i]`.
#[derive(Debug)]
struct DenseTable {
    row_off: Vec<usize>,
    row_len: Vec<u32>,
    cells: HugeBuf<u64>,
}

impl DenseTable {
    /// The hyperbolic table of at most `max_cells` cells: row `i` holds `min(V, P/(i+1))`
    /// columns for the largest `P` that fits (glove.c's `max_product` layout).
    fn new(vocab: usize, max_cells: u64) -> DenseTable {
        let v = vocab as u64;
        let cells_for = |p: u64| -> u64 {
            let mut total = 0u64;
            for i in 0..v {
                let len = (p / (i + 1)).min(v);
                if len == 0 {
                    break;
                }
                total += len;
            }
            total
        };
        let (mut lo, mut hi) = (0u64, v * v);
        if cells_for(hi) <= max_cells {
            lo = hi;
        }
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if cells_for(mid) <= max_cells {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let row_len: Vec<u32> = (0..v).map(|i| (lo / (i + 1)).min(v) as u32).collect();
        let mut row_off = Vec::with_capacity(vocab + 1);
        let mut off = 0usize;
        for &len in &row_len {
            row_off.push(off);
            off += len as usize;
        }
        row_off.push(off);
        DenseTable {
            row_off,
            row_len,
            cells: HugeBuf::zeros(off),
        }
    }

    fn covers_everything(&self) -> bool {
        self.row_len.iter().all(|&l| l as usize == self.row_len.len())
    }
}

/// Open-addressing (linear probing) hash table of `[key, units]` slots; `units == 0` is empty.
/// It starts small and doubles up to `max_slots`; once that is reached, the counter drains it
/// to a run whenever it is three-quarters full.
#[derive(Debug)]
struct SparseTable {
    slots: Vec<[u64; 2]>,
    len: usize,
    /// Grow or drain when `len` would exceed this (three quarters of the slots).
    limit: usize,
    max_slots: usize,
}

/// Initial hash-table slots (1 MiB).
const INITIAL_SLOTS: usize = 1 << 16;

impl SparseTable {
    fn new(max_slots: usize) -> SparseTable {
        let n = max_slots.min(INITIAL_SLOTS);
        SparseTable {
            slots: vec![[0u64; 2]; n],
            len: 0,
            limit: n / 4 * 3,
            max_slots,
        }
    }

    /// Whether `extra` more entries fit below the limit.
    #[inline(always)]
    fn has_room(&self, extra: usize) -> bool {
        self.len + extra <= self.limit
    }

    /// Doubles the table (up to `max_slots`) if it can; returns whether it grew.
    fn grow(&mut self) -> bool {
        let n = (self.slots.len() * 2).min(self.max_slots);
        if n <= self.slots.len() {
            return false;
        }
        let old = std::mem::replace(&mut self.slots, vec![[0u64; 2]; n]);
        self.len = 0;
        self.limit = n / 4 * 3;
        for [key, units] in old {
            if units != 0 {
                self.add(key, units);
            }
        }
        true
    }

    #[inline(always)]
    fn add(&mut self, key: u64, units: u64) {
        let n = self.slots.len();
        let hash = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut idx = ((hash as u128 * n as u128) >> 64) as usize;
        loop {
            let slot = &mut self.slots[idx];
            if slot[1] == 0 {
                *slot = [key, units];
                self.len += 1;
                return;
            }
            if slot[0] == key {
                slot[1] += units;
                return;
            }
            idx += 1;
            if idx == n {
                idx = 0;
            }
        }
    }

    /// Moves the entries to the front, sorted by key, and returns them; the caller must
    /// [`Self::clear`] before adding again.
    fn sorted_entries(&mut self) -> &[[u64; 2]] {
        let mut w = 0;
        for r in 0..self.slots.len() {
            if self.slots[r][1] != 0 {
                self.slots[w] = self.slots[r];
                w += 1;
            }
        }
        let entries = &mut self.slots[..w];
        entries.sort_unstable_by_key(|e| e[0]);
        entries
    }

    fn clear(&mut self) {
        self.slots.fill([0, 0]);
        self.len = 0;
    }
}

/// The spilled runs; deletes its files when dropped.
#[derive(Debug)]
struct RunSet {
    dir: PathBuf,
    files: Vec<PathBuf>,
    next_name: u64,
    written: usize,
}

impl RunSet {
    fn new(dir: &Path) -> RunSet {
        RunSet {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            next_name: 0,
            written: 0,
        }
    }

    /// Creates a fresh run file (never overwriting: another job may share the directory).
    fn create(&mut self) -> Result<(PathBuf, File), GloveError> {
        fs::create_dir_all(&self.dir).map_err(|source| GloveError::Spill {
            path: self.dir.clone(),
            source,
        })?;
        loop {
            let path = self
                .dir
                .join(format!("retest-glove-run-{:06}.bin", self.next_name));
            self.next_name += 1;
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    self.files.push(path.clone());
                    return Ok((path, file));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(source) => return Err(GloveError::Spill { path, source }),
            }
        }
    }

    /// Writes sorted `[key, units]` entries as a new run.
    fn write_run(
        &mut self,
        entries: impl IntoIterator<Item = Result<[u64; 2], GloveError>>,
    ) -> Result<(), GloveError> {
        let (path, file) = self.create()?;
        let spill_err = |source| GloveError::Spill {
            path: path.clone(),
            source,
        };
        let mut w = BufWriter::with_capacity(1 << 16, file);
        for e in entries {
            let [key, units] = e?;
            w.write_all(&key.to_le_bytes()).map_err(spill_err)?;
            w.write_all(&units.to_le_bytes()).map_err(spill_err)?;
        }
        w.flush().map_err(spill_err)?;
        self.written += 1;
        Ok(())
    }

    fn remove(&mut self, path: &Path) {
        // Best effort: a run that cannot be removed is only litter.
        let _ = fs::remove_file(path);
        self.files.retain(|p| p != path);
    }
}

impl Drop for RunSet {
    fn drop(&mut self) {
        for path in &self.files {
            let _ = fs::remove_file(path);
        }
    }
}

/// A sorted stream of `[key, units]` entries with unique keys.
#[derive(Debug)]
enum Source {
    File { path: PathBuf, reader: BufReader<File> },
    Memory { entries: Vec<[u64; 2]>, pos: usize },
}

impl Source {
    fn open(path: &Path, buf_bytes: usize) -> Result<Source, GloveError> {
        let file = File::open(path).map_err(|source| GloveError::Spill {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Source::File {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(buf_bytes, file),
        })
    }

    fn next(&mut self) -> Result<Option<[u64; 2]>, GloveError> {
        match self {
            Source::Memory { entries, pos } => {
                let e = entries.get(*pos).copied();
                *pos += 1;
                Ok(e)
            }
            Source::File { path, reader } => {
                let mut b = [0u8; 16];
                let mut got = 0;
                while got < 16 {
                    match reader.read(&mut b[got..]) {
                        Ok(0) => break,
                        Ok(n) => got += n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(source) => {
                            return Err(GloveError::Spill {
                                path: path.clone(),
                                source,
                            });
                        }
                    }
                }
                match got {
                    0 => Ok(None),
                    16 => Ok(Some([
                        u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                        u64::from_le_bytes(b[8..].try_into().expect("8 bytes")),
                    ])),
                    _ => Err(GloveError::Spill {
                        path: path.clone(),
                        source: io::Error::new(io::ErrorKind::UnexpectedEof, "run file ends inside a record"),
                    }),
                }
            }
        }
    }
}

/// k-way merge of sources, summing the units of equal keys (exact, so the order of the sources
/// does not matter; ties are still taken in source order).
#[derive(Debug)]
struct Merger {
    sources: Vec<Source>,
    heap: BinaryHeap<Reverse<(u64, usize)>>,
    units: Vec<u64>,
}

impl Merger {
    fn new(mut sources: Vec<Source>) -> Result<Merger, GloveError> {
        let mut heap = BinaryHeap::with_capacity(sources.len());
        let mut units = vec![0; sources.len()];
        for (s, source) in sources.iter_mut().enumerate() {
            if let Some([key, u]) = source.next()? {
                heap.push(Reverse((key, s)));
                units[s] = u;
            }
        }
        Ok(Merger { sources, heap, units })
    }

    fn next(&mut self) -> Result<Option<[u64; 2]>, GloveError> {
        let Some(Reverse((key, _))) = self.heap.peek().copied() else {
            return Ok(None);
        };
        let mut total = 0u64;
        while let Some(&Reverse((k, s))) = self.heap.peek() {
            if k != key {
                break;
            }
            self.heap.pop();
            total += self.units[s];
            if let Some([k2, u2]) = self.sources[s].next()? {
                self.heap.push(Reverse((k2, s)));
                self.units[s] = u2;
            }
        }
        Ok(Some([key, total]))
    }
}

/// The counting state: weights, dense and sparse tables, spilled runs.
struct Counter {
    window: usize,
    vocab: u64,
    units: Units,
    dense: DenseTable,
    sparse: SparseTable,
    runs: RunSet,
    budget: u64,
}

impl Counter {
    #[inline(always)]
    fn add(&mut self, i: u32, j: u32, u: u64) {
        let (iu, ju) = (i as usize, j as usize);
        if j < self.dense.row_len[iu] {
            self.dense.cells[self.dense.row_off[iu] + ju] += u;
        } else {
            self.sparse.add(i as u64 * self.vocab + j as u64, u);
        }
    }

    fn count_sentence(&mut self, s: &[u32]) -> Result<(), GloveError> {
        let window = self.window;
        for p in 1..s.len() {
            if !self.sparse.has_room(2 * window) && !self.sparse.grow() {
                self.spill()?;
            }
            let w2 = s[p];
            let lo = p.saturating_sub(window);
            for (k, &w1) in (lo..p).zip(&s[lo..p]) {
                let u = self.units.per_distance[p - k];
                self.add(w1, w2, u);
                self.add(w2, w1, u);
            }
        }
        Ok(())
    }

    fn spill(&mut self) -> Result<(), GloveError> {
        let entries = self.sparse.sorted_entries();
        self.runs.write_run(entries.iter().map(|&e| Ok(e)))?;
        self.sparse.clear();
        Ok(())
    }

    /// Merges runs `MAX_FAN_IN` at a time until at most `MAX_FAN_IN - 1` are left (one source
    /// is kept for the in-memory entries).
    fn reduce_runs(&mut self, buf_bytes: usize) -> Result<(), GloveError> {
        while self.runs.files.len() >= MAX_FAN_IN {
            let group: Vec<PathBuf> = self.runs.files[..MAX_FAN_IN].to_vec();
            let sources = group
                .iter()
                .map(|p| Source::open(p, buf_bytes))
                .collect::<Result<Vec<_>, _>>()?;
            let mut merger = Merger::new(sources)?;
            self.runs
                .write_run(std::iter::from_fn(|| merger.next().transpose()))?;
            for p in &group {
                self.runs.remove(p);
            }
        }
        Ok(())
    }

    /// Merges everything into `sink`, in `(i, j)` order.
    fn finish(
        mut self,
        mut sink: impl FnMut(CoocRecord) -> io::Result<()>,
    ) -> Result<(u64, usize), GloveError> {
        let buf_bytes = ((self.budget / 4) as usize / MAX_FAN_IN).clamp(4 << 10, 1 << 20);
        let mut sources = Vec::new();
        if !self.runs.files.is_empty() {
            // The last entries are spilled too, so that the merge holds only read buffers.
            self.spill()?;
            self.sparse = SparseTable::new(0);
            self.reduce_runs(buf_bytes)?;
            for p in &self.runs.files {
                sources.push(Source::open(p, buf_bytes)?);
            }
        } else {
            let n = self.sparse.sorted_entries().len();
            let mut slots = std::mem::take(&mut self.sparse.slots);
            slots.truncate(n);
            sources.push(Source::Memory {
                entries: slots,
                pos: 0,
            });
        }
        let n_runs = self.runs.written;
        let mut merged = Merger::new(sources)?;
        let mut next = merged.next()?;
        let v = self.vocab;
        let mut n_records = 0u64;
        let sink_err = GloveError::Read;
        for i in 0..v as usize {
            let row = &self.dense.cells[self.dense.row_off[i]..self.dense.row_off[i + 1]];
            for (j, &u) in row.iter().enumerate() {
                if u != 0 {
                    sink(CoocRecord {
                        i: i as u32,
                        j: j as u32,
                        x: self.units.to_f64(u),
                    })
                    .map_err(sink_err)?;
                    n_records += 1;
                }
            }
            while let Some([key, u]) = next {
                if key / v != i as u64 {
                    break;
                }
                sink(CoocRecord {
                    i: i as u32,
                    j: (key % v) as u32,
                    x: self.units.to_f64(u),
                })
                .map_err(sink_err)?;
                n_records += 1;
                next = merged.next()?;
            }
        }
        debug_assert!(next.is_none());
        Ok((n_records, n_runs))
    }
}

/// Minimum hash-table slots: room for a few tokens' updates whatever the budget.
fn min_sparse_slots(window: usize) -> usize {
    16 * window + 64
}

fn count_into(
    corpus: &EncodedCorpusView<'_>,
    config: &CooccurConfig,
    spill_dir: &Path,
    progress: &mut dyn FnMut(u64),
    sink: impl FnMut(CoocRecord) -> io::Result<()>,
) -> Result<CountStats, GloveError> {
    if config.window == 0 {
        return Err(GloveError::InvalidConfig {
            what: "window must be at least 1".into(),
        });
    }
    let vocab = corpus.vocab_size();
    if vocab as u64 > u32::MAX as u64 {
        return Err(GloveError::InvalidConfig {
            what: format!("vocabulary of {vocab} words exceeds u32 ids"),
        });
    }
    let n_tokens = corpus.n_tokens() as u64;
    let units = Units::new(config.window, n_tokens)?;
    let half = config.memory_bytes / 2;
    // More dense cells than half the number of updates (2·window per token) cannot pay off:
    // most would stay zero and only cost page faults when the table is scanned.
    let dense = DenseTable::new(
        vocab,
        (half / 8).min(n_tokens.saturating_mul(config.window as u64)),
    );
    let sparse_slots = if dense.covers_everything() {
        min_sparse_slots(config.window)
    } else {
        ((half / 16) as usize).max(min_sparse_slots(config.window))
    };
    let mut counter = Counter {
        window: config.window,
        vocab: vocab as u64,
        units,
        sparse: SparseTable::new(sparse_slots),
        dense,
        runs: RunSet::new(spill_dir),
        budget: config.memory_bytes,
    };
    let dense_cells = counter.dense.cells.len() as u64;
    let mut done = 0u64;
    let mut reported = 0u64;
    for s in corpus.sentences() {
        counter.count_sentence(s)?;
        done += s.len() as u64;
        if done - reported >= PROGRESS_EVERY {
            progress(done);
            reported = done;
        }
    }
    progress(done);
    let (n_records, n_runs) = counter.finish(sink)?;
    Ok(CountStats {
        n_tokens,
        n_records,
        dense_cells,
        sparse_slots: sparse_slots as u64,
        n_runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_exact_multiples() {
        let u = Units::new(15, 1000).unwrap();
        assert_eq!(u.lcm, 360_360);
        for d in 1..=15u64 {
            assert_eq!(u.per_distance[d as usize] * d, u.lcm);
            assert_eq!(u.to_f64(u.per_distance[d as usize]), 1.0 / d as f64);
        }
        assert_eq!(u.to_f64(u.per_distance[1] + u.per_distance[2]), 1.5);
    }

    #[test]
    fn too_wide_windows_are_refused() {
        assert!(Units::new(20, 10_000_000_000).is_ok());
        let e = Units::new(30, 1_000_000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "window 30 is too wide for exact co-occurrence counting of 1000000 tokens: the weights \
             1/d are summed exactly in units of 1/lcm(1..=30) and the total would overflow 64 bits \
             (use a window of at most 20)"
        );
    }

    #[test]
    fn dense_table_is_hyperbolic_and_fits() {
        let t = DenseTable::new(10, 30);
        assert!(t.cells.len() <= 30);
        // Row lengths decrease and follow P/(i+1).
        assert!(t.row_len.windows(2).all(|w| w[0] >= w[1]));
        let full = DenseTable::new(10, 1000);
        assert!(full.covers_everything());
        assert_eq!(full.cells.len(), 100);
        let empty = DenseTable::new(10, 0);
        assert_eq!(empty.cells.len(), 0);
    }

    #[test]
    fn sparse_table_sums_grows_and_sorts() {
        let mut t = SparseTable::new(8);
        for k in 0..6u64 {
            t.add(k * 1000, k + 1);
        }
        assert!(!t.has_room(1));
        assert!(!t.grow(), "already at its maximum");
        let mut t = SparseTable::new(64);
        for (k, u) in [(5u64, 1u64), (3, 2), (5, 4), (1_000_000, 1), (3, 1)] {
            t.add(k, u);
        }
        assert_eq!(t.len, 3);
        assert_eq!(t.sorted_entries(), [[3, 3], [5, 5], [1_000_000, 1]]);
    }
}
