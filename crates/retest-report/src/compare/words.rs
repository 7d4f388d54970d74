//! Du et al.'s findings on the words' reliability: test-retest above 0.6 (Fig. 2), the Full list
//! lowest, inter-rater below 0.5 (Fig. 3), the rules' correlations and poor shares, and the
//! hyper-parameter variants (App. E).

use retest_tables::{CorrelationRow, IccRow, ShareRow};

use crate::data::{
    ConfigRow, algorithm_label, configs_of, icc_values, list_label, lists_of, rule_label, rules_of,
    sorted_names, unique_word_values,
};
use crate::finding::{Finding, Verdict};
use crate::numbers::{f2, f3, pct};
use crate::stats::{median, share_above, share_at_least};

fn rules_in(rows: &[IccRow]) -> Vec<String> {
    rules_of(rows.iter().map(|r| r.rule.as_str()))
}

/// Most per-word (or per-pair) test-retest ICCs above 0.6 for every rule (§5.2, Fig. 2).
/// Replicates when more than half of the values exceed 0.6 for each rule.
pub fn test_retest_high(rows: &[IccRow], subject: &str) -> Finding {
    let claim = format!("Most {subject} have test-retest ICC(2,1) > 0.6, whatever the rule (§5.2, Fig. 2)");
    let paper = "majority > 0.6; medians ≈ 0.85–0.97".to_owned();
    let rules = rules_in(rows);
    if rows.is_empty() || rules.is_empty() {
        return Finding::missing(
            &claim,
            &paper,
            &format!("no usable test-retest rows for {subject}"),
        );
    }
    let mut parts = Vec::new();
    let mut holds = true;
    let mut lowest = (f64::INFINITY, String::new());
    for rule in &rules {
        let of_rule = rows.iter().filter(|r| &r.rule == rule);
        let values = if subject == "words" {
            unique_word_values(of_rule)
        } else {
            icc_values(of_rule)
        };
        let share = share_above(&values, 0.6);
        holds &= share > 0.5;
        if share < lowest.0 {
            lowest = (share, rule_label(rule));
        }
        parts.push(format!(
            "{} median {}, {} > 0.6",
            rule_label(rule),
            f2(median(&values)),
            pct(share)
        ));
    }
    Finding::judged(claim, paper, parts.join("; "), holds, |verdict| {
        format!(
            "Replicates if more than half of the {subject} exceed 0.6 for every rule; the lowest share is {} ({}), so \
             the finding {verdict}.",
            pct(lowest.0),
            lowest.1,
        )
    })
}

/// Target words of the Full vocabulary are the least reliable (Fig. 2 caption: low outliers
/// "especially for target word lists with infrequent words"). Replicates when Full has the
/// lowest median of all lists in at least half of the (configuration, rule) cells.
pub fn full_list_lowest(rows: &[IccRow]) -> Finding {
    let claim =
        "Lists with infrequent words (Full) have the lowest test-retest reliability (Fig. 2)".to_owned();
    let paper = "Full: lowest, widest boxes".to_owned();
    let lists = lists_of(rows);
    if !lists.iter().any(|l| l == "full") || lists.len() < 2 {
        return Finding::missing(&claim, &paper, "the run has no Full list or no other list");
    }
    let configs = configs_of(rows.iter().map(ConfigRow::config));
    let (mut cells, mut lowest) = (0, 0);
    let mut gaps = Vec::new();
    for (corpus, algorithm) in &configs {
        for rule in rules_in(rows) {
            let med = |list: &str| {
                median(&icc_values(rows.iter().filter(|r| {
                    &r.corpus == corpus && &r.algorithm == algorithm && r.rule == rule && r.list == list
                })))
            };
            let full = med("full");
            let others: Vec<f64> = lists
                .iter()
                .filter(|l| *l != "full")
                .map(|l| med(l))
                .filter(|m| m.is_finite())
                .collect();
            if !full.is_finite() || others.is_empty() {
                continue;
            }
            let min_other = others.iter().copied().fold(f64::INFINITY, f64::min);
            cells += 1;
            if full <= min_other {
                lowest += 1;
            }
            gaps.push(min_other - full);
        }
    }
    if cells == 0 {
        return Finding::missing(&claim, &paper, "no cell has both Full and another list");
    }
    let verdict = Verdict::of(2 * lowest >= cells);
    Finding {
        claim,
        paper,
        this_run: format!(
            "Full lowest in {lowest} of {cells} cells; median gap to the next-lowest list {}",
            f2(median(&gaps))
        ),
        verdict,
        sentence: format!(
            "Replicates if the Full list has the lowest median in at least half of the (corpus, algorithm, rule) cells; it does in {lowest} of {cells}, so the finding {}.",
            verdict.as_str()
        ),
    }
}

