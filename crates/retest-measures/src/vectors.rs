//! f64 unit vectors, dot products and id checks shared by the set-level measures (WEAT, Direct
//! Bias).

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

/// `Σ a_i b_i`, summed left to right.
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |acc, (x, y)| acc + x * y)
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
