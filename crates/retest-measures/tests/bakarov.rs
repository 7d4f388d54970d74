//! Bakarov's detectors, Occupational Stereotypes and Gender Direction (relative norm distance),
//! against values computed by hand on a small model and against an independent numpy reference
//! (`data/bakarov_reference.py`), their sign conventions, and their error messages.

use retest_measures::{
    DirectionSource, Model, direct_bias, gender_direction, occupational_stereotypes, relative_norm_distance,
};
use support::fixture::{Fixture, assert_close};

mod support;

const HE: u32 = 0;
const HIM: u32 = 1;
const SHE: u32 = 2;
const HER: u32 = 3;
const ENGINEER: u32 = 4;
const NURSE: u32 = 5;
const TREE: u32 = 6;
const NOTHING: u32 = 7;

/// Male mean of unit vectors `(0.8, 0.4, 0)`, female mean `(0, 1, 0)`. Integer components (exact
/// in f32) whose norms differ from 1, so that only the directions count.
fn words() -> Vec<String> {
    ["he", "him", "she", "her", "engineer", "nurse", "tree", "nothing"]
        .map(String::from)
        .to_vec()
}

#[rustfmt::skip]
const RAW: [f32; 24] = [
    1.0, 0.0, 0.0, // he
    3.0, 4.0, 0.0, // him: unit (0.6, 0.8, 0)
    0.0, 1.0, 0.0, // she
    0.0, 2.0, 0.0, // her: unit (0, 1, 0)
    3.0, 0.0, 4.0, // engineer: unit (0.6, 0, 0.8)
    0.0, 3.0, 4.0, // nurse: unit (0, 0.6, 0.8)
    0.0, 0.0, 5.0, // tree: unit (0, 0, 1)
    0.0, 0.0, 0.0, // nothing: a zero vector
];

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() < 1e-15
}

#[test]
fn relative_norm_distance_by_hand() {
    let words = words();
    let model = Model::new(&words, &RAW, 3).unwrap();
    let rnd =
        relative_norm_distance(&model, &[HE, HIM], &[SHE, HER], &[ENGINEER, NURSE, TREE, NOTHING]).unwrap();
    // engineer (0.6, 0, 0.8): ‖ŵ − v̄_f‖² = 0.36 + 1 + 0.64 = 2, ‖ŵ − v̄_m‖² = 0.04 + 0.16 + 0.64.
    // nurse (0, 0.6, 0.8): 0.16 + 0.64 to the female mean, 0.64 + 0.04 + 0.64 to the male one.
    // tree (0, 0, 1): 1 + 1, and 0.64 + 0.16 + 1: the male mean is shorter (‖v̄_m‖² = 0.8), so
    // a word orthogonal to both means is nearer to it.
    // nothing (zero vector): the distances are the norms of the means, 1 and √0.8.
    let want = [
        2f64.sqrt() - 0.84f64.sqrt(),
        0.8f64.sqrt() - 1.32f64.sqrt(),
        2f64.sqrt() - 1.8f64.sqrt(),
        1.0 - 0.8f64.sqrt(),
    ];
    for (i, (got, want)) in rnd.per_word.iter().zip(want).enumerate() {
        assert!(close(*got, want), "word {i}: {got} vs {want}");
    }
    assert!(close(rnd.value, want.iter().sum()), "{}", rnd.value);
}

#[test]
fn relative_norm_distance_is_positive_for_masculine_words() {
    let words = words();
    let model = Model::new(&words, &RAW, 3).unwrap();
    let rnd = relative_norm_distance(&model, &[HE, HIM], &[SHE, HER], &[ENGINEER, NURSE]).unwrap();
    assert!(
        rnd.per_word[0] > 0.0 && rnd.per_word[1] < 0.0,
        "{:?}",
        rnd.per_word
    );
    // Exchanging the groups negates every term.
    let swapped = relative_norm_distance(&model, &[SHE, HER], &[HE, HIM], &[ENGINEER, NURSE]).unwrap();
    for (a, b) in rnd.per_word.iter().zip(&swapped.per_word) {
        assert_eq!(*a, -*b);
    }
    // A gender word itself: `he` is nearer to the male mean.
    let he = relative_norm_distance(&model, &[HE, HIM], &[SHE, HER], &[HE]).unwrap();
    assert!(he.value > 0.0);
}

#[test]
fn relative_norm_distance_ignores_the_norms() {
    let words = words();
    let model = Model::new(&words, &RAW, 3).unwrap();
    let mut scaled = RAW;
    scaled
        .iter_mut()
        .enumerate()
        .for_each(|(i, x)| *x *= (1 + i / 3) as f32);
    let scaled_model = Model::new(&words, &scaled, 3).unwrap();
    let ids = [ENGINEER, NURSE, TREE];
    let a = relative_norm_distance(&model, &[HE, HIM], &[SHE, HER], &ids).unwrap();
    let b = relative_norm_distance(&scaled_model, &[HE, HIM], &[SHE, HER], &ids).unwrap();
    for (x, y) in a.per_word.iter().zip(&b.per_word) {
        assert!((x - y).abs() < 1e-15, "{x} vs {y}");
    }
}

