//! Schröder et al.'s properties of the cosine-based bias scores (WEAT's individual score and
//! effect size, Direct Bias), as laws checked on many random models and as the smallest explicit
//! models that show what the negative theorems state.
//!
//! The random models come from this crate's `retest-rng` stream family: every trial draws its
//! own model (its size, dimension and row norms vary), so the laws are checked far from unit
//! vectors and from one fixed geometry.

mod support;

use retest_measures::{
    DirectionSource, EffectStatus, Model, SdKind, association_scores, attribute_difference, direct_bias,
    effect_size, gender_direction, normalized_scores,
};
use retest_rng::SeedPath;
use retest_test_support::RandomData;

/// This crate's random test data (its own stream family).
const DATA: RandomData = RandomData::new("retest-measures-tests");

/// The words and raw vectors of trial `trial`'s model: 40 to 79 words in 2 to 49 dimensions,
/// Gaussian rows scaled by 10^k, k ∈ {−2, −1, 0, 1, 2}, so that norms span four orders.
fn random_model_data(law: &str, trial: u64) -> (Vec<String>, Vec<f32>, usize) {
    let n = 40 + (trial as usize * 7) % 40;
    let dim = 2 + (trial as usize * 13) % 48;
    let seed = {
        use rand_core::Rng;
        SeedPath::new(trial).with(law).stream("model-seed").next_u64()
    };
    let mut raw = DATA.gaussian(n, dim, seed);
    for (i, row) in raw.chunks_exact_mut(dim).enumerate() {
        let scale = 10f32.powi((i % 5) as i32 - 2);
        row.iter_mut().for_each(|x| *x *= scale);
    }
    (support::words(n), raw, dim)
}

/// `count` distinct ids below `n`, drawn from a seeded stream (a partial Fisher–Yates shuffle).
fn random_ids(n: usize, count: usize, seed: &SeedPath, name: &str) -> Vec<u32> {
    use rand_core::Rng;
    let mut rng = seed.stream(name);
    let mut ids: Vec<u32> = (0..n as u32).collect();
    for i in 0..count {
        let j = i + (rng.next_u64() % (n - i) as u64) as usize;
        ids.swap(i, j);
    }
    ids.truncate(count);
    ids
}

/// Schröder et al., proof of Theorem 1: `s(t, A, B) = cos(t, â − b̂) · ‖â − b̂‖`, so the range
/// of `s` is set by the attributes. The two sides are computed differently (a mean of cosines;
/// one cosine with the attribute difference); they agree to 1e-12 relative to `‖â − b̂‖`.
#[test]
fn individual_score_is_the_normalised_score_times_the_attribute_difference() {
    for trial in 0..100u64 {
        let (words, raw, dim) = random_model_data("theorem-1", trial);
        let model = Model::new(&words, &raw, dim).unwrap();
        let seed = SeedPath::new(trial).with("theorem-1");
        let (na, nb) = (1 + trial as usize % 5, 1 + (trial as usize * 3) % 7);
        let ids = random_ids(words.len(), na + nb, &seed, "attributes");
        let (a, b) = ids.split_at(na);
        let targets: Vec<u32> = (0..words.len() as u32).collect();
        let s = association_scores(&model, &targets, a, b).unwrap();
        let diff = attribute_difference(&model, a, b).unwrap();
        let normalized = normalized_scores(&model, &diff, &targets).unwrap();
        for (t, (si, ni)) in s.iter().zip(&normalized).enumerate() {
            assert!(ni.abs() <= 1.0 + 1e-15, "trial {trial}, target {t}: cos = {ni}");
            assert!(si.abs() <= diff.norm * (1.0 + 1e-12));
            let err = (si - ni * diff.norm).abs();
            assert!(
                err <= 1e-12 * diff.norm,
                "trial {trial}, target {t}: {si} vs {}",
                ni * diff.norm
            );
        }
    }
}

