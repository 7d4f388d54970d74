//! Intraclass correlations: the six Shrout & Fleiss (1979) forms with F tests and McGraw & Wong
//! (1996) confidence intervals, as pingouin 0.7 `intraclass_corr` computes them.

use crate::anova::TwoWayAnova;
use crate::fdist;
use crate::matrix::Matrix;
use crate::status::Status;

/// Upper-tail probability of each side of the 95% confidence intervals (pingouin hard-codes
/// α = 0.05 for ICC).
const HALF_ALPHA: f64 = 0.025;

/// One of the six intraclass correlation forms of Shrout & Fleiss (1979).
///
/// | form | Shrout & Fleiss | McGraw & Wong | pingouin 0.7 | model |
/// |---|---|---|---|---|
/// | `Icc1_1` | ICC(1,1) | ICC(1) | `ICC(1,1)` | one-way random, single rater |
/// | `Icc2_1` | ICC(2,1) | ICC(A,1) | `ICC(A,1)` | two-way random, absolute agreement, single |
/// | `Icc3_1` | ICC(3,1) | ICC(C,1) | `ICC(C,1)` | two-way mixed, consistency, single |
/// | `Icc1_k` | ICC(1,k) | ICC(k) | `ICC(1,k)` | one-way random, mean of k raters |
/// | `Icc2_k` | ICC(2,k) | ICC(A,k) | `ICC(A,k)` | two-way random, absolute agreement, mean |
/// | `Icc3_k` | ICC(3,k) | ICC(C,k) | `ICC(C,k)` | two-way mixed, consistency, mean |
///
/// Du, Fang & Nguyen (2021) use ICC(2,1) for test-retest and ICC(3,1) for inter-rater
/// reliability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(non_camel_case_types)] // `Icc2_k` mirrors the notation ICC(2,k).
pub enum IccForm {
    Icc1_1,
    Icc2_1,
    Icc3_1,
    Icc1_k,
    Icc2_k,
    Icc3_k,
}

impl IccForm {
    /// The six forms in pingouin's row order.
    pub const ALL: [IccForm; 6] = [
        IccForm::Icc1_1,
        IccForm::Icc2_1,
        IccForm::Icc3_1,
        IccForm::Icc1_k,
        IccForm::Icc2_k,
        IccForm::Icc3_k,
    ];

    /// The stable name used in tables and JSON: `icc1_1`, `icc2_1`, `icc3_1`, `icc1_k`, `icc2_k`,
    /// `icc3_k`.
    pub fn as_str(self) -> &'static str {
        match self {
            IccForm::Icc1_1 => "icc1_1",
            IccForm::Icc2_1 => "icc2_1",
            IccForm::Icc3_1 => "icc3_1",
            IccForm::Icc1_k => "icc1_k",
            IccForm::Icc2_k => "icc2_k",
            IccForm::Icc3_k => "icc3_k",
        }
    }

    /// The `Type` column of pingouin 0.7: `ICC(1,1)`, `ICC(A,1)`, `ICC(C,1)`, `ICC(1,k)`,
    /// `ICC(A,k)`, `ICC(C,k)`.
    pub fn pingouin_name(self) -> &'static str {
        match self {
            IccForm::Icc1_1 => "ICC(1,1)",
            IccForm::Icc2_1 => "ICC(A,1)",
            IccForm::Icc3_1 => "ICC(C,1)",
            IccForm::Icc1_k => "ICC(1,k)",
            IccForm::Icc2_k => "ICC(A,k)",
            IccForm::Icc3_k => "ICC(C,k)",
        }
    }

    /// The `Type` column of pingouin ≤ 0.5 (and of the Du et al. code): `ICC1`, `ICC2`, `ICC3`,
    /// `ICC1k`, `ICC2k`, `ICC3k`.
    pub fn pingouin_legacy_name(self) -> &'static str {
        match self {
            IccForm::Icc1_1 => "ICC1",
            IccForm::Icc2_1 => "ICC2",
            IccForm::Icc3_1 => "ICC3",
            IccForm::Icc1_k => "ICC1k",
            IccForm::Icc2_k => "ICC2k",
            IccForm::Icc3_k => "ICC3k",
        }
    }

    /// The form named by [`Self::as_str`], [`Self::pingouin_name`] or
    /// [`Self::pingouin_legacy_name`].
    pub fn from_name(name: &str) -> Option<Self> {
        IccForm::ALL
            .into_iter()
            .find(|f| name == f.as_str() || name == f.pingouin_name() || name == f.pingouin_legacy_name())
    }

    /// Whether the form is the reliability of the mean of the k raters.
    pub fn is_average(self) -> bool {
        matches!(self, IccForm::Icc1_k | IccForm::Icc2_k | IccForm::Icc3_k)
    }
}

