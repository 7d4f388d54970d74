//! The Word Embedding Association Test (Caliskan, Bryson & Narayanan 2017) on one model: the
//! individual scores `s(w, A, B)`, the test statistic, the effect size and the permutation
//! p-value, with Schröder et al.'s mean attribute difference and normalised scores.
//!
//! Notation: X, Y are the target sets, A, B the attribute sets, all word ids of one model that
//! are in its vocabulary (the caller drops out-of-vocabulary words, for instance with
//! [`crate::WordList::resolve`], and reports them); `ŵ = w/‖w‖₂` in f64 from the f32 vectors;
//! a zero vector has every cosine 0. The sets are taken as given: a word listed twice counts
//! twice, and a word in both X and Y is pooled twice by the permutation test.

use crate::names::stable_names;
use crate::permutation::{
    PermutationOptions, PermutationTest, check_targets_finite, check_targets_nonempty, permutation_test,
};
use crate::vectors::{check_set, dot, mean, mean_unit, norm, sum, unit};
use crate::{MeasureError, Model};

/// One WEAT test: targets X, Y and attributes A, B (in-vocabulary word ids).
#[derive(Debug, Clone, Copy)]
pub struct WeatSets<'s> {
    /// Targets X (expected to associate with A).
    pub x: &'s [u32],
    /// Targets Y (expected to associate with B).
    pub y: &'s [u32],
    /// Attributes A.
    pub a: &'s [u32],
    /// Attributes B.
    pub b: &'s [u32],
}

/// Which standard deviation divides the effect size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SdKind {
    /// `√(Σ (s − μ)²/n)`: Caliskan et al.'s `std` and WEFE's (numpy's default); Schröder et
    /// al.'s bound `|d| ≤ 2` is for this one.
    Population,
    /// `√(Σ (s − μ)²/(n − 1))`.
    Sample,
}

stable_names! {
    /// The stable name (`population`, `sample`).
    SdKind { Population => "population", Sample => "sample" }
    option: "standard deviation"
}

/// Whether an effect size is a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EffectStatus {
    /// `d` is finite.
    Ok,
    /// Every score of X ∪ Y is the same value: the standard deviation is 0 and `d` is NaN.
    NoSpread,
}

stable_names! {
    /// The stable name (`ok`, `no_spread`).
    EffectStatus { Ok => "ok", NoSpread => "no_spread" }
}

/// WEAT's effect size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EffectSize {
    /// `d`, NaN unless `status` is [`EffectStatus::Ok`].
    pub d: f64,
    /// Which standard deviation divided it.
    pub sd: SdKind,
    /// Whether `d` is a number.
    pub status: EffectStatus,
}

/// Schröder et al.'s mean attribute difference `â − b̂`, where `â = (1/|A|) Σ_{a∈A} â` is the
/// mean of A's unit vectors (not re-normalised).
#[derive(Debug, Clone, PartialEq)]
pub struct AttributeDifference {
    /// `â − b̂`.
    pub vector: Vec<f64>,
    /// `‖â − b̂‖₂`: the largest `|s(t, A, B)|` any target can reach (Schröder et al., Theorem 1).
    pub norm: f64,
}

/// How [`weat`] computes the effect size and the p-value. No `Default`:
/// [`WeatOptions::caliskan`] spells out Caliskan et al.'s choices.
#[derive(Debug, Clone, Copy)]
pub struct WeatOptions<'p> {
    /// The standard deviation of the effect size.
    pub sd: SdKind,
    /// Exact or sampled permutation test, and the seed of the sampled one.
    pub permutation: PermutationOptions<'p>,
}

