//! Analogies across seeds: a solver's answers are categories (words), so the seeds of a
//! configuration are raters of a categorical variable. [`answer_agreement`] rates the top-1
//! answers of a set of queries with Fleiss' κ (subjects = queries, raters = seeds) and names each
//! query's modal answer; [`pair_overlap`] compares the word pairs a generator finds on each seed.

use std::collections::{BTreeMap, BTreeSet};

use retest_reliability::{CountTable, KappaResult, fleiss_kappa};

/// A query's most frequent answer across seeds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModalAnswer {
    /// The answer most seeds give; on a tie, the smallest (most frequent word's) id.
    pub answer: u32,
    /// The share of seeds that give it.
    pub share: f64,
    /// The number of different answers across seeds.
    pub n_distinct: usize,
}

/// How far the seeds agree on the answers to a set of queries.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerAgreement {
    /// Fleiss' κ with the queries as subjects, the seeds as raters and the answer words as
    /// categories.
    pub kappa: KappaResult,
    /// Per query, in input order.
    pub queries: Vec<ModalAnswer>,
}

/// The agreement of `n_seeds` seeds on the answers of `n_queries` queries: `answers` is
/// query-major (`answers[q * n_seeds + s]`), each a word id.
///
/// # Panics
///
/// When `answers.len() != n_queries * n_seeds`.
pub fn answer_agreement(answers: &[u32], n_queries: usize, n_seeds: usize) -> AnswerAgreement {
    assert_eq!(answers.len(), n_queries * n_seeds, "answers are queries × seeds");
    let categories: Vec<u32> = answers
        .iter()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut counts = vec![0_u64; n_queries * categories.len()];
    let mut queries = Vec::with_capacity(n_queries);
    for q in 0..n_queries {
        let row = &mut counts[q * categories.len()..(q + 1) * categories.len()];
        for answer in &answers[q * n_seeds..(q + 1) * n_seeds] {
            let j = categories
                .binary_search(answer)
                .expect("every answer is a category");
            row[j] += 1;
        }
        // The first maximum in ascending id order: ties go to the smallest id.
        let (best, &count) = (row.iter().enumerate())
            .rev()
            .max_by_key(|&(_, c)| *c)
            .expect("at least one category");
        queries.push(ModalAnswer {
            answer: categories[best],
            share: count as f64 / n_seeds as f64,
            n_distinct: row.iter().filter(|&&c| c > 0).count(),
        });
    }
    let table =
        CountTable::new(counts, n_queries, categories.len()).expect("the table is queries × categories");
    AnswerAgreement {
        kappa: fleiss_kappa(&table),
        queries,
    }
}

/// How alike the pair sets of different seeds are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairOverlap {
    /// The mean Jaccard index |A ∩ B| / |A ∪ B| over every two seeds; NaN below 2 seeds.
    pub mean_jaccard: f64,
    /// Of every pair found on some seed, the share found on at least half of the seeds.
    pub share_in_half: f64,
    /// Pairs found on some seed.
    pub n_distinct: usize,
}

/// The overlap of the pair sets of several seeds (a pair is ordered: (x, y) ≠ (y, x)).
pub fn pair_overlap(seeds: &[Vec<(u32, u32)>]) -> PairOverlap {
    let sets: Vec<BTreeSet<(u32, u32)>> = seeds.iter().map(|s| s.iter().copied().collect()).collect();
    let mut jaccard = Vec::new();
    for (i, a) in sets.iter().enumerate() {
        for b in &sets[i + 1..] {
            let union = a.union(b).count();
            let shared = a.intersection(b).count();
            jaccard.push(if union == 0 {
                1.0
            } else {
                shared as f64 / union as f64
            });
        }
    }
    let mut found: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for set in &sets {
        for &pair in set {
            *found.entry(pair).or_default() += 1;
        }
    }
    let in_half = found.values().filter(|&&n| 2 * n >= sets.len()).count();
    PairOverlap {
        mean_jaccard: if jaccard.is_empty() {
            f64::NAN
        } else {
            jaccard.iter().sum::<f64>() / jaccard.len() as f64
        },
        share_in_half: if found.is_empty() {
            f64::NAN
        } else {
            in_half as f64 / found.len() as f64
        },
        n_distinct: found.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleiss_kappa_of_answers_and_the_modal_answers_are_the_hand_computed_ones() {
        // Query 0: every seed answers 5; query 1: 7, 8, 7.
        // P_0 = 1, P_1 = (4 + 1 − 3)/6 = 1/3, P̄ = 2/3; p = (3, 2, 1)/6, P̄_e = 14/36;
        // κ = (24 − 14)/(36 − 14) = 5/11.
        let r = answer_agreement(&[5, 5, 5, 7, 8, 7], 2, 3);
        assert!((r.kappa.value - 5.0 / 11.0).abs() < 1e-15, "{}", r.kappa.value);
        assert_eq!(
            (r.kappa.n_subjects, r.kappa.n_raters, r.kappa.n_categories),
            (2, 3, 3)
        );
        assert_eq!(
            r.queries,
            [
                ModalAnswer {
                    answer: 5,
                    share: 1.0,
                    n_distinct: 1
                },
                ModalAnswer {
                    answer: 7,
                    share: 2.0 / 3.0,
                    n_distinct: 2
                }
            ]
        );
        // A tie goes to the smaller id (the more frequent word).
        let r = answer_agreement(&[9, 4], 1, 2);
        assert_eq!(r.queries[0].answer, 4);
        assert_eq!(r.queries[0].share, 0.5);
    }

    #[test]
    fn pair_overlap_is_the_hand_computed_jaccard_and_share() {
        let a = vec![(1, 2), (3, 4)];
        let b = vec![(1, 2), (5, 6)];
        // J(a, b) = 1/3, J(a, a) = 1, J(b, a) = 1/3: mean 5/9. (1, 2) is on 3 seeds, (3, 4) on 2,
        // (5, 6) on 1: 2 of 3 pairs on at least half of the 3 seeds.
        let r = pair_overlap(&[a.clone(), b, a]);
        assert!((r.mean_jaccard - 5.0 / 9.0).abs() < 1e-15);
        assert!((r.share_in_half - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(r.n_distinct, 3);
        assert!(pair_overlap(&[vec![(1, 2)]]).mean_jaccard.is_nan());
    }
}
