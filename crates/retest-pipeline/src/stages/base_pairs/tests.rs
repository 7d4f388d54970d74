//! The base-pair stage on a tiny hand-built model: resolve, measure two seeds and build the
//! tables, checking a few values computed by hand and how the rows are labelled.
//!
//! In two dimensions: he (1, 0), she (0, 1), man (1, 1), woman (1, −1), He (2, 0), She (0, 2).
//! RIPA under he/she is w · (1, −1)/√2, under man/woman w · (0, 2)/2 = w_y, under He/She
//! w · (2, −2)/(2√2), the same as under he/she. nurse (−1, 2) scores −3/√2 (feminine), 2
//! (masculine); doctor (2, 1) scores 1/√2, 1 (masculine under both). DB/WA gives the same labels:
//! nurse −3/√5 and 4/√10, doctor 1/√5 and 2/√10.

use std::f64::consts::SQRT_2;

use retest_measures::{Model, PairList, RipaTarget, Rule, Vocab};
use retest_rng::SeedPath;
use retest_spec::BasePairParams;
use retest_tables::{
    BasePairAgreementRow, BasePairBaselineRow, BasePairKappaRow, BasePairScoreRow, BasePairSeedsRow,
    BasePairVarianceRow, Row, Table,
};

use super::{BasePairSeed, BasePairSetup, BasePairs, NOT_APPLICABLE, Names, OUT_OF_VOCABULARY};
use crate::lists::{BasePairLists, TruthList};

/// The vocabulary, most frequent first, and its vectors.
const ROWS: [(&str, [f32; 2]); 13] = [
    ("nurse", [-1.0, 2.0]),
    ("doctor", [2.0, 1.0]),
    ("he", [1.0, 0.0]),
    ("she", [0.0, 1.0]),
    ("man", [1.0, 1.0]),
    ("woman", [1.0, -1.0]),
    ("He", [2.0, 0.0]),
    ("She", [0.0, 2.0]),
    ("nurses", [-1.0, 3.0]),
    ("lion", [2.0, -1.0]),
    ("lioness", [-1.0, 1.0]),
    ("table", [3.0, 1.0]),
    ("chair", [1.0, 3.0]),
];

fn words() -> Vec<String> {
    ROWS.iter().map(|(w, _)| (*w).to_owned()).collect()
}

fn vectors() -> Vec<f32> {
    ROWS.iter().flat_map(|(_, v)| *v).collect()
}

/// The two most frequent words are the limited vocabulary and NBM's neutral pool (k = 1).
fn params(nbm_k: u32) -> BasePairParams {
    BasePairParams {
        pairs: "pairs".into(),
        professions: "professions".into(),
        truth: vec!["animals".into()],
        pool_exclude: vec![],
        most_frequent: 2,
        nbm_k,
        flip: [["he".into(), "she".into()], ["man".into(), "woman".into()]],
        example: "nurse".into(),
        random_samples: 20,
    }
}

fn lists() -> BasePairLists {
    let pair = |m: &str, f: &str| (m.to_owned(), f.to_owned());
    BasePairLists {
        pairs: PairList {
            name: "pairs".into(),
            pairs: vec![pair("he", "she"), pair("man", "woman"), pair("king", "queen")],
        },
        professions: vec!["nurse".into(), "doctor".into(), "astronaut".into()],
        truth: vec![TruthList {
            name: "animals".into(),
            words: vec![
                ("lion".into(), true),
                ("lioness".into(), false),
                ("unicorn".into(), true),
            ],
        }],
        pool_exclude: vec![],
    }
}

fn resolve<'p>(
    params: &'p BasePairParams,
    vocab: &Vocab<'_>,
    lowercase: bool,
) -> anyhow::Result<BasePairs<'p>> {
    let setup = BasePairSetup {
        params,
        rules: vec![Rule::Dbwa, Rule::Ripa],
        ripa_target: RipaTarget::Raw,
        lowercase,
        root: SeedPath::new(7).with("base-pairs"),
        names: Names::PIPELINE,
    };
    BasePairs::resolve(setup, &lists(), "tiny", "sgns", vocab)
}

