//! Orthogonal Procrustes and embedding stability on their laws: a known rotation is recovered,
//! identical seeds are perfectly stable, and stability is symmetric in the seed order.

use retest_geometry::{GeometryError, embedding_stability, embedding_stability_for, procrustes};
use retest_test_support::{RandomData, rotate};

/// This crate's random test data (its own stream family).
const DATA: RandomData = RandomData::new("retest-geometry-tests");

/// ‖QᵀQ − I‖_max for a row-major `dim × dim` matrix.
fn orthogonality_error(q: &[f64], dim: usize) -> f64 {
    let mut worst = 0.0f64;
    for i in 0..dim {
        for j in 0..dim {
            let dot: f64 = (0..dim).map(|r| q[r * dim + i] * q[r * dim + j]).sum();
            worst = worst.max((dot - if i == j { 1.0 } else { 0.0 }).abs());
        }
    }
    worst
}

#[test]
fn procrustes_recovers_a_known_rotation() {
    let (n, dim) = (500, 30);
    let a = DATA.gaussian(n, dim, 11);
    let q_true = DATA.random_orthogonal(dim, 12);
    let b = rotate(&a, &q_true, dim);
    let q = procrustes(&a, &b, n, dim).unwrap();
    let max_diff = q
        .iter()
        .zip(&q_true)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(max_diff < 1e-6, "Q differs from the true rotation by {max_diff}");
    assert!(orthogonality_error(&q, dim) < 1e-12);
    // Residual ‖A·Q − B‖_F relative to ‖B‖_F: only B's f32 rounding remains.
    let aq = rotate(&a, &q, dim);
    let resid: f64 = aq
        .iter()
        .zip(&b)
        .map(|(x, y)| f64::from(x - y).powi(2))
        .sum::<f64>()
        .sqrt();
    let norm: f64 = b.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    assert!(resid / norm < 1e-6, "relative residual {}", resid / norm);
}

#[test]
fn procrustes_is_optimal_against_noise_and_may_reflect() {
    let (n, dim) = (400, 12);
    let a = DATA.gaussian(n, dim, 13);
    // A reflection (det −1) plus noise: the optimum over the orthogonal group is the reflection.
    let mut reflect = vec![0.0f64; dim * dim];
    for i in 0..dim {
        reflect[i * dim + i] = if i == 0 { -1.0 } else { 1.0 };
    }
    let noise = DATA.gaussian(n, dim, 14);
    let b: Vec<f32> = rotate(&a, &reflect, dim)
        .iter()
        .zip(&noise)
        .map(|(x, e)| x + 0.05 * e)
        .collect();
    let q = procrustes(&a, &b, n, dim).unwrap();
    assert!(q[0] < -0.99, "Q[0][0] = {}", q[0]);
    let loss = |q: &[f64]| -> f64 {
        rotate(&a, q, dim)
            .iter()
            .zip(&b)
            .map(|(x, y)| f64::from(x - y).powi(2))
            .sum()
    };
    // Any other orthogonal matrix does worse.
    for seed in 0..5 {
        let other = DATA.random_orthogonal(dim, 100 + seed);
        assert!(loss(&q) < loss(&other));
    }
    assert!(loss(&q) <= loss(&reflect));
}

#[test]
fn identical_seeds_have_stability_one() {
    let (n, dim) = (300, 16);
    let a = DATA.gaussian(n, dim, 15);
    let models = [&a[..], &a[..], &a[..]];
    let es = embedding_stability(&models, n, dim, 2).unwrap();
    assert_eq!(es.len(), n);
    for (w, v) in es.iter().enumerate() {
        assert!((v - 1.0).abs() < 1e-12, "ES({w}) = {v}");
    }
}

#[test]
fn rotated_copies_have_stability_one_and_noise_lowers_it() {
    let (n, dim) = (400, 16);
    let a = DATA.gaussian(n, dim, 16);
    let b = rotate(&a, &DATA.random_orthogonal(dim, 17), dim);
    let es = embedding_stability(&[&a, &b], n, dim, 1).unwrap();
    assert!(es.iter().all(|v| (v - 1.0).abs() < 1e-6));
    // Seeds = shared signal + independent noise: ES is below one, and the words whose noise is
    // largest relative to their signal are the least stable.
    let noisy: Vec<Vec<f32>> = (0..4)
        .map(|s| {
            let e = DATA.gaussian(n, dim, 200 + s);
            a.iter()
                .zip(&e)
                .enumerate()
                .map(|(i, (x, e))| x + if i / dim < 200 { 0.1 } else { 1.0 } * e)
                .collect()
        })
        .collect();
    let refs: Vec<&[f32]> = noisy.iter().map(Vec::as_slice).collect();
    let es = embedding_stability(&refs, n, dim, 2).unwrap();
    let mean = |r: std::ops::Range<usize>| es[r.clone()].iter().sum::<f64>() / r.len() as f64;
    assert!(
        mean(0..200) > 0.95 && mean(200..400) < 0.8,
        "{} {}",
        mean(0..200),
        mean(200..400)
    );
}

#[test]
fn stability_is_independent_of_threads_and_of_the_word_subset() {
    let (n, dim) = (300, 10);
    let models: Vec<Vec<f32>> = (0..5).map(|s| DATA.gaussian(n, dim, 300 + s)).collect();
    let refs: Vec<&[f32]> = models.iter().map(Vec::as_slice).collect();
    let one = embedding_stability(&refs, n, dim, 1).unwrap();
    let three = embedding_stability(&refs, n, dim, 3).unwrap();
    assert_eq!(one, three);
    let words = [299u32, 0, 17, 17];
    let some = embedding_stability_for(&refs, n, dim, &words, 2).unwrap();
    assert_eq!(some, vec![one[299], one[0], one[17], one[17]]);
    // The unordered pairs i < j: reversing the seed order gives the same mean (Q_ji = Q_ijᵀ).
    let rev: Vec<&[f32]> = refs.iter().rev().copied().collect();
    let back = embedding_stability(&rev, n, dim, 2).unwrap();
    for (x, y) in one.iter().zip(&back) {
        assert!((x - y).abs() < 1e-12);
    }
}

#[test]
fn stability_refuses_one_seed_and_bad_shapes() {
    let a = DATA.gaussian(10, 4, 1);
    assert_eq!(
        embedding_stability(&[&a], 10, 4, 1).unwrap_err().to_string(),
        "embedding stability needs at least 2 models (seeds), got 1"
    );
    assert_eq!(
        embedding_stability(&[&a, &a[..36]], 10, 4, 1).unwrap_err(),
        GeometryError::ShapeMismatch {
            what: "model",
            expected: 40,
            found: 36
        }
    );
    assert_eq!(
        procrustes(&a, &a, 10, 0).unwrap_err().to_string(),
        "the vector dimension must be at least 1"
    );
}
