//! GloVe training on a real corpus file: determinism per seed, decreasing cost, agreement with
//! the `f64` reference loop, a quality sanity check and the error messages.

mod common;

use std::sync::OnceLock;

use common::{count_in_memory, wiki_valid};
use retest_corpus::EncodedCorpus;
use retest_glove::{
    CoocRecord, Cooccurrences, GloveConfig, IterationProgress, TrainedGlove, train, train_reference,
};
use retest_rng::SeedPath;
use retest_test_support::corpus_from_text;

/// WikiText-103 validation and its co-occurrences (window 15), computed once per test binary.
fn wiki() -> &'static (EncodedCorpus, Cooccurrences) {
    static WIKI: OnceLock<(EncodedCorpus, Cooccurrences)> = OnceLock::new();
    WIKI.get_or_init(|| {
        let corpus = wiki_valid(None);
        let cooc = count_in_memory(&corpus);
        (corpus, cooc)
    })
}

fn config(dim: usize, iterations: usize) -> GloveConfig {
    GloveConfig {
        dim,
        x_max: 100.0,
        alpha: 0.75,
        eta: 0.05,
        iterations,
    }
}

fn run(cooc: &Cooccurrences, config: &GloveConfig, seed: u64) -> TrainedGlove {
    train(
        cooc,
        cooc.vocab_size(),
        config,
        &SeedPath::new(seed).with("glove"),
        &mut |_| {},
    )
    .unwrap()
}

fn as_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn same_seed_same_bytes_different_seed_different_vectors() {
    let (_, cooc) = wiki();
    let c = config(24, 2);
    let a = run(cooc, &c, 7);
    let b = run(cooc, &c, 7);
    assert_eq!(a.vectors.len(), cooc.vocab_size() * 24);
    assert!(
        as_bytes(&a.vectors) == as_bytes(&b.vectors),
        "same seed, different bytes"
    );
    assert_eq!(a.cost_per_iteration, b.cost_per_iteration);
    let other = run(cooc, &c, 8);
    let differing = retest_test_support::n_differing(&a.vectors, &other.vectors);
    assert!(
        differing > a.vectors.len() * 99 / 100,
        "only {differing} values differ"
    );
}

#[test]
fn cost_decreases_over_iterations_on_a_real_corpus() {
    let (corpus, cooc) = wiki();
    assert!(
        corpus.vocab().len() > 4_000 && cooc.len() > 1_000_000,
        "{} words, {} records",
        corpus.vocab().len(),
        cooc.len()
    );
    let mut reports: Vec<IterationProgress> = Vec::new();
    let model = train(
        cooc,
        cooc.vocab_size(),
        &config(16, 6),
        &SeedPath::new(1),
        &mut |p| reports.push(p),
    )
    .unwrap();
    let costs = &model.cost_per_iteration;
    assert_eq!(costs.len(), 6);
    assert!(
        costs.windows(2).all(|w| w[1] < w[0]),
        "cost did not decrease: {costs:?}"
    );
    assert!(costs[5] < 0.7 * costs[0], "{costs:?}");
    // Progress: within-iteration reports without cost, one with the cost at each iteration's end.
    let ends: Vec<f64> = reports.iter().filter_map(|p| p.cost).collect();
    assert_eq!(&ends, costs);
    let last = reports.last().unwrap();
    assert_eq!(
        (last.iteration, last.n_iterations, last.records_done),
        (6, 6, cooc.len() as u64)
    );
}

#[test]
fn f32_trainer_follows_the_f64_reference() {
    let (_, cooc) = wiki();
    let c = config(20, 4);
    let seed = SeedPath::new(5);
    let fast = train(cooc, cooc.vocab_size(), &c, &seed, &mut |_| {}).unwrap();
    let reference = train_reference(cooc, cooc.vocab_size(), &c, &seed, &mut |_| {}).unwrap();
    for (f, r) in fast.cost_per_iteration.iter().zip(&reference.cost_per_iteration) {
        assert!((f - r).abs() <= 0.01 * r, "f32 cost {f} vs f64 {r}");
    }
    // Same initial draws and order: the vectors stay close, not just the costs.
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for (a, b) in fast.vectors.iter().zip(&reference.vectors) {
        num += f64::from(a - b).powi(2);
        den += f64::from(*b).powi(2);
    }
    assert!(
        (num / den).sqrt() < 0.02,
        "relative L2 distance {}",
        (num / den).sqrt()
    );
}

