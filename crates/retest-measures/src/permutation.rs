//! WEAT's one-sided permutation test over the partitions of the pooled target scores: exact
//! enumeration when there are few enough partitions, otherwise partitions sampled without
//! replacement from a named random stream.

use rand_core::Rng;
use retest_rng::SeedPath;
use rustc_hash::FxHashSet;

use crate::MeasureError;
use crate::names::stable_names;
use crate::vectors::sum;

/// Enumerate every partition when there are at most this many (`C(|X| + |Y|, |X|)`).
pub const WEAT_EXACT_PARTITIONS_MAX: u64 = 1_000_000;

/// Partitions drawn when the test samples.
pub const WEAT_SAMPLED_PARTITIONS: u64 = 100_000;

/// The most partitions a sampled test may draw: they are drawn without replacement, so each is
/// remembered (≈ 40 bytes for up to 64 words), ≈ 0.4 GB at this bound; its p-value resolution,
/// 1/(10⁷ + 1), is far below any significance level.
pub const WEAT_MAX_SAMPLED_PARTITIONS: u64 = 10_000_000;

/// The memory a sampled test keeps per partition drawn, an upper estimate for up to 64 words:
/// the partition's bit set on the heap with its allocation's header, its box in the hash set of
/// partitions seen, and the set's spare capacity.
pub const WEAT_SAMPLED_PARTITION_BYTES: u64 = 64;

/// The name of the random stream (below the caller's [`SeedPath`]) the sampled test draws from.
pub const WEAT_PERMUTATION_STREAM: &str = "weat-permutations";

/// How a permutation p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PMethod {
    /// Every partition enumerated: `p = #{S_i > S} / C(n, |X|)`.
    Exact,
    /// Partitions sampled without replacement: `p = (#{S_i > S} + 1)/(draws + 1)`.
    Sampled,
}

stable_names! {
    /// The stable name (`exact`, `sampled`), as in a `p_method` column.
    PMethod { Exact => "exact", Sampled => "sampled" }
}

/// How [`permutation_test`] decides between enumeration and sampling, and where sampling draws
/// from. No `Default`: [`PermutationOptions::standard`] spells out the usual values.
#[derive(Debug, Clone, Copy)]
pub struct PermutationOptions<'p> {
    /// Enumerate every partition when `C(n, |X|)` is at most this.
    pub exact_limit: u64,
    /// Partitions to draw otherwise (at least 1).
    pub samples: u64,
    /// The path whose stream [`WEAT_PERMUTATION_STREAM`] the draws come from.
    pub seed: &'p SeedPath,
}

impl<'p> PermutationOptions<'p> {
    /// Exact up to [`WEAT_EXACT_PARTITIONS_MAX`] partitions, else [`WEAT_SAMPLED_PARTITIONS`]
    /// draws from `seed`'s stream.
    pub fn standard(seed: &'p SeedPath) -> PermutationOptions<'p> {
        PermutationOptions {
            exact_limit: WEAT_EXACT_PARTITIONS_MAX,
            samples: WEAT_SAMPLED_PARTITIONS,
            seed,
        }
    }
}

/// The result of a permutation test.
#[derive(Debug, Clone, PartialEq)]
pub struct PermutationTest {
    /// The one-sided p-value.
    pub p: f64,
    /// Exact or sampled.
    pub method: PMethod,
    /// Partitions considered: all `C(n, |X|)` (exact) or the number drawn (sampled).
    pub partitions: u64,
    /// Partitions considered whose statistic exceeds the observed one.
    pub greater: u64,
    /// `C(n, |X|)`, or `None` if it exceeds `u128`.
    pub total_partitions: Option<u128>,
    /// `|X|` used (after the caller's out-of-vocabulary removal).
    pub n_x: usize,
    /// `|Y|` used.
    pub n_y: usize,
}

/// `C(n, k)`, or `None` if it or an intermediate product `C(n, i) · (n − i)` exceeds `u128`
/// (from about `n = 130` at `k = n/2`).
pub fn binomial(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c · (n − i) is divisible by (i + 1) after the multiplication: c = C(n, i) · (n − i).
        c = c.checked_mul(u128::from(n - i))? / u128::from(i + 1);
    }
    Some(c)
}

