//! Speed of the exact 3CosAdd search: `cargo bench -p retest-eval`. A random 300-dimensional
//! embedding whose vocabulary starts with the words of 2,048 analogy questions.

use criterion::{Criterion, criterion_group, criterion_main};
use retest_embeddings::Embeddings;
use retest_eval::{AnalogySection, AnalogySet, evaluate_analogies};

const DIM: usize = 300;
const N_WORDS: usize = 50_000;
const N_QUESTIONS: usize = 2_048;

fn embedding() -> Embeddings {
    let mut state = 0x5EED_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    };
    let words = (0..N_WORDS).map(|i| format!("w{i}")).collect();
    let vectors = (0..N_WORDS * DIM).map(|_| next()).collect();
    Embeddings::new(words, DIM, vectors).unwrap()
}

fn questions() -> AnalogySet {
    let questions = (0..N_QUESTIONS)
        .map(|i| [4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3].map(|w| format!("w{}", w % N_WORDS)))
        .collect();
    AnalogySet {
        sections: vec![AnalogySection {
            name: "random".into(),
            questions,
        }],
    }
}

fn bench(c: &mut Criterion) {
    let emb = embedding();
    let set = questions();
    let mut group = c.benchmark_group("analogy");
    group.sample_size(10);
    group.bench_function("3cosadd_2048q_50000x300", |b| {
        b.iter(|| evaluate_analogies(&emb, &set))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
