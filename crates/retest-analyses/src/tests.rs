//! Every design on one hand-built tensor, against ICCs, alphas and correlations computed by hand
//! from the two-way ANOVA mean squares (MSR rows, MSC columns, MSE error; n subjects, k raters):
//! ICC(2,1) = (MSR − MSE)/(MSR + (k − 1)MSE + k(MSC − MSE)/n), ICC(3,1) = (MSR − MSE)/(MSR +
//! (k − 1)MSE), α = k/(k − 1)·(1 − Σ item variances / variance of the case totals).

use retest_measures::{Rule, ScoreTensor};
use retest_reliability::Status;

use super::*;

const C: f32 = 5.0;

/// 2 rules × 3 pairs × 2 words × 2 seeds:
/// rule 0: word 0 scores (p + 1, p + 2) on pair p, word 1 scores (p + 1, p + 1);
/// rule 1: word 0 scores (2p + 2, 2p + 2), word 1 scores (C, C) on every pair.
fn tensor() -> ScoreTensor {
    let mut values = Vec::new();
    for r in 0..2 {
        for p in 0..3 {
            let p = p as f32;
            let seeds: [[f32; 2]; 2] = if r == 0 {
                [[p + 1.0, p + 2.0], [p + 1.0, p + 1.0]]
            } else {
                [[2.0 * p + 2.0; 2], [C; 2]]
            };
            values.extend(seeds.iter().flatten());
        }
    }
    ScoreTensor::from_values(&[Rule::Dbwa, Rule::Ripa], 3, 2, 2, values).unwrap()
}

