//! Correlations against hand-computed values, analogies on hand-built embeddings, gensim's
//! case-insensitive matching, vocabulary restriction and the suite report.

use retest_embeddings::Embeddings;
use retest_eval::stats::{average_ranks, pearson, spearman};
use retest_eval::{
    AnalogySection, AnalogySet, Availability, CaseHandling, EvalOptions, PairFormat, SIMILARITY_BENCHMARKS,
    evaluate_analogies, evaluate_analogies_with, evaluate_similarity, evaluate_similarity_with, read_pairs,
    standard_suite,
};
use retest_test_support::{data_dir, embeddings};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn average_ranks_share_tied_positions() {
    assert_eq!(
        average_ranks(&[10.0, 30.0, 20.0, 40.0, 40.0]),
        [1.0, 3.0, 2.0, 4.5, 4.5]
    );
    assert_eq!(
        average_ranks(&[3.0, 1.0, 2.0, 2.0, 5.0, 5.0, 5.0]),
        [4.0, 1.0, 2.5, 2.5, 6.0, 6.0, 6.0]
    );
    assert_eq!(average_ranks(&[]), Vec::<f64>::new());
}

#[test]
fn spearman_and_pearson_against_hand_computed_values() {
    // Ranks (1, 2.5, 2.5, 4, 5) and (1, 3, 2, 4.5, 4.5): Σdxdy = 9, Σdx² = Σdy² = 9.5.
    // scipy.stats.spearmanr gives 0.9473684210526317.
    assert!(close(
        spearman(&[1.0, 2.0, 2.0, 3.0, 4.0], &[10.0, 30.0, 20.0, 40.0, 40.0]),
        9.0 / 9.5
    ));
    // Ties on both sides: Σdxdy = 5.25, Σdx² = Σdy² = 25.5 (scipy: 0.2058823529411765).
    let x = [3.0, 1.0, 2.0, 2.0, 5.0, 5.0, 5.0];
    let y = [1.0, 1.0, 1.0, 2.0, 3.0, 2.0, 0.0];
    assert!(close(spearman(&x, &y), 5.25 / 25.5));
    // Σdxdy = 11, Σdx² = 5, Σdy² = 26 (scipy.stats.pearsonr: 0.9647638212377322).
    assert!(close(
        pearson(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 5.0, 9.0]),
        11.0 / 130f64.sqrt()
    ));
    assert!(close(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0));
    assert!(pearson(&[1.0], &[2.0]).is_nan());
    assert!(pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).is_nan());
}

/// `Tiger` comes before `tiger`, so case-insensitively `tiger` means `Tiger`'s vector.
fn animals() -> Embeddings {
    embeddings(&[
        ("Tiger", [1.0, 0.0, 0.0]),
        ("cat", [0.9, 0.1, 0.0]),
        ("tiger", [0.0, 1.0, 0.0]),
        ("dog", [0.5, 0.5, 0.0]),
        ("car", [0.0, 0.0, 1.0]),
        ("Zebra", [0.0, 0.3, 1.0]),
    ])
}

fn pair(a: &str, b: &str, score: f64) -> (String, String, f64) {
    (a.to_owned(), b.to_owned(), score)
}

