//! How alike the rules score: Pearson's r between two rules' seed-averaged scores over every
//! (base pair, word) of a list, as Du et al. (2021, §5.3) compare DB/WA, RIPA and NBM.

use retest_reliability::{CorrelationResult, pearson};

use crate::study::Study;

/// One correlation between two rules on one list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorrelationRecord {
    /// Index into [`Study::lists`].
    pub list: usize,
    /// Indices on the tensor's rule axis, `rule_a < rule_b`.
    pub rule_a: usize,
    pub rule_b: usize,
    pub result: CorrelationResult,
}

/// Per list and pair of rules (in rule order): r over the list's (base pair, word) cells, each
/// cell the mean over seeds. `n` counts cells.
pub fn rule_correlations(study: &Study<'_>) -> Vec<CorrelationRecord> {
    let t = study.tensor;
    let n_rules = t.n_rules();
    let mut records = Vec::new();
    for (list, set) in study.lists.iter().enumerate() {
        let cells = |r: usize| -> Vec<f64> {
            (0..t.n_refs())
                .flat_map(|p| set.targets.iter().map(move |&w| study.means.get(r, p, w)))
                .collect()
        };
        let per_rule: Vec<Vec<f64>> = (0..n_rules).map(cells).collect();
        for rule_a in 0..n_rules {
            for rule_b in rule_a + 1..n_rules {
                records.push(CorrelationRecord {
                    list,
                    rule_a,
                    rule_b,
                    result: pearson(&per_rule[rule_a], &per_rule[rule_b]),
                });
            }
        }
    }
    records
}
