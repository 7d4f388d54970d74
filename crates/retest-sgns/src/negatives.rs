//! Negative sampling from the smoothed unigram distribution `P(w) ∝ count(w)^e` with an exact
//! integer alias table (Walker 1977, Vose 1991), and the buffered stream of negatives the trainer
//! consumes.
//!
//! Why an alias table: word2vec.c fills a table of 10⁸ word ids (400 MB, a cache miss per draw,
//! probabilities quantised to 10⁻⁸); gensim binary-searches a cumulative table (≈18 dependent,
//! mostly cache-missing probes for 250k words). The alias table needs 8 bytes per word, one
//! random access per draw (both halves of an entry share a cache line) and one `u64` from the
//! random stream, and its probabilities are exact to `2⁻³²` per column.

use rand_core::Rng;
use retest_rng::ChaCha12Rng;

use crate::SgnsError;

/// One column of the alias table: keep the column's own word iff the coin is below `threshold`,
/// otherwise take `alias`.
#[derive(Debug, Clone, Copy)]
struct Column {
    threshold: u32,
    alias: u32,
}

/// Mass of one column: the coin is a `u32`.
const COLUMN_MASS: u64 = 1 << 32;

/// Draws word ids with probability `count^e / Σ count^e`.
#[derive(Debug, Clone)]
pub(crate) struct UnigramSampler {
    columns: Vec<Column>,
}

impl UnigramSampler {
    /// Builds the table for `counts` (word id = index) and exponent `e` (0.75 in word2vec).
    ///
    /// Construction, all in integers after one `f64` step: the weights `w_i = count_i^e` (from
    /// retest-detmath's deterministic `exp`/`ln`, `Profile::SGNS`) are scaled to integer masses
    /// `q_i = ⌊w_i/W · n·2³²⌋`, the rounding remainder going to the heaviest word, so that
    /// `Σ q_i = n·2³²` exactly. Vose's method then pairs each light column (`q < 2³²`) with a
    /// heavy word that tops it up to exactly `2³²`, scanning words in id order. Every step is
    /// integer arithmetic, so the table has the same bits everywhere, and word `i` is drawn with
    /// probability exactly `q_i / (n·2³²)` given a uniform column and coin.
    pub(crate) fn new(counts: &[u64], exponent: f64) -> Result<UnigramSampler, SgnsError> {
        let n = counts.len();
        let weights: Vec<f64> = counts
            .iter()
            .map(|&c| retest_detmath::Profile::SGNS.powf(c as f64, exponent))
            .collect();
        let total: f64 = weights.iter().sum();
        if n == 0 || !(total > 0.0 && total.is_finite()) {
            return Err(SgnsError::ZeroCounts);
        }
        let target = n as u64 * COLUMN_MASS;
        let scale = target as f64 / total;
        let mut mass: Vec<u64> = weights.iter().map(|&w| (w * scale) as u64).collect();
        let sum: i128 = mass.iter().map(|&q| i128::from(q)).sum();
        let heaviest = (0..n)
            .max_by_key(|&i| (mass[i], std::cmp::Reverse(i)))
            .unwrap_or(0);
        let fixed = i128::from(mass[heaviest]) + (i128::from(target) - sum);
        mass[heaviest] = u64::try_from(fixed).expect("rounding remainder is tiny");

        let mut columns = vec![
            Column {
                threshold: u32::MAX,
                alias: 0,
            };
            n
        ];
        let (mut light, mut heavy): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| mass[i] < COLUMN_MASS);
        // Pop from the back of both stacks; reverse so that low ids are paired first.
        light.reverse();
        heavy.reverse();
        while let (Some(&l), Some(&h)) = (light.last(), heavy.last()) {
            light.pop();
            columns[l] = Column {
                threshold: mass[l] as u32,
                alias: h as u32,
            };
            mass[h] -= COLUMN_MASS - mass[l];
            if mass[h] < COLUMN_MASS {
                heavy.pop();
                light.push(h);
            }
        }
        // What remains has exactly one column of mass (in exact arithmetic nothing is left
        // light): the word keeps its whole column.
        for i in heavy.into_iter().chain(light) {
            columns[i] = Column {
                threshold: u32::MAX,
                alias: i as u32,
            };
        }
        Ok(UnigramSampler { columns })
    }

    /// Maps one uniform `u64` to a word: the high 64 bits of `x·n` pick the column, the next 32
    /// bits (uniform to within `n·2⁻⁶⁴`) are the coin.
    #[inline(always)]
    pub(crate) fn sample(&self, x: u64) -> u32 {
        let n = self.columns.len() as u128;
        let product = u128::from(x) * n;
        let column = (product >> 64) as usize;
        let coin = ((product as u64) >> 32) as u32;
        let Column { threshold, alias } = self.columns[column];
        // Which side is taken is a coin flip: a branch would be mispredicted half the time.
        std::hint::select_unpredictable(coin < threshold, column as u32, alias)
    }

    /// The probability with which [`Self::sample`] returns each word (for tests and docs):
    /// `Σ_columns [own share + alias share] / n`.
    #[cfg(test)]
    pub(crate) fn probabilities(&self) -> Vec<f64> {
        let n = self.columns.len();
        let mut p = vec![0.0; n];
        for (i, c) in self.columns.iter().enumerate() {
            let own = if c.alias as usize == i {
                COLUMN_MASS
            } else {
                u64::from(c.threshold)
            };
            p[i] += own as f64 / COLUMN_MASS as f64 / n as f64;
            p[c.alias as usize] += (COLUMN_MASS - own) as f64 / COLUMN_MASS as f64 / n as f64;
        }
        p
    }
}