/// One ICC with its F test and 95% confidence interval (one row of pingouin's table).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IccResult {
    pub form: IccForm,
    /// The coefficient; NaN unless `status` is [`Status::Ok`].
    pub value: f64,
    /// F statistic of the test of ICC = 0 (+∞ when the error mean square is exactly 0).
    pub f: f64,
    /// Numerator degrees of freedom, n − 1.
    pub df1: f64,
    /// Denominator degrees of freedom: n(k − 1) for the one-way forms, (n − 1)(k − 1) otherwise.
    pub df2: f64,
    /// P(F(df1, df2) > f).
    pub p_value: f64,
    /// Lower end of the 95% confidence interval (not rounded; pingouin rounds to 2 decimals).
    pub ci_low: f64,
    /// Upper end of the 95% confidence interval.
    pub ci_high: f64,
    /// Subjects (complete rows) used.
    pub n_subjects: usize,
    /// Raters (columns).
    pub n_raters: usize,
    /// Rows dropped because they contained a NaN (listwise deletion).
    pub n_dropped: usize,
    pub status: Status,
}

/// One ICC form of the subjects × raters table `m`. See [`TwoWayAnova::icc`] for the formulas.
pub fn icc(m: Matrix<'_>, form: IccForm) -> IccResult {
    TwoWayAnova::new(m).icc(form)
}

/// All six ICC forms of `m` from one ANOVA, in the order of [`IccForm::ALL`].
pub fn icc_all(m: Matrix<'_>) -> [IccResult; 6] {
    let anova = TwoWayAnova::new(m);
    IccForm::ALL.map(|form| anova.icc(form))
}

/// ICC(2,1) = ICC(A,1), two-way random effects, absolute agreement of single raters: the
/// test-retest reliability of Du, Fang & Nguyen (2021) (subjects × seeds).
pub fn icc2_1(m: Matrix<'_>) -> IccResult {
    icc(m, IccForm::Icc2_1)
}

/// ICC(3,1) = ICC(C,1), two-way mixed effects, consistency of single raters: the inter-rater
/// consistency of Du, Fang & Nguyen (2021) (subjects × scoring rules).
pub fn icc3_1(m: Matrix<'_>) -> IccResult {
    icc(m, IccForm::Icc3_1)
}

