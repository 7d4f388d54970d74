//! Training throughput (corpus tokens per second, one epoch) of skip-gram and CBOW at the paper's
//! settings (dim 300, window 5, negative 5, sample 1e-3) on the first 200,000 tokens of the
//! Gutenberg corpus from the data mirror, prepared with `retest-corpus`' plain-text reader.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use retest_corpus::{CaseHandling, CorpusBuilder, EncodedCorpus, PlainTextOptions, decompress};
use retest_sgns::{Architecture, SeedPath, Semantics, SgnsConfig, train};
use retest_test_support::data_dir;

/// Tokens read from the start of the corpus.
const TOKENS: u64 = 200_000;

fn gutenberg() -> EncodedCorpus {
    let path = data_dir().join("corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (_, reader) = decompress(file).unwrap();
    let mut builder = CorpusBuilder::new(Some(TOKENS));
    builder
        .read_plain_text(
            reader,
            &PlainTextOptions {
                case: CaseHandling::Lower,
            },
        )
        .unwrap();
    builder.finish(5)
}

fn bench_train(c: &mut Criterion) {
    let corpus = gutenberg();
    let mut group = c.benchmark_group(format!("gutenberg_{}k_dim300", TOKENS / 1000));
    group.sample_size(10);
    group.throughput(Throughput::Elements(corpus.view().n_tokens() as u64));
    for architecture in [Architecture::Skipgram, Architecture::Cbow] {
        let config = SgnsConfig {
            architecture,
            dim: 300,
            window: 5,
            negative: 5,
            ns_exponent: 0.75,
            sample: 1e-3,
            epochs: 1,
            alpha: 0.025,
            min_alpha: 0.0001,
            semantics: Semantics::RETEST,
        };
        let seed = SeedPath::new(1).with("bench").with(architecture.as_str());
        group.bench_function(architecture.as_str(), |b| {
            b.iter(|| {
                train(
                    black_box(&corpus.view()),
                    corpus.vocab().counts(),
                    &config,
                    &seed,
                    &mut |_| {},
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_train);
criterion_main!(benches);
