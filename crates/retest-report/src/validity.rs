//! Criterion validity (a plan's `validity` section): how well each rule's scores of the
//! criterion's words track the criterion (Garg et al.'s census share of women, their stereotype
//! ratings, or one's own values), across seeds, beside the test-retest reliability of the same
//! scores — is the more reliable rule the more valid one?

use retest_tables::ValidityReliabilityRow;

use crate::data::{ConfigRow, algorithm_label, configs_of, rule_label, sorted_names};
use crate::document::Block;
use crate::finding::Finding;
use crate::numbers::f2;
use crate::page::{config_label, row_cells};
use crate::stats::median;

/// The reference the finding reads.
const HE_SHE: &str = "he:she";

/// The section, when the run has the validity tables.
pub(crate) fn blocks(rows: Option<&[ValidityReliabilityRow]>, blocks: &mut Vec<Block>) {
    let Some(rows) = rows else {
        return;
    };
    blocks.push(Block::Heading(2, "Criterion validity (Garg et al. 2018)".into()));
    blocks.push(Block::Paragraph(
        "Each rule's scores of the criterion's words along each base pair, correlated with the criterion \
         on every seed (Pearson's r; scores are positive when masculine, so a valid rule correlates \
         negatively with the share of women). Per configuration and rule: r along he:she across seeds \
         (mean and 2.5 %–97.5 % quantiles), the median over every base pair of the mean r, and the \
         median test-retest ICC(2,1) of the same scores."
            .into(),
    ));
    let header = row_cells(&[
        "configuration",
        "rule",
        "criterion",
        "r along he:she",
        "median r over pairs",
        "median ICC of the scores",
    ]);
    let mut table = Vec::new();
    for (corpus, algorithm) in configs_of(rows.iter().map(ConfigRow::config)) {
        let config: Vec<&ValidityReliabilityRow> = (rows.iter())
            .filter(|r| r.corpus == corpus && r.algorithm == algorithm)
            .collect();
        for rule in sorted_names(config.iter().map(|r| r.rule.as_str())) {
            let of_rule: Vec<&&ValidityReliabilityRow> = config.iter().filter(|r| r.rule == rule).collect();
            let he_she = of_rule.iter().find(|r| r.reference == HE_SHE);
            let values = |f: fn(&ValidityReliabilityRow) -> f64| -> Vec<f64> {
                of_rule.iter().map(|r| f(r)).filter(|v| v.is_finite()).collect()
            };
            table.push(vec![
                config_label(&corpus, &algorithm),
                rule_label(&rule),
                of_rule[0].criterion.clone(),
                he_she.map_or_else(
                    || "—".to_owned(),
                    |r| format!("{} [{}, {}]", f2(r.mean_r), f2(r.low_r), f2(r.high_r)),
                ),
                f2(median(&values(|r| r.mean_r))),
                f2(median(&values(|r| r.stats.icc))),
            ]);
        }
    }
    blocks.push(Block::Table { header, rows: table });
}

/// Garg et al. (2018): occupations' embedding bias tracks the census share of women. Replicates
/// when, for every configuration but the debiased copies (`debiased`: (copy, model) pairs, whose
/// occupations debiasing neutralised), DB/WA's scores along he:she correlate negatively with the
/// criterion on 97.5 % of the seeds (the quantile `high_r` below 0).
pub(crate) fn bias_tracks_criterion(
    rows: Option<&[ValidityReliabilityRow]>,
    debiased: &[(String, String)],
) -> Finding {
    let claim = "Occupations' embedding bias tracks the census share of women (Garg et al. 2018)".to_owned();
    let paper = "bias grows with the share of women (their Fig. 1)".to_owned();
    let rows = rows.unwrap_or_default();
    let he_she: Vec<&ValidityReliabilityRow> = (rows.iter())
        .filter(|r| r.rule == "dbwa" && r.reference == HE_SHE && r.n_seeds > 0)
        .filter(|r| !debiased.iter().any(|(copy, _)| *copy == r.algorithm))
        .collect();
    if he_she.is_empty() {
        return Finding::missing(&claim, &paper, "the run has no DB/WA validity along he:she");
    }
    let holds = he_she.iter().all(|r| r.high_r < 0.0);
    let parts: Vec<String> = (he_she.iter())
        .map(|r| {
            format!(
                "{} {} ({}): r = {} [{}, {}]",
                r.corpus,
                algorithm_label(&r.algorithm),
                r.criterion,
                f2(r.mean_r),
                f2(r.low_r),
                f2(r.high_r)
            )
        })
        .collect();
    Finding::judged(claim, paper, parts.join("; "), holds, |verdict| {
        format!(
            "Criterion: DB/WA's scores along he:she correlate negatively with the criterion (scores are \
             positive when masculine) on 97.5 % of the seeds of every configuration; {verdict}."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Verdict;

    fn row(
        algorithm: &str,
        rule: &str,
        reference: &str,
        mean_r: f64,
        high_r: f64,
        icc: f64,
    ) -> ValidityReliabilityRow {
        ValidityReliabilityRow {
            corpus: "c".into(),
            algorithm: algorithm.into(),
            rule: rule.into(),
            reference: reference.into(),
            criterion: "census-1900".into(),
            n_seeds: 3,
            n_undefined: 0,
            mean_r,
            sd_r: 0.01,
            low_r: mean_r - 0.1,
            high_r,
            stats: crate::tests::stats(icc, "ok"),
        }
    }

    #[test]
    fn each_rule_has_its_he_she_r_and_medians_over_pairs() {
        let rows = [
            row("sgns", "dbwa", "he:she", -0.4, -0.3, 0.9),
            row("sgns", "dbwa", "man:woman", -0.2, -0.1, 0.7),
            row("sgns", "dbwa", "son:daughter", -0.1, 0.0, 0.8),
            row("sgns", "ripa", "man:woman", -0.3, -0.2, 0.6),
        ];
        let mut out = Vec::new();
        blocks(Some(&rows), &mut out);
        let Some(Block::Table { rows: table, .. }) = out.last() else {
            panic!("a table last")
        };
        assert_eq!(
            table,
            &[
                vec![
                    "c · SGNS",
                    "DB/WA",
                    "census-1900",
                    "-0.40 [-0.50, -0.30]",
                    "-0.20",
                    "0.80"
                ],
                vec!["c · SGNS", "RIPA", "census-1900", "—", "-0.30", "0.60"],
            ]
        );
        let f = bias_tracks_criterion(Some(&rows), &[]);
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(f.this_run, "c SGNS (census-1900): r = -0.40 [-0.50, -0.30]");
        // A debiased copy, whose occupations no longer track the criterion, is not judged.
        let mut with_copy = rows.to_vec();
        with_copy.push(row("sgns+hard", "dbwa", "he:she", 0.01, 0.2, 0.0));
        let copies = [("sgns+hard".to_owned(), "sgns".to_owned())];
        let verdict = |copies: &[(String, String)]| bias_tracks_criterion(Some(&with_copy), copies).verdict;
        assert_eq!(verdict(&copies), Verdict::Replicates);
        assert_eq!(verdict(&[]), Verdict::DoesNotReplicate);
        assert_eq!(bias_tracks_criterion(None, &[]).verdict, Verdict::NotAvailable);
    }
}
