//! The one-seed base-pair designs on hand-built scores, against hand-computed values.

use retest_reliability::Status;

use super::*;

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

/// Two rules × three pairs × six targets, `[rule][pair][target]`. Pairs 0 and 1 are listed,
/// pair 2 is pair 0's capitalised form and, with pair 1, the flip pairs.
const VALUES: [f32; 36] = [
    // rule 0
    1.0, -1.0, 2.0, -2.0, 0.5, -0.5, // pair 0
    1.0, -1.0, -1.0, -2.0, 3.0, 0.0, // pair 1
    -1.0, -1.0, 2.0, -2.0, 1.0, 1.0, // pair 2
    // rule 1
    2.0, -2.0, 1.0, 1.0, -1.0, -1.0, // pair 0
    1.0, -1.0, 2.0, 2.0, 0.0, 0.0, // pair 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // pair 2
];

fn scores() -> SeedScores<'static> {
    SeedScores::new(&VALUES, 2, 3, 6)
}

/// Words 0–3; limited vocabulary 0 and 4; words 0 and 1 have a plural (4 and 5) and a form
/// that is not applicable; one truth list: 0 masculine, 5 feminine.
fn design() -> BasePairDesign {
    BasePairDesign {
        n_pairs: 2,
        capitalised: vec![Some(2), None],
        flip: Some((1, 2)),
        limited: vec![0, 4],
        words: vec![0, 1, 2, 3],
        form_words: vec![0, 1],
        forms: vec![Some(vec![4, 5]), None],
        truth: vec![TruthSet {
            targets: vec![0, 5],
            masculine: vec![true, false],
        }],
    }
}

#[test]
fn seed_scores_index_rule_pair_target() {
    let s = scores();
    assert_eq!(s.n_rules(), 2);
    assert_eq!(s.row(1, 1), &[1.0, -1.0, 2.0, 2.0, 0.0, 0.0]);
    assert_eq!(s.at(0, 2, &[5, 0, 2]), vec![1.0, -1.0, 2.0]);
    assert_eq!(listed_scores(&s, &design(), 0, &[0, 4]), vec![1.0, 0.5, 1.0, 3.0]);
}

#[test]
#[should_panic(expected = "scores are rules × pairs × targets")]
fn seed_scores_panic_on_a_wrong_length() {
    SeedScores::new(&VALUES[..35], 2, 3, 6);
}

/// Rule 0. Table 1 pools the limited words under the listed pairs: 1, 0.5 (pair 0), 1, 3
/// (pair 1): mean 5.5/4 = 1.375, squared deviations 0.140625 + 0.765625 + 0.140625 + 2.640625
/// = 3.6875, SD √(3.6875/4) ≈ 0.96. Table 2 on words 0–3 under pairs 0 and 1: (1, 1) m m,
/// (−1, −1) f f, (2, −1) m f, (−2, −2) f f. Only word 2's difference (3) is at least one SD:
/// changed 1/4; same label 3/4. Fleiss' κ: P = 1, 1, 0, 1, P̄ = 3/4; masculine share 3/8,
/// P̄_e = 9/64 + 25/64 = 17/32; κ = (24/32 − 17/32)/(15/32) = 7/15.
#[test]
fn rule_summary_pools_the_limited_words_and_rates_the_listed_pairs() {
    let s = rule_summary(&scores(), &design(), 0);
    assert_eq!(s.spread.n, 4);
    close(s.spread.mean, 1.375);
    close(s.spread.sd, (3.6875f64 / 4.0).sqrt());
    assert_eq!((s.agreement.n_words, s.agreement.n_pairs), (4, 2));
    close(s.agreement.magnitude_changed, 0.25);
    close(s.agreement.same_label, 0.75);
    close(s.agreement.kappa.value, 7.0 / 15.0);
}

/// Rule 0, in order per listed pair: capitalised, each form, each truth list.
///
/// * Pair 0 against pair 2 on words 0–3: (m f m f) and (f f m f) agree on D = 3 of 4;
///   S = 2·1 + 2·3 = 8; κ = (12 − 8)/(16 − 8) = 1/2. Pair 1 has no capitalised form.
/// * Plural: words 0, 1 under pair 0 (1, −1: m f) against 4, 5 (0.5, −0.5: m f): κ = 1; under
///   pair 1 (m f) against (3, 0: m m): D = 1, S = 1·2 + 1·0 = 2, κ = (2 − 2)/(4 − 2) = 0.
/// * Truth (0 m, 5 f): pair 0 gives (1, −0.5: m f), κ = 1; pair 1 (1, 0: m m), κ = 0.
#[test]
fn word_kappas_compare_capitalised_pairs_forms_and_truth() {
    let records = word_kappas(&scores(), &design(), 0);
    let expected = [
        (0, Against::Capitalised, Some(0.5)),
        (0, Against::Form(0), Some(1.0)),
        (0, Against::Form(1), None),
        (0, Against::Truth(0), Some(1.0)),
        (1, Against::Capitalised, None),
        (1, Against::Form(0), Some(0.0)),
        (1, Against::Form(1), None),
        (1, Against::Truth(0), Some(0.0)),
    ];
    assert_eq!(records.len(), expected.len());
    for (record, (pair, against, kappa)) in records.iter().zip(expected) {
        assert_eq!((record.rule, record.pair, record.against), (0, pair, against));
        match kappa {
            Some(k) => close(record.result.expect("a κ").value, k),
            None => assert!(record.result.is_none(), "{against:?}"),
        }
    }
    assert_eq!(records[0].result.unwrap().n_subjects, 4);
    assert_eq!(records[1].result.unwrap().n_subjects, 2);
}

