//! The paper's findings, each checked against this run's rows: what Du, Fang & Nguyen (2021)
//! report, what this run gives, and whether the finding replicates by a stated criterion.

use retest_tables::{AlphaRow, CorrelationRow, IccRow, RegressionRow, ShareRow, Subject};

use crate::data::{
    ITEMS_BASE_PAIRS, ITEMS_QUERY_WORDS, algorithm_label, alpha_value, configs_of, icc_values, list_label,
    lists_of, pair_label, pairs_of, rule_label, rules_of, singular_plural_pairs, sorted_names,
    unique_word_values,
};
use crate::finding::{Finding, Verdict};
use crate::numbers::{f2, f3, p_text, pct};
use crate::regression::{self, PAPER_ESTIMATES, term_label};
use crate::stats::{median, paired_t, pearson, share_above, share_at_least};

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
    let verdict = Verdict::of(holds);
    let sentence = format!(
        "Replicates if more than half of the {subject} exceed 0.6 for every rule; the lowest share is {} ({}), so the finding {}.",
        pct(lowest.0),
        lowest.1,
        verdict.as_str()
    );
    Finding {
        claim,
        paper,
        this_run: parts.join("; "),
        verdict,
        sentence,
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
    let verdict = Verdict::of(n_same == parts.len());
    let sentence = format!(
        "Replicates if every variant ranks the rules by median test-retest ICC of words (all lists pooled) as \
         its algorithm's configuration on the same corpus does; {n_same} of {} comparisons keep the order, so \
         the finding {}.",
        parts.len(),
        verdict.as_str()
    );
    Finding {
        claim,
        paper,
        this_run: parts.join("; "),
        verdict,
        sentence,
    }
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
    let configs = configs_of(rows.iter().map(|r| (r.corpus.as_str(), r.algorithm.as_str())));
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

/// Table 2: the direction of the word-level effects (ES +, L2 norm −, log freq + for
/// test-retest; log freq + and ES + for inter-rater), from the least-squares stand-in of
/// [`regression::fit`]. Replicates when the sign agrees and p < .05.
pub fn regression_directions(rows: Option<&[RegressionRow]>) -> Vec<Finding> {
    let checks: [(&str, &str); 5] = [
        ("test_retest", "es"),
        ("test_retest", "l2_norm"),
        ("test_retest", "log_freq"),
        ("inter_rater", "log_freq"),
        ("inter_rater", "es"),
    ];
    let fits = rows.map(|rows| {
        (
            regression::fit(rows, "test_retest"),
            regression::fit(rows, "inter_rater"),
        )
    });
    checks
        .iter()
        .map(|(analysis, term)| {
            let (tr, paper_tr, paper_ir) =
                PAPER_ESTIMATES.iter().find(|(t, _, _)| t == term).copied().unwrap_or(("", f64::NAN, f64::NAN));
            let paper_value = if *analysis == "test_retest" { paper_tr } else { paper_ir };
            let what = if *analysis == "test_retest" { "test-retest reliability" } else { "inter-rater consistency" };
            let direction = if paper_value > 0.0 { "higher" } else { "lower" };
            let claim = format!("Higher {} goes with {direction} {what} (Table 2)", term_label(tr));
            let paper = format!("β = {paper_value:+.4}");
            let Some((fit_tr, fit_ir)) = &fits else {
                return Finding::missing(&claim, &paper, "regression input not available");
            };
            let fit = if *analysis == "test_retest" { fit_tr } else { fit_ir };
            let Some(fit) = fit else {
                return Finding::missing(&claim, &paper, "too few complete rows in the regression input");
            };
            let Some(e) = fit.estimates.iter().find(|e| e.term == *term) else {
                return Finding::missing(&claim, &paper, &format!("{} left out of the fit", term_label(term)));
            };
            let verdict = Verdict::of(e.estimate.signum() == paper_value.signum() && e.p_value < 0.05);
            Finding {
                claim,
                paper,
                this_run: format!("β = {:+.4} (SE {:.4}, {}, n = {})", e.estimate, e.std_error, p_text(e.p_value), fit.n_obs),
                verdict,
                sentence: format!(
                    "Replicates if the least-squares estimate (standardised predictors, one intercept per configuration) has the paper's sign with p < .05; it is {:+.4}, so the finding {}.",
                    e.estimate,
                    verdict.as_str()
                ),
            }
        })
        .collect()
}

/// The labels of the lists in a sentence: `OCC16, Full`.
pub fn list_names(rows: &[IccRow]) -> String {
    lists_of(rows)
        .iter()
        .map(|l| list_label(l))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use retest_tables::IccStats;

    fn icc(rule: &str, scale: &str, list: &str, subject: Subject, value: f64) -> IccRow {
        IccRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            rule: rule.into(),
            scale: scale.into(),
            list: list.into(),
            subject,
            stats: IccStats {
                icc: value,
                f_stat: 1.0,
                df1: 1.0,
                df2: 1.0,
                p_value: 0.5,
                ci_low: 0.0,
                ci_high: 1.0,
                n_subjects: 23,
                n_raters: 32,
                n_dropped: 0,
                status: if value.is_finite() {
                    "ok".into()
                } else {
                    "zero_variance".into()
                },
            },
        }
    }

    #[test]
    fn variant_trends_compare_rule_order_with_the_algorithm() {
        // sgns: DB/WA 0.9 > RIPA 0.8 > NBM 0.3; the variant keeps the order at lower values.
        let mut rows = Vec::new();
        for (model, values) in [("sgns", [0.9, 0.8, 0.3]), ("sgns-3-epochs", [0.7, 0.6, 0.2])] {
            for (rule, v) in ["dbwa", "ripa", "nbm"].into_iter().zip(values) {
                let mut row = icc(rule, "raw", "occ16", Subject::Word("nurse".into()), v);
                row.algorithm = model.into();
                rows.push(row);
            }
        }
        let variants = [("sgns-3-epochs".to_owned(), "sgns".to_owned())];
        let f = variant_trends(&rows, &variants);
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(
            f.this_run,
            "c SGNS: DB/WA 0.90 > RIPA 0.80 > NBM 0.30 (same order); sgns-3-epochs: DB/WA 0.70 > RIPA 0.60 > NBM 0.20"
        );
        // NBM above RIPA in the variant: the order differs.
        rows[4].stats.icc = 0.1;
        let f = variant_trends(&rows, &variants);
        assert_eq!(f.verdict, Verdict::DoesNotReplicate);
        assert!(
            f.sentence.contains("0 of 1 comparisons keep the order"),
            "{}",
            f.sentence
        );
        // A variant without rows cannot be compared.
        let f = variant_trends(&rows[..3], &variants);
        assert_eq!(f.verdict, Verdict::NotAvailable);
    }

    fn words(rule: &str, values: &[f64]) -> Vec<IccRow> {
        values
            .iter()
            .enumerate()
            .map(|(i, v)| icc(rule, "raw", "full", Subject::Word(format!("w{i}")), *v))
            .collect()
    }

    #[test]
    fn test_retest_replicates_only_when_every_rule_is_mostly_above_06() {
        let mut rows = words("dbwa", &[0.9, 0.8, 0.7, 0.3]);
        rows.extend(words("ripa", &[0.9, 0.95, 0.65, f64::NAN]));
        let f = test_retest_high(&rows, "words");
        assert_eq!(f.verdict, Verdict::Replicates, "{f:?}");
        assert!(
            f.this_run.contains("DB/WA median 0.75, 75% > 0.6"),
            "{}",
            f.this_run
        );
        rows.extend(words("nbm", &[0.9, 0.5, 0.4, 0.3]));
        let f = test_retest_high(&rows, "words");
        assert_eq!(f.verdict, Verdict::DoesNotReplicate);
        assert!(f.sentence.contains("25% (NBM)"), "{}", f.sentence);
        assert_eq!(test_retest_high(&[], "words").verdict, Verdict::NotAvailable);
    }

    #[test]
    fn inter_rater_low_uses_the_raw_scale() {
        let mut rows = words("dbwa+ripa+nbm", &[0.1, 0.2, 0.3]);
        rows.extend([0.9, 0.95, 0.99].iter().enumerate().map(|(i, v)| {
            icc(
                "dbwa+ripa+nbm",
                "zscore",
                "full",
                Subject::Word(format!("w{i}")),
                *v,
            )
        }));
        let f = inter_rater_low(&rows, "words");
        assert_eq!(f.verdict, Verdict::Replicates);
        assert!(f.this_run.contains("z-scored median 0.95"), "{}", f.this_run);
        let f = inter_rater_low(&words("dbwa+ripa+nbm", &[0.6, 0.7, 0.8]), "words");
        assert_eq!(f.verdict, Verdict::DoesNotReplicate);
    }

    fn pair(m: &str, f: &str, value: f64) -> IccRow {
        icc(
            "dbwa",
            "raw",
            "full",
            Subject::Pair {
                male: m.into(),
                female: f.into(),
            },
            value,
        )
    }

    #[test]
    fn singular_pairs_more_reliable() {
        let rows = vec![
            pair("boy", "girl", 0.95),
            pair("boys", "girls", 0.80),
            pair("man", "woman", 0.93),
            pair("men", "women", 0.85),
            pair("male", "female", 0.90),
            pair("males", "females", 0.81),
        ];
        let f = singular_vs_plural(&rows, true);
        assert_eq!(f.verdict, Verdict::Replicates, "{f:?}");
        let reversed: Vec<IccRow> = rows
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.stats.icc = 1.8 - r.stats.icc;
                r
            })
            .collect();
        assert_eq!(
            singular_vs_plural(&reversed, true).verdict,
            Verdict::DoesNotReplicate
        );
        // No difference is what the paper found for inter-rater consistency: reversed is a
        // clear difference, so it does not replicate there either.
        assert_eq!(
            singular_vs_plural(&reversed, false).verdict,
            Verdict::DoesNotReplicate
        );
        let f = pair_variation(&rows);
        assert_eq!(f.verdict, Verdict::Replicates);
        assert!(f.this_run.contains("boys–girls"), "{}", f.this_run);
    }

    fn alpha(query: &str, items: &str, value: f64) -> AlphaRow {
        AlphaRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            rule: "dbwa".into(),
            query: query.into(),
            items: items.into(),
            alpha: value,
            ci_low: 0.0,
            ci_high: 1.0,
            n_items: 8,
            n_cases: 23,
            n_dropped: 0,
            status: "ok".into(),
        }
    }

    #[test]
    fn alpha_findings() {
        let rows = vec![
            alpha("career", ITEMS_QUERY_WORDS, 0.9),
            alpha("family", ITEMS_QUERY_WORDS, 0.8),
            alpha("math", ITEMS_QUERY_WORDS, 0.2),
            alpha("google10k", ITEMS_BASE_PAIRS, 0.95),
        ];
        assert_eq!(alpha_queries(&rows).verdict, Verdict::Replicates);
        assert_eq!(alpha_queries(&rows[2..]).verdict, Verdict::DoesNotReplicate);
        assert_eq!(alpha_base_pairs(&rows).verdict, Verdict::Replicates);
        assert_eq!(alpha_base_pairs(&rows[..3]).verdict, Verdict::NotAvailable);
    }

    fn correlation(a: &str, b: &str, r: f64) -> CorrelationRow {
        CorrelationRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            list: "occ16".into(),
            rule_a: a.into(),
            rule_b: b.into(),
            r,
            p_value: 0.0,
            n_cells: 100,
            status: "ok".into(),
        }
    }

    #[test]
    fn rule_correlations_need_the_papers_order() {
        let rows = [
            correlation("dbwa", "ripa", 0.92),
            correlation("dbwa", "nbm", 0.90),
            correlation("ripa", "nbm", 0.84),
        ];
        let f = rule_correlations(Some(&rows));
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(
            f.this_run,
            "DB/WA–RIPA 0.920, DB/WA–NBM 0.900, RIPA–NBM 0.840 (medians)"
        );
        let swapped = [rows[0].clone(), correlation("dbwa", "nbm", 0.80), rows[2].clone()];
        assert_eq!(
            rule_correlations(Some(&swapped)).verdict,
            Verdict::DoesNotReplicate
        );
        assert_eq!(rule_correlations(Some(&rows[..2])).verdict, Verdict::NotAvailable);
        assert_eq!(rule_correlations(None).verdict, Verdict::NotAvailable);
    }

    fn share(list: &str, rule: &str, share_below: f64) -> ShareRow {
        ShareRow {
            corpus: "c".into(),
            algorithm: "sgns".into(),
            analysis: "test_retest".into(),
            rule: rule.into(),
            scale: "raw".into(),
            list: list.into(),
            subject: "word".into(),
            threshold: 0.5,
            n_rated: 1000,
            n_below: (share_below * 1000.0) as u32,
            share_below,
            n_undefined: 0,
        }
    }

    #[test]
    fn poor_share_compares_full_with_google10k_per_rule() {
        let rows = [
            share("google10k", "dbwa", 0.0001),
            share("full", "dbwa", 0.001),
            share("google10k", "nbm", 0.2001),
            share("full", "nbm", 0.1),
        ];
        let f = poor_share_full_vs_google10k(Some(&rows));
        assert_eq!(f.verdict, Verdict::Replicates);
        assert_eq!(
            f.this_run,
            "Full 5.05 %, Google10K 10.01 % (medians over 2 cells); Full at least as large in 1"
        );
        assert_eq!(
            poor_share_full_vs_google10k(Some(&rows[2..])).verdict,
            Verdict::DoesNotReplicate
        );
        assert_eq!(
            poor_share_full_vs_google10k(Some(&rows[..1])).verdict,
            Verdict::NotAvailable
        );
    }

    #[test]
    fn regression_absent() {
        let f = regression_directions(None);
        assert_eq!(f.len(), 5);
        assert!(f.iter().all(|f| f.verdict == Verdict::NotAvailable));
        assert!(f[0].sentence.contains("regression input not available"));
        assert!(
            f[0].claim.starts_with("Higher ES goes with higher test-retest"),
            "{}",
            f[0].claim
        );
    }
}
