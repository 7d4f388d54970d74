//! The hyper-parameter section (Du et al.'s Appendix E): each variant beside its algorithm's
//! configuration.

use retest_tables::{AlphaRow, IccRow};

use crate::beside::rule_table;
use crate::document::Block;

/// Appendix E: each variant beside its algorithm's configuration, corpus by corpus — median
/// test-retest ICC of words per rule, median inter-rater ICC of words (raw scores), median α of
/// the queries.
pub(crate) fn variant_blocks(
    test_retest: &[IccRow],
    inter_rater: &[IccRow],
    alpha: &[AlphaRow],
    variants: &[(String, String)],
    blocks: &mut Vec<Block>,
) {
    blocks.push(Block::Heading(2, "Hyper-parameters (App. E)".into()));
    blocks.push(Block::Paragraph(
        "Each variant beside the configuration of its algorithm: the same corpus and seeds, some \
         parameters changed. Medians over every list (a word listed twice counted once); α over the \
         query items."
            .into(),
    ));
    blocks.push(rule_table(test_retest, inter_rater, alpha, variants));
}
