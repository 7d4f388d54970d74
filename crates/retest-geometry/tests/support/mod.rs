//! Shared test and benchmark data: reproducible Gaussian vectors from retest-rng streams, and
//! brute-force references.

#![allow(dead_code)]

use rand_core::Rng;
use retest_rng::SeedPath;

/// `n × dim` standard-normal values (Box–Muller on ChaCha12 uniforms), reproducible by `seed`.
pub fn gaussian(n: usize, dim: usize, seed: u64) -> Vec<f32> {
    let mut rng = SeedPath::new(seed)
        .with("retest-geometry-tests")
        .stream("gaussian");
    let mut uniform = move || ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let mut out = Vec::with_capacity(n * dim);
    while out.len() < n * dim {
        let (u1, u2) = (uniform(), uniform());
        let r = (-2.0 * u1.ln()).sqrt();
        let t = std::f64::consts::TAU * u2;
        out.push((r * t.cos()) as f32);
        if out.len() < n * dim {
            out.push((r * t.sin()) as f32);
        }
    }
    out
}

/// A random orthogonal `dim × dim` matrix (row-major f64): Gram–Schmidt on Gaussian rows.
pub fn random_orthogonal(dim: usize, seed: u64) -> Vec<f64> {
    let g = gaussian(dim, dim, seed);
    let mut q: Vec<f64> = g.iter().map(|&x| f64::from(x)).collect();
    for i in 0..dim {
        for _ in 0..2 {
            for j in 0..i {
                let d: f64 = (0..dim).map(|c| q[i * dim + c] * q[j * dim + c]).sum();
                for c in 0..dim {
                    q[i * dim + c] -= d * q[j * dim + c];
                }
            }
        }
        let norm = (0..dim).map(|c| q[i * dim + c].powi(2)).sum::<f64>().sqrt();
        for c in 0..dim {
            q[i * dim + c] /= norm;
        }
    }
    q
}

/// `x · Q` for row-major `x` (`n × dim`, f32) and `Q` (`dim × dim`, f64), rounded to f32.
pub fn rotate(x: &[f32], q: &[f64], dim: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks_exact(dim) {
        for c in 0..dim {
            let v: f64 = (0..dim).map(|r| f64::from(row[r]) * q[r * dim + c]).sum();
            out.push(v as f32);
        }
    }
    out
}
