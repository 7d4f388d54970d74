//! Test-retest reliability: does a rule give a word (or a base pair) the same scores when the
//! embedding is retrained with another seed? The seeds are the raters, ICC(2,1) the estimator
//! (two-way random effects, absolute agreement, single rater), as Du et al. (2021, §4.1).

use rayon::prelude::*;
use retest_reliability::icc2_1;

use crate::Scale;
use crate::study::{IccRecord, Raters, Study, Subject, matrix};

/// Per rule and word: subjects = base pairs, raters = seeds. A word's ICC is computed once and
/// reported for every list that holds it; rows run rule by rule, list by list, in list order.
pub fn test_retest_words(study: &Study<'_>) -> Vec<IccRecord> {
    let t = study.tensor;
    let (n_refs, n_seeds) = (t.n_refs(), t.n_seeds());
    let mut records = Vec::new();
    for rule in 0..t.n_rules() {
        let per_word: Vec<_> = (0..t.n_targets())
            .into_par_iter()
            .map(|w| {
                let m: Vec<f64> = (0..n_refs).flat_map(|p| study.seeds(rule, p, w)).collect();
                icc2_1(matrix(&m, n_refs, n_seeds))
            })
            .collect();
        for (list, set) in study.lists.iter().enumerate() {
            records.extend(set.targets.iter().map(|&w| IccRecord {
                raters: Raters::Seeds { rule },
                scale: Scale::Raw,
                list,
                subject: Subject::Word(w),
                result: per_word[w],
            }));
        }
    }
    records
}

/// Per rule, list and base pair: subjects = the list's words, raters = seeds.
pub fn test_retest_pairs(study: &Study<'_>) -> Vec<IccRecord> {
    let t = study.tensor;
    let n_seeds = t.n_seeds();
    let mut records = Vec::new();
    for rule in 0..t.n_rules() {
        for (list, set) in study.lists.iter().enumerate() {
            let words = &set.targets;
            let per_pair: Vec<_> = (0..t.n_refs())
                .into_par_iter()
                .map(|p| {
                    let m: Vec<f64> = words.iter().flat_map(|&w| study.seeds(rule, p, w)).collect();
                    icc2_1(matrix(&m, words.len(), n_seeds))
                })
                .collect();
            records.extend(per_pair.into_iter().enumerate().map(|(p, result)| IccRecord {
                raters: Raters::Seeds { rule },
                scale: Scale::Raw,
                list,
                subject: Subject::Pair(p),
                result,
            }));
        }
    }
    records
}
