//! What the sections that put one configuration beside another share (the hyper-parameter
//! variants, the debiased models): the rules' reliability of each pair of configurations.

use retest_tables::{AlphaRow, IccRow};

use crate::compare;
use crate::data::{
    ITEMS_QUERY_WORDS, algorithm_label, alpha_value, rule_label, rules_of, sorted_names, unique_word_values,
};
use crate::document::Block;
use crate::numbers::f2;
use crate::page::row_cells;
use crate::stats::median;

/// Each (model, beside) pair's configurations side by side, corpus by corpus: `beside`'s row,
/// then `model`'s — median test-retest ICC of words per rule, median inter-rater ICC of words
/// (raw scores), median α of the queries.
pub(crate) fn rule_table(
    test_retest: &[IccRow],
    inter_rater: &[IccRow],
    alpha: &[AlphaRow],
    pairs: &[(String, String)],
) -> Block {
    let rules = rules_of(test_retest.iter().map(|r| r.rule.as_str()));
    let mut header = row_cells(&["corpus", "configuration"]);
    header.extend(rules.iter().map(|r| format!("test-retest {}", rule_label(r))));
    header.extend(row_cells(&["inter-rater (raw)", "α (queries)"]));
    let mut models: Vec<&str> = Vec::new();
    for (model, algorithm) in pairs {
        for name in [algorithm.as_str(), model.as_str()] {
            if !models.contains(&name) {
                models.push(name);
            }
        }
    }
    let mut rows = Vec::new();
    for corpus in sorted_names(test_retest.iter().map(|r| r.corpus.as_str())) {
        for &model in &models {
            let medians = compare::rule_medians(test_retest, &corpus, model, &rules);
            if medians.iter().all(|v| !v.is_finite()) {
                continue;
            }
            let mut cells = vec![corpus.clone(), algorithm_label(model)];
            cells.extend(medians.iter().map(|&v| f2(v)));
            let inter = unique_word_values(
                inter_rater
                    .iter()
                    .filter(|r| r.corpus == corpus && r.algorithm == model && r.scale == "raw"),
            );
            cells.push(f2(median(&inter)));
            let queries: Vec<f64> = alpha
                .iter()
                .filter(|r| r.corpus == corpus && r.algorithm == model && r.items == ITEMS_QUERY_WORDS)
                .filter_map(alpha_value)
                .collect();
            cells.push(f2(median(&queries)));
            rows.push(cells);
        }
    }
    Block::Table { header, rows }
}