impl TwoWayAnova {
    /// One ICC form from this ANOVA.
    ///
    /// With n subjects, k raters and the mean squares MSB, MSJ, MSE, MSW of [`TwoWayAnova`]
    /// (Shrout & Fleiss 1979, Table 1; McGraw & Wong 1996, Tables 4 and 8):
    ///
    /// * ICC(1,1) = (MSB − MSW) / (MSB + (k − 1) MSW)
    /// * ICC(2,1) = (MSB − MSE) / (MSB + (k − 1) MSE + k (MSJ − MSE) / n)
    /// * ICC(3,1) = (MSB − MSE) / (MSB + (k − 1) MSE)
    /// * ICC(1,k) = (MSB − MSW) / MSB
    /// * ICC(2,k) = (MSB − MSE) / (MSB + (MSJ − MSE) / n)
    /// * ICC(3,k) = (MSB − MSE) / MSB
    ///
    /// F tests of ICC = 0: ICC(1,·) F = MSB/MSW on (n − 1, n(k − 1)) df; ICC(2,·) and ICC(3,·)
    /// F = MSB/MSE on (n − 1, (n − 1)(k − 1)) df; p = P(F > f).
    ///
    /// 95% confidence intervals (McGraw & Wong 1996, Tables 7 and 8, as pingouin 0.7), with
    /// F_q(ν₁, ν₂) the upper-q quantile of the F distribution, F_L = F / F_.025(df1, df2) and
    /// F_U = F · F_.025(df2, df1):
    ///
    /// * ICC(1,1), ICC(3,1): [(F_L − 1)/(F_L + k − 1), (F_U − 1)/(F_U + k − 1)], evaluated as
    ///   1 − k/(F_L + k − 1) so that F = +∞ gives 1;
    /// * ICC(1,k), ICC(3,k): [1 − 1/F_L, 1 − 1/F_U];
    /// * ICC(2,1): with F_J = MSJ/MSE, ρ = ICC(2,1) and Satterthwaite's
    ///   v = (n − 1)(k − 1) (k ρ F_J + g)² / ((n − 1) k² ρ² F_J² + g²) with
    ///   g = n (1 + (k − 1) ρ) − k ρ,
    ///   F* = F_.025(n − 1, v), F_* = F_.025(v, n − 1):
    ///   low = n (MSB − F* MSE) / (F* (k MSJ + (k n − k − n) MSE) + n MSB),
    ///   high = n (F_* MSB − MSE) / (k MSJ + (k n − k − n) MSE + n F_* MSB);
    /// * ICC(2,k): the ICC(2,1) limits stepped up by Spearman–Brown, L k / (1 + (k − 1) L).
    ///   As in pingouin, a lower ICC(2,1) limit below −1/(k − 1) (past the pole of the step-up)
    ///   gives a lower ICC(2,k) limit above the upper one; this is reproduced, not repaired.
    ///
    /// Degenerate input gives NaN with the ANOVA's status: too few subjects or raters, infinite
    /// scores, or [`Status::ZeroVariance`] when the subjects do not differ (MSB = 0). A
    /// denominator that vanishes to within 64 ε of its terms gives [`Status::Undefined`]; only
    /// ICC(2,k)'s can (MSB + (MSJ − MSE)/n = 0).
    ///
    /// When MSE or MSW is exactly 0 the coefficient is 1 (the ICC(2,·) value for absolute
    /// agreement), F = +∞, p = 0, and the limits are taken as F → ∞; likewise when a tiny v puts
    /// F* or F_* beyond the f64 range (pingouin gives NaN there). The limits can be NaN while
    /// the value is not only when Satterthwaite's v is not a positive finite number.
    pub fn icc(&self, form: IccForm) -> IccResult {
        let n = self.n_subjects as f64;
        let k = self.n_raters as f64;
        let one_way = matches!(form, IccForm::Icc1_1 | IccForm::Icc1_k);
        let (df1, df2) = match self.status {
            Status::TooFewSubjects | Status::TooFewRaters => (f64::NAN, f64::NAN),
            _ if one_way => (n - 1.0, n * (k - 1.0)),
            _ => (n - 1.0, (n - 1.0) * (k - 1.0)),
        };
        let mut result = IccResult {
            form,
            value: f64::NAN,
            f: f64::NAN,
            df1,
            df2,
            p_value: f64::NAN,
            ci_low: f64::NAN,
            ci_high: f64::NAN,
            n_subjects: self.n_subjects,
            n_raters: self.n_raters,
            n_dropped: self.n_dropped,
            status: self.status,
        };
        if self.status != Status::Ok {
            return result;
        }
        let (msb, msj, mse, msw) = (self.ms_subjects, self.ms_raters, self.ms_residual, self.ms_within);
        let error = if one_way { msw } else { mse };
        let value = match form {
            IccForm::Icc1_1 => (msb - msw) / (msb + (k - 1.0) * msw),
            IccForm::Icc2_1 => (msb - mse) / (msb + (k - 1.0) * mse + k * (msj - mse) / n),
            IccForm::Icc3_1 => (msb - mse) / (msb + (k - 1.0) * mse),
            IccForm::Icc1_k => (msb - msw) / msb,
            IccForm::Icc2_k => (msb - mse) / (msb + (msj - mse) / n),
            IccForm::Icc3_k => (msb - mse) / msb,
        };
        // Only ICC(2,k)'s denominator MSB + (MSJ − MSE)/n can vanish (MSB > 0 here); within
        // rounding of zero the quotient is noise, so it is reported as undefined.
        let vanishing = form == IccForm::Icc2_k
            && (msb + (msj - mse) / n).abs() <= 64.0 * f64::EPSILON * (msb + (msj + mse) / n);
        if vanishing || !value.is_finite() {
            result.status = Status::Undefined;
            return result;
        }
        let f = msb / error; // msb > 0, so +∞ when error = 0
        result.value = value;
        result.f = f;
        result.p_value = fdist::sf(f, df1, df2);
        let (low, high) = match form {
            IccForm::Icc1_1 | IccForm::Icc3_1 | IccForm::Icc1_k | IccForm::Icc3_k => {
                let f_low = f / fdist::isf(HALF_ALPHA, df1, df2);
                let f_high = f * fdist::isf(HALF_ALPHA, df2, df1);
                if form.is_average() {
                    (1.0 - 1.0 / f_low, 1.0 - 1.0 / f_high)
                } else {
                    (1.0 - k / (f_low + k - 1.0), 1.0 - k / (f_high + k - 1.0))
                }
            }
            IccForm::Icc2_1 | IccForm::Icc2_k => {
                let (low, high) = self.agreement_limits();
                if form.is_average() {
                    (spearman_brown(low, k), spearman_brown(high, k))
                } else {
                    (low, high)
                }
            }
        };
        result.ci_low = low;
        result.ci_high = high;
        result
    }

