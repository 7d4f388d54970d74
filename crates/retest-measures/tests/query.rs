//! RND, ECT, MAC, RNSB and RIPA against WEFE 1.0.1 and a numpy transcription of each definition
//! (`data/query_reference.py`), on Caliskan et al.'s tests 6–8 of a retest-trained seed
//! (`data/weat_trained_reference.txt`): targets x, y; attributes a, b.

use retest_measures::{RnsbOptions, ect, mac, ripa_query, rnd, rnsb};
use retest_rng::SeedPath;
use support::fixture::Fixture;

mod support;

const TRAINED: &str = include_str!("data/weat_trained_reference.txt");
const QUERIES: &str = include_str!("data/query_reference.txt");

fn assert_within(got: f64, want: f64, tolerance: f64, what: &str) {
    assert!(
        (got - want).abs() <= tolerance,
        "{what}: {got} against {want} (tolerance {tolerance})"
    );
}

#[test]
fn the_query_measures_equal_wefe_and_the_numpy_transcription() {
    let model_fx = Fixture::parse(TRAINED);
    let model = model_fx.model();
    let reference = Fixture::parse(QUERIES);
    let tests = model_fx.names("weat.");
    assert_eq!(tests, ["weat6", "weat7", "weat8"]);
    for test in &tests {
        let ids = |set: &str| model_fx.ids(&format!("weat.{test}.{set}"));
        let (x, y, a, b) = (ids("x"), ids("y"), ids("a"), ids("b"));
        for (name, attribute) in [("a", &a), ("b", &b)] {
            let key = |source: &str, measure: &str| format!("{source}.{test}.{measure}.{name}");
            let got = rnd(&model, &x, &y, attribute).unwrap().value;
            // WEFE computes in the vectors' float32; the transcription in float64.
            assert_within(
                got,
                reference.float(&key("query", "rnd")),
                1e-6,
                &key("wefe", "rnd"),
            );
            assert_within(
                got,
                reference.float(&key("numpy", "rnd")),
                1e-12,
                &key("numpy", "rnd"),
            );
            let got = ect(&model, &x, &y, attribute).unwrap();
            assert_within(
                got,
                reference.float(&key("query", "ect")),
                1e-12,
                &key("wefe", "ect"),
            );
            // The target sets paired word by word, as far as the shorter goes.
            let pairs: Vec<(u32, u32)> = x.iter().copied().zip(y.iter().copied()).collect();
            let got = ripa_query(&model, &pairs, attribute).unwrap();
            assert_within(
                got,
                reference.float(&key("query", "ripa")),
                1e-6,
                &key("wefe", "ripa"),
            );
            assert_within(
                got,
                reference.float(&key("numpy", "ripa")),
                1e-12,
                &key("numpy", "ripa"),
            );
        }
        let key = |source: &str, measure: &str| format!("{source}.{test}.{measure}");
        let got = mac(&model, &[&x, &y], &[&a, &b]).unwrap();
        assert_within(
            got,
            reference.float(&key("query", "mac")),
            1e-6,
            &key("wefe", "mac"),
        );
        assert_within(
            got,
            reference.float(&key("numpy", "mac")),
            1e-12,
            &key("numpy", "mac"),
        );
        let seed = SeedPath::new(1);
        let all = RnsbOptions {
            holdout: 0.0,
            seed: &seed,
        };
        let got = rnsb(&model, &[&x, &y], &a, &b, &all).unwrap();
        // liblinear stops at its tolerance (1e-4); the optimum itself agrees to 1e-8.
        assert_within(
            got,
            reference.float(&key("query", "rnsb")),
            1e-4,
            &key("wefe", "rnsb"),
        );
        assert_within(
            got,
            reference.float(&key("numpy", "rnsb_exact")),
            1e-8,
            &key("numpy", "rnsb_exact"),
        );
    }
}

/// With a holdout the fit sees fewer words: a value of its own, the same for the same seed, and
/// another for another seed.
#[test]
fn rnsb_with_a_holdout_is_reproducible_from_its_seed() {
    let fx = Fixture::parse(TRAINED);
    let model = fx.model();
    let ids = |set: &str| fx.ids(&format!("weat.weat7.{set}"));
    let (x, y, a, b) = (ids("x"), ids("y"), ids("a"), ids("b"));
    let run = |holdout: f64, seed: u64| {
        let seed = SeedPath::new(seed);
        rnsb(&model, &[&x, &y], &a, &b, &RnsbOptions { holdout, seed: &seed }).unwrap()
    };
    let (all, held, again, other) = (run(0.0, 1), run(0.2, 1), run(0.2, 1), run(0.2, 2));
    assert_eq!(held, again);
    assert_ne!(held, all);
    assert_ne!(held, other);
    let seed = SeedPath::new(1);
    assert_eq!(
        rnsb(
            &model,
            &[&x],
            &a,
            &b,
            &RnsbOptions {
                holdout: 1.0,
                seed: &seed
            }
        )
        .unwrap_err()
        .to_string(),
        "rnsb: the holdout must be in [0, 1), found 1"
    );
}
