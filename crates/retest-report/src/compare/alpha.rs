//! Du et al.'s findings on internal consistency (Fig. 4): Cronbach's α of the queries and of the
//! base-pair ensemble.

use retest_tables::AlphaRow;

use crate::data::{ITEMS_BASE_PAIRS, ITEMS_QUERY_WORDS, alpha_value};
use crate::finding::{Finding, Verdict};
use crate::numbers::f2;
use crate::stats::median;

/// Internal consistency of most queries is acceptable, α ≥ 0.7 (§5.4, Fig. 4). Replicates when
/// more than half of the queries have a median α (over configurations and rules) ≥ 0.7.
pub fn alpha_queries(rows: &[AlphaRow]) -> Finding {
    let claim = "Most queries have acceptable internal consistency, α ≥ 0.7 (§5.4, Fig. 4)".to_owned();
    let paper = "most queries ≥ 0.7; math and arts_2 vary".to_owned();
    let queries = crate::data::queries_of(
        rows.iter()
            .filter(|r| r.items == ITEMS_QUERY_WORDS)
            .map(|r| r.query.as_str()),
    );
    let medians: Vec<(String, f64)> = queries
        .iter()
        .map(|q| {
            let values: Vec<f64> = rows
                .iter()
                .filter(|r| r.items == ITEMS_QUERY_WORDS && &r.query == q)
                .filter_map(alpha_value)
                .collect();
            (q.clone(), median(&values))
        })
        .filter(|(_, m)| m.is_finite())
        .collect();
    if medians.is_empty() {
        return Finding::missing(&claim, &paper, "no usable α of a query");
    }
    let acceptable = medians.iter().filter(|(_, m)| *m >= 0.7).count();
    let verdict = Verdict::of(2 * acceptable > medians.len());
    Finding {
        claim,
        paper,
        this_run: medians
            .iter()
            .map(|(q, m)| format!("{q} {}", f2(*m)))
            .collect::<Vec<_>>()
            .join(", "),
        verdict,
        sentence: format!(
            "Replicates if more than half of the queries have a median α ≥ 0.7; {acceptable} of {} do, so the finding {}.",
            medians.len(),
            verdict.as_str()
        ),
    }
}

/// The ensemble of base pairs is internally consistent, α ≥ 0.7 (§5.4, Fig. 4 "base pairs").
pub fn alpha_base_pairs(rows: &[AlphaRow]) -> Finding {
    let claim = "The ensemble of base pairs is internally consistent, α ≥ 0.7 (§5.4, Fig. 4)".to_owned();
    let paper = "≈ 0.75–0.92".to_owned();
    let values: Vec<f64> = rows
        .iter()
        .filter(|r| r.items == ITEMS_BASE_PAIRS)
        .filter_map(alpha_value)
        .collect();
    if values.is_empty() {
        return Finding::missing(&claim, &paper, "no usable α of the base-pair ensemble");
    }
    let m = median(&values);
    let verdict = Verdict::of(m >= 0.7);
    Finding {
        claim,
        paper,
        this_run: format!(
            "median {} (min {}, n = {})",
            f2(m),
            f2(crate::stats::sorted(&values)[0]),
            values.len()
        ),
        verdict,
        sentence: format!(
            "Replicates if the median α is at least 0.7; it is {}, so the finding {}.",
            f2(m),
            verdict.as_str()
        ),
    }
}
