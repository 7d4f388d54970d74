//! WEAT and Direct Bias against an independent Python reference (`data/weat_reference.py`:
//! numpy, brute-force permutations, numpy's SVD, WEFE for S and d), the sampled permutation
//! test against the exact one, and every error message. Schröder et al.'s theorems are in
//! `schroder.rs`.

use retest_measures::{
    DirectionSource, EffectStatus, Model, PMethod, PermutationOptions, SdKind, WeatOptions, WeatSets,
    binomial, direct_bias, effect_size, gender_direction, projections, separability, weat,
};
use retest_rng::SeedPath;
use support::fixture::{Fixture, assert_close};

mod support;

const FIXTURE: &str = include_str!("data/weat_reference.txt");
/// Caliskan et al.'s tests 6–8 on a retest-trained SGNS seed (`weat_trained_reference.py`).
const TRAINED: &str = include_str!("data/weat_trained_reference.txt");

impl Fixture {
    fn load() -> Fixture {
        Fixture::parse(FIXTURE)
    }
}

#[test]
fn weat_matches_the_python_reference() {
    let fx = Fixture::load();
    assert_eq!(fx.names("weat."), ["t3x4", "t5x7", "t8x8"]);
    weat_matches(&fx);
}

/// On a trained seed (Gutenberg, dim 100, words looked up lowercased): 4 + 7, 7 + 8 and 6 + 8
/// targets, exact p-values over 330, 6,435 and 3,003 partitions.
#[test]
fn weat_on_a_trained_seed_matches_the_python_reference() {
    let fx = Fixture::parse(TRAINED);
    assert_eq!(fx.names("weat."), ["weat6", "weat7", "weat8"]);
    weat_matches(&fx);
}

/// Every WEAT test of a fixture: scores, statistic, effect sizes to 1e-9, the exact p-value's
/// counts and quotient exactly.
fn weat_matches(fx: &Fixture) {
    let model = fx.model();
    let seed = SeedPath::new(2017).with("weat-fixture");
    for name in &fx.names("weat.") {
        let key = |k: &str| format!("weat.{name}.{k}");
        let (x, y, a, b) = (
            fx.ids(&key("x")),
            fx.ids(&key("y")),
            fx.ids(&key("a")),
            fx.ids(&key("b")),
        );
        let sets = WeatSets {
            x: &x,
            y: &y,
            a: &a,
            b: &b,
        };
        let w = weat(&model, &sets, &WeatOptions::caliskan(&seed)).unwrap();
        assert_close(&w.x_scores, &fx.floats(&key("s_x")), &key("s_x"));
        assert_close(&w.y_scores, &fx.floats(&key("s_y")), &key("s_y"));
        assert_close(
            &w.x_normalized,
            &fx.floats(&key("normalized_x")),
            &key("normalized_x"),
        );
        assert_close(
            &w.y_normalized,
            &fx.floats(&key("normalized_y")),
            &key("normalized_y"),
        );
        assert_close(&[w.statistic], &[fx.float(&key("statistic"))], &key("statistic"));
        assert_close(
            &[w.attribute_difference],
            &[fx.float(&key("attribute_difference"))],
            &key("attribute_difference"),
        );
        assert_eq!(w.effect_size.status, EffectStatus::Ok);
        assert_eq!(w.effect_size.sd, SdKind::Population);
        assert_close(
            &[w.effect_size.d],
            &[fx.float(&key("d_population"))],
            &key("d_population"),
        );
        let sample = effect_size(&w.x_scores, &w.y_scores, SdKind::Sample).unwrap();
        assert_close(&[sample.d], &[fx.float(&key("d_sample"))], &key("d_sample"));
        // The exact p-value: the same counts, the same quotient.
        let p = &w.permutation;
        assert_eq!(p.method, PMethod::Exact, "{name}");
        assert_eq!(p.greater, fx.float(&key("p_greater")) as u64, "{name}");
        assert_eq!(p.partitions, fx.float(&key("p_partitions")) as u64, "{name}");
        assert_eq!(p.p, fx.float(&key("p_exact")), "{name}");
        assert_eq!((p.n_x, p.n_y), (x.len(), y.len()));
    }
}

