//! Zhang et al.'s analyses across the seeds of one configuration: the words' scores of every
//! seed as one rule × pair × word × seed tensor, the seeds' agreement on each pair's labels and
//! the variance components of each rule's scores and labels.

use retest_measures::{MeasureError, Rule, ScoreTensor};
use retest_reliability::KappaResult;

use super::{VarianceComponents, masculine, seeds_agreement, variance_components};

/// The words' scores of every seed as one tensor: `seeds[s]` holds seed `s`'s scores
/// `[rule][pair][word]` (`n_pairs` pairs, `n_words` words), the tensor
/// `[rule][pair][word][seed]`.
///
/// # Errors
///
/// A seed whose scores are not `rules.len() × n_pairs × n_words`.
pub fn words_tensor(
    rules: &[Rule],
    n_pairs: usize,
    n_words: usize,
    seeds: &[&[f32]],
) -> Result<ScoreTensor, MeasureError> {
    let n_cells = rules.len() * n_pairs * n_words;
    if let Some(seed) = seeds.iter().find(|s| s.len() != n_cells) {
        return Err(MeasureError::BadTensor {
            message: format!(
                "a seed has {} scores for {} rules × {n_pairs} pairs × {n_words} words",
                seed.len(),
                rules.len()
            ),
        });
    }
    let values = (0..n_cells)
        .flat_map(|cell| seeds.iter().map(move |s| s[cell]))
        .collect();
    ScoreTensor::from_values(rules, n_pairs, n_words, seeds.len(), values)
}

/// How far the seeds agree on the labels of the words under one rule and pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedsRecord {
    pub rule: usize,
    pub pair: usize,
    /// Fleiss' κ, subjects = words, raters = seeds ([`seeds_agreement`]).
    pub kappa: KappaResult,
}

/// Per rule and pair of `tensor` (rule-major), the [`seeds_agreement`] of the labels of its
/// targets (words × seeds).
pub fn seeds_agreement_per_pair(tensor: &ScoreTensor) -> Vec<SeedsRecord> {
    let (n_words, n_seeds) = (tensor.n_targets(), tensor.n_seeds());
    let mut records = Vec::new();
    for rule in 0..tensor.n_rules() {
        for pair in 0..tensor.n_refs() {
            let scores: Vec<f32> = (0..n_words)
                .flat_map(|w| tensor.seeds(rule, pair, w).iter().copied())
                .collect();
            records.push(SeedsRecord {
                rule,
                pair,
                kappa: seeds_agreement(&scores, n_words, n_seeds),
            });
        }
    }
    records
}

/// What the variance components of [`variance_per_rule`] are computed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum VarianceScale {
    /// The scores.
    Score,
    /// The labels, 1 masculine and 0 feminine ([`masculine`]).
    Label,
}

impl VarianceScale {
    /// Both scales, in table order.
    pub const ALL: [VarianceScale; 2] = [VarianceScale::Score, VarianceScale::Label];

    /// The stable name (`score`, `label`).
    pub fn as_str(self) -> &'static str {
        match self {
            VarianceScale::Score => "score",
            VarianceScale::Label => "label",
        }
    }

    fn value(self, score: f32) -> f64 {
        match self {
            VarianceScale::Score => f64::from(score),
            VarianceScale::Label => masculine(score) as f64,
        }
    }
}

/// The variance components of one rule on one scale.
#[derive(Clone, Debug, PartialEq)]
pub struct VarianceRecord {
    pub rule: usize,
    pub scale: VarianceScale,
    pub components: VarianceComponents,
}

/// Per rule of `tensor` and per scale ([`VarianceScale::ALL`]), the [`variance_components`] of
/// its word × pair × seed design (targets are the words, references the pairs).
pub fn variance_per_rule(tensor: &ScoreTensor) -> Vec<VarianceRecord> {
    let (n_words, n_pairs, n_seeds) = (tensor.n_targets(), tensor.n_refs(), tensor.n_seeds());
    let mut records = Vec::new();
    for rule in 0..tensor.n_rules() {
        for scale in VarianceScale::ALL {
            let values: Vec<f64> = (0..n_words)
                .flat_map(|w| (0..n_pairs).flat_map(move |p| tensor.seeds(rule, p, w)))
                .map(|&v| scale.value(v))
                .collect();
            records.push(VarianceRecord {
                rule,
                scale,
                components: variance_components(&values, n_words, n_pairs, n_seeds),
            });
        }
    }
    records
}

#[cfg(test)]
mod tests;
