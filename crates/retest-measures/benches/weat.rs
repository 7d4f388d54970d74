//! WEAT's exact permutation p-value: every partition of a 16-word test (8 + 8 targets,
//! C(16, 8) = 12,870 partitions) and of a 24-word test (12 + 12, 2,704,156 partitions, above
//! the default exact limit, enumerated here by raising it); and the sampled p-value (10⁵ draws)
//! of the set-level stage's stereotype test on Gutenberg (101 stereotypically masculine against
//! 24 feminine professions).
//!
//! `cargo bench -p retest-measures --bench weat`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand_core::Rng;
use retest_measures::{PermutationOptions, permutation_test};
use retest_rng::SeedPath;

/// `n` scores in (−0.5, 0.5) from a seeded stream.
fn scores(n: usize, name: &str) -> Vec<f64> {
    let mut rng = SeedPath::new(2017).with("weat-bench").stream(name);
    (0..n)
        .map(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5)
        .collect()
}

fn exact_p(c: &mut Criterion) {
    let seed = SeedPath::new(0);
    let mut group = c.benchmark_group("weat_exact_p");
    for m in [8usize, 12] {
        let (x, y) = (scores(m, "x"), scores(m, "y"));
        let opts = PermutationOptions {
            exact_limit: u64::MAX,
            ..PermutationOptions::standard(&seed)
        };
        group.bench_function(format!("{m}+{m}"), |b| {
            b.iter(|| permutation_test(black_box(&x), black_box(&y), &opts).unwrap())
        });
    }
    group.finish();
}

fn sampled_p(c: &mut Criterion) {
    let seed = SeedPath::new(0);
    let (x, y) = (scores(101, "x"), scores(24, "y"));
    let opts = PermutationOptions::standard(&seed);
    c.bench_function("weat_sampled_p/101+24", |b| {
        b.iter(|| permutation_test(black_box(&x), black_box(&y), &opts).unwrap())
    });
}

criterion_group!(benches, exact_p, sampled_p);
criterion_main!(benches);