/// Inter-rater consistency is low for most words (or pairs) (§5.3, Fig. 3). Replicates when the
/// median ICC(3,1) on the raw scale (the original study's) is below 0.5, "poor" by Koo & Li.
pub fn inter_rater_low(rows: &[IccRow], subject: &str) -> Finding {
    let claim = format!("Inter-rater consistency of {subject} across rules is low (§5.3, Fig. 3)");
    let paper = "medians ≈ 0.15–0.35".to_owned();
    let values_of = |scale: &str| {
        let of_scale = rows.iter().filter(|r| r.scale == scale);
        if subject == "words" {
            unique_word_values(of_scale)
        } else {
            icc_values(of_scale)
        }
    };
    let (raw, z) = (values_of("raw"), values_of("zscore"));
    if raw.is_empty() {
        return Finding::missing(
            &claim,
            &paper,
            &format!("no usable raw-scale inter-rater rows for {subject}"),
        );
    }
    let m = median(&raw);
    let verdict = Verdict::of(m < 0.5);
    let mut this_run = format!(
        "raw median {}, {} < 0.5",
        f2(m),
        pct(1.0 - share_at_least(&raw, 0.5))
    );
    if !z.is_empty() {
        this_run.push_str(&format!("; z-scored median {}", f2(median(&z))));
    }
    Finding {
        claim,
        paper,
        this_run,
        verdict,
        sentence: format!(
            "Replicates if the median raw-scale ICC(3,1) is below 0.5 (poor); it is {}, so the finding {}.",
            f2(m),
            verdict.as_str()
        ),
    }
}

/// The median test-retest ICC of the words of configuration (`corpus`, `algorithm`) per rule,
/// every list pooled (a word listed twice counted once), in `rules` order.
pub fn rule_medians(rows: &[IccRow], corpus: &str, algorithm: &str, rules: &[String]) -> Vec<f64> {
    rules
        .iter()
        .map(|rule| {
            median(&unique_word_values(rows.iter().filter(|r| {
                r.corpus == corpus && r.algorithm == algorithm && &r.rule == rule
            })))
        })
        .collect()
}