#[test]
fn occupational_stereotypes_by_hand() {
    let words = words();
    let model = Model::new(&words, &RAW, 3).unwrap();
    // g = (he − she)/‖he − she‖ = (1, −1, 0)/√2.
    let g = gender_direction(&model, DirectionSource::Pair(HE, SHE)).unwrap();
    let os = occupational_stereotypes(&model, &g, &[ENGINEER, NURSE, TREE, NOTHING]).unwrap();
    let s = 0.6 / 2f64.sqrt();
    let want = [s, -s, 0.0, 0.0];
    for (i, (got, want)) in os.projections.iter().zip(want).enumerate() {
        assert!(close(*got, want), "word {i}: {got} vs {want}");
    }
    // Positive is masculine: engineer leans to he, nurse to she.
    assert!(os.projections[0] > 0.0 && os.projections[1] < 0.0);
    // The mean of absolute values: opposite occupations do not cancel.
    assert!(close(os.value, 2.0 * s / 4.0), "{}", os.value);
}

#[test]
fn occupational_stereotypes_is_direct_bias_with_c_one() {
    let words = words();
    let model = Model::new(&words, &RAW, 3).unwrap();
    let pairs = [(HE, SHE), (HIM, HER)];
    let occupations = [ENGINEER, NURSE, TREE];
    for source in [
        DirectionSource::Pair(HIM, HER),
        DirectionSource::PrincipalComponent(&pairs),
    ] {
        let g = gender_direction(&model, source).unwrap();
        let os = occupational_stereotypes(&model, &g, &occupations).unwrap();
        let db = direct_bias(&model, &g, &occupations, 1.0).unwrap();
        assert_eq!((os.value, &os.projections), (db.value, &db.projections));
        assert!((0.0..=1.0).contains(&os.value));
    }
}

#[test]
fn errors_name_the_detector_and_the_set() {
    let words = words();
    let model = Model::new(&words, &RAW, 3).unwrap();
    let g = gender_direction(&model, DirectionSource::Pair(HE, SHE)).unwrap();
    let os = |ids: &[u32]| occupational_stereotypes(&model, &g, ids).unwrap_err().to_string();
    assert_eq!(os(&[]), "occupational stereotypes occupations: the set is empty");
    assert_eq!(
        os(&[ENGINEER, 9]),
        "occupational stereotypes occupations: word id 9 is out of range for a vocabulary of 8"
    );
    let rnd =
        |m: &[u32], f: &[u32], w: &[u32]| relative_norm_distance(&model, m, f, w).unwrap_err().to_string();
    assert_eq!(
        rnd(&[], &[SHE], &[NURSE]),
        "relative norm distance male words: the set is empty"
    );
    assert_eq!(
        rnd(&[HE], &[], &[NURSE]),
        "relative norm distance female words: the set is empty"
    );
    assert_eq!(
        rnd(&[HE], &[SHE], &[]),
        "relative norm distance words: the set is empty"
    );
    assert_eq!(
        rnd(&[HE, 8], &[SHE], &[NURSE]),
        "relative norm distance male words: word id 8 is out of range for a vocabulary of 8"
    );
    assert_eq!(
        rnd(&[HE], &[SHE, 100], &[NURSE]),
        "relative norm distance female words: word id 100 is out of range for a vocabulary of 8"
    );
    assert_eq!(
        rnd(&[HE], &[SHE], &[NURSE, u32::MAX]),
        "relative norm distance words: word id 4294967295 is out of range for a vocabulary of 8"
    );
}

const FIXTURE: &str = include_str!("data/bakarov_reference.txt");

/// numpy projects on Bakarov's female − male axis and subtracts as Garg et al. do: retest's
/// values are the same numbers with the opposite sign (positive = masculine), and the same OS.
#[test]
fn detectors_match_the_numpy_reference() {
    let fx = Fixture::parse(FIXTURE);
    let model = fx.model();
    for name in ["pair_w00_w01", "pca7"] {
        let key = |k: &str| format!("os.{name}.{k}");
        let flat = fx.ids(&key("pairs"));
        let pairs: Vec<(u32, u32)> = flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let source = match pairs[..] {
            [(m, f)] => DirectionSource::Pair(m, f),
            _ => DirectionSource::PrincipalComponent(&pairs),
        };
        let g = gender_direction(&model, source).unwrap();
        let os = occupational_stereotypes(&model, &g, &fx.ids(&key("occupations"))).unwrap();
        let masculine: Vec<f64> = fx.floats(&key("female_projections")).iter().map(|p| -p).collect();
        assert_close(&os.projections, &masculine, &key("projections"));
        assert_close(&[os.value], &fx.floats(&key("value")), &key("value"));
    }
    let rnd = relative_norm_distance(
        &model,
        &fx.ids("rnd.male"),
        &fx.ids("rnd.female"),
        &fx.ids("rnd.words"),
    )
    .unwrap();
    let masculine: Vec<f64> = fx.floats("rnd.garg_per_word").iter().map(|p| -p).collect();
    assert_close(&rnd.per_word, &masculine, "rnd per word");
    assert_close(&[rnd.value], &[-fx.floats("rnd.garg_sum")[0]], "rnd sum");
}