impl<'p> WeatOptions<'p> {
    /// Population SD and [`PermutationOptions::standard`].
    pub fn caliskan(seed: &'p retest_rng::SeedPath) -> WeatOptions<'p> {
        WeatOptions {
            sd: SdKind::Population,
            permutation: PermutationOptions::standard(seed),
        }
    }
}

/// Everything one WEAT test gives on one model.
#[derive(Debug, Clone, PartialEq)]
pub struct Weat {
    /// `s(x, A, B)` for each `x ∈ X`, in X's order.
    pub x_scores: Vec<f64>,
    /// `s(y, A, B)` for each `y ∈ Y`, in Y's order.
    pub y_scores: Vec<f64>,
    /// `cos(x, â − b̂)` for each `x ∈ X` (NaN if `â = b̂`).
    pub x_normalized: Vec<f64>,
    /// `cos(y, â − b̂)` for each `y ∈ Y`.
    pub y_normalized: Vec<f64>,
    /// `S(X, Y) = Σ_X s − Σ_Y s`.
    pub statistic: f64,
    /// The effect size `d`.
    pub effect_size: EffectSize,
    /// The permutation test (its `n_x`, `n_y` are the sizes used).
    pub permutation: PermutationTest,
    /// `‖â − b̂‖`.
    pub attribute_difference: f64,
}

/// The individual WEAT score of every target (Caliskan et al. 2017, eq. of `s(w, A, B)`):
///
/// `s(w, A, B) = (1/|A|) Σ_{a∈A} cos(w, a) − (1/|B|) Σ_{b∈B} cos(w, b)`,
///
/// each cosine `ŵ · â` in f64, summed left to right in the sets' order. `|A| ≠ |B|` is allowed
/// (each side is a mean). Positive: `w` is closer to A.
///
/// # Errors
///
/// An empty A or B; an id out of range.
pub fn association_scores(
    model: &Model<'_>,
    targets: &[u32],
    a: &[u32],
    b: &[u32],
) -> Result<Vec<f64>, MeasureError> {
    check_set(model, "WEAT attribute set A", a)?;
    check_set(model, "WEAT attribute set B", b)?;
    crate::vectors::check_ids(model, "WEAT targets", targets)?;
    let units = |ids: &[u32]| ids.iter().map(|&id| unit(model, id)).collect::<Vec<_>>();
    let (ua, ub) = (units(a), units(b));
    Ok(targets
        .iter()
        .map(|&t| {
            let ut = unit(model, t);
            let cos_a: Vec<f64> = ua.iter().map(|u| dot(&ut, u)).collect();
            let cos_b: Vec<f64> = ub.iter().map(|u| dot(&ut, u)).collect();
            mean(&cos_a) - mean(&cos_b)
        })
        .collect())
}

/// WEAT's test statistic `S(X, Y) = Σ_{x∈X} s(x) − Σ_{y∈Y} s(y)` (each sum left to right).
pub fn weat_statistic(x_scores: &[f64], y_scores: &[f64]) -> f64 {
    sum(x_scores) - sum(y_scores)
}

/// WEAT's effect size (Caliskan et al. 2017):
///
/// `d = (mean_{x∈X} s(x) − mean_{y∈Y} s(y)) / sd_{w∈X∪Y} s(w)`,
///
/// the SD over the pooled scores, population (`/n`) or sample (`/(n − 1)`) by `sd`, two-pass
/// around the pooled mean. When every pooled score is the same value (checked on the values,
/// not on a rounded SD, so constant scores are recognised even when their mean rounds) the SD
/// is 0 and `d` is NaN with [`EffectStatus::NoSpread`]: Schröder et al. note that d is
/// undefined there.
///
/// With `|X| = |Y|` and the population SD, `|d| ≤ 2` (Schröder et al., Theorem 4). `d` is
/// scale-free: multiplying every score by a constant leaves it unchanged, so tiny differences
/// in `s` can give a `|d|` near 2, and `d = 0` does not mean the targets are unbiased
/// (Theorem 3).
///
/// # Errors
///
/// An empty X or Y; a score that is not finite.
pub fn effect_size(x_scores: &[f64], y_scores: &[f64], sd: SdKind) -> Result<EffectSize, MeasureError> {
    check_targets_nonempty(x_scores, y_scores)?;
    check_targets_finite(x_scores, y_scores)?;
    let pooled: Vec<f64> = x_scores.iter().chain(y_scores).copied().collect();
    if pooled.iter().all(|&s| s == pooled[0]) {
        return Ok(EffectSize {
            d: f64::NAN,
            sd,
            status: EffectStatus::NoSpread,
        });
    }
    let mu = mean(&pooled);
    let squares: Vec<f64> = pooled.iter().map(|s| (s - mu) * (s - mu)).collect();
    let n = pooled.len() as f64;
    let divisor = match sd {
        SdKind::Population => n,
        SdKind::Sample => n - 1.0,
    };
    let sigma = (sum(&squares) / divisor).sqrt();
    Ok(EffectSize {
        d: (mean(x_scores) - mean(y_scores)) / sigma,
        sd,
        status: EffectStatus::Ok,
    })
}

/// How well the scores `s(t, A, B)` separate X from Y: the share of pairs (x, y) ∈ X × Y with
/// `s(x) > s(y)`, a tie counting half — the area under the ROC curve of the scores as a
/// classifier of X against Y (1: every x above every y; 0.5: no separation). Schröder et al.
/// (Fig. 1) show that WEAT's effect size need not follow it: a selection of targets whose
/// scores separate better can get a smaller `d`. NaN when X or Y is empty.
pub fn separability(x_scores: &[f64], y_scores: &[f64]) -> f64 {
    if x_scores.is_empty() || y_scores.is_empty() {
        return f64::NAN;
    }
    let wins: f64 = (x_scores.iter())
        .flat_map(|&x| {
            y_scores.iter().map(move |&y| match x.partial_cmp(&y) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Equal) => 0.5,
                _ => 0.0,
            })
        })
        .sum();
    wins / (x_scores.len() * y_scores.len()) as f64
}

