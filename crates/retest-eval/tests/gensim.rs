//! Cross-check against gensim 4.4: a deterministic synthetic embedding over the benchmark words,
//! evaluated here and by gensim's `evaluate_word_pairs` / `evaluate_word_analogies`.
//!
//! The expected numbers were printed by `tests/gensim_reference.py` (gensim 4.4.0, numpy 2.4.6,
//! scipy 1.17.1), which builds the same embedding from the same files with the same integer
//! arithmetic; the SHA-256 of words and matrix proves both sides evaluated the same vectors.
//! Regenerate with:
//!
//! ```text
//! RETEST_DATA_DIR=../shared/data .venv/bin/python crates/retest-eval/tests/gensim_reference.py
//! ```

use std::path::Path;

use retest_embeddings::Embeddings;
use retest_eval::{
    AnalogySet, CaseHandling, EvalOptions, PairFormat, evaluate_analogies_with, evaluate_similarity_with,
    read_analogies, read_pairs,
};
use retest_test_support::data_dir;
use rustc_hash::{FxHashMap, FxHashSet};
use sha2::{Digest, Sha256};

const DIM: usize = 16;

/// word2vec-style SplitMix64; `draw` gives an integer in [-2^19, 2^19).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn draw(&mut self) -> i64 {
        (self.next_u64() >> 44) as i64 - (1 << 19)
    }

    fn vector(&mut self) -> Vec<i64> {
        (0..DIM).map(|_| self.draw()).collect()
    }
}

fn pair_words(path: &Path, format: PairFormat) -> Vec<String> {
    read_pairs(path, format)
        .unwrap()
        .into_iter()
        .flat_map(|(a, b, _)| [a, b])
        .collect()
}

/// The embedding of `gensim_reference.py::synthetic_embedding`, step for step.
fn synthetic_embedding(bench: &Path, questions: &AnalogySet) -> Embeddings {
    let mut rng = SplitMix64(0x5EED_0001);
    // 1. One offset per section.
    let offsets: Vec<Vec<i64>> = questions.sections.iter().map(|_| rng.vector()).collect();
    // 2. Pairs (x, y) of a section: v(y) = v(x) + offset + noise.
    let mut vec: FxHashMap<String, Vec<i64>> = FxHashMap::default();
    let mut order: Vec<String> = Vec::new();
    fn base(w: &str, vec: &mut FxHashMap<String, Vec<i64>>, order: &mut Vec<String>, rng: &mut SplitMix64) {
        if !vec.contains_key(w) {
            vec.insert(w.to_owned(), rng.vector());
            order.push(w.to_owned());
        }
    }
    for (s, section) in questions.sections.iter().enumerate() {
        for [a, b, c, d] in &section.questions {
            for (x, y) in [(a, b), (c, d)] {
                base(x, &mut vec, &mut order, &mut rng);
                if !vec.contains_key(y.as_str()) {
                    let noise: Vec<i64> = (0..DIM).map(|_| rng.draw() >> 2).collect();
                    let v = (0..DIM)
                        .map(|j| vec[x.as_str()][j] + offsets[s][j] + noise[j])
                        .collect();
                    vec.insert(y.clone(), v);
                    order.push(y.clone());
                }
            }
        }
    }
    // 3. The similarity benchmarks' words.
    let pair_files = [
        ("gensim/wordsim353.tsv", PairFormat::GensimTsv),
        ("gensim/simlex999.txt", PairFormat::GensimTsv),
        ("MEN/MEN_dataset_natural_form_full", PairFormat::Men),
    ];
    for (file, format) in pair_files {
        for w in pair_words(&bench.join(file), format) {
            base(&w, &mut vec, &mut order, &mut rng);
        }
    }
    // 4. Drop every 7th word, capitalised variants next to every 11th, a filler after every 10th.
    let known: FxHashSet<String> = vec.keys().cloned().collect();
    let mut words = Vec::new();
    let mut n_fillers = 0;
    for (i, w) in order.iter().enumerate() {
        let mut chars = w.chars();
        let variant: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        let with_variant = i % 11 == 5 && variant != *w && !known.contains(&variant);
        if with_variant && i % 2 == 0 {
            words.push(variant.clone());
        }
        if i % 7 != 3 {
            words.push(w.clone());
        }
        if with_variant && i % 2 == 1 {
            words.push(variant);
        }
        if i % 10 == 9 {
            words.push(format!("filler{n_fillers:04}"));
            n_fillers += 1;
        }
    }
    for w in &words {
        base(w, &mut vec, &mut order, &mut rng);
    }
    let mut vectors = Vec::with_capacity(words.len() * DIM);
    for w in &words {
        for &x in &vec[w.as_str()] {
            assert!(x.abs() < 1 << 24, "exact in f32");
            vectors.push(x as f32 / (1 << 19) as f32);
        }
    }
    Embeddings::new(words, DIM, vectors).unwrap()
}

fn checksum(emb: &Embeddings) -> String {
    let mut h = Sha256::new();
    for w in emb.words() {
        h.update(w.as_bytes());
        h.update(b"\n");
    }
    for x in emb.vectors() {
        h.update(x.to_le_bytes());
    }
    hex::encode(h.finalize())
}

