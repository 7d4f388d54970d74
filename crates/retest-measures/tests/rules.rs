//! The scoring rules on hand-computed 3-d examples and on their laws: swapping (m, f) flips every
//! sign, and a rotation of the whole space changes nothing; NBM equals a brute-force reference.

mod support;

use retest_measures::{MeasureError, Model, NbmPool, NeighbourPool, RipaTarget, Rule, ScoreOptions, score};
use retest_test_support::{RandomData, assert_names_round_trip, error_line, rotate};

/// This crate's random test data (its own stream family).
const DATA: RandomData = RandomData::new("retest-measures-tests");

/// he, she, and four targets in 3-d. Hand computation (w = (3, 4, 0), ‖w‖ = 5):
/// DB/WA(w) = 3/5 − 4/5 = −0.2; m − f = (2, −1, 0), ‖m − f‖ = √5, w·(m − f) = 2,
/// so RIPA_raw(w) = 2/√5 and RIPA_normalized(w) = 2/(5√5).
/// x = (1, 1, 1) is equidistant from he and she: DB/WA(x) = 0 exactly (a masculine tie in NBM).
fn toy() -> (Vec<String>, Vec<f32>) {
    let words = ["he", "she", "w", "x", "y", "z"].map(String::from).to_vec();
    #[rustfmt::skip]
    let raw = vec![
        2.0, 0.0, 0.0, // he
        0.0, 1.0, 0.0, // she
        3.0, 4.0, 0.0, // w
        1.0, 1.0, 1.0, // x
        0.0, 3.0, 1.0, // y
        4.0, 1.0, 0.0, // z
    ];
    (words, raw)
}

fn opts(k: usize) -> ScoreOptions<'static> {
    ScoreOptions {
        nbm_k: k,
        ..ScoreOptions::paper(1)
    }
}

/// `opts(k)` with each RIPA target, raw first.
fn opts_each_ripa_target(k: usize) -> [ScoreOptions<'static>; 2] {
    [RipaTarget::Raw, RipaTarget::Normalized].map(|ripa_target| ScoreOptions {
        ripa_target,
        ..opts(k)
    })
}

#[test]
fn hand_computed_three_dimensional_example() {
    let (words, raw) = toy();
    let model = Model::new(&words, &raw, 3).unwrap();
    let pairs = [(0, 1)];
    let targets = [2, 3, 5];
    let b = score(&model, &pairs, &targets, &Rule::ALL, &opts(3)).unwrap();
    let close = |a: f32, b: f64| (f64::from(a) - b).abs() < 1e-7;
    // DB/WA.
    assert!(close(b.get(Rule::Dbwa, 0, 0).unwrap(), -0.2));
    assert_eq!(b.get(Rule::Dbwa, 0, 1).unwrap(), 0.0);
    assert!(close(b.get(Rule::Dbwa, 0, 2).unwrap(), 3.0 / 17f64.sqrt()));
    // RIPA on the raw target vector (the paper) ...
    assert!(close(b.get(Rule::Ripa, 0, 0).unwrap(), 2.0 / 5f64.sqrt()));
    assert!(close(b.get(Rule::Ripa, 0, 1).unwrap(), 1.0 / 5f64.sqrt()));
    assert!(close(b.get(Rule::Ripa, 0, 2).unwrap(), 7.0 / 5f64.sqrt()));
    // ... and on the unit vector (Du et al.'s code).
    let o = ScoreOptions {
        ripa_target: RipaTarget::Normalized,
        ..opts(3)
    };
    let n = score(&model, &pairs, &targets, &[Rule::Ripa], &o).unwrap();
    assert!(close(n.get(Rule::Ripa, 0, 0).unwrap(), 2.0 / (5.0 * 5f64.sqrt())));
    assert!(close(
        n.get(Rule::Ripa, 0, 1).unwrap(),
        1.0 / (3f64.sqrt() * 5f64.sqrt())
    ));
    // NBM, k = 3. Neighbours of w by cosine: x 0.808, she 0.800, z 0.776 (y 0.759, he 0.600);
    // labels: x tie ⇒ masculine, she feminine, z masculine ⇒ (2 − 1)/3.
    assert!(close(b.get(Rule::Nbm, 0, 0).unwrap(), 1.0 / 3.0));
    // Neighbours of z: he 0.970, w 0.776, x 0.700 ⇒ m, f, m ⇒ 1/3.
    assert!(close(b.get(Rule::Nbm, 0, 2).unwrap(), 1.0 / 3.0));
    // k = 2 for w: x (m), she (f) ⇒ 0.
    let b2 = score(&model, &pairs, &[2], &[Rule::Nbm], &opts(2)).unwrap();
    assert_eq!(b2.get(Rule::Nbm, 0, 0).unwrap(), 0.0);
}

