//! The across-seed base-pair designs on hand-built scores, against hand-computed values.

use retest_reliability::Status;

use super::*;
use crate::base_pairs::Component;

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

const RULES: [Rule; 2] = [Rule::Dbwa, Rule::Ripa];

/// Two seeds of two rules × two pairs × two words, each `[rule][pair][word]`.
const SEED_0: [f32; 8] = [1.0, -1.0, 2.0, -2.0, 1.0, 1.0, -1.0, 1.0];
const SEED_1: [f32; 8] = [1.0, -1.0, -2.0, -2.0, 1.0, -1.0, -1.0, 1.0];

fn tensor() -> ScoreTensor {
    words_tensor(&RULES, 2, 2, &[&SEED_0, &SEED_1]).unwrap()
}

#[test]
fn words_tensor_puts_the_seeds_innermost() {
    let t = tensor();
    assert_eq!(
        (t.n_rules(), t.n_refs(), t.n_targets(), t.n_seeds()),
        (2, 2, 2, 2)
    );
    assert_eq!(t.seeds(0, 1, 0), &[2.0, -2.0]);
    assert_eq!(t.seeds(1, 0, 1), &[1.0, -1.0]);
    assert_eq!(
        t.values(),
        &[
            1.0, 1.0, -1.0, -1.0, 2.0, -2.0, -2.0, -2.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, 1.0, 1.0
        ]
    );
}

#[test]
fn words_tensor_refuses_a_seed_of_another_shape() {
    let err = words_tensor(&RULES, 2, 2, &[&SEED_0, &SEED_1[..7]]).unwrap_err();
    assert_eq!(
        err.to_string(),
        MeasureError::BadTensor {
            message: "a seed has 7 scores for 2 rules × 2 pairs × 2 words".into()
        }
        .to_string()
    );
}

/// Words × seeds per rule and pair (Fleiss' κ with two raters: P_i is 1 when the seeds agree,
/// 0 when not):
///
/// * rule 0, pair 0: (m m), (f f): P̄ = 1, masculine share 1/2, P̄_e = 1/2: κ = 1;
/// * rule 0, pair 1: (m f), (f f): P̄ = 1/2, share 1/4, P̄_e = 1/16 + 9/16 = 5/8: κ = (1/2 −
///   5/8)/(3/8) = −1/3;
/// * rule 1, pair 0: (m m), (m f): P̄ = 1/2, share 3/4, P̄_e = 5/8: κ = −1/3;
/// * rule 1, pair 1: (f f), (m m): κ = 1.
#[test]
fn seeds_agreement_rates_each_rule_and_pair_over_words_by_seeds() {
    let records = seeds_agreement_per_pair(&tensor());
    let expected = [(0, 0, 1.0), (0, 1, -1.0 / 3.0), (1, 0, -1.0 / 3.0), (1, 1, 1.0)];
    assert_eq!(records.len(), expected.len());
    for (record, (rule, pair, kappa)) in records.iter().zip(expected) {
        assert_eq!((record.rule, record.pair), (rule, pair));
        assert_eq!(record.kappa.status, Status::Ok);
        assert_eq!((record.kappa.n_subjects, record.kappa.n_raters), (2, 2));
        close(record.kappa.value, kappa);
    }
}

/// Rule 0's cells in word, pair, seed order: word 0 (1, 1 | 2, −2), word 1 (−1, −1 | −2, −2);
/// labels 1, 1, 1, 0, 0, 0, 0, 0. On the labels, the word means are 3/4 and 0 around a grand
/// mean of 3/8: SS_word = 4 · 2 · (3/8)² = 9/8.
#[test]
fn variance_per_rule_splits_scores_and_labels_of_each_rule() {
    let records = variance_per_rule(&tensor());
    let order: Vec<(usize, VarianceScale)> = records.iter().map(|r| (r.rule, r.scale)).collect();
    assert_eq!(
        order,
        [
            (0, VarianceScale::Score),
            (0, VarianceScale::Label),
            (1, VarianceScale::Score),
            (1, VarianceScale::Label)
        ]
    );
    let scores = [1.0, 1.0, 2.0, -2.0, -1.0, -1.0, -2.0, -2.0];
    assert_eq!(records[0].components, variance_components(&scores, 2, 2, 2));
    let labels = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    assert_eq!(records[1].components, variance_components(&labels, 2, 2, 2));
    let word = records[1].components.components[0];
    assert_eq!(word.component, Component::Word);
    close(word.sum_of_squares, 9.0 / 8.0);
    assert_eq!(
        (
            records[1].components.n_words,
            records[1].components.n_pairs,
            records[1].components.n_seeds
        ),
        (2, 2, 2)
    );
}

#[test]
fn variance_scale_names_are_stable() {
    assert_eq!(VarianceScale::ALL.map(VarianceScale::as_str), ["score", "label"]);
}
