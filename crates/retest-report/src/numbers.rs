//! How the report writes a number: fixed decimals, shares as percentages, p-values as reported,
//! and `—` for a value that is not finite.

/// A number with two decimals (`NaN` as `—`).
pub fn f2(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2}")
    } else {
        "—".to_owned()
    }
}

/// A number with three decimals (`NaN` as `—`).
pub fn f3(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.3}")
    } else {
        "—".to_owned()
    }
}

/// A share as a whole percentage.
pub fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.0}%", v * 100.0)
    } else {
        "—".to_owned()
    }
}

/// A p-value as reported: three decimals, or `p < 0.001` below that.
pub(crate) fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_owned()
    } else {
        format!("p = {p:.3}")
    }
}