/// gensim's numbers for one setting: (name, spearman, pearson, used, skipped) per similarity
/// benchmark, and (section, correct, incorrect) per analogy section.
struct Expected {
    similarity: [(&'static str, f64, f64, usize, usize); 3],
    sections: [(&'static str, usize, usize); 14],
    total_accuracy: f64,
}

fn check(emb: &Embeddings, bench: &Path, questions: &AnalogySet, options: &EvalOptions, expected: &Expected) {
    let pair_files = [
        ("gensim/wordsim353.tsv", PairFormat::GensimTsv),
        ("gensim/simlex999.txt", PairFormat::GensimTsv),
        ("MEN/MEN_dataset_natural_form_full", PairFormat::Men),
    ];
    for ((file, format), &(name, spearman, pearson, used, skipped)) in
        pair_files.iter().zip(&expected.similarity)
    {
        let pairs = read_pairs(&bench.join(file), *format).unwrap();
        let result = evaluate_similarity_with(emb, &pairs, name, options);
        assert_eq!(
            (result.pairs_used, result.pairs_skipped),
            (used, skipped),
            "{name}"
        );
        // gensim computes cosines in f32, we in f64: the correlations agree to ~1e-7.
        assert!(
            (result.spearman - spearman).abs() < 1e-6,
            "{name}: spearman {} vs gensim {spearman}",
            result.spearman
        );
        assert!(
            (result.pearson - pearson).abs() < 1e-6,
            "{name}: pearson {} vs gensim {pearson}",
            result.pearson
        );
    }
    let result = evaluate_analogies_with(emb, questions, options);
    let ours: Vec<_> = result
        .sections
        .iter()
        .map(|s| (s.name.as_str(), s.correct, s.attempted - s.correct))
        .collect();
    assert_eq!(ours, expected.sections);
    assert!((result.total_accuracy - expected.total_accuracy).abs() < 1e-12);
    assert_eq!(result.attempted + result.skipped, 19_544);
}

#[test]
fn synthetic_embedding_matches_gensim() {
    let bench = data_dir().join("benchmarks");
    let questions = read_analogies(&bench.join("gensim/questions-words.txt")).unwrap();
    let emb = synthetic_embedding(&bench, &questions);
    assert_eq!(emb.n_words(), 2718);
    assert_eq!(
        checksum(&emb),
        "06d3e15b97f4d55ff174fbabb3aca9f0de9c092ed4d81c3c582b598dcc03ed92"
    );

    // kv.evaluate_word_pairs(path, delimiter=sep) / kv.evaluate_word_analogies(questions-words.txt)
    let defaults = Expected {
        similarity: [
            ("wordsim353", 0.07445790875505955, 0.08221932193421871, 274, 79),
            (
                "simlex999",
                -0.035495318894221715,
                -0.038405643778039615,
                775,
                224,
            ),
            ("men", -0.0036721235729453676, -0.007925849627078405, 2309, 691),
        ],
        sections: [
            ("capital-common-countries", 236, 4),
            ("capital-world", 1480, 826),
            ("currency", 242, 98),
            ("city-in-state", 186, 484),
            ("family", 225, 47),
            ("gram1-adjective-to-adverb", 391, 161),
            ("gram2-opposite", 380, 82),
            ("gram3-comparative", 556, 200),
            ("gram4-superlative", 593, 109),
            ("gram5-present-participle", 493, 107),
            ("gram6-nationality-adjective", 962, 7),
            ("gram7-past-tense", 612, 200),
            ("gram8-plural", 600, 102),
            ("gram9-plural-verbs", 441, 159),
        ],
        total_accuracy: 0.7409596313733346,
    };
    check(&emb, &bench, &questions, &EvalOptions::GENSIM, &defaults);

    // The same with restrict_vocab=1500, case_insensitive=False.
    let restricted = Expected {
        similarity: [
            ("wordsim353", 0.1086694707595022, 0.10630983992112009, 269, 84),
            (
                "simlex999",
                0.0027922750051893866,
                -0.013627314877555412,
                175,
                824,
            ),
            ("men", 0.03988493576358526, 0.0858134185952107, 127, 2873),
        ],
        sections: [
            ("capital-common-countries", 236, 4),
            ("capital-world", 1508, 798),
            ("currency", 277, 63),
            ("city-in-state", 205, 465),
            ("family", 269, 3),
            ("gram1-adjective-to-adverb", 491, 15),
            ("gram2-opposite", 380, 40),
            ("gram3-comparative", 698, 4),
            ("gram4-superlative", 686, 16),
            ("gram5-present-participle", 543, 9),
            ("gram6-nationality-adjective", 962, 7),
            ("gram7-past-tense", 701, 55),
            ("gram8-plural", 638, 12),
            ("gram9-plural-verbs", 552, 0),
        ],
        total_accuracy: 0.8452838020130746,
    };
    let options = EvalOptions {
        restrict_vocab: 1500,
        case: CaseHandling::Sensitive,
    };
    check(&emb, &bench, &questions, &options, &restricted);
}