#[test]
fn swapping_the_pair_flips_every_sign() {
    let (n, dim) = (300, 20);
    let words = support::words(n);
    let raw = DATA.gaussian(n, dim, 1);
    let model = Model::new(&words, &raw, dim).unwrap();
    let pairs = [(0, 1), (5, 9), (100, 42)];
    let swapped: Vec<(u32, u32)> = pairs.iter().map(|&(m, f)| (f, m)).collect();
    let targets: Vec<u32> = (0..n as u32).collect();
    for o in opts_each_ripa_target(10) {
        let a = score(&model, &pairs, &targets, &Rule::ALL, &o).unwrap();
        let b = score(&model, &swapped, &targets, &Rule::ALL, &o).unwrap();
        for (x, y) in a.values().iter().zip(b.values()) {
            assert_eq!(*x, -*y);
        }
    }
}

#[test]
fn rules_are_invariant_under_a_rotation_of_the_whole_space() {
    let (n, dim) = (300, 16);
    let words = support::words(n);
    let raw = DATA.gaussian(n, dim, 2);
    let rotated = rotate(&raw, &DATA.random_orthogonal(dim, 3), dim);
    let a_model = Model::new(&words, &raw, dim).unwrap();
    let b_model = Model::new(&words, &rotated, dim).unwrap();
    let pairs = [(0, 1), (2, 3)];
    let targets: Vec<u32> = (0..n as u32).collect();
    for o in opts_each_ripa_target(10) {
        let a = score(&a_model, &pairs, &targets, &Rule::ALL, &o).unwrap();
        let b = score(&b_model, &pairs, &targets, &Rule::ALL, &o).unwrap();
        for rule in [Rule::Dbwa, Rule::Ripa] {
            for p in 0..pairs.len() {
                for (x, y) in a.scores(rule, p).unwrap().iter().zip(b.scores(rule, p).unwrap()) {
                    assert!((x - y).abs() < 1e-5, "{rule}: {x} vs {y}");
                }
            }
        }
        for p in 0..pairs.len() {
            assert_eq!(a.scores(Rule::Nbm, p), b.scores(Rule::Nbm, p), "nbm, pair {p}");
        }
    }
}

#[test]
fn dbwa_and_ripa_equal_independent_f64_references() {
    let (n, dim) = (50, 7);
    let words = support::words(n);
    let raw = DATA.gaussian(n, dim, 4);
    let model = Model::new(&words, &raw, dim).unwrap();
    let pairs = [(3, 4), (10, 0)];
    let targets: Vec<u32> = (0..n as u32).rev().collect();
    let raw_opts = opts(5);
    let norm_opts = ScoreOptions {
        ripa_target: RipaTarget::Normalized,
        ..raw_opts
    };
    let b = score(&model, &pairs, &targets, &[Rule::Ripa, Rule::Dbwa], &raw_opts).unwrap();
    let bn = score(&model, &pairs, &targets, &[Rule::Ripa], &norm_opts).unwrap();
    assert_eq!(b.rules(), [Rule::Ripa, Rule::Dbwa]);
    for (p, &(m, f)) in pairs.iter().enumerate() {
        let (vm, vf) = (support::row(&raw, dim, m), support::row(&raw, dim, f));
        let diff: Vec<f64> = vm.iter().zip(&vf).map(|(a, b)| a - b).collect();
        let dnorm = support::dot(&diff, &diff).sqrt();
        for (t, &w) in targets.iter().enumerate() {
            let vw = support::row(&raw, dim, w);
            let ripa = support::dot(&vw, &diff) / dnorm;
            let expect_dbwa = support::dbwa(&raw, dim, w, m, f) as f32;
            assert!((b.get(Rule::Dbwa, p, t).unwrap() - expect_dbwa).abs() < 1e-6);
            assert!((b.get(Rule::Ripa, p, t).unwrap() - ripa as f32).abs() < 1e-5);
            let ripa_n = ripa / support::dot(&vw, &vw).sqrt();
            assert!((bn.get(Rule::Ripa, p, t).unwrap() - ripa_n as f32).abs() < 1e-6);
        }
    }
    assert_eq!(b.get(Rule::Nbm, 0, 0), None);
}

