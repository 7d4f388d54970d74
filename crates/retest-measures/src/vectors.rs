//! f64 unit vectors, their means, dot products, pair directions and id checks shared by the rules
//! and the set-level measures (WEAT, Direct Bias, Bakarov's detectors).

use crate::{MeasureError, Model};

/// `ŵ = w/‖w‖₂` of word `id` in f64 (from the f32 raw vector and the f64 norm); a zero vector
/// stays zero, so every cosine with it is 0, as in [`crate::score`].
pub(crate) fn unit(model: &Model<'_>, id: u32) -> Vec<f64> {
    let norm = model.norm(id);
    let row = model.raw_row(id);
    if norm == 0.0 {
        vec![0.0; row.len()]
    } else {
        row.iter().map(|&x| f64::from(x) / norm).collect()
    }
}

/// `Σ a_i b_i` in f64, four interleaved partial sums combined pairwise (a fixed order).
pub(crate) fn dot_f32(a: &[f32], b: &[f64]) -> f64 {
    dot4(a, b)
}

/// `Σ a_i b_i` in f64 (same order as [`dot_f32`]).
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    dot4(a, b)
}

/// `Σ a_i b_i` in f64 of `a` (f32 or f64, widened exactly) and `b`: partial sums of the
/// elements `4k + l` in `acc[l]`, then `(acc[0] + acc[1]) + (acc[2] + acc[3])`.
#[inline(always)]
fn dot4<A: Copy>(a: &[A], b: &[f64]) -> f64
where
    f64: From<A>,
{
    let mut acc = [0.0f64; 4];
    let mut ca = a.chunks_exact(4);
    let mut cb = b.chunks_exact(4);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for l in 0..4 {
            acc[l] += f64::from(x[l]) * y[l];
        }
    }
    for (l, (x, y)) in ca.remainder().iter().zip(cb.remainder()).enumerate() {
        acc[l] += f64::from(*x) * y;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3])
}

/// `‖a‖₂`.
pub(crate) fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// `Σ v`, summed left to right from 0.
pub(crate) fn sum(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |acc, x| acc + x)
}

/// The arithmetic mean of a non-empty slice.
pub(crate) fn mean(v: &[f64]) -> f64 {
    sum(v) / v.len() as f64
}

/// `(1/|S|) Σ_{w∈S} ŵ`, the mean of the unit vectors of a non-empty set (not re-normalised),
/// accumulated in the set's order.
pub(crate) fn mean_unit(model: &Model<'_>, ids: &[u32]) -> Vec<f64> {
    let mut c = vec![0.0f64; model.dim()];
    for &id in ids {
        for (ci, ui) in c.iter_mut().zip(unit(model, id)) {
            *ci += ui;
        }
    }
    c.iter_mut().for_each(|ci| *ci /= ids.len() as f64);
    c
}

/// `m̂ − f̂` of the pair `(m, f)`, refusing a pair of one word or with a zero vector.
pub(crate) fn unit_difference(model: &Model<'_>, m: u32, f: u32) -> Result<Vec<f64>, MeasureError> {
    if m == f {
        return Err(degenerate_pair(model, m, f, "the two words are the same"));
    }
    let (nm, nf) = (model.norm(m), model.norm(f));
    if nm == 0.0 || nf == 0.0 {
        return Err(degenerate_pair(model, m, f, "a word has a zero vector"));
    }
    let (vm, vf) = (model.raw_row(m), model.raw_row(f));
    Ok(vm
        .iter()
        .zip(vf)
        .map(|(&a, &b)| f64::from(a) / nm - f64::from(b) / nf)
        .collect())
}

/// The error of a pair `(m, f)` that gives no direction, for `reason`.
pub(crate) fn degenerate_pair(model: &Model<'_>, m: u32, f: u32, reason: &'static str) -> MeasureError {
    MeasureError::DegeneratePair {
        male: model.vocab().word(m).to_string(),
        female: model.vocab().word(f).to_string(),
        reason,
    }
}

/// Refuses an empty set or an id outside the model; `what` names the set in the error.
pub(crate) fn check_set(model: &Model<'_>, what: &'static str, ids: &[u32]) -> Result<(), MeasureError> {
    if ids.is_empty() {
        return Err(MeasureError::EmptySet { what });
    }
    check_ids(model, what, ids)
}

/// Refuses an id outside the model; `what` names the set in the error.
pub(crate) fn check_ids(model: &Model<'_>, what: &'static str, ids: &[u32]) -> Result<(), MeasureError> {
    let n_words = model.n_words();
    match ids.iter().find(|&&id| id as usize >= n_words) {
        Some(&id) => Err(MeasureError::IdOutOfRange { what, id, n_words }),
        None => Ok(()),
    }
}