#[test]
fn the_sixteen_word_test_enumerates_every_partition() {
    let fx = Fixture::load();
    let model = fx.model();
    let seed = SeedPath::new(1);
    let ids = |k: &str| fx.ids(&format!("weat.t8x8.{k}"));
    let (x, y, a, b) = (ids("x"), ids("y"), ids("a"), ids("b"));
    let w = weat(
        &model,
        &WeatSets {
            x: &x,
            y: &y,
            a: &a,
            b: &b,
        },
        &WeatOptions::caliskan(&seed),
    )
    .unwrap();
    assert_eq!(w.permutation.partitions, 12_870);
    assert_eq!(w.permutation.total_partitions, binomial(16, 8));
    // w38 (in X) and w39 (in Y) share one vector: their scores are the same bits, so the
    // partition swapping them ties with the observed one.
    assert_eq!(w.x_scores[7].to_bits(), w.y_scores[7].to_bits());
}

#[test]
fn sampled_p_is_reproducible_and_close_to_the_exact_one() {
    let fx = Fixture::load();
    let model = fx.model();
    let ids = |k: &str| fx.ids(&format!("weat.t8x8.{k}"));
    let (x, y, a, b) = (ids("x"), ids("y"), ids("a"), ids("b"));
    let sets = WeatSets {
        x: &x,
        y: &y,
        a: &a,
        b: &b,
    };
    let seed = SeedPath::new(20_260_611).with("t8x8");
    fn sampled(seed: &SeedPath) -> WeatOptions<'_> {
        WeatOptions {
            sd: SdKind::Population,
            permutation: PermutationOptions {
                exact_limit: 1_000,
                samples: 5_000,
                seed,
            },
        }
    }
    let first = weat(&model, &sets, &sampled(&seed)).unwrap();
    let again = weat(&model, &sets, &sampled(&seed)).unwrap();
    assert_eq!(first, again);
    let p = &first.permutation;
    assert_eq!((p.method, p.partitions), (PMethod::Sampled, 5_000));
    assert_eq!(p.p, (p.greater + 1) as f64 / 5_001.0);
    // Exact p = 90/12870 ≈ 0.0070; a hypergeometric count over 5000 of 12870 partitions has
    // SD ≈ 0.0009 in p: four SDs.
    let exact = fx.float("weat.t8x8.p_exact");
    assert!((p.p - exact).abs() < 0.004, "sampled {} vs exact {exact}", p.p);
    // Another seed draws other partitions.
    let ps: Vec<u64> = (0..5)
        .map(|i| {
            let other = SeedPath::new(i).with("t8x8");
            weat(&model, &sets, &sampled(&other)).unwrap().permutation.greater
        })
        .collect();
    assert!(ps.iter().any(|&g| g != p.greater), "{ps:?}");
}

#[test]
fn direct_bias_matches_the_python_reference() {
    let fx = Fixture::load();
    let model = fx.model();
    let names = fx.names("direction.");
    assert_eq!(names, ["pair_w00_w01", "pair_w04_w05", "pca10", "pca7"]);
    for name in &names {
        let key = |k: &str| format!("direction.{name}.{k}");
        let flat = fx.ids(&key("pairs"));
        let pairs: Vec<(u32, u32)> = flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let source = if pairs.len() == 1 {
            DirectionSource::Pair(pairs[0].0, pairs[0].1)
        } else {
            DirectionSource::PrincipalComponent(&pairs)
        };
        let g = gender_direction(&model, source).unwrap();
        assert_close(&g.vector, &fx.floats(&key("vector")), &key("vector"));
        assert_close(
            &g.explained_variance_ratio,
            &fx.floats(&key("explained_variance_ratio")),
            &key("explained_variance_ratio"),
        );
        let neutral = fx.ids(&key("neutral"));
        let want_proj = fx.floats(&key("projections"));
        assert_close(
            &projections(&model, &g, &neutral).unwrap(),
            &want_proj,
            &key("projections"),
        );
        for (c, k) in [(1.0, "direct_bias_c1"), (0.5, "direct_bias_c0.5")] {
            let db = direct_bias(&model, &g, &neutral, c).unwrap();
            assert_close(&[db.value], &[fx.float(&key(k))], &key(k));
            assert_close(&db.projections, &want_proj, &key(k));
            assert_eq!(db.c, c);
        }
    }
}

