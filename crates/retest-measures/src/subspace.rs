//! Bolukbasi et al.'s (2016) gender subspace beyond its first direction: the first `k`
//! principal components of the definitional pairs, Direct Bias measured on them, the indirect
//! bias β(w, v) of two words, and the first component recomputed with each definitional pair
//! left out (Schröder et al., §5: one or two pairs can turn it away from the others).

use crate::direct_bias::principal_axes;
use crate::vectors::{check_ids, check_set, dot, mean, norm, unit};
use crate::{DirectionSource, GenderDirection, MeasureError, Model, gender_direction};

/// The share of the centred pair vectors' variance below which a component is taken as absent
/// (rounding leaves eigenvalues of order 1e-16 where the pairs span nothing).
const RANK_TOLERANCE: f64 = 1e-12;

/// A `k`-dimensional bias subspace.
#[derive(Debug, Clone, PartialEq)]
pub struct BiasSubspace {
    /// `b_1 … b_k'`, `k' = min(k, rank)`: orthonormal, in order of explained variance, each
    /// pointing toward the masculine words (the mean of `(m̂_i − f̂_i) · b_j` over the pairs is
    /// ≥ 0); `b_1` is the direction of [`DirectionSource::PrincipalComponent`].
    pub axes: Vec<Vec<f64>>,
    /// The dimensions the centred pair vectors span: components whose share of the variance
    /// exceeds 1e-12. Hard-debiased models, whose pairs were equalised along one direction,
    /// span one.
    pub rank: usize,
    /// The share of the variance of each of the first `min(p, dim)` components.
    pub explained_variance_ratio: Vec<f64>,
}

/// Direct Bias on a subspace `B = span(b_1 … b_k)` over neutral words `N`.
#[derive(Debug, Clone, PartialEq)]
pub struct SubspaceDirectBias {
    /// `(1/|N|) Σ_{w∈N} ‖ŵ_B‖^c`, `ŵ_B = Σ_j (ŵ · b_j) b_j`: the cosine of `w` with its
    /// projection on `B`, in `[0, 1]`; with `k = 1` Bolukbasi et al.'s Direct Bias.
    pub value: f64,
    /// `(1/|N|) Σ_{w∈N} (Σ_j |ŵ · b_j|)^c`: Schröder et al.'s code's reading (the absolute
    /// cosines with each axis summed), in `[0, k^{c/2}]`; with `k = 1` the same as `value`.
    pub summed: f64,
    /// `‖ŵ_B‖` of each neutral word, in the order given.
    pub norms: Vec<f64>,
}

/// Bolukbasi et al.'s indirect bias of two words with respect to a subspace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndirectBias {
    /// `ŵ · v̂`.
    pub cosine: f64,
    /// `β(w, v) = (ŵ · v̂ − ŵ⊥ · v̂⊥ / (‖ŵ⊥‖ ‖v̂⊥‖)) / (ŵ · v̂)`; NaN when `ŵ · v̂ = 0` or a
    /// word lies in the subspace.
    pub beta: f64,
}

/// The first `k` principal components of the definitional pairs (Bolukbasi et al., §6: the
/// subspace their debiasing removes), computed as [`gender_direction`]'s principal component.
///
/// The centred vectors of `p` pairs come in opposite pairs (`m̂ − μ = −(f̂ − μ)`), so they span at
/// most `p` dimensions: `1 ≤ k ≤ min(p, dim)`. Of pairs that span fewer than `k` dimensions,
/// the components they span (see [`BiasSubspace::rank`]).
///
/// # Errors
///
/// Fewer than 2 pairs; `k` out of `1..=min(p, dim)`; an id out of range or a degenerate pair.
pub fn bias_subspace(
    model: &Model<'_>,
    pairs: &[(u32, u32)],
    k: usize,
) -> Result<BiasSubspace, MeasureError> {
    if pairs.len() < 2 {
        return Err(MeasureError::TooFewPairs { n_pairs: pairs.len() });
    }
    let max = pairs.len().min(model.dim());
    if k == 0 || k > max {
        return Err(MeasureError::ComponentsOutOfRange {
            k,
            n_pairs: pairs.len(),
            max,
        });
    }
    let mut pca = principal_axes(model, pairs, k)?;
    let rank = (pca.explained_variance_ratio.iter())
        .filter(|&&r| r > RANK_TOLERANCE)
        .count();
    pca.axes.truncate(rank);
    Ok(BiasSubspace {
        axes: pca.axes,
        rank,
        explained_variance_ratio: pca.explained_variance_ratio,
    })
}

impl BiasSubspace {
    /// Direct Bias of the neutral words on the span of the first `k` axes
    /// ([`subspace_direct_bias`]), or `None` when the pairs span fewer than `k` dimensions.
    ///
    /// # Errors
    ///
    /// As [`subspace_direct_bias`].
    pub fn direct_bias(
        &self,
        model: &Model<'_>,
        k: usize,
        neutral: &[u32],
        c: f64,
    ) -> Result<Option<SubspaceDirectBias>, MeasureError> {
        if k > self.rank {
            return Ok(None);
        }
        subspace_direct_bias(model, &self.axes[..k], neutral, c).map(Some)
    }
}