    /// All six forms, in the order of [`IccForm::ALL`].
    pub fn icc_all(&self) -> [IccResult; 6] {
        IccForm::ALL.map(|form| self.icc(form))
    }

    /// The 95% limits of ICC(2,1) (McGraw & Wong 1996, Table 7, case 2A), as in
    /// [`TwoWayAnova::icc`]. Requires MSB > 0.
    fn agreement_limits(&self) -> (f64, f64) {
        let n = self.n_subjects as f64;
        let k = self.n_raters as f64;
        let (msb, msj, mse) = (self.ms_subjects, self.ms_raters, self.ms_residual);
        let rho = (msb - mse) / (msb + (k - 1.0) * mse + k * (msj - mse) / n);
        let df1 = n - 1.0;
        let df_error = (n - 1.0) * (k - 1.0);
        // F_J = MSJ/MSE, taken as 0 when MSJ = 0 and as +∞ when only MSE = 0.
        let fj = if msj == 0.0 { 0.0 } else { msj / mse };
        let g = n * (1.0 + (k - 1.0) * rho) - k * rho;
        let v = if fj <= 1.0 {
            df_error * (k * rho * fj + g).powi(2) / (df1 * (k * rho * fj).powi(2) + g * g)
        } else {
            // Same ratio divided through by F_J², finite as F_J → ∞.
            let g_fj = g / fj;
            df_error * (k * rho + g_fj).powi(2) / (df1 * (k * rho).powi(2) + g_fj * g_fj)
        };
        if !(v > 0.0 && v.is_finite()) {
            return (f64::NAN, f64::NAN);
        }
        let f_star = fdist::isf(HALF_ALPHA, df1, v);
        let f_star_lower = fdist::isf(HALF_ALPHA, v, df1);
        let spread = k * msj + (k * n - k - n) * mse;
        let low = if f_star.is_finite() {
            n * (msb - f_star * mse) / (f_star * spread + n * msb)
        } else {
            // The limit as F* → ∞ (a tiny v puts the quantile beyond f64).
            -n * mse / spread
        };
        let high = if f_star_lower.is_finite() {
            n * (f_star_lower * msb - mse) / (spread + n * f_star_lower * msb)
        } else {
            1.0
        };
        (low, high)
    }
}

/// The Spearman–Brown step-up of a single-rater reliability r to the mean of k raters:
/// k r / (1 + (k − 1) r).
fn spearman_brown(r: f64, k: f64) -> f64 {
    r * k / (1.0 + r * (k - 1.0))
}
