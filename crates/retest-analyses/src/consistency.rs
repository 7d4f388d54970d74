//! Internal consistency: do the components of a composite measure agree? Cronbach's α on
//! seed-averaged scores, as Du et al. (2021, §4.3): a query's words as items (the base pairs
//! are the cases), and the base pairs as items of an ensemble (a list's words are the cases).

use retest_reliability::{AlphaResult, cronbach_alpha};

use crate::study::{Study, matrix};

/// What the items of an α are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Items {
    /// The words of a query (index into [`Study::queries`]); cases = base pairs.
    QueryWords { query: usize },
    /// The base pairs; cases = the words of a list (index into [`Study::lists`]).
    BasePairs { list: usize },
}

impl Items {
    /// The stable name of the kind of items: the `items` column of `internal_consistency`.
    pub fn as_str(self) -> &'static str {
        match self {
            Items::QueryWords { .. } => "query_words",
            Items::BasePairs { .. } => "base_pairs",
        }
    }
}

/// One Cronbach's α.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlphaRecord {
    /// Index on the tensor's rule axis.
    pub rule: usize,
    pub items: Items,
    pub result: AlphaResult,
}

/// Per rule: α of every query, then α of the base-pair ensemble over the words of list
/// `ensemble` (the paper's Google10K), when given.
pub fn internal_consistency(study: &Study<'_>, ensemble: Option<usize>) -> Vec<AlphaRecord> {
    let n_refs = study.tensor.n_refs();
    let mut records = Vec::new();
    for rule in 0..study.tensor.n_rules() {
        let mean = |p: usize, w: usize| study.means.get(rule, p, w);
        for (query, set) in study.queries.iter().enumerate() {
            let words = &set.targets;
            let m: Vec<f64> = (0..n_refs)
                .flat_map(|p| words.iter().map(move |&w| mean(p, w)))
                .collect();
            records.push(AlphaRecord {
                rule,
                items: Items::QueryWords { query },
                result: cronbach_alpha(matrix(&m, n_refs, words.len())),
            });
        }
        if let Some(list) = ensemble {
            let words = &study.lists[list].targets;
            let m: Vec<f64> = words
                .iter()
                .flat_map(|&w| (0..n_refs).map(move |p| mean(p, w)))
                .collect();
            records.push(AlphaRecord {
                rule,
                items: Items::BasePairs { list },
                result: cronbach_alpha(matrix(&m, words.len(), n_refs)),
            });
        }
    }
    records
}
