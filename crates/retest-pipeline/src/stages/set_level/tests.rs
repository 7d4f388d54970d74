//! The set-level stage on a tiny model: six words in two dimensions, whose WEAT scores, Direct
//! Bias and Bakarov's detectors are worked out by hand, on two seeds.

use retest_analyses::WeatKind;
use retest_measures::{Model, PairList, Vocab, WordList};
use retest_spec::{Plan, RecipeFolder, WeatTest};

use super::tables::Configuration;
use super::{SeedValues, SetLevel};
use crate::lists::{Benchmarks, Lists, SetLevelLists, StereotypeList};
use crate::stages::vocab::CasedVocab;

const WORDS: [&str; 6] = ["he", "she", "man", "woman", "doctor", "nurse"];
const HE: u32 = 0;
const SHE: u32 = 1;
const MAN: u32 = 2;
const WOMAN: u32 = 3;

/// Seed 0: doctor (0.8, 0.6) leans to he (1, 0), nurse (0.6, 0.8) to she (0, 1); man and woman
/// point as he and she, twice as long. Seed 1: doctor is he's direction and nurse she's.
const SEED_0: [f32; 12] = [1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 2.0, 0.8, 0.6, 0.6, 0.8];
const SEED_1: [f32; 12] = [1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 1.0];

const C: Configuration<'static> = Configuration {
    corpus: "c",
    algorithm: "sgns",
};

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-6, "{a} vs {b}");
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn pairs(name: &str, pairs: &[(&str, &str)]) -> PairList {
    PairList {
        name: name.to_owned(),
        pairs: (pairs.iter())
            .map(|(m, f)| ((*m).to_owned(), (*f).to_owned()))
            .collect(),
    }
}

fn test(name: &str, [x, y, a, b]: [&[&str]; 4]) -> WeatTest {
    WeatTest {
        name: name.to_owned(),
        x: strings(x),
        y: strings(y),
        a: strings(a),
        b: strings(b),
    }
}

/// A plan with a `set_level` section: tests `t`, `u`, `v` and the query pair `career/family`.
fn plan() -> Plan {
    plan_with(
        "measures: {queries: [career, family]}\nset_level: {tests: [t, u, v], single_pair: [career/family], neutral: neutral}\n",
    )
}

/// A plan of one SGNS corpus `c` with the sections `sections` (YAML).
fn plan_with(sections: &str) -> Plan {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.yaml"),
        "name: c\nreader: {format: wikitext}\nsources:\n  - file: c.tokens\n",
    )
    .unwrap();
    let text = format!("name: p\ncorpora:\n  - recipe: c\nalgorithms: [sgns]\n{sections}");
    let recipes = RecipeFolder {
        dir: dir.path().to_owned(),
    };
    Plan::parse(&text, &dir.path().join("p.yaml"), &recipes).unwrap()
}

