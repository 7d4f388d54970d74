//! Tests of the training loop: every SIMD path and prefetch distance gives the same bits, and
//! the optimised loop matches a plain transcription of word2vec.c's loop bit for bit.

use super::*;
use crate::{
    Embedding, EncodedCorpusView, Init, Saturation, Semantics, SgnsConfig, keep_probability, train_tuned,
};
use retest_test_support::corpus_from_text;

/// A small corpus with repeated words (so negatives hit the positive and repeat) and one long
/// sentence (cut into pieces).
fn corpus() -> retest_corpus::EncodedCorpus {
    let mut text = String::new();
    let words = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
    let mut x = 7u32;
    for line in 0..300 {
        let len = if line == 7 { 25_000 } else { 3 + line % 17 };
        for _ in 0..len {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            // Zipf-ish: low ids much more frequent.
            let r = (x >> 16) % 1000;
            let w = (0..words.len())
                .find(|&k| r < 1000 - 1000 / (k as u32 + 2))
                .unwrap_or(11);
            text.push_str(words[w]);
            text.push(' ');
        }
        text.push('\n');
    }
    corpus_from_text(&text, 1)
}

fn config(architecture: Architecture, dim: usize) -> SgnsConfig {
    SgnsConfig {
        architecture,
        dim,
        window: 4,
        negative: 6,
        ns_exponent: 0.75,
        sample: 0.05,
        epochs: 2,
        alpha: 0.05,
        min_alpha: 0.0001,
        semantics: Semantics::RETEST,
    }
}

fn run(isa: SimdPath, c: &SgnsConfig, corpus: &retest_corpus::EncodedCorpus) -> Embedding {
    run_tuned(isa, Warmup::fixed(Prefetch::CANDIDATES[0]), c, corpus)
}

fn run_tuned(
    isa: SimdPath,
    prefetch: Warmup<Prefetch>,
    c: &SgnsConfig,
    corpus: &retest_corpus::EncodedCorpus,
) -> Embedding {
    let seed = SeedPath::new(11).with("test");
    train_tuned(
        &corpus.view(),
        corpus.vocab().counts(),
        c,
        &seed,
        &mut |_| {},
        isa,
        prefetch,
    )
    .unwrap()
}

