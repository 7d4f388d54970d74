//! Shared test data: reproducible Gaussian vectors, random rotations, and independent f64
//! reference implementations of the rules.

#![allow(dead_code)]

use rand_core::Rng;
use retest_rng::SeedPath;

/// `n × dim` standard-normal values (Box–Muller on ChaCha12 uniforms), reproducible by `seed`.
pub fn gaussian(n: usize, dim: usize, seed: u64) -> Vec<f32> {
    let mut rng = SeedPath::new(seed)
        .with("retest-measures-tests")
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

/// Words `w0`, `w1`, …
pub fn words(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("w{i}")).collect()
}

pub fn row(raw: &[f32], dim: usize, i: u32) -> Vec<f64> {
    raw[i as usize * dim..(i as usize + 1) * dim]
        .iter()
        .map(|&x| f64::from(x))
        .collect()
}

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn cos(a: &[f64], b: &[f64]) -> f64 {
    dot(a, b) / (dot(a, a) * dot(b, b)).sqrt()
}

/// Reference DB/WA: `cos(w, m) − cos(w, f)`.
pub fn dbwa(raw: &[f32], dim: usize, w: u32, m: u32, f: u32) -> f64 {
    let (w, m, f) = (row(raw, dim, w), row(raw, dim, m), row(raw, dim, f));
    cos(&w, &m) - cos(&w, &f)
}

/// Reference NBM by brute force: rank every other pool word by f64 cosine (ties by id).
pub fn nbm(raw: &[f32], dim: usize, w: u32, m: u32, f: u32, k: usize, pool: &[u32]) -> f64 {
    let wr = row(raw, dim, w);
    let mut ranked: Vec<(f64, u32)> = pool
        .iter()
        .filter(|&&c| c != w)
        .map(|&c| (cos(&wr, &row(raw, dim, c)), c))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let masc = ranked[..k]
        .iter()
        .filter(|&&(_, c)| dbwa(raw, dim, c, m, f) >= 0.0)
        .count() as f64;
    (masc - (k as f64 - masc)) / k as f64
}