/// Schröder et al., Theorem 4: with `|X| = |Y|` and the population SD, `|d| ≤ 2`, reached when
/// every x has one score and every y its negative.
#[test]
fn effect_size_is_bounded_by_two_for_equal_sizes() {
    let mut largest = 0.0f64;
    for trial in 0..300u64 {
        let (words, raw, dim) = random_model_data("theorem-4", trial);
        let model = Model::new(&words, &raw, dim).unwrap();
        let seed = SeedPath::new(trial).with("theorem-4");
        let m = 1 + trial as usize % 8;
        let (na, nb) = (1 + trial as usize % 3, 1 + trial as usize % 4);
        let ids = random_ids(words.len(), 2 * m + na + nb, &seed, "sets");
        let (x, rest) = ids.split_at(m);
        let (y, rest) = rest.split_at(m);
        let (a, b) = rest.split_at(na);
        let sx = association_scores(&model, x, a, b).unwrap();
        let sy = association_scores(&model, y, a, b).unwrap();
        let d = effect_size(&sx, &sy, SdKind::Population).unwrap();
        assert_eq!(d.status, EffectStatus::Ok);
        assert!(d.d.abs() <= 2.0 + 1e-12, "trial {trial}: d = {}", d.d);
        largest = largest.max(d.d.abs());
    }
    // Random sets of size 1 reach the bound: one score per side.
    assert!((largest - 2.0).abs() < 1e-12, "{largest}");
    // Larger sets reach it with x₁ = … = x_m = −y₁ = … = −y_m.
    let words: Vec<String> = ["a", "b", "x1", "x2", "x3", "y1", "y2", "y3"]
        .map(String::from)
        .to_vec();
    #[rustfmt::skip]
    let raw = [
        1.0, 0.0, 0.0,   0.0, 1.0, 0.0,
        0.3, -0.5, 0.8,  0.3, -0.5, 0.8,  0.3, -0.5, 0.8,
        -0.3, 0.5, -0.8, -0.3, 0.5, -0.8, -0.3, 0.5, -0.8,
    ];
    let model = Model::new(&words, &raw, 3).unwrap();
    let sx = association_scores(&model, &[2, 3, 4], &[0], &[1]).unwrap();
    let sy = association_scores(&model, &[5, 6, 7], &[0], &[1]).unwrap();
    let d = effect_size(&sx, &sy, SdKind::Population).unwrap().d;
    assert!((d - 2.0).abs() < 1e-12, "{d}");
}

/// Schröder et al., Theorem 3: the effect size d is not unbiased-trustworthy, i.e. d = 0 does
/// not mean that the targets are unbiased (and, d being scale-free, a maximal |d| does not mean
/// that their scores are large).
///
/// The proof's model: A = {a}, B = {b}, X = {t₁, t₂}, Y = {t₃, t₄} with s(t₁) = s(t₃) and
/// s(t₂) = s(t₄), which holds when `t₁ − t₃` and `t₂ − t₄` are orthogonal to `a − b`; then
/// d = 0 while no target is neutral (|s| = 0.6 for all four). Conversely d ignores the size of
/// s: targets barely off neutral (|s| < 1e-6) get the largest possible d, above that of targets
/// whose scores are a hundred thousand times larger.
#[test]
fn effect_size_is_not_trustworthy() {
    let words: Vec<String> = [
        "a", "b", "t1", "t2", "t3", "t4", "u1", "u2", "v1", "v2", "v3", "v4",
    ]
    .map(String::from)
    .to_vec();
    #[rustfmt::skip]
    let raw = [
        1.0, 0.0, 0.0,  // a
        0.0, 1.0, 0.0,  // b
        0.6, 0.0, 0.8,  // t1: s = 0.6
        0.0, 0.6, 0.8,  // t2: s = −0.6
        0.6, 0.0, -0.8, // t3: s = 0.6  (t1 − t3 = (0, 0, 1.6) ⟂ a − b)
        0.0, 0.6, -0.8, // t4: s = −0.6 (t2 − t4 = (0, 0, 1.6) ⟂ a − b)
        1.0, 1.000001, 0.0, // u1: s ≈ −7e-7
        1.000001, 1.0, 0.0, // u2: s ≈ +7e-7
        0.9, 0.1, 0.0,  // v1..v4: |s| of 0.5 to 0.8
        0.8, 0.3, 0.1,
        0.2, 0.9, 0.0,
        0.1, 0.6, 0.3,
    ];
    let model = Model::new(&words, &raw, 3).unwrap();
    let (a, b) = ([0], [1]);
    let sx = association_scores(&model, &[2, 3], &a, &b).unwrap();
    let sy = association_scores(&model, &[4, 5], &a, &b).unwrap();
    assert!(
        sx.iter().chain(&sy).all(|s| (s.abs() - 0.6).abs() < 1e-7),
        "{sx:?} {sy:?}"
    );
    let d = effect_size(&sx, &sy, SdKind::Population).unwrap();
    assert_eq!((d.d, d.status), (0.0, EffectStatus::Ok));

    let tiny_x = association_scores(&model, &[7, 7], &a, &b).unwrap();
    let tiny_y = association_scores(&model, &[6, 6], &a, &b).unwrap();
    assert!(tiny_x.iter().chain(&tiny_y).all(|s| s.abs() < 1e-6 && *s != 0.0));
    let tiny = effect_size(&tiny_x, &tiny_y, SdKind::Population).unwrap().d;
    let big_x = association_scores(&model, &[8, 9], &a, &b).unwrap();
    let big_y = association_scores(&model, &[10, 11], &a, &b).unwrap();
    assert!(big_x.iter().chain(&big_y).all(|s| s.abs() > 0.1));
    let big = effect_size(&big_x, &big_y, SdKind::Population).unwrap().d;
    assert!((tiny - 2.0).abs() < 1e-6, "{tiny}");
    assert!(big < tiny, "{big} vs {tiny}");
}

