//! End-to-end tests of `train` on small synthetic corpora: determinism, what the vectors learn,
//! progress reports, initialisation and every error.

use retest_corpus::format::{FORMAT_VERSION, HEADER_LEN, MAGIC};
use retest_corpus::{AlignedBytes, EncodedCorpus, EncodedCorpusView};
use retest_sgns::{
    Architecture, Decay, Embedding, Init, Prefetch, Progress, SeedPath, Semantics, SgnsConfig, SgnsError,
    SimdPath, Speed, learning_rate, train, train_with,
};
use retest_test_support::{corpus_from_text, n_differing};

const ARCHITECTURES: [Architecture; 2] = [Architecture::Skipgram, Architecture::Cbow];

/// A tiny deterministic generator for building test corpora.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Two disjoint "topics" of 15 words each; every sentence draws 8 words from one topic.
fn topics_corpus() -> EncodedCorpus {
    let mut rng = Lcg(42);
    let mut text = String::new();
    for _ in 0..1500 {
        let topic = if rng.below(2) == 0 { "a" } else { "b" };
        for _ in 0..8 {
            text.push_str(&format!("{topic}{} ", rng.below(15)));
        }
        text.push('\n');
    }
    corpus_from_text(&text, 1)
}

fn config(architecture: Architecture) -> SgnsConfig {
    SgnsConfig {
        architecture,
        dim: 24,
        window: 3,
        negative: 5,
        ns_exponent: 0.75,
        sample: 0.0,
        epochs: 5,
        alpha: 0.025,
        min_alpha: 0.0001,
        semantics: Semantics::RETEST,
    }
}

fn run(corpus: &EncodedCorpus, c: &SgnsConfig, seed: u64) -> Embedding {
    train(
        &corpus.view(),
        corpus.vocab().counts(),
        c,
        &SeedPath::new(seed).with("tests").with(c.architecture.as_str()),
        &mut |_| {},
    )
    .unwrap()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
    let na: f64 = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb)
}

