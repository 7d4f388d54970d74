//! Unit tests of the F distribution: closed forms, identities, and 40-digit values from mpmath.

use retest_test_support::Lcg;

use super::*;

fn rel_err(ours: f64, exact: f64) -> f64 {
    if exact == 0.0 {
        ours.abs()
    } else {
        ((ours - exact) / exact).abs()
    }
}

fn assert_rel(ours: f64, exact: f64, tol: f64, what: &str) {
    let err = rel_err(ours, exact);
    assert!(
        err <= tol,
        "{what}: ours {ours:e}, exact {exact:e}, relative error {err:e} > {tol:e}"
    );
}

/// (u/(u + v))^s, accurate also for large s (the base is formed from its smaller complement).
fn power_of_ratio(u: f64, v: f64, s: f64) -> f64 {
    let ln_base = if u <= v {
        (u / (u + v)).ln()
    } else {
        (-v / (u + v)).ln_1p()
    };
    (s * ln_base).exp()
}

const XS: [f64; 9] = [1e-6, 0.01, 0.3, 0.9, 1.0, 2.5, 7.0, 40.0, 1e5];

#[test]
fn closed_forms_of_the_cdf_and_sf() {
    for &x in &XS {
        // F(2, 2): P(X ≤ x) = x / (1 + x).
        assert_rel(cdf(x, 2.0, 2.0), x / (1.0 + x), 1e-14, "F(2,2) cdf");
        assert_rel(sf(x, 2.0, 2.0), 1.0 / (1.0 + x), 1e-14, "F(2,2) sf");
        // F(1, 1): P(X ≤ x) = (2/π) atan √x.
        assert_rel(cdf(x, 1.0, 1.0), 2.0 / PI * x.sqrt().atan(), 1e-14, "F(1,1) cdf");
        for d in [1.0, 3.0, 7.5, 40.0, 1e3, 1e5, 1e7] {
            // The continued fraction needs O(√d) terms when one df is huge and the other 2;
            // rounding accumulates to about 1e-10 at d = 1e7 (a ratio of df never met in ICC).
            let tol = if d > 1e5 { 1e-9 } else { 1e-12 };
            // F(d, 2): P(X ≤ x) = z^(d/2), z = dx/(dx + 2) = 1 − 2/(dx + 2) (I_z(a, 1) = z^a).
            assert_rel(
                cdf(x, d, 2.0),
                power_of_ratio(d * x, 2.0, d / 2.0),
                tol,
                "F(d,2) cdf",
            );
            // F(2, d): P(X > x) = w^(d/2), w = d/(2x + d) (I_z(1, b) = 1 − (1 − z)^b).
            assert_rel(
                sf(x, 2.0, d),
                power_of_ratio(d, 2.0 * x, d / 2.0),
                tol,
                "F(2,d) sf",
            );
        }
    }
}

#[test]
fn closed_forms_of_the_quantiles() {
    for p in [1e-12, 1e-5, 0.025, 0.3, 0.5, 0.7, 0.975, 1.0 - 1e-9] {
        // F(1, 1): x = tan²(πp/2) = 1/tan²(π(1 − p)/2) (the latter for p > 1/2, where the
        // former is ill-conditioned).
        let exact = if p <= 0.5 {
            (PI * p / 2.0).tan().powi(2)
        } else {
            (PI * (1.0 - p) / 2.0).tan().powi(-2)
        };
        assert_rel(ppf(p, 1.0, 1.0), exact, 1e-13, "F(1,1) ppf");
        for d in [1.0, 2.0, 5.0, 22.5, 1e3, 1e5] {
            // F(2, d): P(X > x) = (1 + 2x/d)^(−d/2) = q ⇒ x = d/2 · (q^(−2/d) − 1).
            let q = p;
            let exact = d / 2.0 * (-(2.0 / d) * q.ln()).exp_m1();
            assert_rel(isf(q, 2.0, d), exact, 1e-13, "F(2,d) isf");
            // F(d, 2): P(X ≤ x) = z^(d/2) = p ⇒ z = p^(2/d), x = 2z/(d(1 − z)).
            let z = p.powf(2.0 / d);
            let one_minus_z = -((2.0 / d) * p.ln()).exp_m1();
            assert_rel(ppf(p, d, 2.0), 2.0 * z / (d * one_minus_z), 1e-13, "F(d,2) ppf");
        }
    }
}

#[test]
fn quantiles_invert_the_tails_and_respect_reciprocal_symmetry() {
    for (d1, d2) in [
        (1.0, 1.0),
        (3.0, 15.0),
        (0.6, 4.0),
        (22.0, 704.0),
        (99.0, 3069.0),
        (31.0, 3e5),
    ] {
        for p in [1e-50, 1e-10, 0.025, 0.5, 0.975, 1.0 - 1e-10] {
            let x = ppf(p, d1, d2);
            assert_rel(cdf(x, d1, d2), p, 1e-12, "cdf(ppf(p))");
            let y = isf(p, d1, d2);
            assert_rel(sf(y, d1, d2), p, 1e-12, "sf(isf(q))");
            // 1/X ~ F(d2, d1), so ppf(p; d1, d2) = 1 / isf(p; d2, d1).
            assert_rel(x, 1.0 / isf(p, d2, d1), 1e-12, "reciprocal symmetry");
        }
    }
}