/// `ŵ` in f64, computed here from the raw row.
fn unit(model: &Model<'_>, id: u32) -> Vec<f64> {
    let n = model.norm(id);
    model.raw_row(id).iter().map(|&x| f64::from(x) / n).collect()
}

/// Schröder et al., Theorem 5: `0 ≤ DirectBias_c ≤ 1` for every `c ≥ 0`, with a direction from
/// one pair or from the principal component of several; `c = 0` gives 1. The direction is a
/// unit vector, its explained-variance ratios decrease and sum to at most 1, and the principal
/// component points toward the masculine words.
/// Pairs whose differences all lie along one axis (`(y, w…)` and `(−y, w…)`): the first
/// component explains all the variance, and rounding never puts its share above 1.
#[test]
fn explained_variance_of_one_axis_is_at_most_one() {
    for trial in 0..200u64 {
        let (_, raw, dim) = random_model_data("one-axis", trial);
        let n_pairs = 2 + trial as usize % 7;
        let mut rows = Vec::new();
        for row in raw.chunks_exact(dim).take(n_pairs) {
            rows.extend_from_slice(row);
            rows.push(-row[0]);
            rows.extend_from_slice(&row[1..]);
        }
        let words = support::words(2 * n_pairs);
        let model = Model::new(&words, &rows, dim).unwrap();
        let pairs: Vec<(u32, u32)> = (0..n_pairs as u32).map(|i| (2 * i, 2 * i + 1)).collect();
        let g = gender_direction(&model, DirectionSource::PrincipalComponent(&pairs)).unwrap();
        let first = g.explained_variance_ratio[0];
        assert!((1.0 - 1e-12..=1.0).contains(&first), "trial {trial}: {first}");
    }
}

#[test]
fn direct_bias_lies_in_the_unit_interval() {
    for trial in 0..60u64 {
        let (words, raw, dim) = random_model_data("theorem-5", trial);
        let model = Model::new(&words, &raw, dim).unwrap();
        let seed = SeedPath::new(trial).with("theorem-5");
        let n_pairs = 2 + trial as usize % 9;
        let ids = random_ids(words.len(), 2 * n_pairs + 20, &seed, "words");
        let pairs: Vec<(u32, u32)> = ids[..2 * n_pairs].chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let neutral = &ids[2 * n_pairs..];
        for source in [
            DirectionSource::Pair(pairs[0].0, pairs[0].1),
            DirectionSource::PrincipalComponent(&pairs),
        ] {
            let g = gender_direction(&model, source).unwrap();
            let norm: f64 = g.vector.iter().map(|v| v * v).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-12);
            let ratios = &g.explained_variance_ratio;
            assert!(ratios.windows(2).all(|w| w[0] >= w[1]) && ratios.iter().sum::<f64>() <= 1.0 + 1e-12);
            if matches!(source, DirectionSource::PrincipalComponent(_)) {
                let toward: f64 = pairs
                    .iter()
                    .map(|&(m, f)| {
                        let (um, uf) = (unit(&model, m), unit(&model, f));
                        (0..dim).map(|k| (um[k] - uf[k]) * g.vector[k]).sum::<f64>()
                    })
                    .sum();
                assert!(toward > 0.0, "trial {trial}");
            }
            for c in [0.0, 0.25, 0.5, 1.0, 2.0, 7.3] {
                let db = direct_bias(&model, &g, neutral, c).unwrap().value;
                assert!((0.0..=1.0).contains(&db), "trial {trial}, c = {c}: {db}");
                if c == 0.0 {
                    assert_eq!(db, 1.0);
                }
            }
        }
    }
}

/// Schröder et al., Theorem 6: Direct Bias with a principal-component direction is not
/// unbiased-trustworthy. With pairs a₁ = (−x, rx), c₁ = −a₁ and a₂ = (−x, −rx), c₂ = −a₂,
/// r > 1, the first principal component is (0, ±1), so a word equidistant from every pair,
/// t = (0, 1), gets the largest Direct Bias, and the maximally biased t = (1, 0) gets none.
#[test]
fn direct_bias_is_not_trustworthy() {
    let words: Vec<String> = ["a1", "c1", "a2", "c2", "neutral", "biased"]
        .map(String::from)
        .to_vec();
    let (x, r) = (1.0f32, 2.0f32);
    #[rustfmt::skip]
    let raw = [-x, r * x,  x, -r * x,  -x, -r * x,  x, r * x,  0.0, 1.0,  1.0, 0.0];
    let model = Model::new(&words, &raw, 2).unwrap();
    let g = gender_direction(&model, DirectionSource::PrincipalComponent(&[(0, 1), (2, 3)])).unwrap();
    assert!(
        g.vector[0].abs() < 1e-12 && (g.vector[1].abs() - 1.0).abs() < 1e-12,
        "{:?}",
        g.vector
    );
    assert!((direct_bias(&model, &g, &[4], 1.0).unwrap().value - 1.0).abs() < 1e-12);
    assert!(direct_bias(&model, &g, &[5], 1.0).unwrap().value < 1e-12);
}