#[test]
fn nbm_equals_brute_force_for_the_vocabulary_and_a_neutral_pool() {
    let (n, dim, k) = (120, 6, 7);
    let words = support::words(n);
    let raw = DATA.gaussian(n, dim, 5);
    let model = Model::new(&words, &raw, dim).unwrap();
    let pairs = [(0, 1), (7, 3), (50, 60)];
    let all: Vec<u32> = (0..n as u32).collect();
    let subset: Vec<u32> = vec![119, 0, 7, 33, 33, 80];
    let pool: Vec<u32> = (0..n as u32).filter(|i| i % 4 != 1).collect();
    // Over half the vocabulary, reversed: searched as all words, then picked.
    let most: Vec<u32> = (0..n as u32).rev().filter(|i| i % 5 != 0).chain([3, 3]).collect();
    // Placeholder tokens left out of the vocabulary pool (7 is also a pair word).
    let excluded = [7, 42];
    let kept: Vec<u32> = all.iter().copied().filter(|i| !excluded.contains(i)).collect();
    let cases: [(&[u32], NeighbourPool<'_>, &[u32]); 8] = [
        (&all, NeighbourPool::Vocabulary, &all),
        (&subset, NeighbourPool::Vocabulary, &all),
        (&most, NeighbourPool::Vocabulary, &all),
        (&all, NeighbourPool::VocabularyExcept(&excluded), &kept),
        (&subset, NeighbourPool::VocabularyExcept(&excluded), &kept),
        (&most, NeighbourPool::VocabularyExcept(&excluded), &kept),
        (&all, NeighbourPool::Neutral(&pool), &pool),
        (&subset, NeighbourPool::Neutral(&pool), &pool),
    ];
    for (targets, nbm_pool, pool_ids) in cases {
        for threads in [1, 2] {
            let o = ScoreOptions {
                nbm_pool,
                threads,
                ..opts(k)
            };
            let b = score(&model, &pairs, targets, &[Rule::Nbm], &o).unwrap();
            for (p, &(m, f)) in pairs.iter().enumerate() {
                for (t, &w) in targets.iter().enumerate() {
                    let expect = support::nbm(&raw, dim, w, m, f, k, pool_ids) as f32;
                    assert_eq!(
                        b.get(Rule::Nbm, p, t).unwrap(),
                        expect,
                        "{:?} w{w} pair {p}",
                        nbm_pool.kind()
                    );
                }
            }
        }
    }
    assert_eq!(NeighbourPool::Neutral(&pool).kind(), NbmPool::Neutral);
    assert_eq!(
        NeighbourPool::VocabularyExcept(&excluded).kind(),
        NbmPool::Vocabulary
    );
}

#[test]
fn nearest_similarity_is_the_top_cosine_outside_the_excluded_words() {
    let (n, dim) = (90, 5);
    let words = support::words(n);
    let raw = DATA.gaussian(n, dim, 11);
    let model = Model::new(&words, &raw, dim).unwrap();
    let targets: Vec<u32> = vec![0, 3, 89, 42, 17];
    for excluded in [&[][..], &[3, 50, 61][..]] {
        let nearest = retest_measures::nearest_similarity(&model, &targets, excluded, 2).unwrap();
        for (&t, &got) in targets.iter().zip(&nearest) {
            let best = (0..n as u32)
                .filter(|&o| o != t && !excluded.contains(&o))
                .map(|o| support::cos(&support::row(&raw, dim, t), &support::row(&raw, dim, o)))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!((f64::from(got) - best).abs() < 1e-6, "word {t}: {got} vs {best}");
        }
        // The same values NBM's search gives as a by-product.
        let o = ScoreOptions {
            nbm_pool: NeighbourPool::VocabularyExcept(excluded),
            ..opts(4)
        };
        let b = score(&model, &[(1, 2)], &targets, &[Rule::Nbm], &o).unwrap();
        assert_eq!(b.nearest_similarity().unwrap(), nearest.as_slice());
    }
}

#[test]
fn nbm_excludes_the_word_itself_by_identity() {
    // Word 1 duplicates word 0: for k = 1 each is the other's only neighbour.
    let words = support::words(4);
    #[rustfmt::skip]
    let raw = [
        1.0, 0.2, // w0
        1.0, 0.2, // w1 = w0
        1.0, 0.0, // w2: masculine pole
        0.0, 1.0, // w3: feminine pole
    ];
    let model = Model::new(&words, &raw, 2).unwrap();
    let b = score(&model, &[(2, 3)], &[0, 1], &[Rule::Nbm], &opts(1)).unwrap();
    assert_eq!(b.scores(Rule::Nbm, 0).unwrap(), &[1.0, 1.0]);
}

#[test]
fn rule_names_round_trip_and_unknown_rules_list_the_known_ones() {
    assert_names_round_trip(
        &Rule::ALL,
        Rule::as_str,
        "weat",
        "unknown scoring rule 'weat': expected one of dbwa, ripa, nbm",
    );
    assert!("DBWA".parse::<Rule>().is_err());
    assert_eq!(RipaTarget::Normalized.as_str(), "normalized");
    assert_eq!(NbmPool::Vocabulary.as_str(), "vocabulary");
}

#[test]
fn bad_calls_are_refused_with_clear_messages() {
    let (words, raw) = toy();
    let model = Model::new(&words, &raw, 3).unwrap();
    let err =
        |r: Result<_, MeasureError>| error_line(&r.map(|_: retest_measures::BiasScores| ()).unwrap_err());
    assert_eq!(
        err(score(
            &model,
            &[(0, 1)],
            &[2],
            &[Rule::Dbwa, Rule::Dbwa],
            &opts(2)
        )),
        "scoring rule 'dbwa' is listed twice"
    );
    assert_eq!(
        err(score(&model, &[(0, 0)], &[2], &[Rule::Dbwa], &opts(2))),
        "base pair (he, he): the two words are the same"
    );
    assert_eq!(
        err(score(&model, &[(0, 1)], &[6], &[Rule::Dbwa], &opts(2))),
        "targets: word id 6 is out of range for a vocabulary of 6"
    );
    assert_eq!(
        err(score(&model, &[(0, 1)], &[2], &[Rule::Nbm], &opts(6))),
        "nbm neighbour search: asked for k = 6 neighbours but only 5 candidates are available per query"
    );
    let dup = ["he", "she", "he"].map(String::from);
    assert_eq!(
        Model::new(&dup, &[0.0; 6], 2).unwrap_err().to_string(),
        "model: the word 'he' occurs twice in the vocabulary (ids 0 and 2)"
    );
    let zero_words = ["a", "b"].map(String::from);
    let zero = Model::new(&zero_words, &[1.0, 0.0, 0.0, 0.0], 2).unwrap();
    assert_eq!(
        err(score(&zero, &[(0, 1)], &[0], &[Rule::Ripa], &opts(1))),
        "base pair (a, b): a word has a zero vector"
    );
    assert_eq!(
        Model::new(&zero_words, &[1.0, 0.0, 0.0], 2)
            .unwrap_err()
            .to_string(),
        "model: 2 words × dim 2 need 4 values, found 3"
    );
}

/// A target whose vector is all zeros has no direction: NaN under every rule (DB/WA's cosine,
/// RIPA's projection and NBM's neighbours would all be arbitrary), listed by the scores; the
/// other targets keep their values.
#[test]
fn a_zero_target_vector_scores_nan_under_every_rule() {
    let (mut words, mut raw) = toy();
    words.push("zero".into());
    raw.extend([0.0, 0.0, 0.0]);
    let model = Model::new(&words, &raw, 3).unwrap();
    let rules = [Rule::Dbwa, Rule::Ripa, Rule::Nbm];
    let scores = score(&model, &[(0, 1)], &[2, 6, 3], &rules, &opts(2)).unwrap();
    assert_eq!(scores.zero_vector_targets(), [1]);
    for rule in rules {
        let values = scores.scores(rule, 0).unwrap();
        assert!(values[1].is_nan(), "{rule:?}: {values:?}");
        assert!(
            values[0].is_finite() && values[2].is_finite(),
            "{rule:?}: {values:?}"
        );
    }
    assert!((scores.get(Rule::Dbwa, 0, 0).unwrap() - (-0.2)).abs() < 1e-6);
    let (words, raw) = toy();
    let model = Model::new(&words, &raw, 3).unwrap();
    let scores = score(&model, &[(0, 1)], &[2, 3], &rules, &opts(2)).unwrap();
    assert!(scores.zero_vector_targets().is_empty());
}
