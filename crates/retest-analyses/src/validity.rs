//! Criterion validity across seeds: on each seed, how well one rule's scores of a criterion's
//! words along one reference track the criterion (Pearson's r with its p-value, Spearman's ρ);
//! across the seeds, the spread of r, beside the test-retest reliability of the same scores
//! (ICC(2,1) of the words × seeds matrix) — is the more reliable rule also the more valid?

use retest_reliability::{CorrelationResult, IccResult, pearson, spearman};

use crate::set_level::{SeedSpread, seed_spread, seeds_icc};

/// The validity of one seed's scores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Validity {
    /// Words with both a score and a criterion value.
    pub n: usize,
    pub pearson: CorrelationResult,
    pub spearman: CorrelationResult,
}

/// The validity of `scores` (one per word; NaN for a word without a score) against `criterion`
/// (one per word, finite): both correlations over the words with a score.
///
/// # Panics
///
/// If the two differ in length.
pub fn validity(scores: &[f64], criterion: &[f64]) -> Validity {
    assert_eq!(scores.len(), criterion.len(), "one criterion value per score");
    let pearson = pearson(scores, criterion);
    Validity {
        n: pearson.n,
        pearson,
        spearman: spearman(scores, criterion),
    }
}

/// One reference's validity on every seed and across them.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidityAcross {
    /// Per seed, in seed order.
    pub seeds: Vec<Validity>,
    /// The spread of Pearson's r across the seeds.
    pub spread: SeedSpread,
    /// ICC(2,1) of the scores, words × seeds (a word without a score on some seed is dropped).
    pub reliability: IccResult,
}

/// [`validity`] on every seed of `scores` (seed-major: `scores[seed][word]`), the spread of r
/// across them and the scores' test-retest ICC.
///
/// # Panics
///
/// If a seed's scores differ in length from `criterion`.
pub fn validity_across(scores: &[Vec<f64>], criterion: &[f64]) -> ValidityAcross {
    let seeds: Vec<Validity> = scores.iter().map(|s| validity(s, criterion)).collect();
    let r: Vec<f64> = seeds.iter().map(|v| v.pearson.value).collect();
    let n_words = criterion.len();
    let matrix: Vec<f64> = (0..n_words)
        .flat_map(|w| scores.iter().map(move |s| s[w]))
        .collect();
    ValidityAcross {
        spread: seed_spread(&r, false),
        reliability: seeds_icc(&matrix, n_words, scores.len()),
        seeds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    #[test]
    fn validity_is_both_correlations_over_the_words_with_a_score() {
        // Scores 1, 2, 3 against 2, 4, 7 (a NaN score leaves its word out): x̄ = 2, ȳ = 13/3;
        // Σdxdy = 5, Σdx² = 2, Σdy² = 38/3 → r = 5/√(76/3).
        let v = validity(&[1.0, f64::NAN, 2.0, 3.0], &[2.0, 100.0, 4.0, 7.0]);
        assert_eq!(v.n, 3);
        close(v.pearson.value, 5.0 / (76.0f64 / 3.0).sqrt());
        close(v.spearman.value, 1.0);
    }

    #[test]
    fn across_seeds_the_spread_of_r_and_the_icc_of_the_scores() {
        // Two seeds, three words: r = 1 on seed 0; on seed 1, x = (2, 2, 4): Σdxdy = 2, Σdx² =
        // 8/3, Σdy² = 2 → r = √3/2.
        let criterion = [1.0, 2.0, 3.0];
        let scores = vec![vec![1.0, 2.0, 3.0], vec![2.0, 2.0, 4.0]];
        let a = validity_across(&scores, &criterion);
        close(a.seeds[0].pearson.value, 1.0);
        let r1 = 3f64.sqrt() / 2.0;
        close(a.seeds[1].pearson.value, r1);
        close(a.spread.mean, (1.0 + r1) / 2.0);
        close(a.spread.sd, (1.0 - r1) / 2f64.sqrt());
        // Words × seeds [[1, 2], [2, 2], [3, 4]], grand mean 7/3: MSR = 13/6, MSC = 2/3, MSE =
        // 1/6; ICC(2,1) = (13/6 − 1/6)/(13/6 + 1/6 + 2·(2/3 − 1/6)/3) = 2/(8/3) = 0.75.
        close(a.reliability.value, 0.75);
        assert_eq!((a.reliability.n_subjects, a.reliability.n_raters), (3, 2));
    }
}