/// The rules ordered by a value each, highest first (ties keep `rules` order).
fn ranked(rules: &[String], values: &[f64]) -> Vec<String> {
    let mut order: Vec<usize> = (0..rules.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    order.into_iter().map(|i| rules[i].clone()).collect()
}

/// Appendix E: with other hyper-parameters "the specific values of different types of reliability
/// change, [but] the overall trends remain the same". Replicates when, on every corpus, each
/// variant ranks the rules by median test-retest ICC of words as its algorithm's configuration
/// does. `variants` are (model, algorithm) pairs.
pub fn variant_trends(rows: &[IccRow], variants: &[(String, String)]) -> Finding {
    let claim = "Other hyper-parameters change the values, not the trends (App. E, Figs. 18–24)".to_owned();
    let paper = "3 epochs, 100 dimensions: same trends as the defaults".to_owned();
    let rules = rules_in(rows);
    let corpora = sorted_names(rows.iter().map(|r| r.corpus.as_str()));
    let mut parts = Vec::new();
    let mut n_same = 0;
    for (model, algorithm) in variants {
        for corpus in &corpora {
            let base = rule_medians(rows, corpus, algorithm, &rules);
            let changed = rule_medians(rows, corpus, model, &rules);
            if base.iter().chain(&changed).any(|v| !v.is_finite()) {
                continue;
            }
            let same = ranked(&rules, &base) == ranked(&rules, &changed);
            n_same += usize::from(same);
            let order = |values: &[f64]| {
                ranked(&rules, values)
                    .iter()
                    .map(|rule| {
                        let i = rules.iter().position(|r| r == rule).expect("a ranked rule");
                        format!("{} {}", rule_label(rule), f2(values[i]))
                    })
                    .collect::<Vec<_>>()
                    .join(" > ")
            };
            parts.push(format!(
                "{corpus} {}: {} ({}); {}: {}",
                algorithm_label(algorithm),
                order(&base),
                if same { "same order" } else { "order differs" },
                model,
                order(&changed)
            ));
        }
    }
    if parts.is_empty() {
        return Finding::missing(
            &claim,
            &paper,
            "no corpus has usable test-retest rows for both a variant and its algorithm",
        );
    }
    let n = parts.len();
    Finding::judged(claim, paper, parts.join("; "), n_same == n, |verdict| {
        format!(
            "Replicates if every variant ranks the rules by median test-retest ICC of words (all lists pooled) as \
             its algorithm's configuration on the same corpus does; {n_same} of {n} comparisons keep the order, so \
             the finding {verdict}."
        )
    })
}

/// The rules agree most for DB/WA and RIPA and least for RIPA and NBM (§5.3: Pearson's r 0.923,
/// 0.897 for DB/WA and NBM, 0.836). Replicates when, over every configuration and list, the median
/// r of DB/WA–RIPA is the highest of the three and that of RIPA–NBM the lowest.
pub fn rule_correlations(rows: Option<&[CorrelationRow]>) -> Finding {
    let claim = "Rules agree most for DB/WA–RIPA and least for RIPA–NBM (§5.3, Pearson's r)".to_owned();
    let paper = "DB/WA–RIPA 0.923, DB/WA–NBM 0.897, RIPA–NBM 0.836".to_owned();
    let Some(rows) = rows else {
        return Finding::missing(&claim, &paper, "the run wrote no rule_correlations table");
    };
    let median_of = |a: &str, b: &str| {
        let values: Vec<f64> = rows
            .iter()
            .filter(|r| r.rule_a == a && r.rule_b == b && r.status == "ok")
            .map(|r| r.r)
            .collect();
        median(&values)
    };
    let (dr, dn, rn) = (
        median_of("dbwa", "ripa"),
        median_of("dbwa", "nbm"),
        median_of("ripa", "nbm"),
    );
    if !(dr.is_finite() && dn.is_finite() && rn.is_finite()) {
        return Finding::missing(
            &claim,
            &paper,
            "the run does not score all of DB/WA, RIPA and NBM",
        );
    }
    let verdict = Verdict::of(dr >= dn && dr >= rn && rn <= dn);
    Finding {
        claim,
        paper,
        this_run: format!(
            "DB/WA–RIPA {}, DB/WA–NBM {}, RIPA–NBM {} (medians)",
            f3(dr),
            f3(dn),
            f3(rn)
        ),
        verdict,
        sentence: format!(
            "Replicates if, over every configuration and list, DB/WA–RIPA has the highest median r and RIPA–NBM the lowest; the finding {}.",
            verdict.as_str()
        ),
    }
}

/// More words of the full vocabulary than of Google10K have poor test-retest reliability (§5.2:
/// 0.1 % against 0.01 % below ICC 0.5, SGNS on WikiText-103). Replicates when the share of the
/// Full list is at least Google10K's in at least half of the (corpus, algorithm, rule) cells.
pub fn poor_share_full_vs_google10k(rows: Option<&[ShareRow]>) -> Finding {
    let claim =
        "A larger share of the Full vocabulary than of Google10K has test-retest ICC < 0.5 (§5.2)".to_owned();
    let paper = "Full 0.1 %, Google10K 0.01 % (SGNS, WikiText-103)".to_owned();
    let Some(rows) = rows else {
        return Finding::missing(&claim, &paper, "the run wrote no low_reliability table");
    };
    let words: Vec<&ShareRow> = rows
        .iter()
        .filter(|r| r.analysis == "test_retest" && r.subject == "word" && r.share_below.is_finite())
        .collect();
    let (mut cells, mut larger) = (0, 0);
    let (mut full_shares, mut google_shares) = (Vec::new(), Vec::new());
    for full in words.iter().filter(|r| r.list == "full") {
        let Some(google) = words.iter().find(|r| {
            r.list == "google10k"
                && r.corpus == full.corpus
                && r.algorithm == full.algorithm
                && r.rule == full.rule
        }) else {
            continue;
        };
        cells += 1;
        larger += usize::from(full.share_below >= google.share_below);
        full_shares.push(full.share_below);
        google_shares.push(google.share_below);
    }
    if cells == 0 {
        return Finding::missing(
            &claim,
            &paper,
            "the run does not have both the Full and the Google10K lists",
        );
    }
    let verdict = Verdict::of(2 * larger >= cells);
    let percent = |v: f64| format!("{:.2} %", v * 100.0);
    Finding {
        claim,
        paper,
        this_run: format!(
            "Full {}, Google10K {} (medians over {cells} cells); Full at least as large in {larger}",
            percent(median(&full_shares)),
            percent(median(&google_shares))
        ),
        verdict,
        sentence: format!(
            "Replicates if the Full list's share below 0.5 is at least Google10K's in at least half of the (corpus, algorithm, rule) cells; it is in {larger} of {cells}, so the finding {}.",
            verdict.as_str()
        ),
    }
}

/// The labels of the lists in a sentence: `OCC16, Full`.
pub fn list_names(rows: &[IccRow]) -> String {
    lists_of(rows)
        .iter()
        .map(|l| list_label(l))
        .collect::<Vec<_>>()
        .join(", ")
}
