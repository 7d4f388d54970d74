//! Accuracy against the platform libm, the exact cases, and the bits each profile is pinned to.

use super::*;

const PROFILES: [Profile; 2] = [Profile::SGNS, Profile::GLOVE];

/// Relative error in units of `f64::EPSILON`.
fn ulps(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs() / f64::EPSILON
}

/// FNV-1a-style fold of result bits, to pin many values in one constant.
fn fold(h: u64, x: f64) -> u64 {
    (h ^ x.to_bits()).wrapping_mul(0x0000_0100_0000_01B3)
}
const FOLD_START: u64 = 0xCBF2_9CE4_8422_2325;

#[test]
fn ln2_split_is_exact() {
    assert_eq!(LN_2_HI + LN_2_LO, std::f64::consts::LN_2);
    assert_eq!(LN_2_HI.to_bits() & 0x1F_FFFF, 0);
}

#[test]
fn exp_matches_libm() {
    for p in PROFILES {
        for i in -6000..=6000 {
            let x = f64::from(i) / 500.0;
            assert!(ulps(p.exp(x), x.exp()) < 4.0, "{p:?}: exp({x})");
        }
        for x in [-700.0, -20.0, -5.5, -1.0, -1e-9, 0.0, 1e-9, 0.5, 1.0, 10.0, 700.0] {
            assert!(ulps(p.exp(x), x.exp()) < 4.0, "{p:?}: exp({x}) = {}", p.exp(x));
        }
        assert_eq!(p.exp(0.0), 1.0);
        assert_eq!(p.exp(-800.0), 0.0);
    }
}

#[test]
fn ln_matches_libm() {
    for p in PROFILES {
        for x in [
            1e-310,
            1e-300,
            1e-10,
            1.0 / 15.0,
            0.3,
            0.5,
            0.999_999,
            1.0,
            1.000_001,
            1.5,
            2.0,
            3.0,
            7.0,
            10.0,
            1e6,
            123_456_789.0,
            1e300,
        ] {
            let (ours, libm) = (p.ln(x), x.ln());
            if libm == 0.0 {
                assert_eq!(ours, 0.0, "{p:?}");
            } else if p.ln == LnReduction::Unit && (0.5..1.0).contains(&x) {
                // `ln m − ln 2` cancels: the error is absolute, not relative.
                assert!(
                    (ours - libm).abs() < 1e-16,
                    "{p:?}: ln({x}) = {ours}, libm {libm}"
                );
            } else {
                assert!(ulps(ours, libm) < 4.0, "{p:?}: ln({x}) = {ours}, libm {libm}");
            }
        }
        for c in 1..5000u32 {
            let x = f64::from(c);
            assert!((p.ln(x) - x.ln()).abs() < 1e-13, "{p:?}: ln({x})");
        }
        let sub = f64::MIN_POSITIVE / 8.0;
        assert!(ulps(p.ln(sub), sub.ln()) < 4.0, "{p:?}");
    }
}

#[test]
fn powf_matches_libm() {
    for p in PROFILES {
        for c in [1u64, 2, 5, 17, 1000, 65_536, 3_000_000, 4_000_000_000] {
            let x = c as f64;
            for e in [0.5, 0.75, 1.0, -0.5, 1.3] {
                assert!(ulps(p.powf(x, e), x.powf(e)) < 64.0, "{p:?}: {x}^{e}");
            }
        }
        for (b, e) in [
            (0.01, 0.75),
            (1.0 / 1500.0, 0.75),
            (0.5, 0.75),
            (1.0, 0.75),
            (0.3, 1.0),
        ] {
            assert!(ulps(p.powf(b, e), b.powf(e)) < 8.0, "{p:?}: {b}^{e}");
        }
    }
}

#[test]
fn exact_pow_cases_skip_the_series() {
    let p = Profile::SGNS;
    assert_eq!(p.powf(0.0, 0.75), 0.0);
    assert_eq!(p.powf(0.0, 0.0), 1.0);
    assert_eq!(p.powf(7.0, 0.0), 1.0);
    assert_eq!(p.powf(0.3, 1.0).to_bits(), 0.3f64.to_bits());
    // Through the series, x^1 is exp(ln x), one unit in the last place off here.
    assert_eq!(Profile::GLOVE.powf(0.3, 1.0).to_bits(), 0x3FD3_3333_3333_3332);
}

/// The two reductions of `ln` round differently on some inputs: why two profiles exist.
#[test]
fn profiles_differ_in_the_last_bit() {
    assert_eq!(Profile::SGNS.ln(3.0).to_bits(), 0x3FF1_93EA_7AAD_030A);
    assert_eq!(Profile::GLOVE.ln(3.0).to_bits(), 0x3FF1_93EA_7AAD_030B);
    assert_eq!(Profile::SGNS.powf(9.0, 0.75).to_bits(), 0x4014_C8DC_2E42_397E);
    assert_eq!(Profile::GLOVE.powf(9.0, 0.75).to_bits(), 0x4014_C8DC_2E42_3980);
}

/// The bits of retest-sgns's inputs: the sigmoid table's arguments, `count^e` for the exponents a
/// config may give, and large counts. The constant was computed by the implementation the
/// sgns models were trained with.
#[test]
fn sgns_profile_keeps_its_bits() {
    let p = Profile::SGNS;
    let mut h = FOLD_START;
    for i in 0..1000 {
        let x = (f64::from(i) / 1000.0 * 2.0 - 1.0) * 6.0;
        h = fold(h, p.exp(x));
    }
    for c in 1..=100_000u32 {
        for e in [0.75, 0.5, 1.0, 0.0, -0.5, 1.3] {
            h = fold(h, p.powf(f64::from(c), e));
        }
    }
    for c in 0..1000u64 {
        let c = (c * 4_000_037 + 12_345_678_901) as f64;
        h = fold(h, p.powf(c, 0.75));
        h = fold(h, p.ln(c));
    }
    assert_eq!(h, 0x3243_A696_A544_D763);
}

/// The bits of retest-glove's inputs: co-occurrence values `k/2520` (window 10), their `ln` and
/// weights `(x/100)^α`, and `exp` over its whole range. The constant was computed by the
/// implementation the glove models were trained with.
#[test]
fn glove_profile_keeps_its_bits() {
    let p = Profile::GLOVE;
    let mut h = FOLD_START;
    for k in 1..=300_000u32 {
        let x = f64::from(k) / 2520.0;
        h = fold(h, p.ln(x));
        if x <= 100.0 {
            h = fold(h, p.powf(x / 100.0, 0.75));
            h = fold(h, p.powf(x / 100.0, 1.0));
        }
    }
    for i in 0..10_000 {
        let x = -708.0 + f64::from(i) * 0.1408;
        h = fold(h, p.exp(x));
    }
    assert_eq!(h, 0x7CF0_B526_9CEA_5461);
}

#[test]
#[should_panic(expected = "ln of 0 is out of range (not finite and positive)")]
fn ln_of_zero_panics() {
    Profile::GLOVE.ln(0.0);
}

#[test]
#[should_panic(expected = "exp of 701 is out of range (NaN or above 700)")]
fn exp_above_700_panics() {
    Profile::SGNS.exp(701.0);
}
