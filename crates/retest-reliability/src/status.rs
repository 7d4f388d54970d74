//! Why a reliability estimate is, or is not, a number.

use std::fmt;

/// The outcome of one estimate.
///
/// Every estimator in this crate returns a result whose `status` says whether its `value` is a
/// number. When it is not [`Status::Ok`], the value (and every statistic derived from it) is NaN.
/// Degenerate input never panics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// The value is a finite number.
    Ok,
    /// Fewer than two complete rows (subjects for ICC, cases for alpha) remain after listwise
    /// deletion of rows containing NaN; for kappa, fewer than two subjects.
    TooFewSubjects,
    /// Fewer than two columns (raters for ICC, items for alpha), or fewer than two raters per
    /// subject for Fleiss' kappa.
    TooFewRaters,
    /// An infinite score remained after listwise deletion, or an intermediate sum overflowed.
    NonFinite,
    /// No variance to apportion: the subjects (rows) do not differ (ICC, alpha), or all ratings
    /// fall in one category so chance agreement is 1 (kappa).
    ZeroVariance,
    /// The estimator divides by zero for another reason (for instance ICC(A,k) when
    /// MSB + (MSJ − MSE)/n = 0).
    Undefined,
    /// Fleiss' kappa: the subjects were not all rated by the same number of raters.
    Unbalanced,
    /// Cohen's kappa: the two raters' label sequences differ in length.
    LengthMismatch,
}

impl Status {
    /// Every status, in declaration order.
    pub const ALL: [Status; 8] = [
        Status::Ok,
        Status::TooFewSubjects,
        Status::TooFewRaters,
        Status::NonFinite,
        Status::ZeroVariance,
        Status::Undefined,
        Status::Unbalanced,
        Status::LengthMismatch,
    ];

    /// The stable name used in tables and JSON (`snake_case`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::TooFewSubjects => "too_few_subjects",
            Status::TooFewRaters => "too_few_raters",
            Status::NonFinite => "non_finite",
            Status::ZeroVariance => "zero_variance",
            Status::Undefined => "undefined",
            Status::Unbalanced => "unbalanced",
            Status::LengthMismatch => "length_mismatch",
        }
    }

    /// Whether the value is a finite number.
    pub fn is_ok(self) -> bool {
        self == Status::Ok
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