/// The two seeds' results (the same model twice) and the stage's tables.
fn measured(across_seeds: bool) -> (Vec<BasePairSeed>, Vec<Table>) {
    let (words, vectors) = (words(), vectors());
    let vocab = Vocab::new(&words).unwrap();
    let model = Model::new(&words, &vectors, 2).unwrap();
    let params = params(1);
    let stage = resolve(&params, &vocab, false).unwrap();
    let seeds: Vec<BasePairSeed> = (0..2)
        .map(|s| stage.measure_seed(&model, s, 1).unwrap())
        .collect();
    let tables = stage.tables_for(&seeds, across_seeds).unwrap();
    (seeds, tables)
}

fn rows<R: Row<Layout = ()>>(tables: &[Table], position: usize) -> Vec<R> {
    tables[position].rows().unwrap()
}

fn close(a: f64, b: f64, tolerance: f64) {
    assert!((a - b).abs() < tolerance, "{a} vs {b}");
}

#[test]
fn resolve_places_each_word_once_and_says_what_is_left_out() {
    let (words, params) = (words(), params(1));
    let vocab = Vocab::new(&words).unwrap();
    let b = resolve(&params, &vocab, false).unwrap();
    assert_eq!(b.pair_names, ["he/she", "man/woman"]);
    // The listed pairs, then He/She; the flip pairs are the listed ones.
    assert_eq!(b.scored_pairs, [(2, 3), (4, 5), (6, 7)]);
    assert_eq!(b.capitalised, [Ok("He/She".to_owned()), Err(OUT_OF_VOCABULARY)]);
    assert_eq!(b.design.capitalised, [Some(2), None]);
    assert_eq!(b.design.flip, Some((0, 1)));
    // Limited vocabulary and professions (nurse, doctor), the truth list (lion, lioness), the
    // example's plural (nurses).
    assert_eq!(b.targets, [0, 1, 9, 10, 8]);
    assert_eq!(b.design.limited, [0, 1]);
    assert_eq!(b.design.words, [0, 1]);
    assert_eq!(b.profession_words, ["nurse", "doctor"]);
    assert_eq!(b.design.truth[0].targets, [2, 3]);
    assert_eq!(b.design.truth[0].masculine, [true, false]);
    assert_eq!(
        b.example,
        [
            ("base", "nurse".to_owned(), 0),
            ("plural", "nurses".to_owned(), 4)
        ]
    );
    // No profession has a plural, Capitalised and UPPER form.
    assert!(b.design.form_words.is_empty());
    assert_eq!(
        b.notes,
        [
            "corpus `tiny`: no word of `professions` has its plural, Capitalised and UPPER forms in the vocabulary: \
          no word-form agreement"
        ]
    );
    let coverage: Vec<(&str, &str, u32, &str)> = (b.coverage.iter())
        .map(|c| {
            (
                c.list.as_str(),
                c.kind.as_str(),
                c.n_in_vocabulary,
                c.dropped.as_str(),
            )
        })
        .collect();
    assert_eq!(
        coverage,
        [
            ("pairs", "base_pairs", 2, "king/queen"),
            ("professions", "target_words", 2, "astronaut"),
            ("animals", "truth_words", 2, "unicorn"),
            ("neutral-pool", "nbm_pool", 2, "")
        ]
    );
    assert_eq!(b.pool, [0, 1]);
    assert_eq!(b.random_words.len(), ROWS.len());
}

#[test]
fn a_lowercased_corpus_has_no_capitalised_pairs_or_cased_forms() {
    let (words, params) = (words(), params(1));
    let vocab = Vocab::new(&words).unwrap();
    let b = resolve(&params, &vocab, true).unwrap();
    assert_eq!(b.capitalised, [Err(NOT_APPLICABLE), Err(NOT_APPLICABLE)]);
    assert_eq!(b.scored_pairs, [(2, 3), (4, 5)]);
    // Only a plural is needed: nurse (nurses, placed third) has one, doctor not.
    assert_eq!(b.design.form_words, [0]);
    assert_eq!(b.design.forms, [Some(vec![2]), None, None]);
    assert_eq!(
        b.notes,
        [
            "corpus `tiny` is lowercased: capitalised pairs and the Capitalised and UPPER forms are not applicable"
        ]
    );
}

