//! Deterministic `ln` and `exp` from IEEE-754 `+ − × ÷` only, so that the per-record constants
//! of training (`ln x` and the weight `(x/x_max)^α`) have the same bits on every machine,
//! whichever libm the binary links (glibc's `log`/`pow` are not specified to round identically
//! across versions or against musl's).
//!
//! Accuracy is a few units in the last place of an `f64`; training stores the results as `f32`.

/// `ln 2` with the low 21 bits of its significand zero (fdlibm's `ln2_hi`), so `k·LN_2_HI` is
/// exact for every exponent `|k| < 2¹¹`.
const LN_2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
/// `ln 2 − LN_2_HI` (fdlibm's `ln2_lo`).
const LN_2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);

/// `2^k` for `k` in the normal range `[-1022, 1023]`, built from its bits.
fn pow2(k: i64) -> f64 {
    debug_assert!((-1022..=1023).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// The natural logarithm of a finite `x > 0`.
///
/// With `x = m·2^k`, `m ∈ [√½, √2)` (read from the bits), `ln x = k·ln 2 + 2·atanh(z)` with
/// `z = (m − 1)/(m + 1)`, `|z| < 0.172`, and `atanh z = Σ_{i≥0} z^(2i+1)/(2i+1)` summed over 14
/// terms (truncation below `0.172^29/29 < 1e-23`).
///
/// # Panics
/// If `x` is not finite and positive.
pub(crate) fn ln(x: f64) -> f64 {
    assert!(x.is_finite() && x > 0.0, "ln of {x}");
    let (mut bits, mut k) = (x.to_bits(), 0i64);
    if bits >> 52 == 0 {
        // Subnormal: scale into the normal range first.
        bits = (x * pow2(54)).to_bits();
        k = -54;
    }
    k += ((bits >> 52) & 0x7FF) as i64 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    if m >= std::f64::consts::SQRT_2 {
        m *= 0.5;
        k += 1;
    }
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut series = 0.0;
    for i in (0..14).rev() {
        series = 1.0 / f64::from(2 * i + 1) + z2 * series;
    }
    let kf = k as f64;
    kf * LN_2_HI + (2.0 * z * series + kf * LN_2_LO)
}

/// `e^x` for `x ≤ 700` (results below the normal range flush to 0).
///
/// `x = k·ln 2 + r` with `k = round(x / ln 2)` and `|r| ≤ ln 2 / 2` (`ln 2` split so that
/// `k·LN_2_HI` is exact), then `e^r` from its Taylor series to degree 20 in Horner form
/// (truncation below `0.35^21/21! < 1e-28`) and the exact scaling by `2^k`.
///
/// # Panics
/// If `x` is NaN or above 700.
pub(crate) fn exp(x: f64) -> f64 {
    assert!(x <= 700.0, "exp of {x}");
    if x < -708.0 {
        return 0.0;
    }
    let k = (x / std::f64::consts::LN_2).round();
    let r = (x - k * LN_2_HI) - k * LN_2_LO;
    let mut sum = 1.0;
    for i in (1..=20).rev() {
        sum = 1.0 + sum * r / f64::from(i);
    }
    let k = k as i64;
    if k < -1022 {
        // Two steps keep the intermediate in range; the result may be subnormal.
        sum * pow2(k + 54) * pow2(-54)
    } else {
        sum * pow2(k)
    }
}

/// `base^power` for `base > 0`, as `exp(power · ln base)`.
pub(crate) fn powf(base: f64, power: f64) -> f64 {
    exp(power * ln(base))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative error in units of `f64::EPSILON`.
    fn ulps(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs() / f64::EPSILON
    }

    #[test]
    fn ln2_split_is_exact() {
        assert_eq!(LN_2_HI + LN_2_LO, std::f64::consts::LN_2);
        assert_eq!(LN_2_HI.to_bits() & 0x1F_FFFF, 0);
    }

    #[test]
    fn ln_matches_libm_within_a_few_ulps() {
        for &x in &[
            1e-300,
            1e-10,
            1.0 / 15.0,
            0.5,
            0.999_999,
            1.0,
            1.000_001,
            2.0,
            3.0,
            10.0,
            1e6,
            1e300,
        ] {
            let (ours, libm) = (ln(x), x.ln());
            if libm == 0.0 {
                assert_eq!(ours, 0.0);
            } else {
                assert!(ulps(ours, libm) < 4.0, "ln({x}) = {ours}, libm {libm}");
            }
        }
        assert_eq!(ln(1.0), 0.0);
        let sub = f64::MIN_POSITIVE / 8.0;
        assert!(ulps(ln(sub), sub.ln()) < 4.0);
    }

    #[test]
    fn exp_and_pow_match_libm_within_a_few_ulps() {
        for &x in &[-700.0, -20.0, -5.5, -1.0, -1e-9, 0.0, 1e-9, 0.5, 1.0, 10.0, 700.0] {
            assert!(
                ulps(exp(x), x.exp()) < 4.0,
                "exp({x}) = {}, libm {}",
                exp(x),
                x.exp()
            );
        }
        for &(b, p) in &[
            (0.01, 0.75),
            (1.0 / 1500.0, 0.75),
            (0.5, 0.75),
            (1.0, 0.75),
            (0.3, 1.0),
        ] {
            assert!(ulps(powf(b, p), b.powf(p)) < 8.0, "pow({b}, {p})");
        }
        assert_eq!(exp(-800.0), 0.0);
    }
}