/// `(û · b_1, …, û · b_k)` of a unit vector `û`.
fn coordinates(u: &[f64], axes: &[Vec<f64>]) -> Vec<f64> {
    axes.iter().map(|b| dot(u, b)).collect()
}

/// Direct Bias of the neutral words on the subspace of `axes` (orthonormal, such as the first
/// `k` of a [`BiasSubspace`]), with exponent `c` (`0⁰ = 1`).
///
/// # Errors
///
/// No axis; an empty `N`; an id out of range; `c` negative or not finite.
pub fn subspace_direct_bias(
    model: &Model<'_>,
    axes: &[Vec<f64>],
    neutral: &[u32],
    c: f64,
) -> Result<SubspaceDirectBias, MeasureError> {
    if !(c.is_finite() && c >= 0.0) {
        return Err(MeasureError::BadExponent { c });
    }
    if axes.is_empty() {
        return Err(MeasureError::EmptySet {
            what: "bias subspace axes",
        });
    }
    check_set(model, "direct bias neutral words", neutral)?;
    let (mut norms, mut terms, mut summed) = (Vec::new(), Vec::new(), Vec::new());
    for &w in neutral {
        let along = coordinates(&unit(model, w), axes);
        // Both clamped to what exact arithmetic allows, against rounding.
        let length = norm(&along).min(1.0);
        let total: f64 = along.iter().map(|x| x.abs()).sum();
        norms.push(length);
        terms.push(length.powf(c));
        summed.push(total.min((axes.len() as f64).sqrt()).powf(c));
    }
    Ok(SubspaceDirectBias {
        value: mean(&terms),
        summed: mean(&summed),
        norms,
    })
}

/// Bolukbasi et al.'s (§5.2) indirect bias of `w` and `v` with respect to the subspace of
/// `axes` (with one axis `g`, their definition): the share of the words' similarity that
/// removing the subspace takes away, `ŵ⊥ = ŵ − ŵ_B`.
///
/// # Errors
///
/// No axis; an id out of range.
pub fn indirect_bias(
    model: &Model<'_>,
    axes: &[Vec<f64>],
    w: u32,
    v: u32,
) -> Result<IndirectBias, MeasureError> {
    if axes.is_empty() {
        return Err(MeasureError::EmptySet {
            what: "bias subspace axes",
        });
    }
    check_ids(model, "indirect bias words", &[w, v])?;
    let rejection = |u: &[f64]| {
        let mut r = u.to_vec();
        for (b, a) in axes.iter().zip(coordinates(u, axes)) {
            for (x, y) in r.iter_mut().zip(b) {
                *x -= a * y;
            }
        }
        r
    };
    let (uw, uv) = (unit(model, w), unit(model, v));
    let cosine = dot(&uw, &uv);
    let (wr, vr) = (rejection(&uw), rejection(&uv));
    let beta = (cosine - dot(&wr, &vr) / (norm(&wr) * norm(&vr))) / cosine;
    Ok(IndirectBias {
        cosine,
        beta: if beta.is_finite() { beta } else { f64::NAN },
    })
}

