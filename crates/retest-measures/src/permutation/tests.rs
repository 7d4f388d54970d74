use super::*;

fn opts(seed: &SeedPath) -> PermutationOptions<'_> {
    PermutationOptions::standard(seed)
}

/// Brute force over bit masks on integer scores, whose sums are exact in f64 and in i64.
fn brute_force(x: &[i64], y: &[i64]) -> (u64, u64) {
    let pooled: Vec<i64> = x.iter().chain(y).copied().collect();
    let observed: i64 = x.iter().sum();
    let (mut greater, mut total) = (0, 0);
    for mask in 0u32..(1 << pooled.len()) {
        if mask.count_ones() as usize != x.len() {
            continue;
        }
        total += 1;
        let s: i64 = (0..pooled.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| pooled[i])
            .sum();
        if s > observed {
            greater += 1;
        }
    }
    (greater, total)
}

#[test]
fn binomial_coefficients() {
    assert_eq!(binomial(16, 8), Some(12_870));
    assert_eq!(binomial(40, 20), Some(137_846_528_820));
    assert_eq!(binomial(5, 0), Some(1));
    assert_eq!(binomial(5, 7), Some(0));
    assert_eq!(binomial(300, 150), None);
}

#[test]
fn exact_enumeration_visits_every_partition() {
    let seed = SeedPath::new(1);
    for (n_x, n_y) in [(1, 1), (1, 4), (5, 1), (3, 5), (8, 8), (7, 10)] {
        let x: Vec<f64> = (0..n_x).map(|i| (i * 7 % 5) as f64 * 0.1).collect();
        let y: Vec<f64> = (0..n_y).map(|i| (i * 3 % 4) as f64 * 0.1).collect();
        let t = permutation_test(&x, &y, &opts(&seed)).unwrap();
        let c = binomial((n_x + n_y) as u64, n_x as u64).unwrap();
        assert_eq!(t.method, PMethod::Exact);
        assert_eq!(u128::from(t.partitions), c, "{n_x} + {n_y}");
        assert_eq!(t.total_partitions, Some(c));
        assert_eq!((t.n_x, t.n_y), (n_x, n_y));
    }
}

#[test]
fn exact_p_equals_brute_force_on_integer_scores() {
    let seed = SeedPath::new(2);
    let cases: [(&[i64], &[i64]); 4] = [
        (&[5, 3, 9, 1], &[2, 2, 8, 0]),
        (&[4, -1, 7], &[3, 3, 0, 6, -2]),
        (&[10, 9, 8, 7, 6], &[1, 2, 3]),
        (&[-3, -3, 1, 2, 2, 5, 0, 4], &[1, 1, 0, -2, 6, 3, 3, -1]),
    ];
    for (x, y) in cases {
        let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        let yf: Vec<f64> = y.iter().map(|&v| v as f64).collect();
        let t = permutation_test(&xf, &yf, &opts(&seed)).unwrap();
        let (greater, total) = brute_force(x, y);
        assert_eq!((t.greater, t.partitions), (greater, total), "{x:?} {y:?}");
        assert_eq!(t.p, greater as f64 / total as f64);
    }
}

/// X and Y hold the same four values in different orders. In exact arithmetic every
/// partition with the multiset {0.05, 0.1, 0.6, 0.7} ties with X; summed in the order the
/// words come, 4 of them exceed X's sum by rounding (31 instead of 27 partitions would count).
/// The hundredths as integers give the exact count.
#[test]
fn partitions_tying_with_the_observed_one_are_not_greater() {
    let x = [0.1, 0.05, 0.6, 0.7];
    let y = [0.6, 0.7, 0.05, 0.1];
    let (greater, total) = brute_force(&[10, 5, 60, 70], &[60, 70, 5, 10]);
    assert_eq!((greater, total), (27, 70));
    // The order-dependent reading this test guards against.
    let pooled: Vec<f64> = x.iter().chain(&y).copied().collect();
    let observed = x.iter().fold(0.0, |a, b| a + b);
    let naive = (0u32..1 << 8)
        .filter(|m| m.count_ones() == 4)
        .filter(|m| (0..8).filter(|i| m >> i & 1 == 1).fold(0.0, |a, i| a + pooled[i]) > observed)
        .count();
    assert_eq!(naive, 31);

    let seed = SeedPath::new(3);
    let t = permutation_test(&x, &y, &opts(&seed)).unwrap();
    assert_eq!((t.greater, t.partitions), (27, 70));
    assert_eq!(t.p, 27.0 / 70.0);
    // Sampling every partition but one sums the same way: no tie counts there either.
    let sampled = PermutationOptions {
        exact_limit: 0,
        samples: 69,
        seed: &seed,
    };
    let s = permutation_test(&x, &y, &sampled).unwrap();
    assert_eq!(s.method, PMethod::Sampled);
    assert!(s.greater == 26 || s.greater == 27, "{}", s.greater);
}