#[test]
fn resolve_refuses_a_pool_no_larger_than_k() {
    let (words, params) = (words(), params(2));
    let vocab = Vocab::new(&words).unwrap();
    let err = resolve(&params, &vocab, false).err().unwrap();
    assert_eq!(
        err.to_string(),
        "corpus `tiny`: NBM's neutral pool has 2 words (the gender-neutral ones among the 2 most frequent, \
         base_pairs.most_frequent), base_pairs.nbm_k is 2: the pool must be larger than k"
    );
}

/// RIPA, Table 1: nurse and doctor under both pairs, (−3/√2 + 1/√2 + 2 + 1)/4 = (3 − √2)/4.
/// Table 2: nurse (f, m), doctor (m, m): P̄ = 1/2, masculine share 3/4, P̄_e = 5/8, κ = −1/3.
#[test]
fn one_seed_summary_and_agreement_by_hand() {
    let (seeds, _) = measured(false);
    let seed = &seeds[0];
    let ripa = &seed.summary[1];
    assert_eq!((ripa.rule.as_str(), ripa.n_words, ripa.n_scores), ("ripa", 2, 4));
    close(ripa.mean, (3.0 - SQRT_2) / 4.0, 1e-6);
    let a: &BasePairAgreementRow = &seed.agreement[1];
    assert_eq!((a.n_words, a.n_pairs, a.status.as_str()), (2, 2, "ok"));
    close(a.kappa, -1.0 / 3.0, 1e-12);
    assert_eq!(a.same_label, 0.5);
}

/// Per rule and pair: capitalised, plural, capital, upper, the truth list; then DB/WA against
/// RIPA per pair; then DB/WA's he/she against man/woman.
///
/// * capitalised, RIPA, he/she: He/She gives the same labels (f, m): κ = 1;
/// * truth, RIPA: lion (2, −1) and lioness (−1, 1) score 3/√2 and −2/√2 (m, f) under he/she:
///   κ = 1; −1 and 1 (f, m) under man/woman: κ = (0 − 2)/(4 − 2) = −1;
/// * rules, he/she: both (f, m): κ = 1; man/woman: both (m, m): no κ;
/// * pairs, DB/WA: (f, m) against (m, m): D = 1, S = 2, κ = (2 − 2)/(4 − 2) = 0.
#[test]
fn one_seed_kappas_are_labelled_and_in_order() {
    let (seeds, _) = measured(false);
    let kappas: &[BasePairKappaRow] = &seeds[0].kappas;
    fn key(k: &BasePairKappaRow) -> [&str; 6] {
        [&k.analysis, &k.list, &k.rule, &k.rule_b, &k.pair, &k.pair_b].map(|s| s.as_str())
    }
    let row = |analysis: &str, rule: &str, pair: &str| {
        (kappas.iter())
            .find(|k| k.analysis == analysis && k.rule == rule && k.pair == pair)
            .unwrap()
    };
    // 2 rules × 2 pairs × 5, then 2 (rules), then 1 (pairs).
    assert_eq!(kappas.len(), 23);
    assert_eq!(
        key(&kappas[0]),
        ["capitalised", "professions", "dbwa", "", "he/she", "He/She"]
    );
    assert_eq!(key(&kappas[4]), ["truth", "animals", "dbwa", "", "he/she", ""]);
    assert_eq!(
        key(&kappas[20]),
        ["rules", "professions", "dbwa", "ripa", "he/she", ""]
    );
    assert_eq!(
        key(&kappas[22]),
        ["pairs", "professions", "dbwa", "", "he/she", "man/woman"]
    );
    close(row("capitalised", "ripa", "he/she").kappa, 1.0, 1e-12);
    let missing = row("capitalised", "ripa", "man/woman");
    assert_eq!(
        (missing.pair_b.as_str(), missing.status.as_str(), missing.n_words),
        ("", OUT_OF_VOCABULARY, 0)
    );
    assert!(missing.kappa.is_nan());
    let plural = row("plural", "ripa", "he/she");
    assert_eq!((plural.n_words, plural.status.as_str()), (0, "too_few_subjects"));
    close(row("truth", "ripa", "he/she").kappa, 1.0, 1e-12);
    close(row("truth", "ripa", "man/woman").kappa, -1.0, 1e-12);
    close(kappas[20].kappa, 1.0, 1e-12);
    assert_eq!(kappas[21].status, "zero_variance");
    close(kappas[22].kappa, 0.0, 1e-12);
}