/// WEAT's one-sided permutation test on the individual scores `s(x)` of X and `s(y)` of Y
/// (Caliskan et al. 2017):
///
/// `p = #{(X_i, Y_i) : S(X_i, Y_i) > S(X, Y)} / C(n, |X|)` with `S(X, Y) = Σ_X s − Σ_Y s`,
/// over every split of the pooled `n = |X| + |Y|` scores into a part of size `|X|` and one of
/// size `|Y|`.
///
/// * **Which partitions.** All `C(n, |X|)` of them, the observed one included in the
///   denominator; it never counts in the numerator (its statistic is not greater than itself),
///   so an exact p is at least 0 and at most `1 − 1/C(n, |X|)`. Unequal sizes are allowed: the
///   partitions keep the sizes `|X|` and `|Y|`, which the result reports.
/// * **Exact or sampled.** Exact when `C(n, |X|) ≤ exact_limit` or `C(n, |X|) ≤ samples`;
///   otherwise `samples` distinct partitions are drawn uniformly without replacement from the
///   stream [`WEAT_PERMUTATION_STREAM`] of `opts.seed` and `p = (count + 1)/(draws + 1)`, the
///   estimate that never reports 0 (the observed partition counted once more, as Phipson &
///   Smyth 2010 recommend). The same seed gives the same draws and the same p.
/// * **Comparison.** With `T = Σ_{X∪Y} s`, `S(X_i, Y_i) = 2 Σ_{X_i} s − T`, so `S_i > S`
///   exactly when `Σ_{X_i} s > Σ_X s`; the test compares those sums. Each sum is computed the
///   same way for every partition and for the observed one: the pooled scores are sorted
///   (`f64::total_cmp`) and a part's scores are added left to right in that order. A partition
///   holding the same multiset of values as X (for instance X with one word swapped for a word
///   of Y that has the same score) therefore has bit-for-bit the same sum and is not counted as
///   greater, with no tolerance to choose: WEFE and Caliskan et al. compare sums taken in
///   different orders, where such ties fall on either side by rounding. Sums of different
///   values that are equal in exact arithmetic but not in floating point can still compare
///   unequal; for cosines of trained vectors they do not occur.
/// * **Cost.** The exact walk visits the `(|X| − 1)`-prefixes of the combinations in
///   lexicographic order, keeping their running sums (each prefix extends its parent's sum by
///   one addition), and counts the completions of each prefix that exceed the threshold with
///   one binary search (rounding is monotone, so `prefix + v` is non-decreasing in the sorted
///   `v`).
///
/// # Errors
///
/// An empty X or Y; `samples` 0 or above [`WEAT_MAX_SAMPLED_PARTITIONS`]; a score that is not
/// finite.
pub fn permutation_test(
    x_scores: &[f64],
    y_scores: &[f64],
    opts: &PermutationOptions<'_>,
) -> Result<PermutationTest, MeasureError> {
    check_targets_nonempty(x_scores, y_scores)?;
    if !(1..=WEAT_MAX_SAMPLED_PARTITIONS).contains(&opts.samples) {
        return Err(MeasureError::SampleCount {
            samples: opts.samples,
        });
    }
    check_targets_finite(x_scores, y_scores)?;
    let (n_x, n_y) = (x_scores.len(), y_scores.len());
    let mut pooled: Vec<f64> = x_scores.iter().chain(y_scores).copied().collect();
    pooled.sort_by(f64::total_cmp);
    let mut x_sorted = x_scores.to_vec();
    x_sorted.sort_by(f64::total_cmp);
    let threshold = sum(&x_sorted);
    let total = binomial((n_x + n_y) as u64, n_x as u64);
    let exact = total.is_some_and(|t| t <= u128::from(opts.exact_limit) || t <= u128::from(opts.samples));
    if exact {
        let (greater, partitions) = exact_count(&pooled, n_x, threshold);
        Ok(PermutationTest {
            p: greater as f64 / partitions as f64,
            method: PMethod::Exact,
            partitions,
            greater,
            total_partitions: total,
            n_x,
            n_y,
        })
    } else {
        let mut rng = opts.seed.stream(WEAT_PERMUTATION_STREAM);
        let greater = sampled_count(&pooled, n_x, threshold, opts.samples, &mut rng);
        Ok(PermutationTest {
            p: (greater + 1) as f64 / (opts.samples + 1) as f64,
            method: PMethod::Sampled,
            partitions: opts.samples,
            greater,
            total_partitions: total,
            n_x,
            n_y,
        })
    }
}

/// Refuses a NaN or infinite score (its comparisons would be meaningless).
/// Fails on an empty score list of the WEAT target set X, then of Y.
pub(crate) fn check_targets_nonempty(x_scores: &[f64], y_scores: &[f64]) -> Result<(), MeasureError> {
    for (what, scores) in [("WEAT target set X", x_scores), ("WEAT target set Y", y_scores)] {
        if scores.is_empty() {
            return Err(MeasureError::EmptySet { what });
        }
    }
    Ok(())
}

