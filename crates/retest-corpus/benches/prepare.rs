//! Throughput of corpus preparation: the WikiText whitespace path and the `tokenizers` path
//! (Gutenberg prose) on one and two threads, in MB/s of decompressed input.

use std::hint::black_box;
use std::io::Read;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use retest_corpus::{
    CaseHandling, CorpusBuilder, PlainTextOptions, UnkHandling, WikiTextOptions, decompress,
};
use retest_test_support::data_dir;

/// Bytes of decompressed Gutenberg text used for the tokenising benchmark.
const GUTENBERG_BYTES: u64 = 4 << 20;

fn wikitext(c: &mut Criterion) {
    let bytes = std::fs::read(data_dir().join("wikitext-103/wiki.valid.tokens")).unwrap();
    let opts = WikiTextOptions {
        unk: UnkHandling::Keep,
    };
    let mut group = c.benchmark_group("wikitext_103_valid");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read_wikitext+finish", |b| {
        b.iter(|| {
            let mut builder = CorpusBuilder::new(None);
            builder.read_wikitext(black_box(&bytes[..]), &opts).unwrap();
            builder.finish(5)
        })
    });
    group.finish();
}

fn gutenberg(c: &mut Criterion) {
    let file = std::fs::File::open(data_dir().join("corpora/gutenberg_lahiri/gutenberg_lahiri_150M.txt.xz"))
        .unwrap();
    let (_, reader) = decompress(file).unwrap();
    let mut text = Vec::new();
    reader.take(GUTENBERG_BYTES).read_to_end(&mut text).unwrap();
    let mut group = c.benchmark_group("gutenberg_4MiB");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("read_plain_text+finish/{threads}_threads"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let mut builder = CorpusBuilder::new(None);
                    builder
                        .read_plain_text(
                            black_box(&text[..]),
                            &PlainTextOptions {
                                case: CaseHandling::Lower,
                            },
                        )
                        .unwrap();
                    builder.finish(5)
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, wikitext, gutenberg);
criterion_main!(benches);
