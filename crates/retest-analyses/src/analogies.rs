//! Analogies across seeds: a solver's answers are categories (words), so the seeds of a
//! configuration are raters of a categorical variable. [`answer_agreement`] rates the top-1
//! answers of a set of queries with Fleiss' κ (subjects = queries, raters = seeds) and names each
//! query's modal answer, [`top1_agreement`] does so for every (solver, constraint) combination of
//! a configuration; [`section_accuracy_icc`] rates the Google sections' accuracies across seeds
//! (ICC(2,1), subjects = sections); [`pair_overlap`] compares the word pairs a generator finds on
//! each seed.

use std::collections::{BTreeMap, BTreeSet};

use retest_reliability::{CountTable, IccResult, KappaResult, fleiss_kappa};

use crate::set_level::seeds_icc;

/// A query's most frequent answer across seeds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModalAnswer {
    /// The answer most seeds give (`None`: no answer); on a tie, the smallest (most frequent
    /// word's) id, and a word before no answer.
    pub answer: Option<u32>,
    /// The share of seeds that give it.
    pub share: f64,
    /// The number of different answers across seeds (no answer counts as one).
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

/// The order of the answer categories: words by id, then no answer.
fn category_key(answer: Option<u32>) -> (bool, Option<u32>) {
    (answer.is_none(), answer)
}

/// The agreement of `n_seeds` seeds on the answers of `n_queries` queries: `answers` is
/// query-major (`answers[q * n_seeds + s]`), each a word id or `None` when the seed has no
/// answer to the query (a category of its own, after every word).
///
/// # Panics
///
/// When `answers.len() != n_queries * n_seeds`, or there are queries but no seeds.
pub fn answer_agreement(answers: &[Option<u32>], n_queries: usize, n_seeds: usize) -> AnswerAgreement {
    assert_eq!(answers.len(), n_queries * n_seeds, "answers are queries × seeds");
    let mut categories = answers.to_vec();
    categories.sort_unstable_by_key(|&a| category_key(a));
    categories.dedup();
    let mut counts = vec![0_u64; n_queries * categories.len()];
    let mut queries = Vec::with_capacity(n_queries);
    for q in 0..n_queries {
        let row = &mut counts[q * categories.len()..(q + 1) * categories.len()];
        for &answer in &answers[q * n_seeds..(q + 1) * n_seeds] {
            let j = categories
                .binary_search_by_key(&category_key(answer), |&c| category_key(c))
                .expect("every answer is a category");
            row[j] += 1;
        }
        // The first maximum in category order: ties go to the smallest id.
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

/// The agreement of the seeds on the top-1 answers, per (solver, constraint) combination:
/// `top1[s][k][q]` is seed `s`'s best answer to query `q` under combination `k` (`None`: no
/// answer). Each combination's queries × seeds matrix is rated by [`answer_agreement`]; one
/// record per combination, in order (none without seeds).
///
/// # Panics
///
/// When the seeds differ in their number of combinations or queries.
pub fn top1_agreement(top1: &[Vec<Vec<Option<u32>>>]) -> Vec<AnswerAgreement> {
    let Some(first) = top1.first() else {
        return Vec::new();
    };
    assert!(
        top1.iter().all(|s| s.len() == first.len()),
        "every seed answers every combination"
    );
    (0..first.len())
        .map(|k| {
            let n_queries = first[k].len();
            assert!(
                top1.iter().all(|s| s[k].len() == n_queries),
                "every seed answers every query"
            );
            let matrix: Vec<Option<u32>> = (0..n_queries)
                .flat_map(|q| top1.iter().map(move |seed| seed[k][q]))
                .collect();
            answer_agreement(&matrix, n_queries, top1.len())
        })
        .collect()
}

/// The questions of one analogy section a solver answered right and those it was asked (all
/// four words in vocabulary), on one seed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tally {
    pub correct: usize,
    pub attempted: usize,
}

impl Tally {
    /// `correct / attempted`; NaN when nothing was asked.
    pub fn accuracy(self) -> f64 {
        self.correct as f64 / self.attempted as f64
    }
}

/// The test-retest reliability of one combination's section accuracies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SectionsIcc {
    /// ICC(2,1) of the sections × seeds matrix of accuracies.
    pub icc: IccResult,
    /// The sections rated: those with a question asked.
    pub n_sections: usize,
}

