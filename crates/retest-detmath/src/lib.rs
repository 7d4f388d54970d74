//! Deterministic `exp`, `ln` and `powf` built from IEEE-754 `+ − × ÷` only, so that the numbers
//! the trainers derive from them (retest-sgns's sigmoid table and unigram weights `count^0.75`,
//! retest-glove's per-record `ln x` and weight `(x/x_max)^α`) have the same bits on every
//! machine, whatever libm the binary is linked against (glibc's `exp`/`log`/`pow` are not
//! specified to round identically across versions or against musl's).
//!
//! Accuracy is a few units in the last place of an `f64`.
//!
//! One implementation, two [`Profile`]s. The trainers were written with different series
//! lengths and `ln` reductions; both give correct results, but they differ in the last bit on
//! a few percent of inputs (e.g. `ln` of 7% of the integers below 10⁷), and the unigram
//! weights feed integer alias-table masses, so one last bit can change a trained model. Each
//! crate therefore keeps the profile its models were trained with: [`Profile::SGNS`] and
//! [`Profile::GLOVE`]. Changing a profile changes trained bytes.

/// `ln 2` rounded to `f64`.
const LN_2: f64 = std::f64::consts::LN_2;
/// `ln 2` with the low 21 bits of its significand zero (fdlibm's `ln2_hi`), so `k·LN_2_HI` is
/// exact for every exponent `|k| < 2¹¹`.
const LN_2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
/// `ln 2 − LN_2_HI` (fdlibm's `ln2_lo`).
const LN_2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);

/// How [`Profile::ln`] reduces its argument `x = m·2^k` and sums `ln m = 2·atanh(z)`,
/// `z = (m − 1)/(m + 1)`, `atanh z = Σ_{i≥0} z^(2i+1)/(2i+1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LnReduction {
    /// `m ∈ [1, 2)` as read from the bits, `z ∈ [0, 1/3)`, 30 terms (truncation below
    /// `(1/9)^30`), and `ln x = 2·z·Σ + k·ln 2` with `ln 2` rounded to one `f64`. Just below 1
    /// (`k = −1`, `m` near 2) the two terms cancel, so the error there is absolute (about
    /// `1e-16`), not relative; integer arguments never get there.
    Unit,
    /// `m ∈ [√½, √2)`, `|z| < 0.172`, 14 terms (truncation below `0.172^29/29 < 1e-23`), and
    /// `ln x = k·ln2_hi + (2·z·Σ + k·ln2_lo)` with fdlibm's split of `ln 2`.
    Centred,
}

/// Whether [`Profile::powf`] answers `x^0`, `x^1` and `0^e` exactly or through the series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PowCases {
    /// `x^0 = 1`, `x^1 = x` and `0^e = 0` (for `e ≠ 0`) without evaluating `exp(e·ln x)`.
    Exact,
    /// Always `exp(e·ln x)`; `x` must then be positive.
    Series,
}

/// The series lengths and reductions that pin one set of bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// Reduction and series of `ln`.
    pub ln: LnReduction,
    /// Degree of the Taylor polynomial of `e^r` in [`Profile::exp`].
    pub exp_degree: u32,
    /// Exact special cases of [`Profile::powf`].
    pub pow: PowCases,
}

impl Profile {
    /// The bits of retest-sgns's sigmoid table and unigram weights.
    pub const SGNS: Profile = Profile {
        ln: LnReduction::Unit,
        exp_degree: 24,
        pow: PowCases::Exact,
    };

    /// The bits of retest-glove's per-record `ln x` and weight `(x/x_max)^α`.
    pub const GLOVE: Profile = Profile {
        ln: LnReduction::Centred,
        exp_degree: 20,
        pow: PowCases::Series,
    };

    /// `e^x` for `x ≤ 700` (results below the normal range are subnormal or flush to 0).
    ///
    /// `x = k·ln 2 + r` with `k = round(x / ln 2)` and `|r| ≤ ln 2 / 2` (`ln 2` split so that
    /// `k·ln2_hi` is exact), then `e^r` from its Taylor series to degree `exp_degree` in Horner
    /// form, `1 + r(1 + r/2(1 + r/3(…)))` (degree 20 truncates below `0.35^21/21! < 1e-28`),
    /// and the exact scaling by `2^k`.
    ///
    /// # Panics
    /// If `x` is NaN or above 700.
    pub fn exp(&self, x: f64) -> f64 {
        assert!(x <= 700.0, "exp of {x} is out of range (NaN or above 700)");
        if x < -708.0 {
            return 0.0;
        }
        let k = (x / LN_2).round();
        let r = (x - k * LN_2_HI) - k * LN_2_LO;
        let mut sum = 1.0;
        for i in (1..=self.exp_degree).rev() {
            sum = 1.0 + sum * r / f64::from(i);
        }
        let k = k as i32;
        if k < -1022 {
            // Two steps keep the intermediate in range; the result may be subnormal.
            sum * pow2(k + 54) * pow2(-54)
        } else {
            sum * pow2(k)
        }
    }

    /// The natural logarithm of a finite `x > 0`, reduced and summed as [`LnReduction`] says.
    ///
    /// # Panics
    /// If `x` is not finite and positive.
    pub fn ln(&self, x: f64) -> f64 {
        assert!(
            x.is_finite() && x > 0.0,
            "ln of {x} is out of range (not finite and positive)"
        );
        let (mut bits, mut k) = (x.to_bits(), 0i32);
        if bits >> 52 == 0 {
            // Subnormal: scale into the normal range first.
            bits = (x * pow2(54)).to_bits();
            k = -54;
        }
        k += ((bits >> 52) & 0x7FF) as i32 - 1023;
        // The significand with a zero exponent: m ∈ [1, 2).
        let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
        match self.ln {
            LnReduction::Unit => {
                let z = (m - 1.0) / (m + 1.0);
                2.0 * z * atanh_series(z, 30) + f64::from(k) * LN_2
            }
            LnReduction::Centred => {
                if m >= std::f64::consts::SQRT_2 {
                    m *= 0.5;
                    k += 1;
                }
                let z = (m - 1.0) / (m + 1.0);
                let kf = f64::from(k);
                kf * LN_2_HI + (2.0 * z * atanh_series(z, 14) + kf * LN_2_LO)
            }
        }
    }

    /// `x^e` for `x ≥ 0` as `exp(e·ln x)`, with the exact cases of [`PowCases`].
    ///
    /// # Panics
    /// If `x` is not finite and positive (`x = 0` is allowed with [`PowCases::Exact`] and
    /// `e ≠ 0`), or `e·ln x` is above 700.
    pub fn powf(&self, x: f64, e: f64) -> f64 {
        if self.pow == PowCases::Exact {
            if e == 0.0 {
                return 1.0;
            } else if e == 1.0 {
                return x;
            } else if x == 0.0 {
                return 0.0;
            }
        }
        self.exp(e * self.ln(x))
    }
}

/// `Σ_{i<terms} z^(2i)/(2i+1)` in Horner form over `z²`, highest term first.
fn atanh_series(z: f64, terms: u32) -> f64 {
    let z2 = z * z;
    let mut sum = 0.0;
    for i in (0..terms).rev() {
        sum = sum * z2 + 1.0 / f64::from(2 * i + 1);
    }
    sum
}

/// `2^k` exactly, for `−1022 ≤ k ≤ 1023`.
fn pow2(k: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&k), "2^{k} is not a normal f64");
    f64::from_bits(((k + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests;