/// No spread in the pooled scores: `d` is NaN with a status, not a panic.
#[test]
fn constant_scores_have_no_effect_size() {
    let d = effect_size(&[0.1, 0.1, 0.1], &[0.1], SdKind::Sample).unwrap();
    assert!(d.d.is_nan());
    assert_eq!(d.status, EffectStatus::NoSpread);
    assert_eq!(d.status.as_str(), "no_spread");
    assert_eq!(
        effect_size(&[0.1], &[f64::INFINITY], SdKind::Population)
            .unwrap_err()
            .to_string(),
        "WEAT target set Y: score 0 is not a finite number (inf)"
    );
    assert_eq!(EffectStatus::Ok.to_string(), "ok");
    assert_eq!(SdKind::Population.as_str(), "population");
    assert_eq!(SdKind::Sample.to_string(), "sample");
}

/// A = B: every score is 0, so neither `d` nor the permutation p-value is defined.
#[test]
fn identical_attribute_sets_give_no_effect_size_and_no_p_value() {
    let fx = Fixture::load();
    let model = fx.model();
    let seed = SeedPath::new(0);
    let opts = WeatOptions::caliskan(&seed);
    let sets = WeatSets {
        x: &[20, 21],
        y: &[22, 23],
        a: &[0, 1],
        b: &[0, 1],
    };
    let w = weat(&model, &sets, &opts).unwrap();
    assert_eq!(w.effect_size.status, EffectStatus::NoSpread);
    assert!(
        w.effect_size.d.is_nan() && w.permutation.p.is_nan(),
        "{:?}",
        w.permutation
    );
}

