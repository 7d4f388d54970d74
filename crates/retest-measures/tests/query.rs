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
        // Each value against WEFE's (computed in the vectors' float32) and the transcription's
        // (float64), at the tolerance each allows.
        let check = |got: f64, key: &str, wefe: f64, numpy: Option<(&str, f64)>| {
            let want = |source: &str, measure: &str| reference.float(&format!("{source}.{test}.{measure}"));
            assert_within(got, want("query", key), wefe, &format!("wefe {test} {key}"));
            if let Some((measure, tolerance)) = numpy {
                assert_within(
                    got,
                    want("numpy", measure),
                    tolerance,
                    &format!("numpy {test} {measure}"),
                );
            }
        };
        for (name, attribute) in [("a", &a), ("b", &b)] {
            let key = |measure: &str| format!("{measure}.{name}");
            let got = rnd(&model, &x, &y, attribute).unwrap().value;
            check(got, &key("rnd"), 1e-6, Some((&key("rnd"), 1e-12)));
            check(ect(&model, &x, &y, attribute).unwrap(), &key("ect"), 1e-12, None);
            // The target sets paired word by word, as far as the shorter goes.
            let pairs: Vec<(u32, u32)> = x.iter().copied().zip(y.iter().copied()).collect();
            let got = ripa_query(&model, &pairs, attribute).unwrap();
            check(got, &key("ripa"), 1e-6, Some((&key("ripa"), 1e-12)));
        }
        check(
            mac(&model, &[&x, &y], &[&a, &b]).unwrap(),
            "mac",
            1e-6,
            Some(("mac", 1e-12)),
        );
        let seed = SeedPath::new(1);
        let all = RnsbOptions {
            holdout: 0.0,
            seed: &seed,
        };
        let got = rnsb(&model, &[&x, &y], &a, &b, &all).unwrap();
        // liblinear stops at its tolerance (1e-4); the optimum itself agrees to 1e-8.
        check(got, "rnsb", 1e-4, Some(("rnsb_exact", 1e-8)));
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