#[test]
fn similarity_is_case_insensitive_with_the_most_frequent_form() {
    let emb = animals();
    let pairs = [
        pair("tiger", "cat", 9.0),
        pair("TIGER", "car", 1.0),
        pair("tiger", "dog", 6.0),
        pair("cat", "lion", 8.0),
    ];
    let result = evaluate_similarity(&emb, &pairs, "animals");
    assert_eq!((result.pairs_used, result.pairs_skipped), (3, 1));
    // With Tiger = (1,0,0): cos = 0.99388, 0, 0.70711 → the same order as 9, 1, 6.
    assert!(close(result.spearman, 1.0));
    // (Within 1e-6: the embedding holds 0.9 and 0.1 as f32.)
    let cos = [0.9 / 0.82f64.sqrt(), 0.0, 0.5 / 0.5f64.sqrt()];
    assert!((result.pearson - pearson(&[9.0, 1.0, 6.0], &cos)).abs() < 1e-6);

    // Case-sensitively `tiger` is (0,1,0) and `TIGER` is unknown.
    let sensitive = EvalOptions {
        case: CaseHandling::Sensitive,
        ..EvalOptions::GENSIM
    };
    let result = evaluate_similarity_with(&emb, &pairs, "animals", &sensitive);
    assert_eq!((result.pairs_used, result.pairs_skipped), (2, 2));
    assert!(
        close(result.spearman, -1.0),
        "cos(tiger, cat) = 0.11 < cos(tiger, dog) = 0.71"
    );

    // Restricted to the first two rows, only `tiger`–`cat` (via Tiger) remains.
    let restricted = EvalOptions {
        restrict_vocab: 2,
        ..EvalOptions::GENSIM
    };
    let result = evaluate_similarity_with(&emb, &pairs, "animals", &restricted);
    assert_eq!((result.pairs_used, result.pairs_skipped), (1, 3));
    assert!(result.spearman.is_nan());
}

fn questions(section: &str, qs: &[[&str; 4]]) -> AnalogySet {
    AnalogySet {
        sections: vec![AnalogySection {
            name: section.to_owned(),
            questions: qs.iter().map(|q| q.map(String::from)).collect(),
        }],
    }
}

/// man (1,0,0), woman (0,1,0), king (1,0,1)/√2-ish, queen (0,1,1): king − man + woman ≈ queen.
fn royals(extra: &[(&str, [f32; 3])]) -> Embeddings {
    let mut rows: Vec<(&str, [f32; 3])> = vec![
        ("man", [1.0, 0.0, 0.0]),
        ("woman", [0.0, 1.0, 0.0]),
        ("king", [2.0, 0.0, 2.0]),
        ("queen", [0.0, 3.0, 3.0]),
        ("apple", [0.3, 0.2, -1.0]),
        ("car", [-1.0, -0.4, 0.1]),
    ];
    rows.extend_from_slice(extra);
    embeddings(&rows)
}

#[test]
fn analogy_on_a_hand_built_embedding() {
    let set = questions(
        "family",
        &[
            ["man", "king", "woman", "queen"],  // correct
            ["Man", "King", "Woman", "QUEEN"],  // correct: matched case-insensitively
            ["woman", "queen", "man", "king"],  // correct
            ["man", "woman", "king", "apple"],  // wrong: the answer is queen
            ["man", "king", "woman", "prince"], // skipped: out of vocabulary
        ],
    );
    let result = evaluate_analogies(&royals(&[]), &set);
    assert_eq!((result.correct, result.attempted, result.skipped), (3, 4, 1));
    assert!(close(result.total_accuracy, 0.75));
    assert_eq!(result.sections.len(), 1);
    assert_eq!((result.sections[0].correct, result.sections[0].attempted), (3, 4));

    let sensitive = EvalOptions {
        case: CaseHandling::Sensitive,
        ..EvalOptions::GENSIM
    };
    let result = evaluate_analogies_with(&royals(&[]), &set, &sensitive);
    assert_eq!((result.correct, result.attempted, result.skipped), (2, 3, 2));
}

#[test]
fn analogy_answers_follow_gensim_on_case_variants() {
    let set = questions("family", &[["man", "king", "woman", "queen"]]);
    // `Woman` is the nearest candidate, but upper-cased it is the question word WOMAN: gensim
    // passes over it and answers `queen`.
    let emb = royals(&[("Woman", [-0.3, 1.0, 0.7])]);
    assert_eq!(evaluate_analogies(&emb, &set).correct, 1);
    let sensitive = EvalOptions {
        case: CaseHandling::Sensitive,
        ..EvalOptions::GENSIM
    };
    assert_eq!(
        evaluate_analogies_with(&emb, &set, &sensitive).correct,
        0,
        "case-sensitively `Woman` is the answer"
    );
    // `Queen` (a less frequent variant) is the nearest: its upper-cased form is the expected QUEEN.
    let emb = royals(&[("Queen", [-0.3, 1.0, 0.7])]);
    assert_eq!(evaluate_analogies(&emb, &set).correct, 1);
    assert_eq!(evaluate_analogies_with(&emb, &set, &sensitive).correct, 0);
    // Outside restrict_vocab, `Queen` is not even a candidate.
    let restricted = EvalOptions {
        restrict_vocab: 6,
        case: CaseHandling::Sensitive,
    };
    assert_eq!(evaluate_analogies_with(&emb, &set, &restricted).correct, 1);
}