#[test]
fn vectors_capture_similarity() {
    let (corpus, cooc) = wiki();
    // A 217k-token corpus is small for x_max = 100: use demo.sh's x_max = 10.
    let mut c = config(50, 25);
    c.x_max = 10.0;
    let model = run(cooc, &c, 1);
    let row = |w: &str| {
        let i = corpus.vocab().id(w).unwrap() as usize;
        &model.vectors[i * 50..(i + 1) * 50]
    };
    let cos = |a: &[f32], b: &[f32]| {
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
        dot / (norm(a) * norm(b))
    };
    // Nearest neighbours among the 2,000 most frequent words.
    let nearest = |w: &str| {
        let q = row(w);
        let mut scored: Vec<(f32, &str)> = (0..2000u32)
            .map(|i| corpus.vocab().word(i))
            .filter(|&o| o != w)
            .map(|o| (cos(q, row(o)), o))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        scored.into_iter().take(10).map(|(_, o)| o).collect::<Vec<_>>()
    };
    let he = nearest("he");
    assert!(he.contains(&"she"), "nearest to 'he': {he:?}");
    let march = nearest("March");
    let months = [
        "January",
        "February",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    assert!(
        march.iter().filter(|w| months.contains(w)).count() >= 3,
        "nearest to 'March': {march:?}"
    );
    let two = nearest("two");
    let numbers = ["one", "three", "four", "five", "six", "seven", "eight"];
    assert!(
        two.iter().filter(|w| numbers.contains(w)).count() >= 3,
        "nearest to 'two': {two:?}"
    );
}

#[test]
fn errors_name_the_problem() {
    let (_, cooc) = wiki();
    let seed = SeedPath::new(1);
    let err = train(cooc, cooc.vocab_size() + 1, &config(8, 1), &seed, &mut |_| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "co-occurrences were counted over a vocabulary of {} words but training was asked for {} words",
            cooc.vocab_size(),
            cooc.vocab_size() + 1
        )
    );
    let mut bad = config(8, 1);
    bad.x_max = 0.0;
    assert_eq!(
        train(cooc, cooc.vocab_size(), &bad, &seed, &mut |_| {})
            .unwrap_err()
            .to_string(),
        "invalid GloVe configuration: x_max must be finite and positive, got 0"
    );
    assert_eq!(
        train(cooc, cooc.vocab_size(), &config(0, 1), &seed, &mut |_| {})
            .unwrap_err()
            .to_string(),
        "invalid GloVe configuration: dim must be at least 1"
    );
    let empty = Cooccurrences::new(3, Vec::new()).unwrap();
    assert_eq!(
        train(&empty, 3, &config(8, 1), &seed, &mut |_| {})
            .unwrap_err()
            .to_string(),
        "cannot train GloVe on an empty co-occurrence table (the corpus has no word pairs within the window)"
    );
}

#[test]
fn a_tiny_model_trains_and_keeps_words_without_pairs() {
    // "c" never co-occurs (single-word sentences only): its vector stays at its initial value.
    let corpus = corpus_from_text("a b a b\nc\nc\n", 1);
    let cooc = count_in_memory(&corpus);
    assert!(
        cooc.iter()
            .all(|r: &CoocRecord| r.i != corpus.vocab().id("c").unwrap())
    );
    let model = run(&cooc, &config(3, 5), 2);
    assert_eq!(model.vectors.len(), 3 * 3);
    assert!(model.vectors.iter().all(|x| x.is_finite()));
    let zero = run(&cooc, &config(3, 0), 2);
    let c = corpus.vocab().id("c").unwrap() as usize;
    assert_eq!(model.vectors[c * 3..c * 3 + 3], zero.vectors[c * 3..c * 3 + 3]);
    assert!(zero.cost_per_iteration.is_empty());
}