fn lists() -> Vec<TargetSet> {
    vec![
        TargetSet::new("both", vec![0, 1]),
        TargetSet::new("second", vec![1]),
    ]
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

#[test]
fn seed_means_average_each_cell() {
    let t = tensor();
    let means = SeedMeans::new(&t);
    close(means.get(0, 2, 0), 3.5);
    close(means.get(1, 1, 0), 4.0);
    close(means.get(1, 0, 1), f64::from(C));
}

#[test]
fn test_retest_per_word_rates_pairs_by_seeds() {
    let t = tensor();
    let lists = lists();
    let study = Study::new(&t, &lists, &[]);
    let records = test_retest_words(&study);
    // Rule by rule, list by list: (0, both, w0), (0, both, w1), (0, second, w1), then rule 1.
    let keys: Vec<_> = records.iter().map(|r| (r.raters, r.list, r.subject)).collect();
    let seeds = |rule| Raters::Seeds { rule };
    assert_eq!(
        keys,
        [
            (seeds(0), 0, Subject::Word(0)),
            (seeds(0), 0, Subject::Word(1)),
            (seeds(0), 1, Subject::Word(1)),
            (seeds(1), 0, Subject::Word(0)),
            (seeds(1), 0, Subject::Word(1)),
            (seeds(1), 1, Subject::Word(1)),
        ]
    );
    // Rule 0, word 0: [[1,2],[2,3],[3,4]]: MSR = 2, MSC = 1.5, MSE = 0 → 2/(2 + 2·1.5/3) = 2/3.
    close(records[0].result.value, 2.0 / 3.0);
    assert_eq!((records[0].result.n_subjects, records[0].result.n_raters), (3, 2));
    // Rule 0, word 1: seeds agree exactly → 1, reported again for the second list.
    close(records[1].result.value, 1.0);
    assert_eq!(records[1].result, records[2].result);
    // Rule 1, word 1: every pair scores C → no subject variance.
    assert_eq!(records[4].result.status, Status::ZeroVariance);
    assert!(records.iter().all(|r| r.scale == Scale::Raw));
}

#[test]
fn test_retest_per_pair_rates_list_words_by_seeds() {
    let t = tensor();
    let lists = lists();
    let study = Study::new(&t, &lists, &[]);
    let records = test_retest_pairs(&study);
    assert_eq!(records.len(), 2 * 2 * 3);
    // Rule 0, list `both`, pair 0: [[1,2],[1,1]]: MSR = 0.25, MSC = 0.25, MSE = 0.25 → 0.
    assert_eq!(records[0].subject, Subject::Pair(0));
    close(records[0].result.value, 0.0);
    // Rule 0, list `second`: one word is one subject → too few subjects.
    assert_eq!((records[3].list, records[3].subject), (1, Subject::Pair(0)));
    assert_eq!(records[3].result.status, Status::TooFewSubjects);
}

#[test]
fn inter_rater_per_word_rates_pairs_by_rules_on_seed_means() {
    let t = tensor();
    let lists = lists();
    let study = Study::new(&t, &lists, &[]);
    let records = inter_rater_words(&study, &[Scale::Raw, Scale::Zscore]);
    assert_eq!(records.len(), 2 * 3);
    assert!(records.iter().all(|r| r.raters == Raters::Rules));
    // Word 0, raw: [[1.5,2],[2.5,4],[3.5,6]]: MSR = 4.5, MSE = 0.5 → (4.5 − 0.5)/(4.5 + 0.5).
    assert_eq!(
        (records[0].scale, records[0].subject),
        (Scale::Raw, Subject::Word(0))
    );
    close(records[0].result.value, 0.8);
    // z-scored, both columns become (−1, 0, 1): perfect consistency.
    assert_eq!(
        (records[3].scale, records[3].subject),
        (Scale::Zscore, Subject::Word(0))
    );
    close(records[3].result.value, 1.0);
}

#[test]
fn inter_rater_per_pair_rates_list_words_by_rules() {
    let t = tensor();
    let lists = lists();
    let study = Study::new(&t, &lists, &[]);
    let records = inter_rater_pairs(&study, &[Scale::Raw]);
    assert_eq!(records.len(), 2 * 3);
    // Pair 1, list `both`: [[2.5, 4], [2, C]] (words × rules): SSR = 0.0625, SSC = 5.0625,
    // SST = 5.6875, so MSR = 0.0625 and MSE = 0.5625 → (0.0625 − 0.5625)/(0.0625 + 0.5625).
    assert_eq!((records[1].list, records[1].subject), (0, Subject::Pair(1)));
    close(records[1].result.value, -0.8);
}

#[test]
fn internal_consistency_of_queries_and_of_the_pair_ensemble() {
    let t = tensor();
    let lists = lists();
    let queries = [TargetSet::new("query", vec![0, 1])];
    let study = Study::new(&t, &lists, &queries);
    let records = internal_consistency(&study, Some(0));
    let kinds: Vec<_> = records.iter().map(|r| (r.rule, r.items)).collect();
    assert_eq!(
        kinds,
        [
            (0, Items::QueryWords { query: 0 }),
            (0, Items::BasePairs { list: 0 }),
            (1, Items::QueryWords { query: 0 }),
            (1, Items::BasePairs { list: 0 }),
        ]
    );
    // Rule 1, query words as items, pairs as cases: [[2,C],[4,C],[6,C]]: item variances 4 and 0,
    // totals vary by 4 → α = 2·(1 − 4/4) = 0.
    close(records[2].result.value, 0.0);
    assert_eq!((records[2].result.n_cases, records[2].result.n_items), (3, 2));
    // Rule 0, pairs as items, words as cases: [[1.5,2.5,3.5],[1,2,3]]: item variances 0.125
    // each, totals 7.5 and 6 vary by 1.125 → α = 1.5·(1 − 0.375/1.125) = 1.
    close(records[1].result.value, 1.0);
    assert_eq!((records[1].result.n_cases, records[1].result.n_items), (2, 3));
    assert_eq!(internal_consistency(&study, None).len(), 2);
}

#[test]
fn rule_correlations_pool_pair_word_cells() {
    let t = tensor();
    let lists = lists();
    let study = Study::new(&t, &lists, &[]);
    let records = rule_correlations(&study);
    assert_eq!(records.len(), 2);
    let both = &records[0];
    assert_eq!((both.list, both.rule_a, both.rule_b), (0, 0, 1));
    // Cells (p, w): rule 0 = (1.5, 1, 2.5, 2, 3.5, 3), rule 1 = (2, 5, 4, 5, 6, 5):
    // Sxy = 3.25, Sxx = 4.375, Syy = 9.5.
    close(both.result.value, 3.25 / (4.375f64 * 9.5).sqrt());
    assert_eq!(both.result.n, 6);
    // List `second`: rule 1 scores C everywhere.
    assert_eq!(records[1].result.status, Status::ZeroVariance);
}

#[test]
fn low_reliability_counts_rated_icc_below_the_threshold() {
    let t = tensor();
    let lists = lists();
    let study = Study::new(&t, &lists, &[]);
    let shares = low_reliability(&test_retest_words(&study), 0.7);
    assert_eq!(shares.len(), 4);
    // Rule 0, list `both`: 2/3 and 1.
    let s = &shares[0];
    assert_eq!((s.raters, s.list, s.words), (Raters::Seeds { rule: 0 }, 0, true));
    assert_eq!((s.n_rated, s.n_below, s.n_undefined), (2, 1, 0));
    close(s.share_below, 0.5);
    // Rule 1, list `second`: only the degenerate word → nothing rated.
    let s = &shares[3];
    assert_eq!(
        (s.raters, s.list, s.n_rated, s.n_undefined),
        (Raters::Seeds { rule: 1 }, 1, 0, 1)
    );
    assert!(s.share_below.is_nan());
}

#[test]
fn scale_and_items_names_are_stable() {
    assert_eq!([Scale::Raw, Scale::Zscore].map(Scale::as_str), ["raw", "zscore"]);
    let items = [Items::QueryWords { query: 3 }, Items::BasePairs { list: 1 }];
    assert_eq!(items.map(Items::as_str), ["query_words", "base_pairs"]);
}

/// A 5 × 2 matrix with pingouin's ICC(2,1) and ICC(3,1): entry `reliability[5]` of
/// `reliability_vectors.json` (pingouin 0.7.0), copied here.
const REFERENCE_MATRIX: [[f64; 2]; 5] = [
    [0.61137909545, 0.347846654508],
    [-0.070079689787, -0.210079922255],
    [0.150110667386, 0.071197154877],
    [0.16417458387, -0.006190983439],
    [0.143935138085, 0.027810760169],
];
const REFERENCE_ICC2: f64 = 0.7796149004362484;
const REFERENCE_ICC3: f64 = 0.9522955778790451;

/// The reference matrix laid on the tensor four ways: its rows as base pairs or as words, its
/// columns as seeds (test-retest, ICC(2,1)) or as rules (inter-rater, ICC(3,1)). The tensor holds
/// f32, which moves the ICCs by about 1e-8 from pingouin's (computed in f64).
#[test]
fn every_icc_design_equals_pingouin_on_the_reference_matrix() {
    let close_f32 = |a: f64, b: f64| assert!((a - b).abs() < 1e-7, "{a} vs {b}");
    let rows: Vec<f32> = REFERENCE_MATRIX.iter().flatten().map(|&v| v as f32).collect();
    let columns: Vec<f32> = (0..2)
        .flat_map(|c| REFERENCE_MATRIX.iter().map(move |row| row[c] as f32))
        .collect();
    let one_word = [TargetSet::new("one", vec![0])];
    let five_words = [TargetSet::new("five", (0..5).collect())];

    // Rows = base pairs, columns = seeds: [rule][pair][target][seed].
    let t = ScoreTensor::from_values(&[Rule::Dbwa], 5, 1, 2, rows.clone()).unwrap();
    let r = test_retest_words(&Study::new(&t, &one_word, &[]));
    close_f32(r[0].result.value, REFERENCE_ICC2);
    // Rows = words, columns = seeds.
    let t = ScoreTensor::from_values(&[Rule::Dbwa], 1, 5, 2, rows).unwrap();
    let r = test_retest_pairs(&Study::new(&t, &five_words, &[]));
    close_f32(r[0].result.value, REFERENCE_ICC2);
    // Rows = base pairs, columns = rules, one seed.
    let rules = [Rule::Dbwa, Rule::Ripa];
    let t = ScoreTensor::from_values(&rules, 5, 1, 1, columns.clone()).unwrap();
    let r = inter_rater_words(&Study::new(&t, &one_word, &[]), &[Scale::Raw]);
    close_f32(r[0].result.value, REFERENCE_ICC3);
    // Rows = words, columns = rules.
    let t = ScoreTensor::from_values(&rules, 1, 5, 1, columns).unwrap();
    let r = inter_rater_pairs(&Study::new(&t, &five_words, &[]), &[Scale::Raw]);
    close_f32(r[0].result.value, REFERENCE_ICC3);
}