#[test]
fn analogy_with_a_large_vocabulary_spans_several_blocks() {
    // 5000 rows (more than one vocabulary block) and 300 questions (more than one question
    // block): the answer row is planted at the end of the vocabulary.
    let dim = 8;
    let n = 5000;
    let mut words = Vec::new();
    let mut vectors = Vec::new();
    for i in 0..n {
        words.push(format!("w{i}"));
        // Deterministic pseudo-random values in [-1, 1).
        for j in 0..dim {
            let h = ((i * dim + j) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            vectors.push(h as f32 / (1u64 << 23) as f32 - 1.0);
        }
    }
    // d = b − a + c exactly, for a = w0, b = w1, c = w2, at the last row.
    let v = |r: usize, vectors: &[f32]| -> Vec<f32> { vectors[r * dim..(r + 1) * dim].to_vec() };
    let unit = |x: Vec<f32>| {
        let n = x.iter().map(|a| a * a).sum::<f32>().sqrt();
        x.into_iter().map(|a| a / n).collect::<Vec<_>>()
    };
    let (a, b, c) = (unit(v(0, &vectors)), unit(v(1, &vectors)), unit(v(2, &vectors)));
    let d: Vec<f32> = (0..dim).map(|j| b[j] - a[j] + c[j]).collect();
    vectors[(n - 1) * dim..].copy_from_slice(&d);
    let qs: Vec<[&str; 4]> = vec![["w0", "w1", "w2", "w4999"]; 300];
    let set = questions("planted", &qs);
    let result = evaluate_analogies(&Embeddings::new(words, dim, vectors).unwrap(), &set);
    assert_eq!((result.correct, result.attempted), (300, 300));
}

#[test]
fn standard_suite_on_the_mirror() {
    let bench = data_dir().join("benchmarks");
    let report = standard_suite(&bench, &royals(&[])).unwrap();
    let names: Vec<_> = report.similarity.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["wordsim353", "simlex999", "men", "rg65", "rw"]);
    let totals: Vec<_> = report
        .similarity
        .iter()
        .map(|s| s.pairs_used + s.pairs_skipped)
        .collect();
    assert_eq!(totals, [353, 999, 3000, 65, 2034]);
    assert_eq!(report.analogy.attempted + report.analogy.skipped, 19_544);
    assert_eq!(report.analogy.sections.len(), 14);
    assert_eq!(report.options, EvalOptions::GENSIM);

    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["options"]["restrict_vocab"], 300_000);
    assert_eq!(json["options"]["case"], "insensitive");
    assert_eq!(json["similarity"][0]["name"], "wordsim353");
    assert_eq!(json["analogy"]["sections"][4]["name"], "family");

    let table = report.to_string();
    assert!(
        table.starts_with(
            "6 words, dim 3; vocabulary restricted to the first 300000 rows, case-insensitive\n"
        )
    );
    assert!(table.contains("\nwordsim353 "), "{table}");
    assert!(table.contains("\nrg65 ") && table.contains("\nrw "), "{table}");
    assert!(table.contains("\ntotal "), "{table}");

    // The MSR analogies are not in the mirror: reported, not run.
    assert_eq!(report.optional_analogy.len(), 1);
    let msr = &report.optional_analogy[0];
    assert_eq!((msr.name.as_str(), msr.file.as_str()), ("msr", "msr/msr.txt"));
    assert_eq!(
        (msr.status, msr.result.as_ref()),
        (Availability::NotAvailable, None)
    );
    assert_eq!(json["optional_analogy"][0]["status"], "not available");
    assert!(json["optional_analogy"][0]["result"].is_null());
    assert_eq!(
        table.lines().last().unwrap(),
        format!("{:<28} not available (no msr/msr.txt)", "msr")
    );

    let missing = bench.join("no-such-folder");
    let err = standard_suite(&missing, &royals(&[])).unwrap_err().to_string();
    assert!(
        err.starts_with(&missing.join("gensim/wordsim353.tsv").display().to_string()),
        "{err}"
    );
}

