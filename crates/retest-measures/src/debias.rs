//! Bolukbasi et al.'s (2016) hard debiasing of one model, as debiaswe's `debias` computes it:
//! the gender direction is the first principal component of the definitional pairs; every word
//! outside the gender-specific list is *neutralised* (its component along the direction
//! removed); then each equalize pair is *equalised* (both words made equidistant from every
//! neutral word, differing only along the direction).

use crate::direct_bias::{DirectionSource, GenderDirection, gender_direction};
use crate::vectors::{check_ids, degenerate_pair, dot, norm, unit};
use crate::{MeasureError, Model};

/// The word ids hard debiasing works with.
#[derive(Debug, Clone, Copy)]
pub struct HardDebiasLists<'l> {
    /// Pairs whose first principal component is the gender direction (at least 2).
    pub definitional: &'l [(u32, u32)],
    /// Words left as they are (up to their length) by neutralising.
    pub gender_specific: &'l [u32],
    /// Pairs equalised, in this order (a word in two pairs keeps the last pair's vector).
    pub equalize: &'l [(u32, u32)],
}

/// A hard-debiased copy of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct HardDebiased {
    /// The new vectors, row-major in the model's word order: unit length, except that a zero
    /// vector stays zero.
    pub vectors: Vec<f32>,
    /// The gender direction removed.
    pub direction: GenderDirection,
    /// The words neutralised: every word with a vector outside the gender-specific list.
    pub n_neutralised: usize,
}

/// Hard debiasing (Bolukbasi et al. 2016, §6; debiaswe's `debias`), on the model's unit vectors
/// (debiaswe normalises every vector when it reads a model):
///
/// 1. `g`: the first principal component of the definitional pairs
///    ([`DirectionSource::PrincipalComponent`]); its sign changes nothing below.
/// 2. Neutralise: every word `w` not in the gender-specific list becomes `ŵ − (ŵ·g) g`; then
///    every vector is normalised again. Stored in f32, as debiaswe stores its vectors.
/// 3. Equalise each pair `(a, b)` in order: with `μ = (a + b)/2`, `ν = μ − (μ·g) g` and
///    `z = √(1 − ‖ν‖²)`, negated when `(a − b)·g < 0`, `a ← ν + z g` and `b ← ν − z g`.
/// 4. Normalise every vector once more.
///
/// A zero vector stays zero (debiaswe would divide it by its zero norm).
///
/// # Errors
///
/// Fewer than 2 definitional pairs, an id out of range, a degenerate definitional pair, or an
/// equalize pair of one word twice.
pub fn hard_debias(model: &Model<'_>, lists: &HardDebiasLists<'_>) -> Result<HardDebiased, MeasureError> {
    let direction = gender_direction(model, DirectionSource::PrincipalComponent(lists.definitional))?;
    check_ids(model, "gender-specific words", lists.gender_specific)?;
    for &(a, b) in lists.equalize {
        check_ids(model, "equalize pairs", &[a, b])?;
        if a == b {
            return Err(degenerate_pair(model, a, b, "the same word twice"));
        }
    }
    let g = &direction.vector;
    let mut specific = vec![false; model.n_words()];
    lists
        .gender_specific
        .iter()
        .for_each(|&w| specific[w as usize] = true);
    let (dim, mut n_neutralised) = (model.dim(), 0);
    let mut vectors = Vec::with_capacity(model.n_words() * dim);
    for id in 0..model.n_words() as u32 {
        let mut w = unit(model, id);
        if !specific[id as usize] && model.norm(id) > 0.0 {
            drop_along(&mut w, g);
            n_neutralised += 1;
        }
        push_unit(&mut vectors, &w);
    }
    for &(a, b) in lists.equalize {
        let (ra, rb) = (row(&vectors, a, dim), row(&vectors, b, dim));
        let mut centre: Vec<f64> = ra.iter().zip(&rb).map(|(x, y)| (x + y) / 2.0).collect();
        drop_along(&mut centre, g);
        let difference: Vec<f64> = ra.iter().zip(&rb).map(|(x, y)| x - y).collect();
        let z = (1.0 - dot(&centre, &centre)).max(0.0).sqrt();
        let z = if dot(&difference, g) < 0.0 { -z } else { z };
        for (word, sign) in [(a, 1.0), (b, -1.0)] {
            let new = centre.iter().zip(g).map(|(c, gi)| (c + sign * z * gi) as f32);
            vectors[word as usize * dim..][..dim]
                .iter_mut()
                .zip(new)
                .for_each(|(v, x)| *v = x);
        }
    }
    let mut normalised = Vec::with_capacity(vectors.len());
    for w in vectors.chunks_exact(dim) {
        push_unit(
            &mut normalised,
            &w.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
        );
    }
    Ok(HardDebiased {
        vectors: normalised,
        direction,
        n_neutralised,
    })
}

