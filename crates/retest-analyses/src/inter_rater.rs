//! Inter-rater consistency: do the rules agree on a word (or a base pair)? The rules are the
//! raters of the seed-averaged scores, ICC(3,1) the estimator (two-way mixed effects,
//! consistency, single rater), as Du et al. (2021, §4.2).

use rayon::prelude::*;
use retest_reliability::icc3_1;
use serde::{Deserialize, Serialize};

use crate::study::{IccRecord, Raters, Study, Subject, matrix};

/// How the rules' scores enter an inter-rater matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    /// The scores as they are, as the original study did.
    Raw,
    /// Every rule's column standardised over the matrix's subjects (mean 0, sample standard
    /// deviation 1; a constant column becomes zeros), so rules on different scales weigh
    /// equally.
    Zscore,
}

impl Scale {
    /// The stable name: the `scale` column of the tables and the spelling in pipeline specs.
    pub fn as_str(self) -> &'static str {
        match self {
            Scale::Raw => "raw",
            Scale::Zscore => "zscore",
        }
    }

    /// Applies the scale to every column of a row-major `rows × cols` matrix.
    fn apply(self, m: &mut [f64], rows: usize, cols: usize) {
        if self == Scale::Raw || rows < 2 {
            return;
        }
        for c in 0..cols {
            let mean = (0..rows).map(|r| m[r * cols + c]).sum::<f64>() / rows as f64;
            let var = (0..rows).map(|r| (m[r * cols + c] - mean).powi(2)).sum::<f64>() / (rows - 1) as f64;
            let sd = var.sqrt();
            for r in 0..rows {
                let v = &mut m[r * cols + c];
                *v = if sd > 0.0 { (*v - mean) / sd } else { 0.0 };
            }
        }
    }
}

/// Per scale and word: subjects = base pairs, raters = rules. A word's ICC is computed once per
/// scale and reported for every list that holds it; rows run scale by scale, list by list.
pub fn inter_rater_words(study: &Study<'_>, scales: &[Scale]) -> Vec<IccRecord> {
    let t = study.tensor;
    let (n_refs, n_rules) = (t.n_refs(), t.n_rules());
    let mut records = Vec::new();
    for &scale in scales {
        let per_word: Vec<_> = (0..t.n_targets())
            .into_par_iter()
            .map(|w| {
                let mut m: Vec<f64> = (0..n_refs)
                    .flat_map(|p| (0..n_rules).map(move |r| study.means.get(r, p, w)))
                    .collect();
                scale.apply(&mut m, n_refs, n_rules);
                icc3_1(matrix(&m, n_refs, n_rules))
            })
            .collect();
        for (list, set) in study.lists.iter().enumerate() {
            records.extend(set.targets.iter().map(|&w| IccRecord {
                raters: Raters::Rules,
                scale,
                list,
                subject: Subject::Word(w),
                result: per_word[w],
            }));
        }
    }
    records
}

/// Per scale, list and base pair: subjects = the list's words, raters = rules.
pub fn inter_rater_pairs(study: &Study<'_>, scales: &[Scale]) -> Vec<IccRecord> {
    let t = study.tensor;
    let n_rules = t.n_rules();
    let mut records = Vec::new();
    for &scale in scales {
        for (list, set) in study.lists.iter().enumerate() {
            let words = &set.targets;
            let per_pair: Vec<_> = (0..t.n_refs())
                .into_par_iter()
                .map(|p| {
                    let mut m: Vec<f64> = words
                        .iter()
                        .flat_map(|&w| (0..n_rules).map(move |r| study.means.get(r, p, w)))
                        .collect();
                    scale.apply(&mut m, words.len(), n_rules);
                    icc3_1(matrix(&m, words.len(), n_rules))
                })
                .collect();
            records.extend(per_pair.into_iter().enumerate().map(|(p, result)| IccRecord {
                raters: Raters::Rules,
                scale,
                list,
                subject: Subject::Pair(p),
                result,
            }));
        }
    }
    records
}