/// Fails on the first score that is not finite, of the WEAT target set X, then of Y.
pub(crate) fn check_targets_finite(x_scores: &[f64], y_scores: &[f64]) -> Result<(), MeasureError> {
    check_finite("WEAT target set X", x_scores)?;
    check_finite("WEAT target set Y", y_scores)
}

fn check_finite(what: &'static str, scores: &[f64]) -> Result<(), MeasureError> {
    match scores.iter().position(|s| !s.is_finite()) {
        Some(index) => Err(MeasureError::NonFiniteScore {
            what,
            index,
            value: scores[index],
        }),
        None => Ok(()),
    }
}

/// Over every `k`-subset of `sorted` (ascending), how many have a left-to-right sum greater
/// than `threshold`, and how many subsets were visited.
fn exact_count(sorted: &[f64], k: usize, threshold: f64) -> (u64, u64) {
    let n = sorted.len();
    let m = k - 1; // prefix length; the last element is counted by binary search
    let mut idx: Vec<usize> = (0..m).collect();
    let mut prefix = vec![0.0f64; m + 1];
    for j in 0..m {
        prefix[j + 1] = prefix[j] + sorted[idx[j]];
    }
    let (mut greater, mut visited) = (0u64, 0u64);
    loop {
        let base = prefix[m];
        let start = if m == 0 { 0 } else { idx[m - 1] + 1 };
        let tail = &sorted[start..];
        let not_greater = tail.partition_point(|&v| base + v <= threshold);
        greater += (tail.len() - not_greater) as u64;
        visited += tail.len() as u64;
        // Next prefix: the rightmost position that can still move right (position j of a
        // k-combination of n ends at n − k + j).
        let Some(j) = (0..m).rev().find(|&j| idx[j] < n - k + j) else {
            return (greater, visited);
        };
        idx[j] += 1;
        for t in j + 1..m {
            idx[t] = idx[t - 1] + 1;
        }
        for t in j..m {
            prefix[t + 1] = prefix[t] + sorted[idx[t]];
        }
    }
}

/// Draws `draws` distinct `k`-subsets of `sorted` uniformly and counts those whose
/// left-to-right sum in `sorted` order exceeds `threshold`. A subset is drawn through the
/// smaller of its side and its complement (partial Fisher–Yates over min(k, n − k) positions,
/// repeats rejected), which is the same uniform distribution at a fraction of the draws when
/// the sides differ in size. The caller guarantees `draws < C(n, k)`.
fn sampled_count(sorted: &[f64], k: usize, threshold: f64, draws: u64, rng: &mut impl Rng) -> u64 {
    let n = sorted.len();
    let words = n.div_ceil(64);
    let drawn_side = k.min(n - k);
    // Bits 0..n set: the complement of a drawn side is `full ^ mask`.
    let full: Vec<u64> = (0..words)
        .map(|w| {
            let bits = (n - 64 * w).min(64);
            if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 }
        })
        .collect();
    let mut seen: FxHashSet<Box<[u64]>> = FxHashSet::default();
    let mut order: Vec<usize> = (0..n).collect();
    let mut mask = vec![0u64; words];
    let mut greater = 0u64;
    let mut drawn = 0u64;
    while drawn < draws {
        for i in 0..drawn_side {
            let j = i + below(rng, (n - i) as u64) as usize;
            order.swap(i, j);
        }
        mask.fill(0);
        for &i in &order[..drawn_side] {
            mask[i / 64] |= 1 << (i % 64);
        }
        if drawn_side != k {
            for (m, f) in mask.iter_mut().zip(&full) {
                *m ^= f;
            }
        }
        if seen.contains(&mask[..]) {
            continue;
        }
        let mut total = 0.0f64;
        for (w, &bits) in mask.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                total += sorted[w * 64 + b];
                bits &= bits - 1;
            }
        }
        if total > threshold {
            greater += 1;
        }
        seen.insert(mask.clone().into_boxed_slice());
        drawn += 1;
    }
    greater
}

/// A uniform integer in `0..m` (`m ≥ 1`), by rejection of the incomplete last block of `u64`s.
pub(crate) fn below(rng: &mut impl Rng, m: u64) -> u64 {
    let limit = u64::MAX - u64::MAX % m;
    loop {
        let x = rng.next_u64();
        if x < limit {
            return x % m;
        }
    }
}

#[cfg(test)]
mod tests;
