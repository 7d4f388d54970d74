//! Sub-sampling of frequent words (Mikolov et al. 2013, in word2vec.c's form).

use rand_core::Rng;
use retest_rng::ChaCha12Rng;

/// The probability that one occurrence of a word with `count` occurrences among `total` corpus
/// words is kept, with sub-sampling threshold `sample` (word2vec.c's `-sample`):
///
/// `P(keep) = min(1, (√(c/(s·T)) + 1) · (s·T)/c)`, i.e. with `z = c/T` the word's relative
/// frequency, `P = √(s/z) + s/z`.
///
/// `sample = 0` disables sub-sampling (`P = 1`); a word with count 0 never occurs and gets `P = 1`.
/// Computed in `f64` with `√` only, so it has the same bits everywhere.
pub fn keep_probability(count: u64, total: u64, sample: f64) -> f64 {
    if sample <= 0.0 || count == 0 {
        return 1.0;
    }
    let threshold = sample * total as f64;
    let c = count as f64;
    ((c / threshold).sqrt() + 1.0) * threshold / c
}

/// Per-word keep thresholds on a `u32` draw: one occurrence of word `w` is kept iff
/// `draw < thresholds[w]`, with `draw` uniform on `[0, 2³²)`. Words whose keep probability is at
/// least 1 get [`ALWAYS`] and take no draw at all (so a run without sub-sampling draws nothing
/// from the sub-sampling stream).
///
/// The threshold is `⌊P·2³²⌋`, so the realised keep rate is `P` to within `2⁻³²`.
#[derive(Debug, Clone)]
pub(crate) struct KeepThresholds {
    thresholds: Vec<u32>,
}

/// Marks a word that is always kept without a draw.
pub(crate) const ALWAYS: u32 = u32::MAX;

impl KeepThresholds {
    pub(crate) fn new(counts: &[u64], sample: f64) -> KeepThresholds {
        let total: u64 = counts.iter().sum();
        let thresholds = counts
            .iter()
            .map(|&count| {
                let p = keep_probability(count, total, sample);
                if p >= 1.0 {
                    ALWAYS
                } else {
                    // p < 1, so p·2³² < 2³²; ALWAYS is reserved.
                    ((p * 4_294_967_296.0) as u32).min(ALWAYS - 1)
                }
            })
            .collect();
        KeepThresholds { thresholds }
    }

    /// Appends the kept tokens of `piece` to `kept` (cleared first), drawing one `u32` from `rng`
    /// per occurrence of a word that may be dropped, in token order.
    #[inline(always)]
    pub(crate) fn subsample(&self, piece: &[u32], rng: &mut ChaCha12Rng, kept: &mut Vec<u32>) {
        kept.clear();
        for &token in piece {
            let threshold = self.thresholds[token as usize];
            if threshold == ALWAYS || rng.next_u32() < threshold {
                kept.push(token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retest_rng::SeedPath;

    #[test]
    fn formula_matches_word2vec() {
        // word2vec.c: ran = (sqrt(cn / (sample * train_words)) + 1) * (sample * train_words) / cn.
        let p = keep_probability(10_000, 1_000_000, 1e-3);
        let st = 1e-3 * 1e6;
        assert_eq!(p, ((1e4f64 / st).sqrt() + 1.0) * st / 1e4);
        assert!((p - (0.1f64.sqrt() + 0.1)).abs() < 1e-15);
        // Rare words are always kept; disabled sampling keeps everything.
        assert!(keep_probability(1, 1_000_000, 1e-3) > 1.0);
        assert_eq!(keep_probability(999_999, 1_000_000, 0.0), 1.0);
        assert_eq!(keep_probability(0, 1_000_000, 1e-3), 1.0);
    }

    /// On a synthetic corpus with a few very frequent words, the kept share of every word is
    /// within 5 standard deviations of its binomial expectation.
    #[test]
    fn keep_rate_matches_the_formula() {
        // Word w occurs counts[w] times; words 0..3 are frequent enough to be sub-sampled.
        let counts = [400_000u64, 200_000, 50_000, 9_000, 1_000, 600];
        let total: u64 = counts.iter().sum();
        let sample = 1e-2;
        let mut corpus = Vec::new();
        for (w, &c) in counts.iter().enumerate() {
            corpus.extend(std::iter::repeat_n(w as u32, c as usize));
        }
        let table = KeepThresholds::new(&counts, sample);
        let mut rng = SeedPath::new(1).stream("subsample-test");
        let mut kept = Vec::new();
        table.subsample(&corpus, &mut rng, &mut kept);
        let mut seen = [0u64; 6];
        for &t in &kept {
            seen[t as usize] += 1;
        }
        for w in 0..counts.len() {
            let p = keep_probability(counts[w], total, sample).min(1.0);
            let n = counts[w] as f64;
            let sd = (n * p * (1.0 - p)).sqrt();
            let diff = (seen[w] as f64 - n * p).abs();
            assert!(
                diff <= 5.0 * sd + 1e-9,
                "word {w}: kept {} of {n}, expected {}",
                seen[w],
                n * p
            );
            if p < 1.0 {
                assert!(seen[w] < counts[w], "word {w} was never dropped");
            } else {
                assert_eq!(seen[w], counts[w]);
            }
        }
        // Words 0..3 are sub-sampled; the others are always kept and take no draw.
        assert!(table.thresholds[..3].iter().all(|&t| t != ALWAYS));
        assert!(table.thresholds[4..].iter().all(|&t| t == ALWAYS));
    }

    #[test]
    fn no_sampling_draws_nothing() {
        let table = KeepThresholds::new(&[100, 10, 1], 0.0);
        let mut rng = SeedPath::new(1).stream("s");
        let mut fresh = SeedPath::new(1).stream("s");
        let mut kept = Vec::new();
        table.subsample(&[0, 0, 1, 2, 0], &mut rng, &mut kept);
        assert_eq!(kept, [0, 0, 1, 2, 0]);
        assert_eq!(rng.next_u64(), fresh.next_u64());
    }
}