/// Per (solver, constraint) combination, ICC(2,1) of the sections' accuracies across seeds:
/// `tallies[s][k][i]` is section `i` of combination `k` on seed `s`. The subjects are the
/// sections with a question asked on the first seed (every seed searches the same words, so
/// asks the same questions), the raters the seeds. One record per combination of the first
/// seed (none without seeds).
///
/// # Panics
///
/// When a seed has fewer combinations or sections than the first.
pub fn section_accuracy_icc(tallies: &[Vec<Vec<Tally>>]) -> Vec<SectionsIcc> {
    let Some(first) = tallies.first() else {
        return Vec::new();
    };
    (first.iter().enumerate())
        .map(|(k, sections)| {
            let asked: Vec<usize> = (0..sections.len())
                .filter(|&i| sections[i].attempted > 0)
                .collect();
            let matrix: Vec<f64> = (asked.iter())
                .flat_map(|&i| tallies.iter().map(move |seed| seed[k][i].accuracy()))
                .collect();
            SectionsIcc {
                icc: seeds_icc(&matrix, asked.len(), tallies.len()),
                n_sections: asked.len(),
            }
        })
        .collect()
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
    use retest_reliability::Status;

    use super::*;

    #[test]
    fn fleiss_kappa_of_answers_and_the_modal_answers_are_the_hand_computed_ones() {
        // Query 0: every seed answers 5; query 1: 7, 8, 7.
        // P_0 = 1, P_1 = (4 + 1 − 3)/6 = 1/3, P̄ = 2/3; p = (3, 2, 1)/6, P̄_e = 14/36;
        // κ = (24 − 14)/(36 − 14) = 5/11.
        let r = answer_agreement(&[5, 5, 5, 7, 8, 7].map(Some), 2, 3);
        assert!((r.kappa.value - 5.0 / 11.0).abs() < 1e-15, "{}", r.kappa.value);
        assert_eq!(
            (r.kappa.n_subjects, r.kappa.n_raters, r.kappa.n_categories),
            (2, 3, 3)
        );
        assert_eq!(
            r.queries,
            [
                ModalAnswer {
                    answer: Some(5),
                    share: 1.0,
                    n_distinct: 1
                },
                ModalAnswer {
                    answer: Some(7),
                    share: 2.0 / 3.0,
                    n_distinct: 2
                }
            ]
        );
        // A tie goes to the smaller id (the more frequent word), and to a word before no answer.
        let r = answer_agreement(&[Some(9), Some(4)], 1, 2);
        assert_eq!(r.queries[0].answer, Some(4));
        assert_eq!(r.queries[0].share, 0.5);
        let r = answer_agreement(&[None, Some(u32::MAX)], 1, 2);
        assert_eq!(r.queries[0].answer, Some(u32::MAX));
        assert_eq!(r.queries[0].n_distinct, 2);
    }

    #[test]
    fn no_answer_is_a_category_of_its_own() {
        // Query 0: (none, none), query 1: (3, none). Categories 3, none.
        // P_0 = 1, P_1 = 0, P̄ = 1/2; p = (1, 3)/4, P̄_e = 10/16; κ = (1/2 − 5/8)/(3/8) = −1/3.
        let r = answer_agreement(&[None, None, Some(3), None], 2, 2);
        assert!((r.kappa.value + 1.0 / 3.0).abs() < 1e-15, "{}", r.kappa.value);
        assert_eq!(r.queries[0].answer, None);
        assert_eq!((r.queries[0].share, r.queries[0].n_distinct), (1.0, 1));
        // A tie between 3 and no answer goes to the word.
        assert_eq!(r.queries[1].answer, Some(3));
    }

    #[test]
    fn top1_agreement_rates_each_combination_queries_by_seeds() {
        // 2 seeds × 2 combinations × 2 queries: top1[seed][combination][query].
        let top1 = vec![
            vec![vec![Some(1), Some(2)], vec![Some(1), Some(2)]],
            vec![vec![Some(1), Some(3)], vec![Some(1), Some(2)]],
        ];
        let r = top1_agreement(&top1);
        assert_eq!(r.len(), 2);
        // Combination 0: query 0 (1, 1), query 1 (2, 3). P_0 = 1, P_1 = 0, P̄ = 1/2;
        // p = (2, 1, 1)/4, P̄_e = 6/16; κ = (1/2 − 3/8)/(5/8) = 1/5.
        assert!((r[0].kappa.value - 0.2).abs() < 1e-15, "{}", r[0].kappa.value);
        assert_eq!(r[0].queries[1].answer, Some(2));
        assert_eq!((r[0].queries[1].share, r[0].queries[1].n_distinct), (0.5, 2));
        // Combination 1: both seeds agree on two different answers: P̄ = 1, P̄_e = 1/2, κ = 1.
        assert!((r[1].kappa.value - 1.0).abs() < 1e-15, "{}", r[1].kappa.value);
        assert_eq!(r[1].queries[0].answer, Some(1));
        assert_eq!(r[1].kappa.n_raters, 2);
        assert!(top1_agreement(&[]).is_empty());
    }

    #[test]
    fn section_accuracy_icc_rates_the_sections_with_questions_across_seeds() {
        let t = |correct, attempted| Tally { correct, attempted };
        // One combination, 3 sections (the last without questions), 2 seeds.
        let tallies = vec![
            vec![vec![t(1, 2), t(1, 4), t(0, 0)]],
            vec![vec![t(2, 2), t(1, 4), t(0, 0)]],
        ];
        let r = section_accuracy_icc(&tallies);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].n_sections, 2);
        // Accuracies [[0.5, 1.0], [0.25, 0.25]]: grand mean 0.5, row means 0.75, 0.25, column
        // means 0.375, 0.625. SSR = 2·(0.0625 + 0.0625) = 0.25, MSR = 0.25; SSC = 2·(2·0.015625)
        // = 0.0625, MSC = 0.0625; SST = 0 + 0.25 + 0.0625 + 0.0625 = 0.375, SSE = 0.0625,
        // MSE = 0.0625. ICC(2,1) = (0.25 − 0.0625)/(0.25 + 0.0625 + 2·0/2) = 0.6.
        assert!((r[0].icc.value - 0.6).abs() < 1e-12, "{}", r[0].icc.value);
        assert_eq!((r[0].icc.n_subjects, r[0].icc.n_raters), (2, 2));
        assert_eq!(r[0].icc.status, Status::Ok);
        assert!(t(0, 0).accuracy().is_nan());
        assert_eq!(t(3, 4).accuracy(), 0.75);
        // Without the Google set every seed has no combination: no record.
        assert!(section_accuracy_icc(&[vec![], vec![]]).is_empty());
        assert!(section_accuracy_icc(&[]).is_empty());
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