/// The stage of `plan` and `lists` on the tiny vocabulary, handed to `check`.
fn with_stage_of(plan: &Plan, lists: &Lists, check: impl FnOnce(&SetLevel<'_>)) {
    let words = strings(&WORDS);
    let vocab = Vocab::new(&words).unwrap();
    let cased = CasedVocab {
        vocab: &vocab,
        lowercase: false,
    };
    let stage = SetLevel::new(plan, lists, "c", "sgns", &[(HE, SHE), (MAN, WOMAN)], cased)
        .unwrap()
        .expect("the plan has a set_level section");
    check(&stage);
}

/// The lists: `u` has a word out of vocabulary, `v` a set with none in it; the stereotype list
/// has a definitional word (he) and one out of vocabulary.
fn lists() -> Lists {
    let word_list = |name: &str, words: &[&str]| WordList {
        name: name.to_owned(),
        words: strings(words),
    };
    let set_level = SetLevelLists {
        tests: vec![
            test("t", [&["doctor"], &["nurse"], &["he"], &["she"]]),
            test("u", [&["engineer", "doctor"], &["nurse"], &["man"], &["woman"]]),
            test("v", [&["zzz"], &["nurse"], &["he"], &["she"]]),
        ],
        neutral: word_list("neutral", &["nurse", "doctor", "ghost"]),
        definitional: pairs("definitional", &[("he", "she"), ("man", "woman")]),
        detectors: pairs("detectors", &[("he", "she")]),
        stereotypes: StereotypeList {
            name: "professions".to_owned(),
            words: vec![
                ("doctor".to_owned(), 0.0, 0.5),
                ("nurse".to_owned(), 0.1, -0.5),
                ("he".to_owned(), 0.9, 0.9),
                ("ghost".to_owned(), 0.0, 0.3),
            ],
        },
    };
    Lists {
        base_pairs: pairs("pairs", &[("he", "she"), ("man", "woman")]),
        targets: Vec::new(),
        queries: vec![
            word_list("career", &["doctor", "engineer"]),
            word_list("family", &["nurse"]),
        ],
        nbm_pool_exclude: Vec::new(),
        set_level: Some(set_level),
        analogies: None,
        base_pairs_analyses: None,
        validity: None,
        benchmarks: Benchmarks::default(),
        residual: None,
        subspace: None,
        debias: None,
        files: Vec::new(),
    }
}

/// The stage built on the tiny vocabulary, and the values of both seeds.
fn with_stage(check: impl FnOnce(&SetLevel<'_>, &Vocab<'_>, &[SeedValues])) {
    let (plan, lists, words) = (plan(), lists(), strings(&WORDS));
    let vocab = Vocab::new(&words).unwrap();
    let base_pairs = [(HE, SHE), (MAN, WOMAN)];
    let cased = CasedVocab {
        vocab: &vocab,
        lowercase: false,
    };
    let stage = SetLevel::new(&plan, &lists, "c", "sgns", &base_pairs, cased)
        .unwrap()
        .expect("the plan has a set_level section");
    let seeds: Vec<SeedValues> = [SEED_0, SEED_1]
        .iter()
        .enumerate()
        .map(|(s, raw)| {
            let model = Model::new(&words, raw, 2).unwrap();
            stage.measure_seed(&model, s as u32, Default::default()).unwrap()
        })
        .collect();
    check(&stage, &vocab, &seeds);
}

#[test]
fn the_lists_resolve_into_tests_coverage_and_notes() {
    with_stage(|stage, _, _| {
        let tests: Vec<(&str, WeatKind, &str)> = (stage.tests.iter())
            .map(|t| (t.name.as_str(), t.kind, t.attributes.as_str()))
            .collect();
        let pair = |ensemble| WeatKind::SinglePair {
            query_pair: 0,
            ensemble,
        };
        assert_eq!(
            tests,
            [
                ("t", WeatKind::Caliskan, ""),
                ("u", WeatKind::Caliskan, ""),
                ("career/family he:she", pair(false), "he:she"),
                ("career/family man:woman", pair(false), "man:woman"),
                ("career/family ensemble", pair(true), "ensemble"),
                ("professions", WeatKind::Stereotype, "ensemble"),
            ]
        );
        // u keeps its word in vocabulary; the ensemble is every pair's words; the stereotype
        // test leaves out he (definitional) and ghost (out of vocabulary).
        assert_eq!(stage.tests[1].x, [4]);
        assert_eq!(
            (&stage.tests[4].a, &stage.tests[4].b),
            (&vec![HE, MAN], &vec![SHE, WOMAN])
        );
        assert_eq!((&stage.tests[5].x, &stage.tests[5].y), (&vec![4], &vec![5]));
        assert_eq!(stage.neutral, [5, 4]);
        let coverage: Vec<(&str, &str, u32, &str)> = (stage.coverage.iter())
            .map(|r| (r.list.as_str(), r.kind.as_str(), r.n_dropped, r.dropped.as_str()))
            .collect();
        assert_eq!(coverage.len(), 3 + 3 * 4 + 2);
        assert_eq!(coverage[0], ("neutral", "neutral_words", 1, "ghost"));
        assert_eq!(coverage[1], ("definitional", "definitional_pairs", 0, ""));
        assert_eq!(coverage[7], ("u.x", "weat_set", 1, "engineer"));
        assert_eq!(coverage[11], ("v.x", "weat_set", 1, "zzz"));
        assert_eq!(coverage[15], ("professions.x", "weat_set", 1, "ghost"));
        assert_eq!(stage.skipped.len(), 2);
        assert!(stage.skipped[0].starts_with("corpus `c`: WEAT test `v` left out"));
        assert_eq!(
            stage.skipped[1],
            "corpus `c`: the stereotype WEAT of the 10 most stereotyped words of `professions` \
             (set_level.stereotype_extremes) left out: 1 masculine and 1 feminine words are in vocabulary, so it \
             would be the whole test"
        );
    });
}

/// With `stereotype_extremes: 1` and man and woman in the stereotype list as its most
/// stereotyped words, the stereotype test is also run on them alone, named `professions:top1`,
/// after the full test (man, doctor | woman, nurse, in list order).
#[test]
fn the_most_stereotyped_words_make_a_test_of_their_own() {
    let plan =
        plan_with("set_level: {tests: [], neutral: neutral, single_pair: [], stereotype_extremes: 1}\n");
    let mut lists = lists();
    let set_level = lists.set_level.as_mut().unwrap();
    set_level.tests.clear();
    set_level
        .stereotypes
        .words
        .extend([("man".to_owned(), 0.2, 0.9), ("woman".to_owned(), -0.2, -0.7)]);
    with_stage_of(&plan, &lists, |stage| {
        let tests: Vec<(&str, &[u32], &[u32])> = (stage.tests.iter())
            .map(|t| (t.name.as_str(), &t.x[..], &t.y[..]))
            .collect();
        assert_eq!(
            tests,
            [
                ("professions", &[4, MAN][..], &[5, WOMAN][..]),
                ("professions:top1", &[MAN][..], &[WOMAN][..])
            ]
        );
        assert!(stage.tests.iter().all(|t| t.kind == WeatKind::Stereotype));
        assert!(stage.skipped.is_empty(), "{:?}", stage.skipped);
    });
}

#[test]
fn one_seed_measured_by_hand() {
    with_stage(|_, _, seeds| {
        let v = &seeds[0].measures;
        // s(doctor) = cos(doctor, he) − cos(doctor, she) = 0.8 − 0.6, s(nurse) = −0.2; S = 0.4;
        // d = (0.2 − (−0.2))/σ with σ = 0.2 (population): 2. Every test has these words.
        for w in &v.weat {
            close(w.x_scores[0], 0.2);
            close(w.y_scores[0], -0.2);
            close(w.statistic, 0.4);
            close(w.effect_size.d, 2.0);
        }
        // Every direction is (1, −1)/√2 up to sign: |cos| of both neutral words 0.2/√2.
        let db = 0.2 / 2f64.sqrt();
        for &bias in &v.direct_bias {
            close(bias, db);
        }
        for &(cos_pca, _) in &seeds[0].directions {
            close(cos_pca.abs(), 1.0);
        }
        // ‖m̂ − f̂‖ of he and she: √2; the centred definitional pairs lie on one line.
        close(seeds[0].directions[0].1, 2f64.sqrt());
        close(seeds[0].explained_variance[0], 1.0);
        // OS along he:she: nurse −0.2/√2, doctor 0.2/√2. GD: nurse ‖n − she‖ − ‖n − he‖ =
        // √0.4 − √0.8, doctor the opposite, summing to 0.
        close(v.os.value, db);
        close(v.os.projections[0], -db);
        close(v.gd.per_word[0], 0.4f64.sqrt() - 0.8f64.sqrt());
        close(v.gd.value, 0.0);
        // MAC: 1 − cos of doctor and nurse with he and she: (0.2 + 0.4 + 0.4 + 0.2)/4.
        close(v.query.mac[0], 0.3);
        // RND of the detector pair he:she, feminine first: nurse's term is GD's, √0.4 − √0.8, and
        // doctor's the opposite; their mean 0. ECT: she's cosines (0.8, 0.6) rank opposite to
        // he's (0.6, 0.8): −1.
        close(v.query.rnd.per_word[0], 0.4f64.sqrt() - 0.8f64.sqrt());
        close(v.query.rnd.value, 0.0);
        close(v.query.ect, -1.0);
        // RNSB: he (+1) against she (−1). By symmetry w = (ω, −ω), b = 0, and the gradient
        // vanishes at ω = σ(−ω); P(she-class) of doctor σ(−0.2ω), of nurse σ(0.2ω), summing to 1.
        let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
        let mut omega = 0.5;
        for _ in 0..200 {
            omega = sigmoid(-omega);
        }
        let (p, q) = (sigmoid(-0.2 * omega), sigmoid(0.2 * omega));
        close(v.query.rnsb[0], p * (2.0 * p).ln() + q * (2.0 * q).ln());
        // Seed 1: doctor is he, nurse is she: s = ±1, Direct Bias 1/√2.
        close(seeds[1].measures.weat[0].x_scores[0], 1.0);
        close(seeds[1].measures.direct_bias[0], 0.5f64.sqrt());
    });
}

#[test]
fn the_rows_of_each_seed_are_labelled() {
    with_stage(|stage, vocab, seeds| {
        let (weat, words) = stage.weat_rows(C, vocab, seeds);
        assert_eq!(weat.len(), 2 * 6);
        let families: Vec<&str> = weat[..6].iter().map(|r| r.family.as_str()).collect();
        assert_eq!(
            families,
            [
                "caliskan",
                "caliskan",
                "single_pair",
                "single_pair",
                "single_pair",
                "stereotype"
            ]
        );
        assert_eq!((weat[6].seed, weat[6].test.as_str()), (1, "t"));
        assert_eq!((weat[0].weat.n_x, weat[0].weat.n_a), (1, 1));
        let first: Vec<(&str, &str)> = words[..2]
            .iter()
            .map(|r| (r.set.as_str(), r.word.as_str()))
            .collect();
        assert_eq!(first, [("x", "doctor"), ("y", "nurse")]);
        close(words[1].score, -0.2);
        let directions = stage.direction_rows(C, seeds);
        let names: Vec<&str> = directions[..3].iter().map(|r| r.direction.as_str()).collect();
        assert_eq!(names, ["he:she", "man:woman", "pca"]);
        assert!(directions[0].explained_variance.is_nan());
        close(directions[2].explained_variance, 1.0);
        close(directions[3].direct_bias, 0.5f64.sqrt());
        assert_eq!((directions[3].seed, directions[3].n_words), (1, 2));
    });
}

#[test]
fn the_designs_across_seeds_are_labelled() {
    with_stage(|stage, _, seeds| {
        let icc = stage.reliability_rows(C, seeds);
        let labels: Vec<(&str, &str, &str)> = (icc.iter())
            .map(|r| (r.measure.as_str(), r.scope.as_str(), r.subjects.as_str()))
            .collect();
        let score = |test| ("weat_score", test, "words");
        assert_eq!(
            labels,
            [
                score("t"),
                score("u"),
                score("career/family he:she"),
                score("career/family man:woman"),
                score("career/family ensemble"),
                score("professions"),
                ("weat_effect_size", "caliskan", "tests"),
                ("weat_effect_size", "career/family", "base_pairs"),
                ("direct_bias", "neutral", "directions"),
                ("pca_projection", "neutral", "words"),
                ("os_projection", "neutral", "words"),
                ("gd_term", "neutral", "words"),
                ("mac", "caliskan", "tests"),
                ("rnsb", "caliskan", "tests"),
                ("mac", "career/family", "base_pairs"),
                ("rnsb", "career/family", "base_pairs"),
                ("rnd_term", "neutral", "words"),
            ]
        );
        // t's words × seeds [[0.2, 1], [−0.2, −1]]: MSR = 2·(0.6² + 0.6²) = 1.44, MSC = 0, MSE =
        // 4·0.4² = 0.64 → (1.44 − 0.64)/(1.44 + 0.64 + 2·(0 − 0.64)/2) = 0.8/1.44 = 5/9.
        close(icc[0].stats.icc, 5.0 / 9.0);
        assert_eq!((icc[0].stats.n_subjects, icc[0].stats.n_raters), (2, 2));

        let rule_bias = [("dbwa".to_owned(), vec![0.1, 0.3])];
        let spread = stage.spread_rows(C, seeds, &[0.9], &rule_bias);
        let labels: Vec<(&str, &str)> = (spread.iter())
            .map(|r| (r.measure.as_str(), r.subject.as_str()))
            .collect();
        assert_eq!(labels.len(), 5 * 6 + 3 + 2 * 6 + 6 + 1);
        assert_eq!(
            labels[..5],
            [
                ("weat_effect_size", "t"),
                ("weat_statistic", "t"),
                ("weat_p_value", "t"),
                ("attribute_difference", "t"),
                ("weat_separability", "t")
            ]
        );
        assert_eq!(
            labels[30..35],
            [
                ("direct_bias", "he:she"),
                ("direct_bias", "man:woman"),
                ("direct_bias", "pca"),
                ("mac", "t"),
                ("rnsb", "t"),
            ]
        );
        assert_eq!(
            labels[45..],
            [
                ("pca_explained_variance", "pca"),
                ("pca_stability", "pca"),
                ("os", "neutral"),
                ("gd", "neutral"),
                ("rnd", "neutral"),
                ("ect", "neutral"),
                ("mean_abs_score", "dbwa"),
            ]
        );
        // t's statistic: 0.4 on seed 0, 1 − (−1) = 2 on seed 1.
        close(spread[1].spread.mean, 1.2);
        close(spread[46].spread.mean, 0.9);
        close(spread[51].spread.mean, 0.2);
        // t's ‖â − b̂‖: he (1, 0) against she (0, 1) on both seeds, √2.
        close(spread[3].spread.mean, 2f64.sqrt());
        // t's separability: doctor above nurse on both seeds.
        close(spread[4].spread.mean, 1.0);

        let agreement = stage.agreement_rows(C, seeds, &rule_bias);
        let pairs: Vec<(&str, &str)> = (agreement.iter())
            .map(|r| (r.measure_a.as_str(), r.measure_b.as_str()))
            .collect();
        assert_eq!(pairs.len(), 36);
        assert_eq!(pairs[0], ("weat_effect_size", "direct_bias_pca"));
        assert_eq!(pairs[35], ("ect", "dbwa"));
    });
}

/// With `analogy_benchmark: true` the Google set's 3CosAdd accuracy is a quality benchmark: on
/// both seeds he : she :: man : ? and man : woman :: he : ? are answered (woman, she) and
/// he : she :: doctor : ? is not (woman, closer to she + doctor − he than nurse): 2 of 3, as
/// `retest eval` scores it; it has its spread and its agreement series beside the similarity
/// benchmarks'.
#[test]
fn the_google_analogy_accuracy_is_a_quality_benchmark() {
    let plan =
        plan_with("set_level: {tests: [t], neutral: neutral, single_pair: [], analogy_benchmark: true}\n");
    let dir = tempfile::tempdir().unwrap();
    let google = dir.path().join("questions-words.txt");
    std::fs::write(
        &google,
        ": family\nhe she man woman\nman woman he she\nhe she doctor nurse\n",
    )
    .unwrap();
    let mut lists = lists();
    lists.benchmarks.google = Some(google.clone());
    let words = strings(&WORDS);
    with_stage_of(&plan, &lists, |stage| {
        let set = retest_eval::read_analogies(&google).unwrap();
        let seeds: Vec<SeedValues> = [SEED_0, SEED_1]
            .iter()
            .enumerate()
            .map(|(s, raw)| {
                let emb = retest_embeddings::Embeddings::new(words.clone(), 2, raw.to_vec()).unwrap();
                let quality = stage.quality(&emb);
                let analogy = quality.analogy.as_ref().unwrap();
                assert_eq!(analogy, &retest_eval::evaluate_analogies(&emb, &set));
                assert_eq!((analogy.correct, analogy.attempted), (2, 3));
                let model = Model::new(&words, raw, 2).unwrap();
                stage.measure_seed(&model, s as u32, quality).unwrap()
            })
            .collect();
        let quality = super::tables::quality_rows(C, &seeds);
        let google_rows: Vec<(u32, f64, u32)> = (quality.iter())
            .filter(|r| r.benchmark == "google")
            .map(|r| (r.seed, r.accuracy, r.pairs_used))
            .collect();
        assert_eq!(google_rows, [(0, 2.0 / 3.0, 3), (1, 2.0 / 3.0, 3)]);
        assert!((quality.iter().filter(|r| r.benchmark != "google")).all(|r| r.accuracy.is_nan()));
        let spread = stage.spread_rows(C, &seeds, &[0.9], &[]);
        let accuracy = (spread.iter())
            .find(|r| r.measure == "analogy_accuracy" && r.subject == "google")
            .unwrap();
        close(accuracy.spread.mean, 2.0 / 3.0);
        let agreement = stage.agreement_rows(C, &seeds, &[]);
        assert!(agreement.iter().any(|r| r.measure_b == "analogy_accuracy:google"));
    });
}