/// Buffered negatives: word ids drawn ahead of use from one random stream, so that the trainer
/// can prefetch the output rows of the next pair's negatives while it trains the current one.
///
/// The sequence of ids is the stream's `u64`s mapped through the sampler, one per negative,
/// independent of the buffer size: buffering changes no result.
#[derive(Debug)]
pub(crate) struct NegativeStream {
    rng: ChaCha12Rng,
    buffer: Vec<u32>,
    /// Next unread position in `buffer`.
    position: usize,
    /// Takes ahead that [`NegativeStream::take`] returns for prefetching (0: none), at most
    /// [`MAX_PAIRS_AHEAD`].
    pub(crate) pairs_ahead: usize,
}

/// Ids kept drawn ahead.
const BUFFER_LEN: usize = 8192;

/// The most takes ahead [`NegativeStream::take`] can look for prefetching (see
/// [`crate::Prefetch`]).
pub(crate) const MAX_PAIRS_AHEAD: usize = 4;

const _: () = assert!(BUFFER_LEN >= (MAX_PAIRS_AHEAD + 2) * crate::MAX_NEGATIVE);

impl NegativeStream {
    pub(crate) fn new(rng: ChaCha12Rng) -> NegativeStream {
        NegativeStream {
            rng,
            buffer: Vec::with_capacity(BUFFER_LEN),
            position: 0,
            pairs_ahead: 0,
        }
    }

    /// The next `k` negatives, and the `k` that will be used `pairs_ahead` takes of `k` later
    /// (for prefetching; none when `pairs_ahead` is 0; each id is returned exactly once as such
    /// when every take has the same `k`). `k` must be at most `BUFFER_LEN / (MAX_PAIRS_AHEAD +
    /// 2)`. The ids returned as `now` do not depend on `pairs_ahead`.
    #[inline(always)]
    pub(crate) fn take(&mut self, k: usize, sampler: &UnigramSampler) -> (&[u32], &[u32]) {
        let ahead_from = self.pairs_ahead * k;
        let ahead_to = if self.pairs_ahead == 0 { 0 } else { ahead_from + k };
        if self.position + ahead_to.max(k) > self.buffer.len() {
            self.refill(sampler);
        }
        let start = self.position;
        self.position += k;
        let now = &self.buffer[start..start + k];
        let ahead = &self.buffer[start + ahead_from..start + ahead_to];
        (now, ahead)
    }