#[test]
fn sampling_draws_distinct_partitions_reproducibly() {
    // 14 integer scores: C(14, 7) = 3432 partitions; drawing all but one leaves exactly one out.
    let x: Vec<f64> = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0].to_vec();
    let y: Vec<f64> = [6.0, 5.0, 3.0, 5.0, 8.0, 9.0, 7.0].to_vec();
    let seed = SeedPath::new(4).with("weat");
    let o = PermutationOptions {
        exact_limit: 100,
        samples: 3431,
        seed: &seed,
    };
    let a = permutation_test(&x, &y, &o).unwrap();
    let exact = permutation_test(&x, &y, &opts(&seed)).unwrap();
    assert_eq!(a.method, PMethod::Sampled);
    assert_eq!(a.partitions, 3431);
    // Without replacement: at most the one partition left out is missing from the count.
    assert!(
        a.greater == exact.greater || a.greater + 1 == exact.greater,
        "{} vs {}",
        a.greater,
        exact.greater
    );
    assert_eq!(a.p, (a.greater + 1) as f64 / 3432.0);
    // Same seed, same draws; another seed, other draws.
    fn small(seed: &SeedPath) -> PermutationOptions<'_> {
        PermutationOptions {
            exact_limit: 100,
            samples: 500,
            seed,
        }
    }
    let b1 = permutation_test(&x, &y, &small(&seed)).unwrap();
    let b2 = permutation_test(&x, &y, &small(&seed)).unwrap();
    assert_eq!(b1, b2);
    let counts: Vec<u64> = (5..10)
        .map(|s| {
            let other = SeedPath::new(s).with("weat");
            permutation_test(&x, &y, &small(&other)).unwrap().greater
        })
        .collect();
    assert!(counts.iter().any(|&c| c != b1.greater), "{counts:?}");
}

#[test]
fn sampling_sets_of_unequal_size_draws_the_smaller_side_and_counts_the_larger() {
    // 12 integer scores, C(12, 3) = 220 partitions with |X| = 3 or with |X| = 9: drawing all
    // but one leaves at most one greater partition out, whichever side is drawn.
    let pooled = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8];
    let seed = SeedPath::new(8).with("weat");
    let o = PermutationOptions {
        exact_limit: 100,
        samples: 219,
        seed: &seed,
    };
    for n_x in [3, 9] {
        let (x, y) = pooled.split_at(n_x);
        let (brute_greater, total) = brute_force(x, y);
        assert_eq!(total, 220);
        let as_f64 = |v: &[i64]| v.iter().map(|&s| s as f64).collect::<Vec<_>>();
        let t = permutation_test(&as_f64(x), &as_f64(y), &o).unwrap();
        assert_eq!((t.method, t.partitions, t.n_x), (PMethod::Sampled, 219, n_x));
        assert!(
            t.greater == brute_greater || t.greater + 1 == brute_greater,
            "|X| = {n_x}: {} vs {brute_greater}",
            t.greater
        );
    }
}

#[test]
fn as_many_samples_as_partitions_enumerates() {
    let seed = SeedPath::new(6);
    let o = PermutationOptions {
        exact_limit: 0,
        samples: 20,
        seed: &seed,
    };
    let t = permutation_test(&[1.0, 2.0, 3.0], &[0.0, 5.0, 4.0], &o).unwrap();
    assert_eq!((t.method, t.partitions), (PMethod::Exact, 20));
}

#[test]
fn refuses_empty_sets_and_sample_counts_out_of_range() {
    let seed = SeedPath::new(7);
    let err =
        |x: &[f64], y: &[f64], o: &PermutationOptions<'_>| permutation_test(x, y, o).unwrap_err().to_string();
    assert_eq!(
        err(&[], &[1.0], &opts(&seed)),
        "WEAT target set X: the set is empty"
    );
    assert_eq!(
        err(&[1.0], &[], &opts(&seed)),
        "WEAT target set Y: the set is empty"
    );
    assert_eq!(
        err(&[0.5, f64::NAN], &[1.0], &opts(&seed)),
        "WEAT target set X: score 1 is not a finite number (NaN)"
    );
    assert_eq!(
        err(&[0.5], &[f64::NEG_INFINITY], &opts(&seed)),
        "WEAT target set Y: score 0 is not a finite number (-inf)"
    );
    for samples in [0, WEAT_MAX_SAMPLED_PARTITIONS + 1] {
        let bad = PermutationOptions {
            samples,
            ..opts(&seed)
        };
        assert_eq!(
            err(&[1.0], &[2.0], &bad),
            format!("WEAT permutation test: {samples} sampled partitions; give from 1 to 10000000")
        );
    }
}

#[test]
fn method_names() {
    assert_eq!(PMethod::Exact.as_str(), "exact");
    assert_eq!(PMethod::Sampled.to_string(), "sampled");
}
