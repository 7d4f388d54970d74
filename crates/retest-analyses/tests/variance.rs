//! The word × pair × seed variance components against statsmodels: `zhang_reference.py` fits
//! `y ~ C(w) + C(p) + C(s) + C(w):C(p) + C(w):C(s) + C(p):C(s)` with OLS on a fixed dataset and
//! writes `anova_lm`'s sums of squares and degrees of freedom, and the components solved from
//! the expected mean squares.

use retest_analyses::{Component, variance_components};
use retest_test_support::workspace_dir;
use serde_json::Value;

#[test]
fn sums_of_squares_and_components_equal_statsmodels() {
    let path = workspace_dir().join("crates/retest-pipeline/tests/data/zhang_reference.json");
    let reference: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let anova = &reference["anova"];
    let dims = |k: &str| anova["dims"][k].as_u64().unwrap() as usize;
    let values: Vec<f64> = (anova["values"].as_array().unwrap().iter())
        .map(|v| v.as_f64().unwrap())
        .collect();
    let result = variance_components(&values, dims("words"), dims("pairs"), dims("seeds"));
    assert_eq!(result.components.len(), Component::ALL.len());
    let mut total_share = 0.0;
    for c in &result.components {
        let name = c.component.as_str();
        let ss = anova["sum_of_squares"][name].as_f64().unwrap();
        assert!(
            (c.sum_of_squares - ss).abs() < 1e-9,
            "{name}: {} against {ss}",
            c.sum_of_squares
        );
        assert_eq!(c.df as f64, anova["df"][name].as_f64().unwrap(), "{name}");
        let estimate = anova["estimates"][name].as_f64().unwrap();
        assert!(
            (c.estimate - estimate).abs() < 1e-9,
            "{name}: {} against {estimate}",
            c.estimate
        );
        assert!(
            (c.variance - estimate.max(0.0)).abs() < 1e-9,
            "{name}: variance {}",
            c.variance
        );
        total_share += c.share;
    }
    assert!((total_share - 1.0).abs() < 1e-12);
    let (pair, seed, joint) = result.instability_shares();
    assert!((pair + seed + joint - 1.0).abs() < 1e-12);
}
