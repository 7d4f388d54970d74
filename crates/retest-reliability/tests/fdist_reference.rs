//! The F distribution against 40-digit values from mpmath 1.3.0.
//!
//! The tables `PPF`, `ISF` and `TAILS` in `tests/data/fdist_reference.in` were printed by
//! `tests/data/fdist_reference.py` (each value rounded once to the nearest f64, so those below the
//! f64 range are 0). Degrees of freedom cover the ICC and alpha uses: from below 1
//! (Satterthwaite's v can be) to 320 000 (10 000 words × 32 seeds), balanced and unbalanced.
//!
//! Tolerances (relative): 1e-12 for quantiles (worst seen 1.9e-13, at df (22, 320000)); 3e-12 for
//! tail probabilities (worst seen 2.0e-12, at df (320000, 22) and (22, 320000), where the
//! continued fraction runs with its argument near 1 and inherits that argument's rounding; balanced
//! df stay below 2e-13).

use retest_reliability::fdist;

include!("data/fdist_reference.in");

fn rel_err(ours: f64, exact: f64) -> f64 {
    if exact == 0.0 {
        ours.abs() / f64::MIN_POSITIVE
    } else {
        ((ours - exact) / exact).abs()
    }
}

const TAIL_TOL: f64 = 3e-12;
const QUANTILE_TOL: f64 = 1e-12;

#[test]
fn tail_probabilities_match_mpmath() {
    for &(x, d1, d2, lower, upper) in TAILS {
        let (ours_lower, ours_upper) = (fdist::cdf(x, d1, d2), fdist::sf(x, d1, d2));
        let (e1, e2) = (rel_err(ours_lower, lower), rel_err(ours_upper, upper));
        assert!(
            e1 <= TAIL_TOL,
            "cdf({x}; {d1}, {d2}) = {ours_lower:e}, mpmath {lower:e}, relative error {e1:e}"
        );
        assert!(
            e2 <= TAIL_TOL,
            "sf({x}; {d1}, {d2}) = {ours_upper:e}, mpmath {upper:e}, relative error {e2:e}"
        );
    }
}

/// Checks one quantile function against a table of (probability, d1, d2, x).
fn check_quantiles(name: &str, quantile: fn(f64, f64, f64) -> f64, table: &[(f64, f64, f64, f64)]) {
    for &(prob, d1, d2, x) in table {
        let ours = quantile(prob, d1, d2);
        let e = rel_err(ours, x);
        assert!(
            e <= QUANTILE_TOL,
            "{name}({prob}; {d1}, {d2}) = {ours:e}, mpmath {x:e}, relative error {e:e}"
        );
    }
}

#[test]
fn quantiles_match_mpmath() {
    check_quantiles("ppf", fdist::ppf, PPF);
    check_quantiles("isf", fdist::isf, ISF);
}