/// A benchmark folder with the mirror's files and an MSR file: the suite runs it.
#[test]
fn standard_suite_runs_the_msr_analogies_when_present() {
    let mirror = data_dir().join("benchmarks");
    let dir = tempfile::tempdir().unwrap();
    let files = SIMILARITY_BENCHMARKS
        .iter()
        .map(|&(_, file, _)| file)
        .chain([retest_eval::ANALOGY_BENCHMARK]);
    for file in files {
        let to = dir.path().join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(mirror.join(file), &to).unwrap();
    }
    std::fs::create_dir_all(dir.path().join("msr")).unwrap();
    std::fs::write(
        dir.path().join("msr/msr.txt"),
        "man king woman queen\nwoman queen man king\nman woman king apple\nman king woman princess\n",
    )
    .unwrap();
    let report = standard_suite(dir.path(), &royals(&[])).unwrap();
    let msr = &report.optional_analogy[0];
    assert_eq!(msr.status, Availability::Available);
    let result = msr.result.as_ref().unwrap();
    assert_eq!((result.correct, result.attempted, result.skipped), (2, 3, 1));
    assert_eq!(result.sections.len(), 1);
    assert_eq!(result.sections[0].name, "msr");
    let table = report.to_string();
    assert_eq!(
        table.lines().last().unwrap(),
        format!("{:<28} {:>9.4} {:>9} {:>7} {:>8}", "msr", 2.0 / 3.0, 2, 3, 1)
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["optional_analogy"][0]["status"], "ok");
    assert_eq!(json["optional_analogy"][0]["result"]["correct"], 2);

    // A malformed optional file is an error, not `not available`.
    std::fs::write(dir.path().join("msr/msr.txt"), "man king woman\n").unwrap();
    let err = standard_suite(dir.path(), &royals(&[])).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "{}:1: expected four words `a b c d`, found 3",
            dir.path().join("msr/msr.txt").display()
        )
    );
}

/// Spearman's ρ on the mirror's RG-65 file with a model that holds six of its pairs, at known
/// angles in a plane.
#[test]
fn rg65_spearman_on_a_tiny_model() {
    let at = |degrees: f32| {
        let r = degrees.to_radians();
        [r.cos(), r.sin(), 0.0]
    };
    let emb = embeddings(&[
        ("jewel", at(0.0)),
        ("gem", at(10.0)),       // gem–jewel 3.94: cos 0.985
        ("midday", at(0.0)),     //
        ("noon", at(30.0)),      // midday–noon 3.94: cos 0.866
        ("automobile", at(0.0)), //
        ("car", at(5.0)),        // automobile–car 3.92: cos 0.996
        ("glass", at(60.0)),     // glass–jewel 1.78: cos 0.5
        ("magician", at(150.0)), // glass–magician 0.44: cos 0
        ("rooster", at(0.0)),    //
        ("voyage", at(80.0)),    // rooster–voyage 0.04: cos 0.174
    ]);
    let pairs = read_pairs(
        &data_dir().join("benchmarks/eval-word-vectors/EN-RG-65.txt"),
        PairFormat::Tsv,
    )
    .unwrap();
    let result = evaluate_similarity(&emb, &pairs, "rg65");
    assert_eq!((result.pairs_used, result.pairs_skipped), (6, 59));
    // In file order, human ranks (5.5, 5.5, 4, 3, 2, 1) and model ranks (5, 4, 6, 3, 1, 2):
    // Σ dx dy = 13, Σ dx² = 17, Σ dy² = 17.5.
    assert!(
        close(result.spearman, 13.0 / (17.0f64 * 17.5).sqrt()),
        "{}",
        result.spearman
    );
}
