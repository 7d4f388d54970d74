//! Deterministic `exp` and `ln` built from IEEE-754 `+ − × ÷` only, so that the tables derived
//! from them (sigmoid, unigram weights) have the same bits on every machine, whatever libm the
//! binary is linked against (glibc's `exp`/`pow` are not guaranteed to round identically across
//! versions or to musl's).
//!
//! Accuracy is a few units in the last place of an `f64`, far below what the `f32` tables and the
//! `u32`-quantised sampling probabilities can resolve.

/// `ln 2` rounded to `f64`.
const LN_2: f64 = std::f64::consts::LN_2;

/// `e^x`, for `|x| ≤ 700`.
///
/// Range reduction `x = k·ln 2 + r` with `k = round(x / ln 2)`, `|r| ≤ ln 2 / 2`, where `ln 2` is
/// split into a high part with trailing zero bits (so `k·ln2_hi` is exact) and a low part
/// (fdlibm's constants); then a 24-term Taylor series for `e^r` in Horner form (truncation below
/// 1e-30) and the exact scaling by `2^k`.
pub(crate) fn exp(x: f64) -> f64 {
    // 6.93147180369123816490e-01 and 1.90821492927058770002e-10, bit-exact.
    const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);
    assert!(x.abs() <= 700.0, "exp argument {x} out of range");
    let k = (x / LN_2).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // Σ_{i=0}^{24} r^i / i! = 1 + r(1 + r/2(1 + r/3(…))).
    let mut sum = 1.0;
    for i in (1..=24).rev() {
        sum = 1.0 + sum * r / f64::from(i);
    }
    sum * pow2(k as i32)
}

/// `ln x` for finite `x > 0`.
///
/// `x = m·2^k` with `m ∈ [1, 2)` read from the bits, then `ln m = 2·atanh(z)` with
/// `z = (m − 1)/(m + 1) ∈ [0, 1/3)`, summed as `2·Σ z^(2i+1)/(2i+1)` over 30 terms
/// (truncation below `(1/9)^30`).
pub(crate) fn ln(x: f64) -> f64 {
    assert!(x.is_finite() && x > 0.0, "ln argument {x} out of range");
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7FF) as i32;
    let (m, k) = if exponent == 0 {
        // Subnormal: scale into the normal range first.
        let scaled = x * pow2(64);
        let bits = scaled.to_bits();
        let e = ((bits >> 52) & 0x7FF) as i32;
        (
            f64::from_bits((bits & !(0x7FF << 52)) | (1023 << 52)),
            e - 1023 - 64,
        )
    } else {
        (
            f64::from_bits((bits & !(0x7FF << 52)) | (1023 << 52)),
            exponent - 1023,
        )
    };
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut sum = 0.0;
    for i in (0..30).rev() {
        sum = sum * z2 + 1.0 / f64::from(2 * i + 1);
    }
    2.0 * z * sum + f64::from(k) * LN_2
}

/// `x^e` for `x ≥ 0` as `exp(e·ln x)`, with `0^e = 0` for `e > 0` and `x^0 = 1`.
pub(crate) fn powf(x: f64, e: f64) -> f64 {
    if e == 0.0 {
        1.0
    } else if e == 1.0 {
        x
    } else if x == 0.0 {
        0.0
    } else {
        exp(e * ln(x))
    }
}

/// `2^k` exactly, for `−1022 ≤ k ≤ 1023`.
fn pow2(k: i32) -> f64 {
    assert!((-1022..=1023).contains(&k), "2^{k} is not a normal f64");
    f64::from_bits(((k + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    #[test]
    fn exp_matches_libm() {
        for i in -6000..=6000 {
            let x = f64::from(i) / 500.0;
            assert!(rel(exp(x), x.exp()) < 1e-14, "exp({x})");
        }
        assert_eq!(exp(0.0), 1.0);
    }

    #[test]
    fn ln_matches_libm() {
        for x in [
            1e-300f64,
            1e-310,
            0.3,
            1.0,
            1.5,
            2.0,
            3.0,
            7.0,
            1e6,
            123_456_789.0,
            1e300,
        ] {
            let want = x.ln();
            if want == 0.0 {
                assert!(ln(x).abs() < 1e-15);
            } else {
                assert!(rel(ln(x), want) < 1e-14, "ln({x}) = {} vs {want}", ln(x));
            }
        }
        for c in 1..5000u32 {
            let x = f64::from(c);
            assert!((ln(x) - x.ln()).abs() < 1e-13, "ln({x})");
        }
    }

    #[test]
    fn powf_matches_libm() {
        for c in [1u64, 2, 5, 17, 1000, 65_536, 3_000_000, 4_000_000_000] {
            let x = c as f64;
            for e in [0.0, 0.5, 0.75, 1.0, -0.5, 1.3] {
                assert!(rel(powf(x, e), x.powf(e)) < 1e-13, "{x}^{e}");
            }
        }
        assert_eq!(powf(0.0, 0.75), 0.0);
        assert_eq!(powf(0.0, 0.0), 1.0);
    }
}