#[test]
fn errors_name_the_set_and_the_problem() {
    let fx = Fixture::load();
    let model = fx.model();
    let seed = SeedPath::new(0);
    let opts = WeatOptions::caliskan(&seed);
    let some = [20u32, 21];
    let err = |sets: WeatSets<'_>| weat(&model, &sets, &opts).unwrap_err().to_string();
    fn sets<'s>(x: &'s [u32], y: &'s [u32], a: &'s [u32], b: &'s [u32]) -> WeatSets<'s> {
        WeatSets { x, y, a, b }
    }
    assert_eq!(
        err(sets(&[], &some, &[0], &[1])),
        "WEAT target set X: the set is empty"
    );
    assert_eq!(
        err(sets(&some, &[], &[0], &[1])),
        "WEAT target set Y: the set is empty"
    );
    assert_eq!(
        err(sets(&some, &some, &[], &[1])),
        "WEAT attribute set A: the set is empty"
    );
    assert_eq!(
        err(sets(&some, &some, &[0], &[])),
        "WEAT attribute set B: the set is empty"
    );
    assert_eq!(
        err(sets(&some, &[99], &[0], &[1])),
        "WEAT target set Y: word id 99 is out of range for a vocabulary of 40"
    );
    for samples in [0, 10_000_001] {
        let bad = WeatOptions {
            permutation: PermutationOptions {
                samples,
                ..opts.permutation
            },
            ..opts
        };
        assert_eq!(
            weat(&model, &sets(&some, &some, &[0], &[1]), &bad)
                .unwrap_err()
                .to_string(),
            format!("WEAT permutation test: {samples} sampled partitions; give from 1 to 10000000")
        );
    }

    let pca = |pairs: &[(u32, u32)]| {
        gender_direction(&model, DirectionSource::PrincipalComponent(pairs))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        pca(&[(0, 1)]),
        "gender direction: a principal component needs at least 2 definitional pairs, found 1"
    );
    assert_eq!(
        pca(&[]),
        "gender direction: a principal component needs at least 2 definitional pairs, found 0"
    );
    assert_eq!(
        pca(&[(0, 1), (2, 2)]),
        "base pair (w02, w02): the two words are the same"
    );
    assert_eq!(
        gender_direction(&model, DirectionSource::Pair(0, 40))
            .unwrap_err()
            .to_string(),
        "gender direction pairs: word id 40 is out of range for a vocabulary of 40"
    );

    let g = gender_direction(&model, DirectionSource::Pair(0, 1)).unwrap();
    let db = |neutral: &[u32], c: f64| direct_bias(&model, &g, neutral, c).unwrap_err().to_string();
    assert_eq!(
        db(&[20], -1.0),
        "direct bias: the exponent c must be a finite number ≥ 0, found -1"
    );
    assert_eq!(
        db(&[20], f64::NAN),
        "direct bias: the exponent c must be a finite number ≥ 0, found NaN"
    );
    assert_eq!(
        db(&[20], f64::INFINITY),
        "direct bias: the exponent c must be a finite number ≥ 0, found inf"
    );
    assert_eq!(db(&[], 1.0), "direct bias neutral words: the set is empty");
    assert_eq!(
        projections(&model, &g, &[7, 41]).unwrap_err().to_string(),
        "projected words: word id 41 is out of range for a vocabulary of 40"
    );
}

#[test]
fn degenerate_pairs_have_no_direction() {
    let words: Vec<String> = ["m", "f", "zero", "double_m"].map(String::from).to_vec();
    let raw = [1.0, 2.0, 3.0, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 4.0, 6.0];
    let model = Model::new(&words, &raw, 3).unwrap();
    let err = |m, f| {
        gender_direction(&model, DirectionSource::Pair(m, f))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(err(0, 2), "base pair (m, zero): a word has a zero vector");
    assert_eq!(
        err(3, 0),
        "base pair (double_m, m): the two words have the same direction"
    );
    assert_eq!(err(1, 1), "base pair (f, f): the two words are the same");
}

/// The separability of X and Y by their scores, by hand: of the 3 × 2 pairs, 0.3 and 0.2 are
/// above both y, 0.1 ties 0.1 (a half) and is above 0: 5.5/6. Schröder et al.'s Fig. 1 in
/// miniature: seven of eight words on each side at ±1 and one on the wrong side give d = 1.5
/// (means ±0.75, pooled SD 1) with 56 of 64 pairs in order; four words per side that separate
/// completely, but spread out within a side, give d ≈ 1.34.
#[test]
fn separability_is_the_share_of_pairs_in_order() {
    assert_eq!(separability(&[0.3, 0.1, 0.2], &[0.1, 0.0]), 5.5 / 6.0);
    assert_eq!(separability(&[0.0], &[0.0]), 0.5);
    assert!(separability(&[], &[1.0]).is_nan());
    let x = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0];
    let y = x.map(|v: f64| -v);
    let (x_top, y_top) = ([0.25, 0.25, 0.25, 1.0], [-1.0, 0.0, 0.0, 0.0]);
    let d = |x: &[f64], y: &[f64]| effect_size(x, y, SdKind::Population).unwrap().d;
    assert_eq!((separability(&x, &y), separability(&x_top, &y_top)), (0.875, 1.0));
    assert!((d(&x, &y) - 1.5).abs() < 1e-12);
    assert!((d(&x_top, &y_top) - 1.336_404_826_307_731).abs() < 1e-12);
}