    /// Moves the unread ids to the front and draws the rest of the buffer: the stream's bytes
    /// as 8-byte little-endian words (the values `next_u64` would return), each mapped through
    /// the sampler.
    #[cold]
    fn refill(&mut self, sampler: &UnigramSampler) {
        let unread = self.buffer.len() - self.position;
        self.buffer.copy_within(self.position.., 0);
        self.buffer.resize(BUFFER_LEN, 0);
        self.position = 0;
        let mut bytes = [0u8; 8 * BUFFER_LEN];
        let bytes = &mut bytes[..8 * (BUFFER_LEN - unread)];
        self.rng.fill_bytes(bytes);
        for (slot, word) in self.buffer[unread..].iter_mut().zip(bytes.chunks_exact(8)) {
            *slot = sampler.sample(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retest_rng::SeedPath;

    fn smoothed(counts: &[u64], e: f64) -> Vec<f64> {
        let w: Vec<f64> = counts.iter().map(|&c| (c as f64).powf(e)).collect();
        let total: f64 = w.iter().sum();
        w.iter().map(|x| x / total).collect()
    }

    #[test]
    fn table_probabilities_are_the_smoothed_unigram() {
        let counts: Vec<u64> = (1..=2000u64).map(|r| 1_000_000 / r + 5).collect();
        let sampler = UnigramSampler::new(&counts, 0.75).unwrap();
        let want = smoothed(&counts, 0.75);
        for (i, (p, q)) in sampler.probabilities().iter().zip(&want).enumerate() {
            assert!(((p - q) / q).abs() < 1e-8, "word {i}: {p} vs {q}");
        }
        // Other exponents, and words that can never be drawn.
        let counts = [10u64, 0, 3, 1];
        let sampler = UnigramSampler::new(&counts, 1.0).unwrap();
        let p = sampler.probabilities();
        assert!((p[0] - 10.0 / 14.0).abs() < 1e-9 && p[1] == 0.0);
        let sampler = UnigramSampler::new(&counts, 0.0).unwrap();
        assert!(sampler.probabilities().iter().all(|p| (p - 0.25).abs() < 1e-9));
    }

    #[test]
    fn empty_distribution_is_an_error() {
        assert_eq!(
            UnigramSampler::new(&[0, 0], 0.75).unwrap_err(),
            SgnsError::ZeroCounts
        );
        assert_eq!(UnigramSampler::new(&[], 0.75).unwrap_err(), SgnsError::ZeroCounts);
    }

    /// Draws through the buffered stream match unigram^0.75 (Pearson χ² below the 0.999
    /// quantile, and every frequent word within 5 standard deviations).
    #[test]
    fn draws_follow_unigram_to_the_three_quarters() {
        let counts: Vec<u64> = (1..=50u64).map(|r| 100_000 / r).collect();
        let sampler = UnigramSampler::new(&counts, 0.75).unwrap();
        let want = smoothed(&counts, 0.75);
        let mut stream = NegativeStream::new(SeedPath::new(3).stream("negatives"));
        let n_draws = 1_000_000usize;
        let mut seen = vec![0u64; counts.len()];
        for _ in 0..n_draws / 5 {
            let (now, _) = stream.take(5, &sampler);
            for &w in now {
                seen[w as usize] += 1;
            }
        }
        let mut chi2 = 0.0;
        for (w, (&o, &p)) in seen.iter().zip(&want).enumerate() {
            let e = p * n_draws as f64;
            chi2 += (o as f64 - e).powi(2) / e;
            let sd = (n_draws as f64 * p * (1.0 - p)).sqrt();
            assert!((o as f64 - e).abs() < 5.0 * sd, "word {w}: {o} vs {e}");
        }
        // χ²(49) 0.999 quantile ≈ 85.4.
        assert!(chi2 < 85.4, "chi-square {chi2}");
    }

    #[test]
    fn buffering_and_look_ahead_do_not_change_the_sequence() {
        let counts: Vec<u64> = (1..=300u64).map(|r| 10_000 / r + 1).collect();
        let sampler = UnigramSampler::new(&counts, 0.75).unwrap();
        let mut direct = SeedPath::new(9).stream("n");
        let mut stream = NegativeStream::new(SeedPath::new(9).stream("n"));
        let mut got = Vec::new();
        let mut ahead_ok = true;
        // The look-ahead changes along the way, as while the trainer's warm-up times it.
        for (i, k) in [1usize, 5, 3, 7, 5, 15].iter().cycle().take(3000).enumerate() {
            stream.pairs_ahead = (i / 100) % (MAX_PAIRS_AHEAD + 1);
            let want_ahead = if stream.pairs_ahead == 0 { 0 } else { *k };
            let (now, ahead) = stream.take(*k, &sampler);
            got.extend_from_slice(now);
            ahead_ok &= ahead.len() == want_ahead;
        }
        let want: Vec<u32> = (0..got.len())
            .map(|_| sampler.sample(direct.next_u64()))
            .collect();
        assert_eq!(got, want);
        assert!(ahead_ok);
    }

    #[test]
    fn the_ids_looked_ahead_are_those_taken_that_many_takes_later() {
        let counts: Vec<u64> = (1..=300u64).map(|r| 10_000 / r + 1).collect();
        let sampler = UnigramSampler::new(&counts, 0.75).unwrap();
        for pairs_ahead in 1..=MAX_PAIRS_AHEAD {
            let mut stream = NegativeStream::new(SeedPath::new(3).stream("n"));
            stream.pairs_ahead = pairs_ahead;
            let (mut nows, mut aheads) = (Vec::new(), Vec::new());
            for _ in 0..2000 {
                let (now, ahead) = stream.take(5, &sampler);
                nows.push(now.to_vec());
                aheads.push(ahead.to_vec());
            }
            assert_eq!(
                aheads[..2000 - pairs_ahead],
                nows[pairs_ahead..],
                "{pairs_ahead} ahead"
            );
        }
    }
}