#[test]
fn symmetric_beta_is_one_half_at_one_half() {
    for a in [0.3, 1.0, 9.99, 10.0, 55.5, 1e4, 3e5, 1e7] {
        let (lower, upper) = beta_inc(a, a, 0.5, 0.5);
        assert_rel(lower, 0.5, 1e-13, "I_1/2(a, a)");
        assert_rel(upper, 0.5, 1e-13, "1 − I_1/2(a, a)");
    }
}

#[test]
fn ln_gamma_and_ln_beta_known_values() {
    // ln Γ(n) = ln (n − 1)!.
    let mut factorial = 1.0_f64;
    for n in 1..30 {
        assert!(
            (ln_gamma(n as f64) - factorial.ln()).abs() <= 1e-14 * factorial.ln().abs().max(1.0),
            "ln Γ({n})"
        );
        factorial *= n as f64;
    }
    assert!((ln_gamma(0.5) - 0.5 * PI.ln()).abs() < 4e-15);
    assert!(ln_gamma(f64::NAN).is_nan() && ln_gamma(-1.0).is_nan() && ln_gamma(0.0).is_nan());
    // B(a, b) = B(a + 1, b) (a + b)/a across the small/large switch at 10.
    for (a, b) in [(9.5, 3.0), (9.5, 20.0), (9.99, 1e6), (2.0, 9.7), (9.0, 9.5)] {
        let direct = ln_beta(a, b);
        let recurred = ln_beta(a + 1.0, b) + ((a + b) / a).ln();
        assert!(
            (direct - recurred).abs() <= 1e-13 * direct.abs().max(1.0),
            "ln B({a}, {b})"
        );
    }
    // B(a, 1) = 1/a.
    for a in [0.5, 3.0, 12.0, 1e5] {
        assert!(
            (ln_beta(a, 1.0) + a.ln()).abs() <= 1e-13 * a.ln().abs().max(1.0),
            "ln B({a}, 1)"
        );
    }
}

#[test]
fn edge_arguments_do_not_panic() {
    assert!(cdf(f64::NAN, 1.0, 1.0).is_nan());
    assert!(sf(1.0, 0.0, 1.0).is_nan());
    assert!(sf(1.0, 1.0, f64::INFINITY).is_nan());
    assert_eq!((cdf(-1.0, 2.0, 3.0), sf(-1.0, 2.0, 3.0)), (0.0, 1.0));
    assert_eq!((cdf(0.0, 2.0, 3.0), sf(0.0, 2.0, 3.0)), (0.0, 1.0));
    assert_eq!(
        (cdf(f64::INFINITY, 2.0, 3.0), sf(f64::INFINITY, 2.0, 3.0)),
        (1.0, 0.0)
    );
    assert_eq!(ppf(0.0, 2.0, 3.0), 0.0);
    assert_eq!(ppf(1.0, 2.0, 3.0), f64::INFINITY);
    assert_eq!(isf(0.0, 2.0, 3.0), f64::INFINITY);
    assert_eq!(isf(1.0, 2.0, 3.0), 0.0);
    assert!(ppf(f64::NAN, 2.0, 3.0).is_nan());
    assert!(isf(0.5, -1.0, 3.0).is_nan());
    // Far tails: a quantile beyond the f64 range is 0 or +∞, not a hang.
    assert_eq!(isf(1e-300, 1.0, 1.0), f64::INFINITY); // exact ≈ 4e599
    assert_eq!(ppf(1e-300, 1.0, 1.0), 0.0); // exact ≈ 2.5e-600
    assert!(isf(1e-300, 5.0, 5.0).is_finite());
    assert!(ppf(1e-300, 1e5, 1e5) > 0.0);
}

#[test]
fn random_arguments_stay_in_range() {
    // Log-uniform df in [1e-3, 1e8], arguments and probabilities over many decades.
    let mut rng = Lcg::new(0x0f);
    let mut uniform = move || rng.uniform();
    for _ in 0..3_000 {
        let d1 = 10f64.powf(11.0 * uniform() - 3.0);
        let d2 = 10f64.powf(11.0 * uniform() - 3.0);
        let x = 10f64.powf(40.0 * uniform() - 20.0);
        let (lower, upper) = (cdf(x, d1, d2), sf(x, d1, d2));
        assert!(
            (0.0..=1.0).contains(&lower) && (0.0..=1.0).contains(&upper),
            "x={x} d=({d1}, {d2})"
        );
        assert!(
            (lower + upper - 1.0).abs() < 1e-12,
            "x={x} d=({d1}, {d2}): {lower} + {upper}"
        );
        let p = 10f64.powf(-30.0 * uniform());
        for q in [ppf(p, d1, d2), isf(p, d1, d2)] {
            assert!(q >= 0.0, "p={p} d=({d1}, {d2}): {q}");
        }
    }
}
