//! Independent f64 reference implementations of the rules (the random vectors and rotations
//! come from retest-test-support), and the Python reference scripts' fixtures ([`fixture`]).

#![allow(dead_code)]

pub mod fixture;

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