/// `w ← w − (w·g) g` for a unit `g`.
fn drop_along(w: &mut [f64], g: &[f64]) {
    let along = dot(w, g);
    w.iter_mut().zip(g).for_each(|(x, gi)| *x -= along * gi);
}

/// Appends `w/‖w‖` in f32 (a zero vector as it is).
fn push_unit(out: &mut Vec<f32>, w: &[f64]) {
    let n = norm(w);
    let scale = if n > 0.0 { 1.0 / n } else { 0.0 };
    out.extend(w.iter().map(|x| (x * scale) as f32));
}

/// Row `id` of the row-major `vectors`, in f64.
fn row(vectors: &[f32], id: u32, dim: usize) -> Vec<f64> {
    vectors[id as usize * dim..][..dim]
        .iter()
        .map(|&x| f64::from(x))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3-d model whose definitional pairs differ along x only.
    fn model_words() -> (Vec<String>, Vec<f32>) {
        let words = ["he", "she", "man", "woman", "nurse", "king", "queen", "zero"].map(String::from);
        #[rustfmt::skip]
        let raw = vec![
            1.0, 1.0, 0.0, /* she */ -1.0, 1.0, 0.0,
            2.0, 0.0, 2.0, /* woman */ -2.0, 0.0, 2.0,
            0.6, 0.8, 0.0, /* king */ 3.0, 4.0, 0.0,
            -1.0, 3.0, 1.0, /* zero */ 0.0, 0.0, 0.0,
        ];
        (words.to_vec(), raw)
    }

    fn rows(v: &[f32]) -> Vec<[f32; 3]> {
        v.chunks_exact(3).map(|r| [r[0], r[1], r[2]]).collect()
    }

    #[test]
    fn neutral_words_lose_the_direction_and_equalised_pairs_differ_only_along_it() {
        let (words, raw) = model_words();
        let model = Model::new(&words, &raw, 3).unwrap();
        let lists = HardDebiasLists {
            definitional: &[(0, 1), (2, 3)],
            gender_specific: &[0, 1, 2, 3, 5],
            equalize: &[(5, 6)],
        };
        let out = hard_debias(&model, &lists).unwrap();
        // g = ±x: every pair's centred vectors lie along x.
        assert!((out.direction.vector[0].abs() - 1.0).abs() < 1e-12);
        let r = rows(&out.vectors);
        // he, she (gender-specific): unit vectors as they were.
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert_eq!(r[0], [h, h, 0.0]);
        assert_eq!(r[1], [-h, h, 0.0]);
        // nurse (0.6, 0.8, 0): neutralised to (0, 1, 0).
        assert_eq!(r[4], [0.0, 1.0, 0.0]);
        // king (0.6, 0.8, 0) unit, kept; queen (-1, 3, 1)/√11 neutralised to (0, 3, 1)/√10.
        // Centre ν = (0.3, 0.4 + 3/(2√10), 1/(2√10)) less its x: (0, 0.87434, 0.15811);
        // z = √(1 − ‖ν‖²) = 0.45887, positive since king − queen points along +x.
        let nu = [0.0, 0.4 + 1.5 / 10f64.sqrt(), 0.5 / 10f64.sqrt()];
        let z = (1.0 - nu[1] * nu[1] - nu[2] * nu[2]).sqrt();
        let expect = |s: f64| [(s * z) as f32, nu[1] as f32, nu[2] as f32];
        for (got, want) in [(r[5], expect(1.0)), (r[6], expect(-1.0))] {
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-6, "{got:?} against {want:?}");
            }
        }
        // The zero vector stays zero and is not counted as neutralised (nurse, queen).
        assert_eq!(r[7], [0.0, 0.0, 0.0]);
        assert_eq!(out.n_neutralised, 2);
    }

    #[test]
    fn an_equalize_pair_of_one_word_is_refused() {
        let (words, raw) = model_words();
        let model = Model::new(&words, &raw, 3).unwrap();
        let lists = HardDebiasLists {
            definitional: &[(0, 1), (2, 3)],
            gender_specific: &[],
            equalize: &[(5, 5)],
        };
        assert_eq!(
            hard_debias(&model, &lists).unwrap_err().to_string(),
            "base pair (king, king): the same word twice"
        );
        let one = HardDebiasLists {
            definitional: &[(0, 1)],
            ..lists
        };
        assert_eq!(
            hard_debias(&model, &one).unwrap_err().to_string(),
            "gender direction: a principal component needs at least 2 definitional pairs, found 1"
        );
    }
}
