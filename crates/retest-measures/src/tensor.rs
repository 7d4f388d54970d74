//! The score tensor of one configuration: every rule × reference × target on every seed.

use crate::{BiasScores, MeasureError, Rule};

/// Scores of one (corpus, algorithm) configuration on all its seeds:
/// `rules × references × targets × seeds`, f32, row-major in that order (the seed axis is
/// innermost, so one cell's scores over the seeds are contiguous).
///
/// A reference is what a rule scores a target against (today a base pair). Each seed's block
/// is one model's [`BiasScores`], placed by [`ScoreTensor::set_seed`].
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreTensor {
    rules: Vec<Rule>,
    n_refs: usize,
    n_targets: usize,
    n_seeds: usize,
    values: Vec<f32>,
}

impl ScoreTensor {
    /// A tensor of zeros.
    pub fn zeros(rules: &[Rule], n_refs: usize, n_targets: usize, n_seeds: usize) -> ScoreTensor {
        ScoreTensor {
            rules: rules.to_vec(),
            n_refs,
            n_targets,
            n_seeds,
            values: vec![0.0; rules.len() * n_refs * n_targets * n_seeds],
        }
    }

    /// A tensor over `values`, `[rule][reference][target][seed]`.
    ///
    /// # Errors
    ///
    /// `values` does not hold one value per cell.
    pub fn from_values(
        rules: &[Rule],
        n_refs: usize,
        n_targets: usize,
        n_seeds: usize,
        values: Vec<f32>,
    ) -> Result<ScoreTensor, MeasureError> {
        let expected = rules.len() * n_refs * n_targets * n_seeds;
        if values.len() != expected {
            return Err(MeasureError::BadTensor {
                message: format!(
                    "{} values for {} rules × {n_refs} references × {n_targets} targets × {n_seeds} seeds",
                    values.len(),
                    rules.len()
                ),
            });
        }
        Ok(ScoreTensor {
            rules: rules.to_vec(),
            n_refs,
            n_targets,
            n_seeds,
            values,
        })
    }

    /// Places one model's scores at seed `seed`.
    ///
    /// # Errors
    ///
    /// `seed` out of range, or `scores` of other rules or another shape.
    pub fn set_seed(&mut self, seed: usize, scores: &BiasScores) -> Result<(), MeasureError> {
        if seed >= self.n_seeds
            || scores.rules() != self.rules.as_slice()
            || scores.n_pairs() != self.n_refs
            || scores.n_targets() != self.n_targets
        {
            return Err(MeasureError::BadTensor {
                message: format!(
                    "seed {seed} of {}: scores of {} rules × {} references × {} targets do not fit \
                     {} rules × {} references × {} targets",
                    self.n_seeds,
                    scores.rules().len(),
                    scores.n_pairs(),
                    scores.n_targets(),
                    self.rules.len(),
                    self.n_refs,
                    self.n_targets
                ),
            });
        }
        for (i, &v) in scores.values().iter().enumerate() {
            self.values[i * self.n_seeds + seed] = v;
        }
        Ok(())
    }

    /// The rules, in the order of the first axis.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Number of rules (first axis).
    pub fn n_rules(&self) -> usize {
        self.rules.len()
    }

    /// Number of references (second axis).
    pub fn n_refs(&self) -> usize {
        self.n_refs
    }

    /// Number of targets (third axis).
    pub fn n_targets(&self) -> usize {
        self.n_targets
    }

    /// Number of seeds (last axis).
    pub fn n_seeds(&self) -> usize {
        self.n_seeds
    }

    /// All values, `[rule][reference][target][seed]` row-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The scores of rule `r`, reference `p` and target `t` on every seed.
    pub fn seeds(&self, r: usize, p: usize, t: usize) -> &[f32] {
        let start = ((r * self.n_refs + p) * self.n_targets + t) * self.n_seeds;
        &self.values[start..start + self.n_seeds]
    }

    /// The tensor restricted to the targets at `positions`, in that order.
    pub fn select_targets(&self, positions: &[usize]) -> ScoreTensor {
        let mut values = Vec::with_capacity(self.rules.len() * self.n_refs * positions.len() * self.n_seeds);
        for r in 0..self.rules.len() {
            for p in 0..self.n_refs {
                for &t in positions {
                    values.extend_from_slice(self.seeds(r, p, t));
                }
            }
        }
        ScoreTensor {
            rules: self.rules.clone(),
            n_targets: positions.len(),
            values,
            ..*self
        }
    }
}