/// The principal-component direction of the pairs with each pair left out in turn, in the
/// pairs' order (each as [`gender_direction`] computes it over the others).
///
/// # Errors
///
/// Fewer than 3 pairs; an id out of range or a degenerate pair.
pub fn leave_one_pair_out(
    model: &Model<'_>,
    pairs: &[(u32, u32)],
) -> Result<Vec<GenderDirection>, MeasureError> {
    if pairs.len() < 3 {
        return Err(MeasureError::TooFewPairsToLeaveOut { n_pairs: pairs.len() });
    }
    (0..pairs.len())
        .map(|i| {
            let others: Vec<(u32, u32)> = (pairs.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, &p)| p)
                .collect();
            gender_direction(model, DirectionSource::PrincipalComponent(&others))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// he, she, him, her, man, woman, nurse, engineer, tree in 3-d: unit vectors with integer or
    /// exact components.
    fn words() -> Vec<String> {
        [
            "he", "she", "him", "her", "man", "woman", "nurse", "engineer", "tree",
        ]
        .map(String::from)
        .to_vec()
    }

    #[rustfmt::skip]
    const RAW: [f32; 27] = [
        1.0, 0.0, 0.0, // he
        0.0, 1.0, 0.0, // she
        2.0, 0.0, 0.0, // him: he's direction
        0.0, 2.0, 0.0, // her
        1.0, 0.0, 1.0, // man
        0.0, 1.0, 1.0, // woman
        0.0, 3.0, 4.0, // nurse: (0, 0.6, 0.8)
        3.0, 0.0, 4.0, // engineer: (0.6, 0, 0.8)
        0.0, 0.0, 2.0, // tree: (0, 0, 1)
    ];

    const PAIRS: [(u32, u32); 3] = [(0, 1), (2, 3), (4, 5)];

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn the_first_axis_is_the_principal_component_direction() {
        let words = words();
        let model = Model::new(&words, &RAW, 3).unwrap();
        let sub = bias_subspace(&model, &PAIRS, 1).unwrap();
        let g = gender_direction(&model, DirectionSource::PrincipalComponent(&PAIRS)).unwrap();
        assert_eq!(sub.axes[0], g.vector);
        assert_eq!(sub.explained_variance_ratio, g.explained_variance_ratio);
        // Every pair differs along (1, −1, 0): the pairs span one dimension.
        let s = 0.5f64.sqrt();
        assert!(close(g.vector[0], s) && close(g.vector[1], -s) && close(g.vector[2], 0.0));
        let two = bias_subspace(&model, &PAIRS, 2).unwrap();
        assert_eq!((two.rank, two.axes.len()), (1, 1));
    }

    #[test]
    fn direct_bias_on_a_subspace_by_hand() {
        let words = words();
        let model = Model::new(&words, &RAW, 3).unwrap();
        let s = 0.5f64.sqrt();
        let axes = vec![vec![s, -s, 0.0], vec![0.0, 0.0, 1.0]];
        // nurse (0, 0.6, 0.8): coordinates (−0.6s, 0.8); engineer (0.6s, 0.8); tree (0, 1).
        let one = subspace_direct_bias(&model, &axes[..1], &[6, 7, 8], 1.0).unwrap();
        assert!(close(one.value, (0.6 * s + 0.6 * s) / 3.0), "{}", one.value);
        assert_eq!(one.value, one.summed);
        let two = subspace_direct_bias(&model, &axes, &[6, 7, 8], 1.0).unwrap();
        let length = (0.18f64 + 0.64).sqrt();
        assert!(
            close(two.norms[0], length) && close(two.norms[2], 1.0),
            "{:?}",
            two.norms
        );
        assert!(close(two.value, (2.0 * length + 1.0) / 3.0));
        assert!(close(two.summed, (2.0 * (0.6 * s + 0.8) + 1.0) / 3.0));
        let squared = subspace_direct_bias(&model, &axes, &[6], 2.0).unwrap();
        assert!(close(squared.value, 0.82) && close(squared.summed, (0.6 * s + 0.8).powi(2)));
    }

    #[test]
    fn indirect_bias_by_hand() {
        let words = words();
        let model = Model::new(&words, &RAW, 3).unwrap();
        let s = 0.5f64.sqrt();
        let g = vec![vec![s, -s, 0.0]];
        // nurse·engineer = 0.64; without g both keep (0.3, 0.3, 0.8) up to the sign of the
        // first two: ŵ⊥ = (0.3, 0.3, 0.8), v̂⊥ = (0.3, 0.3, 0.8), their cosine 1.
        let b = indirect_bias(&model, &g, 6, 7).unwrap();
        assert!(close(b.cosine, 0.64));
        assert!(close(b.beta, (0.64 - 1.0) / 0.64), "{}", b.beta);
        // tree is orthogonal to g, nurse is not: nurse·tree = 0.8, and nurse's rejection
        // (0.3, 0.3, 0.8) has cosine 0.8/√0.82 with tree, so β = 1 − 1/√0.82 (negative: the
        // words are more alike without gender).
        let tree = indirect_bias(&model, &g, 6, 8).unwrap();
        assert!(close(tree.beta, 1.0 - 1.0 / 0.82f64.sqrt()), "{}", tree.beta);
        // he lies in the subspace: β is undefined.
        assert!(indirect_bias(&model, &g, 0, 6).unwrap().beta.is_nan());
    }

    #[test]
    fn leaving_a_pair_out() {
        let words = words();
        let model = Model::new(&words, &RAW, 3).unwrap();
        let left = leave_one_pair_out(&model, &PAIRS).unwrap();
        assert_eq!(left.len(), 3);
        let g = gender_direction(&model, DirectionSource::PrincipalComponent(&PAIRS)).unwrap();
        for d in &left {
            assert!(close(dot(&d.vector, &g.vector), 1.0));
        }
        assert_eq!(
            leave_one_pair_out(&model, &PAIRS[..2]).unwrap_err().to_string(),
            "gender direction: leaving one pair out needs at least 3 definitional pairs, found 2"
        );
    }

    #[test]
    fn components_out_of_range() {
        let words = words();
        let model = Model::new(&words, &RAW, 3).unwrap();
        let err = |k: usize| bias_subspace(&model, &PAIRS, k).unwrap_err().to_string();
        assert_eq!(
            err(0),
            "bias subspace: 0 components asked; 3 definitional pairs allow 1 to 3"
        );
        assert_eq!(
            err(4),
            "bias subspace: 4 components asked; 3 definitional pairs allow 1 to 3"
        );
    }
}
