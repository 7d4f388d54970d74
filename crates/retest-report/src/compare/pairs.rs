//! Du et al.'s findings on the base pairs (Fig. 5): how much they vary, singular against plural,
//! and test-retest against inter-rater reliability per pair.

use retest_tables::{IccRow, Subject};

use crate::data::{icc_values, pair_label, pairs_of, singular_plural_pairs};
use crate::finding::{Finding, Verdict};
use crate::numbers::{f2, p_text};
use crate::stats::{median, paired_t, pearson};

/// The rows of per-pair figures and tests: the Full list when the run has one, else every list.
pub fn pair_rows(rows: &[IccRow]) -> Vec<&IccRow> {
    let has_full = rows.iter().any(|r| r.list == "full");
    rows.iter().filter(|r| !has_full || r.list == "full").collect()
}

/// Per base pair (in list order): the median of its usable values.
fn pair_medians(rows: &[&IccRow]) -> Vec<((String, String), f64)> {
    pairs_of(rows.iter().copied())
        .into_iter()
        .map(|(m, f)| {
            let values = icc_values(rows.iter().copied().filter(
                |r| matches!(&r.subject, Subject::Pair { male, female } if *male == m && *female == f),
            ));
            ((m, f), median(&values))
        })
        .collect()
}

/// Singular base pairs have higher test-retest reliability than their plurals (§5.5: paired
/// t(7) = 2.45, p < .05), and inter-rater consistency shows no such difference (t(7) = −0.13).
pub fn singular_vs_plural(rows: &[IccRow], test_retest: bool) -> Finding {
    let (claim, paper) = if test_retest {
        (
            "Singular base pairs are more test-retest reliable than their plurals (§5.5, Fig. 5a)",
            "t(7) = 2.45, p < .05",
        )
    } else {
        (
            "Singular and plural base pairs do not differ in inter-rater consistency (§5.5, Fig. 5b)",
            "t(7) = −0.13, p > .05",
        )
    };
    let rows = pair_rows(rows);
    let rows: Vec<&IccRow> = rows.into_iter().filter(|r| r.scale == "raw").collect();
    let medians = pair_medians(&rows);
    let pairs: Vec<(String, String)> = medians.iter().map(|(p, _)| p.clone()).collect();
    let diffs: Vec<f64> = singular_plural_pairs(&pairs)
        .into_iter()
        .map(|(s, p)| medians[s].1 - medians[p].1)
        .filter(|d| d.is_finite())
        .collect();
    let Some(t) = paired_t(&diffs) else {
        return Finding::missing(claim, paper, "fewer than two singular/plural pairs with values");
    };
    let holds = if test_retest {
        t.estimate > 0.0 && t.p_value < 0.05
    } else {
        t.p_value >= 0.05
    };
    let verdict = Verdict::of(holds);
    let criterion = if test_retest {
        "singular pairs have the higher median ICC on average and the paired t test gives p < .05"
    } else {
        "the paired t test gives p ≥ .05"
    };
    Finding {
        claim: claim.to_owned(),
        paper: paper.to_owned(),
        this_run: format!(
            "mean difference {}, t({}) = {}, {}",
            f2(t.estimate),
            t.n - 1,
            f2(t.t),
            p_text(t.p_value)
        ),
        verdict,
        sentence: format!(
            "Replicates if {criterion}; here {}, so the finding {}.",
            p_text(t.p_value),
            verdict.as_str()
        ),
    }
}

/// Pairs of higher test-retest reliability have higher inter-rater consistency (§5.5:
/// r = 0.644, p < .05 between the pairs' medians).
pub fn pair_reliability_correlation(test_retest: &[IccRow], inter_rater: &[IccRow]) -> Finding {
    let claim = "Base pairs of higher test-retest reliability have higher inter-rater consistency (§5.5)";
    let paper = "r = 0.644, p < .05";
    let tr = pair_medians(&pair_rows(test_retest));
    let ir_rows: Vec<&IccRow> = pair_rows(inter_rater)
        .into_iter()
        .filter(|r| r.scale == "raw")
        .collect();
    let ir = pair_medians(&ir_rows);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (pair, m) in &tr {
        if let Some((_, n)) = ir.iter().find(|(p, _)| p == pair)
            && m.is_finite()
            && n.is_finite()
        {
            x.push(*m);
            y.push(*n);
        }
    }
    let Some(r) = pearson(&x, &y) else {
        return Finding::missing(
            claim,
            paper,
            "fewer than three base pairs with both values, or no variance",
        );
    };
    let verdict = Verdict::of(r.estimate > 0.0 && r.p_value < 0.05);
    Finding {
        claim: claim.to_owned(),
        paper: paper.to_owned(),
        this_run: format!("r = {:.3}, {}, n = {} pairs", r.estimate, p_text(r.p_value), r.n),
        verdict,
        sentence: format!(
            "Replicates if the pairs' median test-retest and raw inter-rater ICCs correlate positively with p < .05; r = {:.3} ({}), so the finding {}.",
            r.estimate,
            p_text(r.p_value),
            verdict.as_str()
        ),
    }
}

/// Test-retest reliability varies between base pairs (Fig. 5a: most ≈ 0.9–0.95, male–female
/// and boys–girls ≈ 0.8). Replicates when the pairs' medians span at least 0.1.
pub fn pair_variation(rows: &[IccRow]) -> Finding {
    let claim = "Test-retest reliability varies between base pairs (Fig. 5a)";
    let paper = "most ≈ 0.9–0.95; male–female, boys–girls ≈ 0.8";
    let medians: Vec<((String, String), f64)> = pair_medians(&pair_rows(rows))
        .into_iter()
        .filter(|(_, m)| m.is_finite())
        .collect();
    if medians.len() < 2 {
        return Finding::missing(claim, paper, "fewer than two base pairs with values");
    }
    let lo = medians
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .cloned()
        .unwrap_or_default();
    let hi = medians
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .cloned()
        .unwrap_or_default();
    let spread = hi.1 - lo.1;
    let verdict = Verdict::of(spread >= 0.1);
    Finding {
        claim: claim.to_owned(),
        paper: paper.to_owned(),
        this_run: format!(
            "medians from {} ({}) to {} ({})",
            f2(lo.1),
            pair_label(&lo.0.0, &lo.0.1),
            f2(hi.1),
            pair_label(&hi.0.0, &hi.0.1)
        ),
        verdict,
        sentence: format!(
            "Replicates if the pairs' median ICCs span at least 0.1; they span {}, so the finding {}.",
            f2(spread),
            verdict.as_str()
        ),
    }
}