fn bytes(e: &Embedding) -> Vec<u8> {
    e.vectors.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn same_seed_same_bytes_different_seed_different_vectors() {
    let corpus = topics_corpus();
    for architecture in ARCHITECTURES {
        let c = SgnsConfig {
            sample: 0.01,
            epochs: 2,
            ..config(architecture)
        };
        let a = run(&corpus, &c, 1);
        let b = run(&corpus, &c, 1);
        let other = run(&corpus, &c, 2);
        assert_eq!(
            bytes(&a),
            bytes(&b),
            "{architecture:?}: same seed, different bytes"
        );
        assert_eq!(a.dim, 24);
        assert_eq!(a.n_words(), corpus.vocab().len());
        let differing = n_differing(&a.vectors, &other.vectors);
        assert!(
            differing > a.vectors.len() * 99 / 100,
            "{architecture:?}: only {differing} of {} values differ between seeds",
            a.vectors.len()
        );
        assert!(a.vectors.iter().all(|v| v.is_finite()));
    }
}

/// Words of the same topic co-occur, words of different topics never do: after training, every
/// word's nearest neighbour is in its own topic and within-topic cosines are far above
/// across-topic ones.
#[test]
fn co_occurring_words_end_up_closer() {
    let corpus = topics_corpus();
    let vocab = corpus.vocab();
    for architecture in ARCHITECTURES {
        let e = run(&corpus, &config(architecture), 7);
        let topic = |id: usize| vocab.word(id as u32).as_bytes()[0];
        let n = e.n_words();
        let (mut within, mut across) = (Vec::new(), Vec::new());
        for i in 0..n {
            let mut best = (f64::NEG_INFINITY, i);
            for j in 0..n {
                if i == j {
                    continue;
                }
                let c = cosine(e.vector(i), e.vector(j));
                if c > best.0 {
                    best = (c, j);
                }
                if j > i {
                    if topic(i) == topic(j) {
                        &mut within
                    } else {
                        &mut across
                    }
                    .push(c);
                }
            }
            assert_eq!(
                topic(i),
                topic(best.1),
                "{architecture:?}: nearest neighbour of {} is {}",
                vocab.word(i as u32),
                vocab.word(best.1 as u32)
            );
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (w, a) = (mean(&within), mean(&across));
        assert!(
            w > a + 0.3,
            "{architecture:?}: within-topic {w:.3}, across-topic {a:.3}"
        );
    }
}

#[test]
fn progress_is_reported_to_the_end_with_the_schedule() {
    let corpus = topics_corpus();
    let n_tokens = corpus.view().n_tokens() as u64;
    for architecture in ARCHITECTURES {
        let c = SgnsConfig {
            alpha: 0.05,
            min_alpha: 0.001,
            ..config(architecture)
        };
        let mut reports: Vec<Progress> = Vec::new();
        train(
            &corpus.view(),
            corpus.vocab().counts(),
            &c,
            &SeedPath::new(3),
            &mut |p| reports.push(p),
        )
        .unwrap();
        let total = n_tokens * 5;
        assert!(reports.iter().all(|p| p.words_total == total));
        let last = reports.last().unwrap();
        assert_eq!((last.words_done, last.alpha), (total, 0.001));
        // At every multiple of 10,000 words before the end (sentences here are 8 words), and at
        // the end.
        assert_eq!(reports.len() as u64, (total - 1) / 10_000 + 1);
        for pair in reports.windows(2) {
            assert!(pair[1].words_done > pair[0].words_done);
            assert!(pair[1].words_done - pair[0].words_done < 10_000 + 8);
            assert!(pair[1].alpha <= pair[0].alpha);
        }
        // The reported rate is the one in use for the sentence that crossed the mark: the
        // schedule at most one sentence earlier.
        for p in &reports[..reports.len() - 1] {
            let before = learning_rate(0.05, 0.001, p.words_done - 8, total);
            assert!(p.alpha <= before && p.alpha >= learning_rate(0.05, 0.001, p.words_done, total));
        }
    }
}

/// An encoded corpus whose vocabulary has words that never occur (ids 3 and 4), built in the
/// on-disk format.
fn corpus_with_unused_words() -> AlignedBytes {
    let tokens: Vec<u32> = (0..600).map(|i| [0, 1, 0, 2, 1, 0][i % 6]).collect();
    let ends: Vec<u64> = (1..=60).map(|s| s * 10).collect();
    let ends_offset = (HEADER_LEN + 4 * tokens.len()).next_multiple_of(8);
    let file_len = ends_offset + 8 * ends.len();
    let mut b = Vec::with_capacity(file_len);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    b.extend_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    for v in [
        5,
        tokens.len() as u64,
        ends.len() as u64,
        HEADER_LEN as u64,
        ends_offset as u64,
        file_len as u64,
    ] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.resize(HEADER_LEN, 0);
    tokens.iter().for_each(|t| b.extend_from_slice(&t.to_le_bytes()));
    b.resize(ends_offset, 0);
    ends.iter().for_each(|e| b.extend_from_slice(&e.to_le_bytes()));
    AlignedBytes::from_bytes(&b)
}

#[test]
fn input_vectors_start_uniform_and_unused_words_keep_them() {
    let bytes = corpus_with_unused_words();
    let view = EncodedCorpusView::parse(bytes.as_bytes()).unwrap();
    let counts = [300, 200, 100, 0, 0];
    let dim = 40;
    let c = SgnsConfig {
        dim,
        epochs: 1,
        ..config(Architecture::Skipgram)
    };
    let e = train(&view, &counts, &c, &SeedPath::new(5), &mut |_| {}).unwrap();
    let unused = &e.vectors[3 * dim..];
    let bound = 0.5 / dim as f32;
    assert!(unused.iter().all(|&v| (-bound..bound).contains(&v)));
    let mean = unused.iter().sum::<f32>() / unused.len() as f32;
    assert!(mean.abs() < 0.3 * bound, "mean {mean}");
    assert!(unused.iter().any(|&v| v > 0.5 * bound) && unused.iter().any(|&v| v < -0.5 * bound));
    // Words that occur moved away from their initial values.
    let e2 = train(
        &view,
        &counts,
        &SgnsConfig {
            alpha: 1e-30,
            min_alpha: 0.0,
            ..c.clone()
        },
        &SeedPath::new(5),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(
        &e2.vectors[3 * dim..],
        unused,
        "initialisation depends only on the seed"
    );
    assert_ne!(&e2.vectors[..dim], &e.vectors[..dim]);
}

#[test]
fn gensim_init_is_twice_as_wide_from_the_same_draws() {
    let bytes = corpus_with_unused_words();
    let view = EncodedCorpusView::parse(bytes.as_bytes()).unwrap();
    let counts = [300, 200, 100, 0, 0];
    let dim = 40;
    let with_init = |init: Init| {
        let c = SgnsConfig {
            dim,
            epochs: 1,
            semantics: Semantics {
                init,
                ..Semantics::RETEST
            },
            ..config(Architecture::Skipgram)
        };
        train(&view, &counts, &c, &SeedPath::new(5), &mut |_| {}).unwrap()
    };
    let (narrow, wide) = (with_init(Init::Word2vecC), with_init(Init::Gensim));
    let (narrow, wide) = (&narrow.vectors[3 * dim..], &wide.vectors[3 * dim..]);
    // gensim 4's range [−1/dim, 1/dim), reached on both sides beyond word2vec.c's.
    let bound = 1.0 / dim as f32;
    assert!(wide.iter().all(|&v| (-bound..bound).contains(&v)));
    assert!(wide.iter().any(|&v| v > 0.75 * bound) && wide.iter().any(|&v| v < -0.75 * bound));
    for (&n, &w) in narrow.iter().zip(wide) {
        assert_eq!(w.to_bits(), (2.0 * n).to_bits());
    }
}

#[test]
fn decay_by_sentences_is_decay_by_words_when_all_sentences_are_equally_long() {
    let with_decay = |corpus: &EncodedCorpus, architecture, decay| {
        let c = SgnsConfig {
            semantics: Semantics {
                decay,
                ..Semantics::RETEST
            },
            ..config(architecture)
        };
        let mut last_alpha = f32::NAN;
        let e = train(
            &corpus.view(),
            corpus.vocab().counts(),
            &c,
            &SeedPath::new(9),
            &mut |p| last_alpha = p.alpha,
        )
        .unwrap();
        assert_eq!(last_alpha, c.min_alpha, "{decay:?} ends at min_alpha");
        e.vectors
    };
    // Every sentence has 8 words: the two progress fractions are the same numbers.
    let equal = topics_corpus();
    // Sentences of 2 to 24 words, the long ones first: by sentences, the rate falls more slowly
    // over the first half of each epoch's words.
    let mut rng = Lcg(7);
    let mut text = String::new();
    for line in 0..1200 {
        let len = if line < 300 { 24 } else { 2 + rng.below(6) };
        for _ in 0..len {
            text.push_str(&format!("w{} ", rng.below(20)));
        }
        text.push('\n');
    }
    let unequal = corpus_from_text(&text, 1);
    for architecture in ARCHITECTURES {
        assert_eq!(
            with_decay(&equal, architecture, Decay::Words),
            with_decay(&equal, architecture, Decay::Sentences)
        );
        assert_ne!(
            with_decay(&unequal, architecture, Decay::Words),
            with_decay(&unequal, architecture, Decay::Sentences)
        );
    }
}

#[test]
fn every_error_is_reported_with_its_value() {
    let corpus = topics_corpus();
    let view = corpus.view();
    let counts = corpus.vocab().counts();
    let seed = SeedPath::new(1);
    let fail = |c: &SgnsConfig, counts: &[u64]| train(&view, counts, c, &seed, &mut |_| {}).unwrap_err();
    let ok = config(Architecture::Skipgram);
    let cases: Vec<(SgnsConfig, &str)> = vec![
        (
            SgnsConfig { dim: 0, ..ok.clone() },
            "invalid SGNS configuration: dim is 0, expected at least 1",
        ),
        (
            SgnsConfig {
                window: 0,
                ..ok.clone()
            },
            "invalid SGNS configuration: window is 0, expected between 1 and 10000",
        ),
        (
            SgnsConfig {
                negative: 0,
                ..ok.clone()
            },
            "invalid SGNS configuration: negative is 0, expected between 1 and 1000",
        ),
        (
            SgnsConfig {
                negative: 1001,
                ..ok.clone()
            },
            "invalid SGNS configuration: negative is 1001, expected between 1 and 1000",
        ),
        (
            SgnsConfig {
                epochs: 0,
                ..ok.clone()
            },
            "invalid SGNS configuration: epochs is 0, expected at least 1",
        ),
        (
            SgnsConfig {
                ns_exponent: f64::NAN,
                ..ok.clone()
            },
            "invalid SGNS configuration: ns_exponent is NaN, expected a finite number",
        ),
        (
            SgnsConfig {
                sample: -1e-3,
                ..ok.clone()
            },
            "invalid SGNS configuration: sample is -0.001, expected a finite number ≥ 0",
        ),
        (
            SgnsConfig {
                alpha: 0.0,
                ..ok.clone()
            },
            "invalid SGNS configuration: alpha is 0, expected a finite number > 0",
        ),
        (
            SgnsConfig {
                min_alpha: f32::INFINITY,
                ..ok.clone()
            },
            "invalid SGNS configuration: min_alpha is inf, expected a finite number ≥ 0",
        ),
    ];
    for (c, message) in cases {
        assert_eq!(fail(&c, counts).to_string(), message);
    }
    assert_eq!(
        fail(&ok, &counts[1..]),
        SgnsError::CountsLength {
            counts: counts.len() - 1,
            vocab: counts.len()
        }
    );
    assert_eq!(
        fail(&ok, &counts[1..]).to_string(),
        format!(
            "got {} word counts for a vocabulary of {} words",
            counts.len() - 1,
            counts.len()
        )
    );
    let zeros = vec![0u64; counts.len()];
    assert_eq!(
        fail(&ok, &zeros).to_string(),
        "every word count is zero: the negative-sampling distribution is empty"
    );
    let empty = corpus_from_text("\n \n", 1);
    assert_eq!(
        train(&empty.view(), empty.vocab().counts(), &ok, &seed, &mut |_| {})
            .unwrap_err()
            .to_string(),
        "the corpus is empty: there is nothing to train on"
    );
    let huge = SgnsConfig {
        dim: usize::MAX / 8,
        ..ok.clone()
    };
    assert!(matches!(fail(&huge, counts), SgnsError::TooLarge { .. }));
}

/// A fixed prefetch distance beyond what the negatives' buffer holds is refused before any work.
#[test]
fn a_prefetch_distance_beyond_four_pairs_is_refused() {
    let corpus = topics_corpus();
    let speed = Speed {
        simd: SimdPath::detect(),
        fixed: Some(Prefetch { pairs_ahead: 5 }),
    };
    let c = config(Architecture::Skipgram);
    let e = train_with(
        &corpus.view(),
        corpus.vocab().counts(),
        &c,
        &SeedPath::new(1),
        &mut |_| {},
        speed,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid SGNS configuration: prefetch is 5, expected at most 4 pairs ahead"
    );
}

/// Every path gives `train`'s bits where this CPU has it, and a clear error where it does not.
#[test]
fn every_simd_path_trains_or_says_it_is_unsupported() {
    let corpus = topics_corpus();
    let (view, counts) = (corpus.view(), corpus.vocab().counts());
    let c = SgnsConfig {
        dim: 20,
        ..config(Architecture::Skipgram)
    };
    let seed = SeedPath::new(4);
    let bits = |e: &Embedding| e.vectors.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let want = bits(&train(&view, counts, &c, &seed, &mut |_| {}).unwrap());
    for path in SimdPath::ALL {
        match train_with(&view, counts, &c, &seed, &mut |_| {}, Speed::on(path)) {
            Ok(got) => assert!(path.is_available() && bits(&got) == want, "{}", path.as_str()),
            Err(e) => {
                assert!(!path.is_available());
                assert_eq!(
                    e.to_string(),
                    format!("the SIMD path {} is not supported by this CPU", path.as_str())
                );
            }
        }
    }
}
