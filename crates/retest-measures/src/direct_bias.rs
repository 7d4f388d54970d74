//! Bolukbasi et al.'s (2016) Direct Bias on one model: a gender direction from one base pair or
//! from the first principal component of definitional pairs, the projection of words on it, and
//! the mean absolute projection of neutral words.

use crate::eigen::symmetric_eigen;
use crate::vectors::{check_ids, check_set, degenerate_pair, dot, mean, norm, unit, unit_difference};
use crate::{MeasureError, Model};

/// Bolukbasi et al.'s exponent `c` of the Direct Bias.
pub const DIRECT_BIAS_C_BOLUKBASI: f64 = 1.0;

/// Where a gender direction comes from; pairs are `(masculine, feminine)` word ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirectionSource<'p> {
    /// `g = (m̂ − f̂)/‖m̂ − f̂‖` of one pair (`he − she`).
    Pair(u32, u32),
    /// The first principal component of the definitional pairs' centred unit vectors.
    PrincipalComponent(&'p [(u32, u32)]),
}

/// A unit gender direction, pointing toward the masculine words.
#[derive(Debug, Clone, PartialEq)]
pub struct GenderDirection {
    /// `g`, `‖g‖ = 1`, in f64.
    pub vector: Vec<f64>,
    /// The share of the variance of the centred pair vectors that each principal component
    /// explains, largest first, for the first `min(p, dim)` components (`p` pairs: the centred
    /// vectors span at most `p` dimensions). `[1.0]` for a single pair.
    pub explained_variance_ratio: Vec<f64>,
}

/// Direct Bias over a set of neutral words.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectBias {
    /// `DirectBias_c(N, g)`, in `[0, 1]`.
    pub value: f64,
    /// The exponent `c`.
    pub c: f64,
    /// `cos(w, g)` of each neutral word, in the order given.
    pub projections: Vec<f64>,
}

/// A gender direction (Bolukbasi et al. 2016, §5 and §6).
///
/// * [`DirectionSource::Pair`]: `g = (m̂ − f̂)/‖m̂ − f̂‖`.
/// * [`DirectionSource::PrincipalComponent`] over pairs `(m_i, f_i)`, `i = 1..p`, `p ≥ 2`: each
///   pair's two unit vectors are centred on the pair's mean `μ_i = (m̂_i + f̂_i)/2`, and both
///   centred vectors `m̂_i − μ_i`, `f̂_i − μ_i` are stacked as the rows of a `2p × dim` matrix
///   `R`, as Bolukbasi et al.'s `doPCA` does. Their mean is zero by construction, so the
///   column centring of a PCA changes nothing. The principal axes are the eigenvectors of
///   `RᵀR`; they are computed from the `2p × 2p` Gram matrix `K = RRᵀ` (same non-zero
///   eigenvalues; axis `v = Rᵀu/‖Rᵀu‖` for an eigenvector `u` of `K`), by Jacobi rotations.
///   The explained-variance ratio of component `j` is `λ_j / Σ λ = λ_j / trace K`. The sign of
///   `g` is chosen so that the mean over pairs of `(m̂_i − f̂_i) · g` is positive (it points
///   toward the masculine words); the first component is unique only when `λ₁ > λ₂`, which the
///   ratios show.
///
/// Schröder et al. (Theorem 6) show that this component need not follow the individual pair
/// directions: with pairs whose directions disagree, words equidistant from every pair can get
/// a Direct Bias of 1.
///
/// # Errors
///
/// Fewer than 2 pairs for a principal component; an id out of range; a degenerate pair (the
/// same word twice, a zero vector, or two vectors with the same direction).
pub fn gender_direction(
    model: &Model<'_>,
    source: DirectionSource<'_>,
) -> Result<GenderDirection, MeasureError> {
    match source {
        DirectionSource::Pair(m, f) => {
            let diff = pair_difference(model, m, f)?;
            let n = norm(&diff);
            Ok(GenderDirection {
                vector: diff.iter().map(|x| x / n).collect(),
                explained_variance_ratio: vec![1.0],
            })
        }
        DirectionSource::PrincipalComponent(pairs) => principal_component(model, pairs),
    }
}

/// `m̂ − f̂`, checked to be a direction.
fn pair_difference(model: &Model<'_>, m: u32, f: u32) -> Result<Vec<f64>, MeasureError> {
    check_ids(model, "gender direction pairs", &[m, f])?;
    let diff = unit_difference(model, m, f)?;
    if norm(&diff) == 0.0 {
        return Err(degenerate_pair(
            model,
            m,
            f,
            "the two words have the same direction",
        ));
    }
    Ok(diff)
}

