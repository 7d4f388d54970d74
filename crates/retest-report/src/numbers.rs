//! How the report writes a number: fixed decimals, shares as percentages, p-values as reported,
//! and `—` for a value that is not finite.

/// A number with two decimals (`NaN` as `—`).
pub fn f2(v: f64) -> String {
    if v.is_finite() {
        fixed(v, 2)
    } else {
        "—".to_owned()
    }
}

/// A number with three decimals (`NaN` as `—`).
pub fn f3(v: f64) -> String {
    if v.is_finite() {
        fixed(v, 3)
    } else {
        "—".to_owned()
    }
}

/// `v` with `decimals` decimals, never a negative zero: a value that rounds to zero is `0.00`,
/// not `-0.00`.
pub fn fixed(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    match text.strip_prefix('-') {
        Some(magnitude) if magnitude.bytes().all(|b| b == b'0' || b == b'.') => magnitude.to_owned(),
        _ => text,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_rounding_to_zero_has_no_sign() {
        assert_eq!(f2(-0.001), "0.00");
        assert_eq!(f2(-0.0), "0.00");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(f2(-0.005_1), "-0.01");
        assert_eq!(f3(-1.5), "-1.500");
        assert_eq!(f2(f64::NAN), "—");
    }
}