/// Schröder et al.'s mean attribute difference `â − b̂` with `â = (1/|A|) Σ_{a∈A} a/‖a‖`
/// (proof of Theorem 1). For every target `t ≠ 0`,
/// `s(t, A, B) = t̂ · (â − b̂) = cos(t, â − b̂) · ‖â − b̂‖`, so `‖â − b̂‖` bounds `|s|` and
/// differs between models: `s` is not comparable across models (Theorem 1).
///
/// # Errors
///
/// An empty A or B; an id out of range.
pub fn attribute_difference(
    model: &Model<'_>,
    a: &[u32],
    b: &[u32],
) -> Result<AttributeDifference, MeasureError> {
    check_set(model, "WEAT attribute set A", a)?;
    check_set(model, "WEAT attribute set B", b)?;
    let (ca, cb) = (mean_unit(model, a), mean_unit(model, b));
    let vector: Vec<f64> = ca.iter().zip(&cb).map(|(x, y)| x - y).collect();
    let norm = norm(&vector);
    Ok(AttributeDifference { vector, norm })
}

/// Schröder et al.'s normalised individual score `cos(t, â − b̂) = t̂ · (â − b̂)/‖â − b̂‖` of
/// every target, computed from the attribute difference (not from `s`), in `[−1, 1]`. It is
/// `s(t, A, B)/‖â − b̂‖`; NaN for every target when `â = b̂`, 0 for a zero target vector.
///
/// # Errors
///
/// An id out of range.
pub fn normalized_scores(
    model: &Model<'_>,
    difference: &AttributeDifference,
    targets: &[u32],
) -> Result<Vec<f64>, MeasureError> {
    crate::vectors::check_ids(model, "WEAT targets", targets)?;
    Ok(targets
        .iter()
        .map(|&t| {
            if difference.norm == 0.0 {
                f64::NAN
            } else {
                dot(&unit(model, t), &difference.vector) / difference.norm
            }
        })
        .collect())
}

/// One WEAT test on one model: per-word scores [`association_scores`], the statistic
/// [`weat_statistic`], the effect size [`effect_size`], the permutation p-value
/// [`permutation_test`] (exact or sampled, as `opts.permutation` decides; NaN, as `d`, when
/// every score is the same: [`EffectStatus::NoSpread`]) and Schröder et al.'s
/// [`attribute_difference`] and [`normalized_scores`].
///
/// X and Y may differ in size (after the caller removed out-of-vocabulary words): the means
/// and the SD are over the words present, and the permutation test keeps the sizes.
///
/// # Errors
///
/// An empty X, Y, A or B (in that order); an id out of range; `samples = 0`.
pub fn weat(model: &Model<'_>, sets: &WeatSets<'_>, opts: &WeatOptions<'_>) -> Result<Weat, MeasureError> {
    check_set(model, "WEAT target set X", sets.x)?;
    check_set(model, "WEAT target set Y", sets.y)?;
    let x_scores = association_scores(model, sets.x, sets.a, sets.b)?;
    let y_scores = association_scores(model, sets.y, sets.a, sets.b)?;
    let difference = attribute_difference(model, sets.a, sets.b)?;
    let effect_size = effect_size(&x_scores, &y_scores, opts.sd)?;
    let mut permutation = permutation_test(&x_scores, &y_scores, &opts.permutation)?;
    // Every score the same: every partition ties with the observed one, and "no partition
    // exceeds it" says nothing. The p-value is undefined, as d is.
    if effect_size.status == EffectStatus::NoSpread {
        permutation.p = f64::NAN;
    }
    Ok(Weat {
        x_normalized: normalized_scores(model, &difference, sets.x)?,
        y_normalized: normalized_scores(model, &difference, sets.y)?,
        statistic: weat_statistic(&x_scores, &y_scores),
        effect_size,
        permutation,
        attribute_difference: difference.norm,
        x_scores,
        y_scores,
    })
}
