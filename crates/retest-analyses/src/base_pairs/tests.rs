//! Unit tests of the base-pair designs on small hand-built inputs.

use retest_reliability::Status;

use super::*;

#[test]
fn a_score_of_zero_is_masculine() {
    assert_eq!([0.5, 0.0, -0.0, -1e-30].map(masculine), [1, 1, 1, 0]);
}

/// Two words under three pairs, SD 1: word 0 has scores 0.5, 2.0, −0.2 (comparisons
/// differing by 1.5, 0.7, 2.2: two of three ≥ 1; labels m, m, f); word 1 has −1, −1.5, −1.2
/// (none ≥ 1; one label). Fleiss' κ by hand: P_0 = (2² + 1² − 3)/6 = 1/3, P_1 = 1, P̄ = 2/3;
/// masculine share 2/6, P̄_e = 1/9 + 4/9 = 5/9; κ = (2/3 − 5/9)/(4/9) = 1/4.
#[test]
fn agreement_of_pairs_by_hand() {
    let scores = [0.5, -1.0, 2.0, -1.5, -0.2, -1.2];
    let a = pairs_agreement(&scores, 3, 2, 1.0);
    assert!((a.kappa.value - 0.25).abs() < 1e-12, "{}", a.kappa.value);
    assert!((a.magnitude_changed - (2.0 / 3.0 + 0.0) / 2.0).abs() < 1e-12);
    assert!((a.magnitude_within - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(a.same_label, 0.5);
    assert_eq!(label_flips(&[0.5, -1.0], &[-0.2, -1.2]), (1, 0.5));
}

#[test]
fn nan_is_feminine_and_infinities_keep_their_sign() {
    assert_eq!(
        [f32::NAN, f32::INFINITY, f32::NEG_INFINITY].map(masculine),
        [0, 1, 0]
    );
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

/// 1, 2, 4, 5: mean 12/4 = 3; deviations −2, −1, 1, 2, squares sum to 10, SD = √(10/4).
#[test]
fn mean_and_population_sd_by_hand() {
    let m = mean_sd(&[1.0, 2.0, 4.0, 5.0]);
    assert_eq!(m.n, 4);
    close(m.mean, 3.0);
    close(m.sd, 2.5f64.sqrt());
}

#[test]
fn mean_sd_of_one_value_and_of_none() {
    assert_eq!(
        mean_sd(&[7.0]),
        MeanSd {
            n: 1,
            mean: 7.0,
            sd: 0.0
        }
    );
    let none = mean_sd(&[]);
    assert_eq!(none.n, 0);
    assert!(none.mean.is_nan() && none.sd.is_nan());
}

/// Two pairs, two words, SD 1 (pair-major): word 0 scores 0.5 and 1.5, a difference of exactly
/// one SD, which counts as a change; word 1 scores 0.25 and 1.0 (0.75, no change):
/// magnitude_changed = (1 + 0)/2. Every label is masculine: the same label under every pair for
/// both words, and Fleiss' κ undefined (P̄_e = 1).
#[test]
fn a_difference_of_one_sd_is_a_change_and_one_label_has_no_kappa() {
    let a = pairs_agreement(&[0.5, 0.25, 1.5, 1.0], 2, 2, 1.0);
    close(a.magnitude_changed, 0.5);
    close(a.magnitude_within, 0.5);
    assert_eq!(a.same_label, 1.0);
    assert_eq!(a.kappa.status, Status::ZeroVariance);
    assert!(a.kappa.value.is_nan());
    assert_eq!((a.n_pairs, a.n_words), (2, 2));
}

#[test]
fn pairs_agreement_is_undefined_with_one_pair_or_no_words() {
    // One pair: no comparison and a single rater per word.
    let one = pairs_agreement(&[1.0, -1.0], 1, 2, 1.0);
    assert_eq!(one.kappa.status, Status::TooFewRaters);
    assert!(one.magnitude_changed.is_nan() && one.magnitude_within.is_nan());
    assert!(one.same_label.is_nan());
    // No words: nothing to average.
    let none = pairs_agreement(&[], 3, 0, 1.0);
    assert_eq!(none.kappa.status, Status::TooFewSubjects);
    assert!(none.magnitude_changed.is_nan() && none.same_label.is_nan());
}

#[test]
#[should_panic(expected = "scores are pairs × words")]
fn pairs_agreement_panics_on_a_wrong_length() {
    pairs_agreement(&[1.0, 2.0, 3.0], 2, 2, 1.0);
}

/// Labels a = (m, m, f, f) (−0 is masculine), b = (m, f, f, f) (0 is masculine): they agree on
/// D = 3 of n = 4 words; S = Σ_c n_c(a) n_c(b) = 2·1 + 2·3 = 8;
/// κ = (nD − S)/(n² − S) = (12 − 8)/(16 − 8) = 1/2, P_o = 3/4, P_e = 8/16.
#[test]
fn sign_kappa_by_hand() {
    let k = sign_kappa(&[1.0, -0.0, -1.0, -2.0], &[0.0, -1.0, -3.0, -0.5]);
    assert_eq!(k.status, Status::Ok);
    close(k.value, 0.5);
    close(k.observed_agreement, 0.75);
    close(k.expected_agreement, 0.5);
    assert_eq!((k.n_subjects, k.n_raters, k.n_categories), (4, 2, 2));
}

#[test]
fn sign_kappa_is_undefined_for_one_label_or_fewer_than_two_words() {
    // Both vectors masculine throughout: P_e = 1.
    let same = sign_kappa(&[1.0, 2.0, 0.0], &[0.5, 3.0, 4.0]);
    assert_eq!(same.status, Status::ZeroVariance);
    assert!(same.value.is_nan());
    close(same.observed_agreement, 1.0);
    assert_eq!(sign_kappa(&[1.0], &[-1.0]).status, Status::TooFewSubjects);
    assert_eq!(sign_kappa(&[], &[]).status, Status::TooFewSubjects);
}

#[test]
#[should_panic(expected = "sign_kappa: the score vectors differ in length")]
fn sign_kappa_panics_on_lengths_that_differ() {
    sign_kappa(&[1.0, 2.0], &[1.0]);
}

/// Labels (m, f, m, f, m) (the score 0 is masculine) against the truth (m, m, f, f, m): they
/// agree on D = 3 of n = 5; S = 3·3 + 2·2 = 13; κ = (5·3 − 13)/(25 − 13) = 1/6, P_o = 3/5,
/// P_e = 13/25.
#[test]
fn truth_kappa_by_hand() {
    let k = truth_kappa(&[0.3, -0.2, 0.0, -1.0, 2.0], &[true, true, false, false, true]);
    assert_eq!(k.status, Status::Ok);
    close(k.value, 1.0 / 6.0);
    close(k.observed_agreement, 0.6);
    close(k.expected_agreement, 0.52);
    assert_eq!((k.n_subjects, k.n_categories), (5, 2));
}

#[test]
fn truth_kappa_of_a_one_gender_truth() {
    // Truth all masculine, labels (m, f): D = 1, S = 1·2 + 1·0 = 2, κ = (2 − 2)/(4 − 2) = 0.
    let k = truth_kappa(&[1.0, -1.0], &[true, true]);
    assert_eq!(k.status, Status::Ok);
    close(k.value, 0.0);
    // Labels and truth all masculine: P_e = 1.
    let k = truth_kappa(&[1.0, 0.0], &[true, true]);
    assert_eq!(k.status, Status::ZeroVariance);
    assert_eq!(truth_kappa(&[], &[]).status, Status::TooFewSubjects);
}

#[test]
#[should_panic(expected = "truth_kappa: lengths differ")]
fn truth_kappa_panics_on_lengths_that_differ() {
    truth_kappa(&[1.0], &[true, false]);
}

/// Labels a = (m, f, m, f), b = (f, f, m, m) (0 and −0 are masculine): words 0 and 3 flip,
/// 2 of 4.
#[test]
fn label_flips_by_hand() {
    assert_eq!(
        label_flips(&[1.0, -1.0, 0.0, -0.5], &[-1.0, -1.0, 0.5, -0.0]),
        (2, 0.5)
    );
    assert_eq!(label_flips(&[1.0, -1.0], &[2.0, -2.0]), (0, 0.0));
    let (flipped, share) = label_flips(&[], &[]);
    assert_eq!(flipped, 0);
    assert!(share.is_nan());
}

#[test]
#[should_panic(expected = "label_flips: lengths differ")]
fn label_flips_panics_on_lengths_that_differ() {
    label_flips(&[1.0, 2.0], &[1.0]);
}

/// Three words × three seeds (word-major): word 0 scores 1, 2, 0 (m, m, m), word 1 −1, −2, 3
/// (f, f, m), word 2 −1, −0.5, −1 (f, f, f). Fleiss' κ by hand with m = 3 raters:
/// P_0 = (3² − 3)/6 = 1, P_1 = (1² + 2² − 3)/6 = 1/3, P_2 = 1, P̄ = 7/9; masculine share 4/9,
/// P̄_e = (4/9)² + (5/9)² = 41/81; κ = (63/81 − 41/81)/(40/81) = 11/20.
#[test]
fn seeds_agreement_by_hand() {
    let scores = [1.0, 2.0, 0.0, -1.0, -2.0, 3.0, -1.0, -0.5, -1.0];
    let k = seeds_agreement(&scores, 3, 3);
    assert_eq!(k.status, Status::Ok);
    close(k.value, 0.55);
    close(k.observed_agreement, 7.0 / 9.0);
    close(k.expected_agreement, 41.0 / 81.0);
    assert_eq!((k.n_subjects, k.n_raters, k.n_categories), (3, 3, 2));
}

#[test]
fn seeds_agreement_is_undefined_for_one_seed_one_word_or_one_label() {
    assert_eq!(seeds_agreement(&[1.0, -1.0], 2, 1).status, Status::TooFewRaters);
    assert_eq!(seeds_agreement(&[1.0, -1.0], 1, 2).status, Status::TooFewSubjects);
    assert_eq!(seeds_agreement(&[], 0, 3).status, Status::TooFewSubjects);
    let same = seeds_agreement(&[-1.0, -2.0, -3.0, -4.0], 2, 2);
    assert_eq!(same.status, Status::ZeroVariance);
    assert!(same.value.is_nan());
}

#[test]
#[should_panic(expected = "scores are words × seeds")]
fn seeds_agreement_panics_on_a_wrong_length() {
    seeds_agreement(&[1.0, 2.0, 3.0], 2, 2);
}

/// Two words × two pairs × two seeds, y = 4w + 2p + s + 2(−1)^(w+p) + (−1)^(w+p+s): main
/// effects, a word × pair interaction and a three-way residual, each orthogonal to the others.
/// In (w, p, s) order the scores are 3, 2, −1, 2, 1, 4, 9, 8; grand mean 3.5.
///
/// * word means 1.5, 5.5: SS = 4·(2² + 2²) = 32; pair means 2.5, 4.5: SS = 4·(1 + 1) = 8;
///   seed means 3, 4: SS = 4·(0.25 + 0.25) = 2;
/// * word × pair effects ±2: SS = 2·4·4 = 32; word × seed and pair × seed effects 0;
/// * residual ±1 in every cell: SS = 8.
///
/// Every df is 1, so MS = SS. Components (W = P = S = 2):
/// σ²_res = 8; σ²_wp = (32 − 8)/2 = 12; σ²_ws = σ²_ps = (0 − 8)/2 = −4;
/// σ²_w = (32 − 32 − 0 + 8)/4 = 2; σ²_p = (8 − 32 − 0 + 8)/4 = −4; σ²_s = (2 − 0 − 0 + 8)/4 = 2.5.
/// Negative estimates become 0: variances 2, 0, 2.5, 12, 0, 0, 8, total 24.5.
fn hand_design() -> VarianceComponents {
    variance_components(&[3.0, 2.0, -1.0, 2.0, 1.0, 4.0, 9.0, 8.0], 2, 2, 2)
}

#[test]
fn variance_components_by_hand() {
    let v = hand_design();
    assert_eq!((v.n_words, v.n_pairs, v.n_seeds), (2, 2, 2));
    // (component, SS, estimate, variance)
    let expected = [
        (Component::Word, 32.0, 2.0, 2.0),
        (Component::Pair, 8.0, -4.0, 0.0),
        (Component::Seed, 2.0, 2.5, 2.5),
        (Component::WordPair, 32.0, 12.0, 12.0),
        (Component::WordSeed, 0.0, -4.0, 0.0),
        (Component::PairSeed, 0.0, -4.0, 0.0),
        (Component::Residual, 8.0, 8.0, 8.0),
    ];
    assert_eq!(v.components.len(), expected.len());
    for (c, (component, ss, estimate, variance)) in v.components.iter().zip(expected) {
        assert_eq!(c.component, component);
        assert_eq!(c.df, 1, "{}", component.as_str());
        close(c.sum_of_squares, ss);
        close(c.mean_square, ss);
        close(c.estimate, estimate);
        close(c.variance, variance);
        close(c.share, variance / 24.5);
    }
}

/// Of the variation beyond the words' own (12 + 2.5 + 8 = 22.5): the pair's is σ²_p + σ²_wp =
/// 0 + 12, the seed's σ²_s + σ²_ws = 2.5 + 0, the joint σ²_ps + σ²_res = 0 + 8.
#[test]
fn instability_shares_by_hand() {
    let (pair, seed, joint) = hand_design().instability_shares();
    close(pair, 12.0 / 22.5);
    close(seed, 2.5 / 22.5);
    close(joint, 8.0 / 22.5);
}

#[test]
fn instability_shares_are_undefined_when_only_words_vary() {
    // y = 4w: MS_w = 32, every other mean square 0, so σ²_w = 32/4 = 8 and nothing else.
    let v = variance_components(&[0.0, 0.0, 0.0, 0.0, 4.0, 4.0, 4.0, 4.0], 2, 2, 2);
    close(v.components[0].variance, 8.0);
    close(v.components[0].share, 1.0);
    let (pair, seed, joint) = v.instability_shares();
    assert!(pair.is_nan() && seed.is_nan() && joint.is_nan());
}

#[test]
fn variance_components_need_two_levels_of_every_factor() {
    let v = variance_components(&[1.0, 2.0, 3.0, 4.0], 1, 2, 2);
    for c in &v.components {
        let name = c.component.as_str();
        assert!(c.mean_square.is_nan(), "{name}");
        assert!(c.estimate.is_nan() && c.share.is_nan(), "{name}");
    }
    let (pair, seed, joint) = v.instability_shares();
    assert!(pair.is_nan() && seed.is_nan() && joint.is_nan());
}

#[test]
#[should_panic(expected = "values are words × pairs × seeds")]
fn variance_components_panic_on_a_wrong_length() {
    variance_components(&[1.0; 7], 2, 2, 2);
}

#[test]
fn component_names_are_stable() {
    let names = Component::ALL.map(Component::as_str);
    assert_eq!(
        names,
        [
            "word",
            "pair",
            "seed",
            "word:pair",
            "word:seed",
            "pair:seed",
            "residual"
        ]
    );
}

/// 26 subjects × 10 raters of binary labels, with statsmodels' Fleiss' κ and scikit-learn's
/// Cohen's κ of the first two raters: entry `agreement[3]` of `reliability_vectors.json`
/// (pingouin 0.7.0 / statsmodels / scikit-learn), copied here. A `1` is masculine.
const REFERENCE_LABELS: [&str; 26] = [
    "1100101110",
    "1011100100",
    "0111011100",
    "0000000100",
    "1111101111",
    "0010001110",
    "1100001111",
    "0011000110",
    "1010000100",
    "0101110011",
    "1101011110",
    "1100101111",
    "0000101101",
    "0000000011",
    "1001111001",
    "0111001110",
    "1101011111",
    "1011100000",
    "0110100011",
    "1010110000",
    "0010110111",
    "0000000101",
    "1100010000",
    "0110000011",
    "0000001100",
    "0010011010",
];
const REFERENCE_FLEISS: f64 = 0.05439595192915864;
const REFERENCE_COHEN_FIRST_TWO: f64 = 0.22619047619047616;

/// The reference labels as scores: 1.0 for a `1` (masculine), −1.0 for a `0`, `[subject][rater]`.
fn reference_scores() -> Vec<Vec<f32>> {
    (REFERENCE_LABELS.iter())
        .map(|row| {
            (row.bytes())
                .map(|b| if b == b'1' { 1.0 } else { -1.0 })
                .collect()
        })
        .collect()
}

#[test]
fn fleiss_kappa_of_seeds_and_of_pairs_equals_statsmodels() {
    let rows = reference_scores();
    let (n_subjects, n_raters) = (rows.len(), rows[0].len());
    // Seeds as raters: word-major.
    let word_major: Vec<f32> = rows.concat();
    let k = seeds_agreement(&word_major, n_subjects, n_raters);
    assert!((k.value - REFERENCE_FLEISS).abs() < 1e-12, "{}", k.value);
    // Pairs as raters: pair-major.
    let pair_major: Vec<f32> = (0..n_raters)
        .flat_map(|p| rows.iter().map(move |row| row[p]))
        .collect();
    let a = pairs_agreement(&pair_major, n_raters, n_subjects, 1.0);
    assert!(
        (a.kappa.value - REFERENCE_FLEISS).abs() < 1e-12,
        "{}",
        a.kappa.value
    );
    assert_eq!((a.kappa.n_subjects, a.kappa.n_raters), (26, 10));
}

#[test]
fn cohen_kappa_of_signs_and_of_truth_equals_scikit_learn() {
    let rows = reference_scores();
    let first: Vec<f32> = rows.iter().map(|row| row[0]).collect();
    let second: Vec<f32> = rows.iter().map(|row| row[1]).collect();
    let k = sign_kappa(&first, &second);
    assert!((k.value - REFERENCE_COHEN_FIRST_TWO).abs() < 1e-12, "{}", k.value);
    let truth: Vec<bool> = second.iter().map(|&s| s > 0.0).collect();
    let k = truth_kappa(&first, &truth);
    assert!((k.value - REFERENCE_COHEN_FIRST_TWO).abs() < 1e-12, "{}", k.value);
}
