//! Bolukbasi et al.'s gender subspace beyond its first direction against scikit-learn's PCA as
//! debiaswe's `doPCA` fits it (`data/subspace_reference.py`): the first five components of seven
//! definitional pairs and their explained variance, Direct Bias on the first k in both readings
//! (projection norm; Schröder et al.'s summed cosines) with c = 1 and 2, the indirect bias β of
//! word pairs with respect to one and three components, and the first component with each pair
//! left out.

use retest_measures::{
    DirectionSource, bias_subspace, direct_bias, gender_direction, indirect_bias, leave_one_pair_out,
    subspace_direct_bias,
};
use support::fixture::{Fixture, assert_close};

mod support;

const FIXTURE: &str = include_str!("data/subspace_reference.txt");

fn pairs(fx: &Fixture, key: &str) -> Vec<(u32, u32)> {
    fx.ids(key).chunks_exact(2).map(|p| (p[0], p[1])).collect()
}

#[test]
fn components_and_direct_bias_match_scikit_learn() {
    let fx = Fixture::parse(FIXTURE);
    let model = fx.model();
    let (pairs, neutral) = (pairs(&fx, "pairs"), fx.ids("neutral"));
    let sub = bias_subspace(&model, &pairs, 5).unwrap();
    assert_close(
        &sub.explained_variance_ratio[..5],
        &fx.floats("explained"),
        "explained",
    );
    for (j, axis) in sub.axes.iter().enumerate() {
        assert_close(
            axis,
            &fx.floats(&format!("axis.{}", j + 1)),
            &format!("axis {}", j + 1),
        );
    }
    for k in 1..=5 {
        for c in [1.0, 2.0] {
            let db = subspace_direct_bias(&model, &sub.axes[..k], &neutral, c).unwrap();
            let want = fx.floats(&format!("db.k{k}.c{c}"));
            assert_close(
                &[db.value, db.summed],
                &want,
                &format!("direct bias k = {k}, c = {c}"),
            );
            assert_close(
                &db.norms,
                &fx.floats(&format!("norms.k{k}")),
                &format!("norms k = {k}"),
            );
        }
    }
    // One component is Bolukbasi et al.'s Direct Bias along the principal component.
    let g = gender_direction(&model, DirectionSource::PrincipalComponent(&pairs)).unwrap();
    let one = subspace_direct_bias(&model, &sub.axes[..1], &neutral, 1.0).unwrap();
    assert_eq!(one.value, direct_bias(&model, &g, &neutral, 1.0).unwrap().value);
}

#[test]
fn indirect_bias_matches_the_reference() {
    let fx = Fixture::parse(FIXTURE);
    let model = fx.model();
    let sub = bias_subspace(&model, &pairs(&fx, "pairs"), 3).unwrap();
    for k in [1, 3] {
        let values: Vec<_> = (pairs(&fx, "indirect.pairs").iter())
            .map(|&(w, v)| indirect_bias(&model, &sub.axes[..k], w, v).unwrap())
            .collect();
        let cosines: Vec<f64> = values.iter().map(|b| b.cosine).collect();
        assert_close(&cosines, &fx.floats(&format!("indirect.k{k}.cosine")), "cosine");
        // β divides by the cosine: relative to its size where the cosine is near 0.
        let want = fx.floats(&format!("indirect.k{k}.beta"));
        for (i, (b, w)) in values.iter().zip(&want).enumerate() {
            assert!(
                (b.beta - w).abs() <= 1e-9 * w.abs().max(1.0),
                "β k = {k} [{i}]: {} vs {w}",
                b.beta
            );
        }
    }
}

#[test]
fn leaving_each_pair_out_matches_the_reference() {
    let fx = Fixture::parse(FIXTURE);
    let model = fx.model();
    let pairs = pairs(&fx, "pairs");
    let g = gender_direction(&model, DirectionSource::PrincipalComponent(&pairs)).unwrap();
    let left = leave_one_pair_out(&model, &pairs).unwrap();
    let cosines: Vec<f64> = (left.iter())
        .map(|d| d.vector.iter().zip(&g.vector).map(|(a, b)| a * b).sum())
        .collect();
    assert_close(
        &cosines,
        &fx.floats("left_out.cos"),
        "cos with the full component",
    );
    let neutral = fx.ids("neutral");
    let biases: Vec<f64> = (left.iter())
        .map(|d| direct_bias(&model, d, &neutral, 1.0).unwrap().value)
        .collect();
    assert_close(&biases, &fx.floats("left_out.db"), "direct bias");
}