fn principal_component(model: &Model<'_>, pairs: &[(u32, u32)]) -> Result<GenderDirection, MeasureError> {
    if pairs.len() < 2 {
        return Err(MeasureError::TooFewPairs { n_pairs: pairs.len() });
    }
    let mut pca = principal_axes(model, pairs, 1)?;
    Ok(GenderDirection {
        vector: pca.axes.swap_remove(0),
        explained_variance_ratio: pca.explained_variance_ratio,
    })
}

/// The first `k` principal axes of the definitional pairs (as [`gender_direction`] computes the
/// first), each pointing toward the masculine words, with every component's explained-variance
/// ratio.
pub(crate) struct PrincipalAxes {
    pub axes: Vec<Vec<f64>>,
    pub explained_variance_ratio: Vec<f64>,
}

/// The first `k ≤ 2p` principal axes of `pairs` (at least one pair; the caller checks `k`
/// against what the pairs span).
pub(crate) fn principal_axes(
    model: &Model<'_>,
    pairs: &[(u32, u32)],
    k: usize,
) -> Result<PrincipalAxes, MeasureError> {
    let dim = model.dim();
    let mut rows: Vec<Vec<f64>> = Vec::with_capacity(2 * pairs.len());
    let mut diffs: Vec<Vec<f64>> = Vec::with_capacity(pairs.len());
    for &(m, f) in pairs {
        diffs.push(pair_difference(model, m, f)?);
        let (um, uf) = (unit(model, m), unit(model, f));
        let centre: Vec<f64> = um.iter().zip(&uf).map(|(a, b)| (a + b) / 2.0).collect();
        rows.push(um.iter().zip(&centre).map(|(a, c)| a - c).collect());
        rows.push(uf.iter().zip(&centre).map(|(a, c)| a - c).collect());
    }
    let n = rows.len();
    let mut gram = vec![0.0f64; n * n];
    for i in 0..n {
        for j in i..n {
            let g = dot(&rows[i], &rows[j]);
            gram[i * n + j] = g;
            gram[j * n + i] = g;
        }
    }
    let trace: f64 = (0..n).map(|i| gram[i * n + i]).sum();
    let (values, vectors) = symmetric_eigen(&gram, n);
    let axes = (vectors.iter().take(k))
        .map(|u| {
            let mut axis = vec![0.0f64; dim];
            for (row, &u) in rows.iter().zip(u) {
                for (a, r) in axis.iter_mut().zip(row) {
                    *a += u * r;
                }
            }
            let length = norm(&axis);
            axis.iter_mut().for_each(|a| *a /= length);
            let alignment: Vec<f64> = diffs.iter().map(|d| dot(d, &axis)).collect();
            if mean(&alignment) < 0.0 {
                axis.iter_mut().for_each(|a| *a = -*a);
            }
            axis
        })
        .collect();
    let explained_variance_ratio = values
        .iter()
        .take(pairs.len().min(dim))
        // A share of the trace, kept within [0, 1]: rounding can put an eigenvalue a few ulp
        // outside [0, trace].
        .map(|&l| (l.max(0.0) / trace).min(1.0))
        .collect();
    Ok(PrincipalAxes {
        axes,
        explained_variance_ratio,
    })
}

/// `cos(w, g) = ŵ · g` of every word (0 for a zero vector).
///
/// # Errors
///
/// An id out of range.
pub fn projections(
    model: &Model<'_>,
    direction: &GenderDirection,
    words: &[u32],
) -> Result<Vec<f64>, MeasureError> {
    check_ids(model, "projected words", words)?;
    Ok(words
        .iter()
        .map(|&w| dot(&unit(model, w), &direction.vector))
        .collect())
}

/// Bolukbasi et al.'s Direct Bias of the neutral words `N`:
///
/// `DirectBias_c(N, g) = (1/|N|) Σ_{w∈N} |cos(w, g)|^c`, `c ≥ 0`
///
/// ([`DIRECT_BIAS_C_BOLUKBASI`] `= 1`; `c = 0` gives 1, with `0⁰ = 1`). Each term lies in
/// `[0, 1]`, so the value does too, whatever the direction (Schröder et al., Theorem 5).
///
/// # Errors
///
/// An empty `N`; an id out of range; `c` negative or not finite.
pub fn direct_bias(
    model: &Model<'_>,
    direction: &GenderDirection,
    neutral: &[u32],
    c: f64,
) -> Result<DirectBias, MeasureError> {
    if !(c.is_finite() && c >= 0.0) {
        return Err(MeasureError::BadExponent { c });
    }
    check_set(model, "direct bias neutral words", neutral)?;
    let projections = projections(model, direction, neutral)?;
    // |cos| is clamped to 1 against rounding, so the value stays in [0, 1].
    let terms: Vec<f64> = projections.iter().map(|p| p.abs().min(1.0).powf(c)).collect();
    Ok(DirectBias {
        value: mean(&terms),
        c,
        projections,
    })
}