fn bits(e: &Embedding) -> Vec<u32> {
    e.vectors.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn every_simd_path_gives_the_same_bits() {
    let corpus = corpus();
    let available: Vec<SimdPath> = SimdPath::ALL
        .into_iter()
        .filter(|isa| isa.is_available())
        .collect();
    for architecture in [Architecture::Skipgram, Architecture::Cbow] {
        for dim in [20, 64, 100] {
            let c = config(architecture, dim);
            let reference = bits(&run(SimdPath::Portable, &c, &corpus));
            for &isa in &available[1..] {
                assert!(
                    bits(&run(isa, &c, &corpus)) == reference,
                    "{} differs from portable ({architecture:?}, dim {dim})",
                    isa.as_str()
                );
            }
        }
    }
}

#[test]
fn every_prefetch_distance_and_the_warm_up_give_the_same_bits() {
    let corpus = corpus();
    let isa = SimdPath::detect();
    for architecture in [Architecture::Skipgram, Architecture::Cbow] {
        let c = config(architecture, 20);
        // Chunks of 700 words: the distance changes inside the long sentence's pieces' epoch.
        let warmed = run_tuned(isa, Warmup::new(&Prefetch::CANDIDATES, 2, 700), &c, &corpus);
        assert!(
            warmed.prefetch.chosen.is_some(),
            "the warm-up finished: {}",
            warmed.prefetch
        );
        for fixed in Prefetch::CANDIDATES {
            let r = run_tuned(isa, Warmup::fixed(fixed), &c, &corpus);
            assert!(bits(&r) == bits(&warmed), "{fixed} differs ({architecture:?})");
        }
    }
}

/// word2vec.c's loop written out plainly over unpadded `Vec<f32>` rows: no fusion, no
/// buffering, no prefetching, the dot product summed in the documented lane order; with
/// `c.semantics`' initial width, sigmoid table and decay unit.
fn reference_train(
    corpus: EncodedCorpusView<'_>,
    counts: &[u64],
    c: &SgnsConfig,
    seed: &SeedPath,
) -> Vec<f32> {
    const LANES: usize = 16;
    let dot = |a: &[f32], b: &[f32]| {
        let mut acc = [[0.0f32; LANES]; 4];
        for i in 0..a.len() {
            acc[(i / LANES) % 4][i % LANES] += a[i] * b[i];
        }
        let mut s = [0.0f32; LANES];
        for l in 0..LANES {
            s[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
        }
        for w in [8, 4, 2, 1] {
            for l in 0..w {
                s[l] += s[l + w];
            }
        }
        s[0]
    };
    let (n, d) = (counts.len(), c.dim);
    let mut init = seed.stream("init");
    let width = match c.semantics.init {
        Init::Word2vecC => 1.0f32,
        Init::Gensim => 2.0f32,
    };
    let mut syn0: Vec<Vec<f32>> = (0..n)
        .map(|_| {
            (0..d)
                .map(|_| (((init.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)) - 0.5) * width / d as f32)
                .collect()
        })
        .collect();
    let mut syn1 = vec![vec![0.0f32; d]; n];
    let sampler = UnigramSampler::new(counts, c.ns_exponent).unwrap();
    let sigmoid = SigmoidTable::new(c.semantics.sigmoid_index, c.semantics.saturation);
    let total: u64 = counts.iter().sum();
    let threshold = |w: u32| {
        let p = keep_probability(counts[w as usize], total, c.sample);
        if p >= 1.0 {
            None
        } else {
            Some((p * 4_294_967_296.0) as u32)
        }
    };
    let tokens = corpus.tokens();
    let words_total = (tokens.len() * c.epochs) as u64;
    let mut words_done = 0u64;
    let pieces_total: u64 = corpus
        .sentences()
        .map(|s| s.chunks(MAX_SENTENCE_LEN).count() as u64 * c.epochs as u64)
        .sum();
    let mut pieces_done = 0u64;

    // One SGD step of `input` against `targets` (positive first), word2vec.c style.
    let sgd = |input: &[f32], targets: &[u32], syn1: &mut Vec<Vec<f32>>, alpha: f32| {
        let mut neu1e = vec![0.0f32; d];
        for (k, &t) in targets.iter().enumerate() {
            let label = if k == 0 { 1.0 } else { 0.0 };
            let row = &mut syn1[t as usize];
            let f = dot(input, row);
            let g = sigmoid.gradient(f, label, alpha);
            if g == 0.0 {
                continue;
            }
            for j in 0..d {
                let o = row[j];
                neu1e[j] += g * o;
                row[j] = o + g * input[j];
            }
        }
        neu1e
    };

    for epoch in 0..c.epochs as u64 {
        let path = seed.clone().with("epoch").with_index(epoch);
        let mut sub = path.stream("subsample");
        let mut win = path.stream("window");
        let mut neg = path.stream("negatives");
        for sentence in corpus.sentences() {
            for piece in sentence.chunks(MAX_SENTENCE_LEN) {
                let alpha = match c.semantics.decay {
                    Decay::Words => learning_rate(c.alpha, c.min_alpha, words_done, words_total),
                    Decay::Sentences => learning_rate(c.alpha, c.min_alpha, pieces_done, pieces_total),
                };
                let kept: Vec<u32> = piece
                    .iter()
                    .copied()
                    .filter(|&w| match threshold(w) {
                        None => true,
                        Some(t) => sub.next_u32() < t,
                    })
                    .collect();
                for pos in 0..kept.len() {
                    let b = ((u64::from(win.next_u32()) * c.window as u64) >> 32) as usize;
                    let reach = c.window - b;
                    let lo = pos.saturating_sub(reach);
                    let hi = (pos + reach + 1).min(kept.len());
                    let context: Vec<usize> = (lo..hi).filter(|&j| j != pos).collect();
                    let mut draw = |centre: u32| {
                        let mut t = vec![centre];
                        for _ in 0..c.negative {
                            let w = sampler.sample(neg.next_u64());
                            if w != centre {
                                t.push(w);
                            }
                        }
                        t
                    };
                    match c.architecture {
                        Architecture::Skipgram => {
                            for &j in &context {
                                let targets = draw(kept[pos]);
                                let cw = kept[j] as usize;
                                let neu1e = sgd(&syn0[cw].clone(), &targets, &mut syn1, alpha);
                                for k in 0..d {
                                    syn0[cw][k] += neu1e[k];
                                }
                            }
                        }
                        Architecture::Cbow => {
                            if context.is_empty() {
                                continue;
                            }
                            let mut h = syn0[kept[context[0]] as usize].clone();
                            for &j in &context[1..] {
                                for k in 0..d {
                                    h[k] += syn0[kept[j] as usize][k];
                                }
                            }
                            let inv = 1.0 / context.len() as f32;
                            h.iter_mut().for_each(|x| *x *= inv);
                            let targets = draw(kept[pos]);
                            let neu1e = sgd(&h, &targets, &mut syn1, alpha);
                            for &j in &context {
                                for k in 0..d {
                                    syn0[kept[j] as usize][k] += neu1e[k];
                                }
                            }
                        }
                    }
                }
                words_done += piece.len() as u64;
                pieces_done += 1;
            }
        }
    }
    syn0.concat()
}

#[test]
fn optimised_loop_matches_the_plain_loop_bit_for_bit() {
    let corpus = corpus();
    for semantics in [Semantics::RETEST, Semantics::GENSIM] {
        for architecture in [Architecture::Skipgram, Architecture::Cbow] {
            for (dim, window) in [(20, 4), (48, 7)] {
                let c = SgnsConfig {
                    window,
                    semantics,
                    ..config(architecture, dim)
                };
                let seed = SeedPath::new(11).with("test");
                let want = reference_train(corpus.view(), corpus.vocab().counts(), &c, &seed);
                let got = run(SimdPath::detect(), &c, &corpus);
                let want_bits: Vec<u32> = want.iter().map(|v| v.to_bits()).collect();
                assert!(
                    bits(&got) == want_bits,
                    "{semantics:?} {architecture:?} dim {dim} window {window}"
                );
            }
        }
    }
}

#[test]
fn skipping_and_clipping_saturated_pairs_match_the_plain_loop() {
    // A large learning rate pushes dot products past ±6, so the two policies part.
    let corpus = corpus();
    for architecture in [Architecture::Skipgram, Architecture::Cbow] {
        let mut results = Vec::new();
        for saturation in [Saturation::Clip, Saturation::Skip] {
            let c = SgnsConfig {
                alpha: 1.0,
                semantics: Semantics {
                    saturation,
                    ..Semantics::RETEST
                },
                ..config(architecture, 20)
            };
            let seed = SeedPath::new(11).with("test");
            let want = reference_train(corpus.view(), corpus.vocab().counts(), &c, &seed);
            let want_bits: Vec<u32> = want.iter().map(|v| v.to_bits()).collect();
            let got = bits(&run(SimdPath::detect(), &c, &corpus));
            assert!(got == want_bits, "{architecture:?} {saturation:?}");
            results.push(got);
        }
        assert_ne!(results[0], results[1], "{architecture:?}: no pair left the table");
    }
}