/// Rules 0 and 1 on words 0–3. Pair 0: (m f m f) and (m f m m), D = 3, S = 2·3 + 2·1 = 8,
/// κ = 1/2. Pair 1: (m f f f) and (m f m m), D = 2, S = 1·3 + 3·1 = 6, κ = (8 − 6)/(16 − 6)
/// = 1/5.
#[test]
fn rule_kappas_compare_every_two_rules_per_listed_pair() {
    let records = rule_kappas(&scores(), &design());
    assert_eq!(records.len(), 2);
    for (record, (pair, kappa)) in records.iter().zip([(0, 0.5), (1, 0.2)]) {
        assert_eq!(
            (record.rule, record.pair, record.against),
            (0, pair, Against::Rule(1))
        );
        close(record.result.unwrap().value, kappa);
    }
}

/// Rule 0 on words 0–3: pair 1 (m f f f) against pair 2 (f f m f) flips words 0 and 2.
#[test]
fn flips_compare_the_flip_pairs_on_the_words() {
    assert_eq!(flips(&scores(), &design(), 0), Some((2, 0.5)));
    let none = BasePairDesign {
        flip: None,
        ..design()
    };
    assert_eq!(flips(&scores(), &none, 0), None);
}

/// One rule, four listed pairs, four words: labels (m f m f), (m f m m), (f m f m), (m f f f).
const DIRECTION_VALUES: [f32; 16] = [
    1.0, -1.0, 1.0, -1.0, //
    1.0, -1.0, 1.0, 1.0, //
    -1.0, 1.0, -1.0, 1.0, //
    1.0, -1.0, -1.0, -1.0,
];

/// The cosines of the four pairs' difference vectors.
const COSINES: [f64; 16] = [
    1.0, 0.4, -0.6, 0.2, //
    0.4, 1.0, -0.3, 0.1, //
    -0.6, -0.3, 1.0, 0.0, //
    0.2, 0.1, 0.0, 1.0,
];

fn direction_design() -> BasePairDesign {
    BasePairDesign {
        n_pairs: 4,
        capitalised: vec![None; 4],
        flip: None,
        limited: vec![],
        words: vec![0, 1, 2, 3],
        form_words: vec![],
        forms: vec![],
        truth: vec![],
    }
}

/// κ by hand (n = 4, κ = (4D − S)/(16 − S)): (0, 1) D = 3, S = 8: 1/2; (0, 2) D = 0, S = 8:
/// −1; (0, 3) D = 3, S = 8: 1/2; (1, 2) D = 1, S = 8: −1/2; (1, 3) D = 2, S = 6: 1/5;
/// (2, 3) D = 1, S = 8: −1/2.
///
/// Pair 0, text: cosines (0.4, −0.6, 0.2) against κ (0.5, −1, 0.5), both of mean 0: r =
/// 0.9/√(0.56 · 1.5). Code, with (1, 1) for the pair itself: means 0.25 and 0.25, deviations
/// (0.75, 0.15, −0.85, −0.05) and (0.75, 0.25, −1.25, 0.25): r = 1.65/√(1.31 · 2.25).
#[test]
fn direction_agreement_correlates_cosines_with_the_pairs_kappas() {
    let scores = SeedScores::new(&DIRECTION_VALUES, 1, 4, 4);
    let a = direction_agreement(&scores, &direction_design(), 0, &COSINES);
    let expected = [
        (0, 1, 0.5),
        (0, 2, -1.0),
        (0, 3, 0.5),
        (1, 2, -0.5),
        (1, 3, 0.2),
        (2, 3, -0.5),
    ];
    assert_eq!(a.kappas.len(), expected.len());
    for (record, (p, q, k)) in a.kappas.iter().zip(expected) {
        assert_eq!(
            (record.rule, record.pair, record.against),
            (0, p, Against::Pair(q))
        );
        close(record.result.unwrap().value, k);
    }
    assert_eq!(a.correlations.len(), 4);
    let first = a.correlations[0];
    assert_eq!(first.pair, 0);
    assert_eq!((first.text.n, first.code.n), (3, 4));
    close(first.text.value, 0.9 / (0.56f64 * 1.5).sqrt());
    close(first.code.value, 1.65 / (1.31f64 * 2.25).sqrt());
}

/// Two listed pairs: one κ, and each pair's correlations have too few points.
#[test]
fn direction_agreement_of_two_pairs_has_no_correlation() {
    let design = BasePairDesign {
        n_pairs: 2,
        ..direction_design()
    };
    let scores = SeedScores::new(&DIRECTION_VALUES[..8], 1, 2, 4);
    let a = direction_agreement(&scores, &design, 0, &[1.0, 0.4, 0.4, 1.0]);
    assert_eq!(a.kappas.len(), 1);
    close(a.kappas[0].result.unwrap().value, 0.5);
    for c in &a.correlations {
        assert_eq!(c.text.status, Status::TooFewSubjects);
        assert_eq!(c.code.status, Status::TooFewSubjects);
    }
}

/// The cosines above the diagonal: 0.4, −0.6, 0.2, −0.3, 0.1, 0: mean −0.2/6 = −1/30; Σx² =
/// 0.66, so the population variance is 0.11 − 1/900 = 98/900 and the SD 7√2/30.
#[test]
fn pair_cosine_baseline_takes_every_two_pairs_once() {
    let b = pair_cosine_baseline(&COSINES, 4);
    assert_eq!(b.n, 6);
    close(b.mean, -1.0 / 30.0);
    close(b.sd, 7.0 * 2f64.sqrt() / 30.0);
}

#[test]
#[should_panic(expected = "cosines are pairs × pairs")]
fn pair_cosine_baseline_panics_on_a_wrong_length() {
    pair_cosine_baseline(&COSINES[..9], 4);
}
