//! NBM's neighbour search (k = 100, dim 300, self excluded) over V random unit vectors, V = 26k
//! and 50k (cost ∝ V²; extrapolate to 250k with ×92 and ×25), on one and two threads; a curated
//! list (320 queries) against 50k candidates; and one Procrustes fit at V = 50k.
//!
//! `cargo bench -p retest-geometry --bench knn`. The faiss side-by-side is
//! `examples/geometry_timings.rs` + `bench/faiss_knn.py`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use retest_geometry::{
    Blocking, Candidates, KnnKernel, KnnParams, Queries, SelfMatch, normalize_rows, procrustes,
    top_k_neighbours,
};
use retest_test_support::RandomData;

/// The random data of the geometry tests.
const DATA: RandomData = RandomData::new("retest-geometry-tests");

const DIM: usize = 300;

fn knn(c: &mut Criterion) {
    let mut group = c.benchmark_group("knn_all_pairs_k100_dim300");
    // One call per sample (seconds each): flat sampling, 10 samples.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .warm_up_time(Duration::from_secs(1));
    for v in [26_000usize, 50_000] {
        let unit = normalize_rows(&DATA.gaussian(v, DIM, 2021), DIM);
        // Throughput in "full GEMM flops" (2·V²·d), the unit faiss' effective GFLOP/s uses.
        group.throughput(Throughput::Elements((2 * v * v * DIM) as u64));
        for threads in [1, 2] {
            let params = KnnParams {
                k: 100,
                self_match: SelfMatch::Exclude,
                threads,
                blocking: Blocking::AUTO,
                kernel: KnnKernel::Auto,
            };
            group.bench_function(format!("V={v}/threads={threads}"), |b| {
                b.iter(|| {
                    top_k_neighbours(black_box(&unit), DIM, Queries::All, Candidates::All, &params).unwrap()
                })
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("knn_list_k100_dim300");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    let v = 50_000;
    let unit = normalize_rows(&DATA.gaussian(v, DIM, 2021), DIM);
    let queries: Vec<u32> = (0..320u32).map(|i| i * 151).collect();
    let params = KnnParams {
        k: 100,
        self_match: SelfMatch::Exclude,
        threads: 2,
        blocking: Blocking::AUTO,
        kernel: KnnKernel::Auto,
    };
    group.bench_function("320_queries/V=50000", |b| {
        b.iter(|| {
            top_k_neighbours(
                black_box(&unit),
                DIM,
                Queries::Ids(&queries),
                Candidates::All,
                &params,
            )
            .unwrap()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("procrustes_dim300");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    let a = DATA.gaussian(v, DIM, 1);
    let b2 = DATA.gaussian(v, DIM, 2);
    group.bench_function("V=50000", |b| {
        b.iter(|| procrustes(black_box(&a), black_box(&b2), v, DIM).unwrap())
    });
    group.finish();
}

criterion_group!(benches, knn);
criterion_main!(benches);
