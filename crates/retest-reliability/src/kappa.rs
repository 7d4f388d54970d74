//! Chance-corrected agreement of categorical ratings: Cohen's kappa (two raters, as scikit-learn
//! `cohen_kappa_score`) and Fleiss' kappa (many raters, as statsmodels `fleiss_kappa`).

use std::collections::BTreeMap;

use crate::matrix::{MatrixError, check_shape, row_of};
use crate::status::Status;

/// A kappa coefficient with its observed and chance agreement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KappaResult {
    /// κ = (P_o − P_e) / (1 − P_e); NaN unless `status` is [`Status::Ok`].
    pub value: f64,
    /// P_o, the observed agreement.
    pub observed_agreement: f64,
    /// P_e, the agreement expected by chance.
    pub expected_agreement: f64,
    pub n_subjects: usize,
    /// 2 for Cohen's kappa; raters per subject for Fleiss' kappa.
    pub n_raters: usize,
    /// Categories used by at least one rating (Cohen) or columns of the table (Fleiss).
    pub n_categories: usize,
    pub status: Status,
}

impl KappaResult {
    fn failed(n_subjects: usize, n_raters: usize, n_categories: usize, status: Status) -> Self {
        KappaResult {
            value: f64::NAN,
            observed_agreement: f64::NAN,
            expected_agreement: f64::NAN,
            n_subjects,
            n_raters,
            n_categories,
            status,
        }
    }
}

/// Cohen's (1960) unweighted kappa of two raters' labels for the same n subjects.
///
/// With n_c⁽ᵃ⁾ and n_c⁽ᵇ⁾ the number of subjects rater a and rater b put in category c, and D
/// the number of subjects on whose label they agree:
///
/// P_o = D / n, P_e = Σ_c n_c⁽ᵃ⁾ n_c⁽ᵇ⁾ / n², κ = (P_o − P_e) / (1 − P_e) = (nD − S)/(n² − S)
/// with S = Σ_c n_c⁽ᵃ⁾ n_c⁽ᵇ⁾.
///
/// The last form is evaluated with exact integers, then divided in floating point. This is the value
/// of scikit-learn's `cohen_kappa_score(a, b)` (which writes it as
/// 1 − Σ w·confusion / Σ w·expected with 0/1 weights).
///
/// Status: [`Status::LengthMismatch`] when the lengths differ, [`Status::TooFewSubjects`] for
/// fewer than 2 subjects (one subject's κ is 0 or undefined, whatever the raters do; scikit-learn
/// returns those), [`Status::ZeroVariance`] when both raters use one and the same category
/// (P_e = 1; scikit-learn returns NaN).
pub fn cohen_kappa(a: &[i64], b: &[i64]) -> KappaResult {
    if a.len() != b.len() {
        return KappaResult::failed(a.len().min(b.len()), 2, 0, Status::LengthMismatch);
    }
    let n = a.len();
    if n < 2 {
        return KappaResult::failed(n, 2, 0, Status::TooFewSubjects);
    }
    // Marginal counts per category (label order is irrelevant to κ; BTreeMap keeps it
    // deterministic).
    let mut margins: BTreeMap<i64, (u128, u128)> = BTreeMap::new();
    let mut agreements: u128 = 0;
    for (&x, &y) in a.iter().zip(b) {
        margins.entry(x).or_default().0 += 1;
        margins.entry(y).or_default().1 += 1;
        if x == y {
            agreements += 1;
        }
    }
    let n128 = n as u128;
    let chance: u128 = margins.values().map(|&(ca, cb)| ca * cb).sum();
    let n_squared = n128 * n128;
    let observed = agreements as f64 / n as f64;
    let expected = chance as f64 / n_squared as f64;
    if chance == n_squared {
        let mut r = KappaResult::failed(n, 2, margins.len(), Status::ZeroVariance);
        r.observed_agreement = observed;
        r.expected_agreement = expected;
        return r;
    }
    // κ = (nD − S) / (n² − S); nD − S can be negative.
    let numerator = (n128 * agreements) as i128 - chance as i128;
    let denominator = (n_squared - chance) as i128;
    KappaResult {
        value: numerator as f64 / denominator as f64,
        observed_agreement: observed,
        expected_agreement: expected,
        n_subjects: n,
        n_raters: 2,
        n_categories: margins.len(),
        status: Status::Ok,
    }
}

/// A subjects × categories table of counts: entry (i, j) is how many raters put subject i in
/// category j (the input of statsmodels `fleiss_kappa`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountTable {
    counts: Vec<u64>,
    n_subjects: usize,
    n_categories: usize,
}

impl CountTable {
    /// A table from row-major counts; fails when `counts.len() != n_subjects * n_categories`.
    pub fn new(counts: Vec<u64>, n_subjects: usize, n_categories: usize) -> Result<Self, MatrixError> {
        check_shape(counts.len(), n_subjects, n_categories)?;
        Ok(CountTable {
            counts,
            n_subjects,
            n_categories,
        })
    }

    pub fn n_subjects(&self) -> usize {
        self.n_subjects
    }

    pub fn n_categories(&self) -> usize {
        self.n_categories
    }

    /// The counts, row-major.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The counts of subject `i`, or `None` when `i >= n_subjects`.
    pub fn row(&self, i: usize) -> Option<&[u64]> {
        row_of(&self.counts, self.n_subjects, self.n_categories, i)
    }
}

/// A count table built from category labels, with the label of each column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggregatedRatings {
    pub table: CountTable,
    /// The distinct labels in ascending order; column j of `table` counts `categories[j]`.
    pub categories: Vec<i64>,
}

