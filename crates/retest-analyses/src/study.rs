//! What every design reads (the score tensor, its seed means, the target lists) and the record
//! an ICC design returns.

use retest_measures::ScoreTensor;
use retest_reliability::{IccResult, Matrix};

/// A named set of targets: a word list or a query, as positions on the tensor's target axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSet {
    pub name: String,
    /// Positions on the target axis, in list order.
    pub targets: Vec<usize>,
}

impl TargetSet {
    pub fn new(name: &str, targets: Vec<usize>) -> TargetSet {
        TargetSet {
            name: name.to_owned(),
            targets,
        }
    }
}

/// Seed means of a score tensor, `[rule][reference][target]`, each summed in seed order in f64.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedMeans {
    n_refs: usize,
    n_targets: usize,
    values: Vec<f64>,
}

impl SeedMeans {
    /// The means of `tensor` over its seed axis.
    pub fn new(tensor: &ScoreTensor) -> SeedMeans {
        let n_seeds = tensor.n_seeds();
        let values = if n_seeds == 0 {
            vec![f64::NAN; tensor.n_rules() * tensor.n_refs() * tensor.n_targets()]
        } else {
            tensor
                .values()
                .chunks_exact(n_seeds)
                .map(|c| c.iter().map(|&v| f64::from(v)).sum::<f64>() / n_seeds as f64)
                .collect()
        };
        SeedMeans {
            n_refs: tensor.n_refs(),
            n_targets: tensor.n_targets(),
            values,
        }
    }

    /// The mean score of rule `r`, reference `p` and target `t` over the seeds.
    pub fn get(&self, r: usize, p: usize, t: usize) -> f64 {
        self.values[(r * self.n_refs + p) * self.n_targets + t]
    }
}

/// The input of every design: one configuration's scores on every seed, with the target lists
/// and queries that group its targets.
#[derive(Debug)]
pub struct Study<'a> {
    pub tensor: &'a ScoreTensor,
    pub means: SeedMeans,
    /// Target lists (per-word rows are reported once per list that holds the word).
    pub lists: &'a [TargetSet],
    /// Queries: the concepts whose words are the items of an internal-consistency α.
    pub queries: &'a [TargetSet],
}

impl<'a> Study<'a> {
    pub fn new(tensor: &'a ScoreTensor, lists: &'a [TargetSet], queries: &'a [TargetSet]) -> Study<'a> {
        Study {
            tensor,
            means: SeedMeans::new(tensor),
            lists,
            queries,
        }
    }

    /// The scores of rule `r`, reference `p` and target `t` over the seeds, widened to f64.
    pub(crate) fn seeds(&self, r: usize, p: usize, t: usize) -> impl Iterator<Item = f64> + '_ {
        self.tensor.seeds(r, p, t).iter().map(|&v| f64::from(v))
    }
}

/// Who rates in an ICC design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Raters {
    /// The seeds, for one rule (index on the tensor's rule axis): test-retest reliability.
    Seeds { rule: usize },
    /// Every rule of the tensor, on seed means: inter-rater consistency.
    Rules,
}

/// What an ICC rates: a target word (position on the target axis) or a base pair (index on the
/// reference axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject {
    Word(usize),
    Pair(usize),
}

/// One ICC of a design.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IccRecord {
    pub raters: Raters,
    pub scale: crate::Scale,
    /// Index into [`Study::lists`].
    pub list: usize,
    pub subject: Subject,
    pub result: IccResult,
}

/// `data` as a `rows × cols` matrix; the designs build `data` with exactly that many values.
pub(crate) fn matrix(data: &[f64], rows: usize, cols: usize) -> Matrix<'_> {
    Matrix::new(data, rows, cols).expect("the designs build rows × cols values")
}
