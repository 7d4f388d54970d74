//! Speed of the analogy solvers and of Bolukbasi's pair generation:
//! `cargo bench -p retest-measures --bench solvers`. A 300-dimensional embedding of 50,000 words
//! in 6,250 clusters of 8 (each word its cluster's centre plus noise, so about 28 pairs per
//! cluster are within δ = 1 of each other, as close words are in a trained model).

use criterion::{Criterion, criterion_group, criterion_main};
use retest_embeddings::Embeddings;
use retest_measures::{
    AnalogySpace, Constraint, DeltaBound, PairOptions, Query, Solver, generate_pairs, solve,
};
use retest_test_support::RandomData;

const DIM: usize = 300;
const N_WORDS: usize = 50_000;
const N_QUERIES: usize = 2_048;
const N_SECTIONS: usize = 4;
const PAIRS_PER_SECTION: usize = 24;
const CLUSTER: usize = 8;

fn embedding() -> Embeddings {
    let data = RandomData::new("retest-eval-bench-solvers");
    let n_centres = N_WORDS / CLUSTER;
    let centres = data.gaussian(n_centres, DIM, 1);
    let noise = data.gaussian(N_WORDS, DIM, 2);
    let vectors = (0..N_WORDS * DIM)
        .map(|k| {
            let (i, j) = (k / DIM, k % DIM);
            centres[(i % n_centres) * DIM + j] + 0.6 * noise[k]
        })
        .collect();
    let words = (0..N_WORDS).map(|i| format!("w{i}")).collect();
    Embeddings::new(words, DIM, vectors).unwrap()
}

/// Queries shaped like the Google set's: sections of word pairs (a, b), every ordered choice
/// of two pairs of a section one query a : b :: c : ?, so queries share most of their words.
fn queries() -> Vec<Query> {
    let mut queries = Vec::with_capacity(N_QUERIES);
    for section in 0..N_SECTIONS {
        let pair = |p: usize| {
            let first = (2 * (section * PAIRS_PER_SECTION + p) * 97) % N_WORDS;
            (first as u32, (first + 1) as u32)
        };
        for p in 0..PAIRS_PER_SECTION {
            for r in (0..PAIRS_PER_SECTION).filter(|&r| r != p) {
                let ((a, b), (c, _)) = (pair(p), pair(r));
                queries.push(Query { a, b, c });
            }
        }
    }
    queries.truncate(N_QUERIES);
    queries
}

fn bench(c: &mut Criterion) {
    let emb = embedding();
    let space = AnalogySpace::new(&emb, None).unwrap();
    let queries = queries();
    let mut group = c.benchmark_group("solvers");
    group.sample_size(10);
    for solver in Solver::PUBLISHED {
        group.bench_function(format!("{}_2048q_50000x300_top10", solver.as_str()), |b| {
            b.iter(|| solve(&space, &queries, solver, Constraint::Constrained, 10).unwrap())
        });
    }
    let options = PairOptions {
        delta: 1.0,
        bound: DeltaBound::Distance,
        n_pairs: 500,
    };
    group.bench_function("pairs_500_of_50000x300", |b| {
        b.iter(|| generate_pairs(&space, (0, 1), &options).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
