//! Criterion benchmarks: co-occurrence counting (in memory and spilling) and one GloVe training
//! iteration at dim 300 on each SIMD path, on the first 100k tokens of WikiText-103 validation
//! from the data mirror (`RETEST_DATA_DIR`, default `../shared/data`).
//!
//! `cargo bench -p retest-glove`. A training iteration is measured as the time of
//! `iterations = 1` minus that of `iterations = 0` (initialisation, `ln x`/`f(x)` and shuffle).

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use retest_corpus::{EncodedCorpus, UnkHandling};
use retest_glove::{CooccurConfig, GloveConfig, SimdPath, Speed, count_cooccurrences, train_with};
use retest_rng::SeedPath;

fn corpus(max_tokens: u64) -> EncodedCorpus {
    retest_test_support::wiki_valid(UnkHandling::RawUnk, Some(max_tokens), 5)
}

fn bench_cooccur(c: &mut Criterion) {
    let corpus = corpus(100_000);
    let spill = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("cooccur_wiki_valid_100k_window15");
    group.sample_size(10);
    for (name, memory_bytes) in [("in_memory", 1u64 << 30), ("spill_1MiB", 1 << 20)] {
        let config = CooccurConfig {
            window: 15,
            memory_bytes,
        };
        group.bench_function(name, |b| {
            b.iter(|| count_cooccurrences(&corpus.view(), &config, spill.path(), &mut |_| {}).unwrap())
        });
    }
    group.finish();
}

fn bench_train(c: &mut Criterion) {
    let corpus = corpus(100_000);
    let spill = tempfile::tempdir().unwrap();
    let cooc = count_cooccurrences(
        &corpus.view(),
        &CooccurConfig {
            window: 15,
            memory_bytes: 1 << 30,
        },
        spill.path(),
        &mut |_| {},
    )
    .unwrap();
    println!("{} records over {} words", cooc.len(), cooc.vocab_size());
    let mut group = c.benchmark_group("train_wiki_valid_100k_dim300");
    group.sample_size(10);
    let seed = SeedPath::new(1);
    for path in SimdPath::available() {
        for iterations in [0, 1] {
            let config = GloveConfig {
                dim: 300,
                x_max: 100.0,
                alpha: 0.75,
                eta: 0.05,
                iterations,
            };
            group.bench_function(format!("{}_iterations_{iterations}", path.as_str()), |b| {
                b.iter(|| {
                    black_box(
                        train_with(
                            &cooc,
                            cooc.vocab_size(),
                            &config,
                            &seed,
                            &mut |_| {},
                            Speed::on(path),
                        )
                        .unwrap(),
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_cooccur, bench_train);
criterion_main!(benches);