/// Figure 2: f̂ − m̂ is (−1, 1) for he/she and (0, −√2) for man/woman: cosine −√2/2, which is
/// also the base pairs' cosine baseline (one pair of pairs). RIPA flips nurse (f under he/she,
/// m under man/woman) and not doctor. Figure 1: nurses (−1, 3) scores 3 under RIPA, man/woman.
#[test]
fn one_seed_directions_baselines_flips_and_examples() {
    let (seeds, _) = measured(false);
    let seed = &seeds[1];
    let cosines: Vec<(&str, &str, f64)> = (seed.directions.iter())
        .map(|d| (d.pair.as_str(), d.pair_b.as_str(), d.cosine))
        .collect();
    assert_eq!(cosines.len(), 4);
    assert_eq!((cosines[1].0, cosines[1].1), ("he/she", "man/woman"));
    close(cosines[1].2, -SQRT_2 / 2.0, 1e-12);
    close(cosines[0].2, 1.0, 1e-12);
    // Two pairs are too few for a correlation.
    assert_eq!(seed.correlations.len(), 4);
    assert!(seed.correlations.iter().all(|c| c.r.is_nan() && c.seed == 1));
    let baselines: Vec<&BasePairBaselineRow> = seed.baselines.iter().collect();
    let names: Vec<&str> = baselines.iter().map(|b| b.baseline.as_str()).collect();
    assert_eq!(names, ["word_pairs", "difference_vectors", "base_pairs"]);
    assert_eq!((baselines[0].n, baselines[2].n), (20, 1));
    close(baselines[2].mean, -SQRT_2 / 2.0, 1e-12);
    let flip = &seed.flips[0];
    assert_eq!(
        (flip.pair.as_str(), flip.pair_b.as_str()),
        ("he/she", "man/woman")
    );
    assert_eq!((flip.n_words, flip.flipped, flip.share), (2, 1, 0.5));
    // 2 rules × 2 pairs × (nurse, nurses).
    assert_eq!(seed.examples.len(), 8);
    let nurses = &seed.examples[7];
    assert_eq!(
        [&nurses.rule, &nurses.pair, &nurses.form, &nurses.word].map(|s| s.as_str()),
        ["ripa", "man/woman", "plural", "nurses"]
    );
    assert_eq!(nurses.score, 3.0);
}

/// The same model as seeds 0 and 1: the seeds agree wherever the labels vary (RIPA under
/// he/she: nurse f, doctor m on both seeds, κ = 1), and no variance is the seed's.
#[test]
fn tables_across_two_seeds() {
    let (_, tables) = measured(true);
    assert_eq!(tables.len(), 11);
    let scores: Vec<BasePairScoreRow> = rows(&tables, 8);
    assert_eq!(scores.len(), 2 * 2 * 2 * 2);
    let last = &scores[15];
    assert_eq!(
        (
            last.seed,
            last.rule.as_str(),
            last.pair.as_str(),
            last.word.as_str()
        ),
        (1, "ripa", "man/woman", "doctor")
    );
    assert_eq!(last.score, 1.0);
    let agreement: Vec<BasePairSeedsRow> = rows(&tables, 9);
    let keys: Vec<(&str, &str)> = (agreement.iter())
        .map(|a| (a.rule.as_str(), a.pair.as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            ("dbwa", "he/she"),
            ("dbwa", "man/woman"),
            ("ripa", "he/she"),
            ("ripa", "man/woman")
        ]
    );
    assert_eq!((agreement[2].n_words, agreement[2].n_seeds), (2, 2));
    assert_eq!(agreement[2].kappa, 1.0);
    assert_eq!(agreement[3].status, "zero_variance");
    let variance: Vec<BasePairVarianceRow> = rows(&tables, 10);
    assert_eq!(variance.len(), 2 * 2 * 7);
    assert_eq!(
        (
            variance[7].rule.as_str(),
            variance[7].scale.as_str(),
            variance[7].component.as_str()
        ),
        ("dbwa", "label", "word")
    );
    for v in variance.iter().filter(|v| v.component.contains("seed")) {
        assert!(v.variance.abs() < 1e-12, "{} {} {}", v.rule, v.scale, v.component);
    }
    assert_eq!(measured(false).1.len(), 9);
}