/// Counts, for each subject, how many raters chose each category (statsmodels
/// `aggregate_raters`).
///
/// `labels` is row-major, `n_subjects` rows of `n_raters` labels. The categories are the
/// distinct labels found, in ascending order (as `numpy.unique`).
pub fn aggregate_raters(
    labels: &[i64],
    n_subjects: usize,
    n_raters: usize,
) -> Result<AggregatedRatings, MatrixError> {
    check_shape(labels.len(), n_subjects, n_raters)?;
    let mut categories = labels.to_vec();
    categories.sort_unstable();
    categories.dedup();
    let n_categories = categories.len();
    let mut counts = vec![0_u64; n_subjects * n_categories];
    if n_raters > 0 {
        for (i, row) in labels.chunks_exact(n_raters).enumerate() {
            for label in row {
                // Every label is in `categories` by construction.
                if let Ok(j) = categories.binary_search(label) {
                    counts[i * n_categories + j] += 1;
                }
            }
        }
    }
    let table = CountTable {
        counts,
        n_subjects,
        n_categories,
    };
    Ok(AggregatedRatings { table, categories })
}

/// Fleiss' (1971) kappa of N subjects each rated by the same m raters into categories
/// (statsmodels `fleiss_kappa(table, method="fleiss")`).
///
/// With n_ij the count of raters putting subject i in category j (Σ_j n_ij = m):
///
/// * p_j = Σ_i n_ij / (N m), the share of all ratings in category j;
/// * P_i = (Σ_j n_ij² − m) / (m (m − 1)), the agreement among the raters of subject i;
/// * P̄ = Σ_i P_i / N, P̄_e = Σ_j p_j², κ = (P̄ − P̄_e) / (1 − P̄_e).
///
/// Sums are exact integers (overflow gives [`Status::NonFinite`]); P̄ and P̄_e are each one
/// floating-point division.
///
/// Status: [`Status::TooFewSubjects`] for fewer than 2 subjects, [`Status::Unbalanced`] when the row
/// totals differ (statsmodels asserts), [`Status::TooFewRaters`] when m < 2,
/// [`Status::ZeroVariance`] when every rating is in one category (P̄_e = 1).
pub fn fleiss_kappa(table: &CountTable) -> KappaResult {
    let n = table.n_subjects;
    let c = table.n_categories;
    if n < 2 {
        return KappaResult::failed(n, 0, c, Status::TooFewSubjects);
    }
    let Some(sums) = FleissSums::of(table) else {
        return KappaResult::failed(n, 0, c, Status::NonFinite);
    };
    let Some(m) = sums.raters_per_subject else {
        return KappaResult::failed(n, 0, c, Status::Unbalanced);
    };
    let m_usize = usize::try_from(m).unwrap_or(usize::MAX);
    if m < 2 {
        return KappaResult::failed(n, m_usize, c, Status::TooFewRaters);
    }
    // N m, N m (m − 1) and (N m)² as exact integers when they fit.
    let exact = (n as u128)
        .checked_mul(m)
        .and_then(|total| Some((total, total.checked_mul(m - 1)?, total.checked_mul(total)?)));
    let Some((total, pair_total, total_squared)) = exact else {
        return KappaResult::failed(n, m_usize, c, Status::NonFinite);
    };
    // P̄ = (Σ n_ij² − N m) / (N m (m − 1)); P̄_e = Σ_j C_j² / (N m)².
    let observed = (sums.sum_squares - total) as f64 / pair_total as f64;
    let expected = sums.sum_column_squares as f64 / total_squared as f64;
    if sums.sum_column_squares == total_squared {
        let mut r = KappaResult::failed(n, m_usize, c, Status::ZeroVariance);
        r.observed_agreement = observed;
        r.expected_agreement = expected;
        return r;
    }
    KappaResult {
        value: (observed - expected) / (1.0 - expected),
        observed_agreement: observed,
        expected_agreement: expected,
        n_subjects: n,
        n_raters: m_usize,
        n_categories: c,
        status: Status::Ok,
    }
}

/// The integer sums of Fleiss' kappa.
struct FleissSums {
    /// m, when every subject has the same number of ratings.
    raters_per_subject: Option<u128>,
    /// Σ_ij n_ij².
    sum_squares: u128,
    /// Σ_j C_j², C_j = Σ_i n_ij.
    sum_column_squares: u128,
}

impl FleissSums {
    /// `None` when a sum overflows u128.
    fn of(table: &CountTable) -> Option<Self> {
        let mut column_totals = vec![0_u128; table.n_categories];
        let mut sum_squares: u128 = 0;
        let mut first_total: Option<u128> = None;
        let mut balanced = true;
        for i in 0..table.n_subjects {
            let row = table.row(i)?;
            let mut row_total: u128 = 0;
            for (acc, &x) in column_totals.iter_mut().zip(row) {
                let x = u128::from(x);
                row_total = row_total.checked_add(x)?;
                *acc = acc.checked_add(x)?;
                sum_squares = sum_squares.checked_add(x * x)?;
            }
            match first_total {
                None => first_total = Some(row_total),
                Some(m) => balanced &= m == row_total,
            }
        }
        let mut sum_column_squares: u128 = 0;
        for t in column_totals {
            sum_column_squares = sum_column_squares.checked_add(t.checked_mul(t)?)?;
        }
        Some(FleissSums {
            raters_per_subject: if balanced { first_total } else { None },
            sum_squares,
            sum_column_squares,
        })
    }
}
