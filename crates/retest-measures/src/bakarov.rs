//! The two geometric gender-stereotype detectors Bakarov (2021) compares with WEAT and with the
//! word-similarity and analogy benchmarks: Occupational Stereotypes (OS, after Bolukbasi et al.
//! 2016) and Gender Direction (GD, Garg et al.'s 2018 relative norm distance).
//!
//! Bakarov's equations did not survive in the text of the paper; the forms here follow its
//! prose and the two papers it takes the detectors from.
//!
//! * **OS** ([`occupational_stereotypes`]): Bakarov projects each occupation word on the
//!   "gender axis" between the female and the male words and takes "a mean of absolute
//!   projection values", lower meaning less bias. That is Bolukbasi et al.'s Direct Bias with
//!   `c = 1` on unit vectors, `OS = (1/|O|) Σ_{o∈O} |cos(o, g)|`, and it is computed by
//!   [`crate::direct_bias`]. The absolute value is what the prose describes, and it is the
//!   right form for a detector: a signed mean lets feminine and masculine occupations cancel,
//!   so a strongly gendered set could score 0. The signed projections are returned beside the
//!   value for anyone who wants the signed mean. Bakarov then reports an "inverted version" of
//!   OS whose formula is lost; it is not reproduced, and `value` is the plain mean.
//! * **GD** ([`relative_norm_distance`]): Garg et al.'s
//!   `Σ_{w∈W} (‖w − v̄₁‖₂ − ‖w − v̄₂‖₂)` with `v̄` the mean of a group's word vectors. Garg et
//!   al.'s code normalises every vector to unit length before it averages or measures
//!   (it works on a copy of the embeddings with unit rows, and it does not re-normalise the
//!   means); here too, so that models whose norms differ, such as seeds of one configuration,
//!   compare.
//!
//! Sign convention, as everywhere in retest: positive means masculine. The projections are on a
//! [`GenderDirection`], which points to the masculine words (Bakarov's axis is female − male:
//! its projections are these with the sign flipped; the OS value is the same). The relative
//! norm distance is taken as `‖ŵ − v̄_f‖ − ‖ŵ − v̄_m‖`, positive when `w` is closer to the male
//! mean; Garg et al. subtract the other way round (their negative is masculine).

use crate::vectors::{check_set, mean_unit, norm, sum, unit};
use crate::{DIRECT_BIAS_C_BOLUKBASI, GenderDirection, MeasureError, Model, direct_bias};

/// Occupational Stereotypes of a set of occupation words.
#[derive(Debug, Clone, PartialEq)]
pub struct OccupationalStereotypes {
    /// `OS = (1/|O|) Σ_{o∈O} |cos(o, g)|`, in `[0, 1]`: 0 when every occupation is orthogonal
    /// to the gender direction.
    pub value: f64,
    /// `cos(o, g)` of each occupation, in the order given: positive is masculine.
    pub projections: Vec<f64>,
}

/// Garg et al.'s relative norm distance of a set of words: its value and each word's term, in
/// the order given. Two readings: Bakarov's Gender Direction ([`relative_norm_distance`]) and
/// WEFE's RND ([`crate::rnd`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RelativeNormDistance {
    /// GD: `Σ_{w∈W} (‖ŵ − v̄_f‖₂ − ‖ŵ − v̄_m‖₂)` over unit vectors, positive when the words are, in
    /// total, closer to the male mean (a sum, so it grows with `|W|`: compare sets of one size).
    /// RND: the mean of its terms over raw vectors.
    pub value: f64,
    /// Each word's term: GD's `‖ŵ − v̄_f‖₂ − ‖ŵ − v̄_m‖₂`, in `[−2, 2]`; RND's
    /// `‖w − x̄‖₂ − ‖w − ȳ‖₂`.
    pub per_word: Vec<f64>,
}

/// Bakarov's Occupational Stereotypes (after Bolukbasi et al. 2016):
///
/// `OS(O, g) = (1/|O|) Σ_{o∈O} |cos(o, g)| = (1/|O|) Σ_{o∈O} |ô · g|`,
///
/// for a unit gender direction `g` from one pair or the principal component of definitional
/// pairs ([`crate::gender_direction`]; Bakarov uses 6 of Bolukbasi et al.'s pairs and the
/// `female − male` axis). It is [`direct_bias`] with `c = 1` ([`DIRECT_BIAS_C_BOLUKBASI`]) and
/// is computed by it, so the two agree to the last bit. A zero vector projects to 0.
///
/// # Errors
///
/// An empty set of occupations; an id out of range.
pub fn occupational_stereotypes(
    model: &Model<'_>,
    direction: &GenderDirection,
    occupations: &[u32],
) -> Result<OccupationalStereotypes, MeasureError> {
    check_set(model, "occupational stereotypes occupations", occupations)?;
    let db = direct_bias(model, direction, occupations, DIRECT_BIAS_C_BOLUKBASI)?;
    Ok(OccupationalStereotypes {
        value: db.value,
        projections: db.projections,
    })
}

/// Garg et al.'s (2018) relative norm distance, Bakarov's Gender Direction:
///
/// `RND(W) = Σ_{w∈W} (‖ŵ − v̄_f‖₂ − ‖ŵ − v̄_m‖₂)`, `v̄_m = (1/|M|) Σ_{m∈M} m̂`,
/// `v̄_f = (1/|F|) Σ_{f∈F} f̂`,
///
/// on unit vectors `ŵ = w/‖w‖₂` (a zero vector stays zero), the means not re-normalised, each
/// sum left to right in the sets' order. Each term lies in `[−2, 2]` (both means lie in the unit
/// ball); it is positive when `w` is closer to the male mean than to the female one. The sets
/// are taken as given: a word listed twice counts twice.
///
/// # Errors
///
/// An empty male, female or word set (checked in that order); an id out of range.
pub fn relative_norm_distance(
    model: &Model<'_>,
    male: &[u32],
    female: &[u32],
    words: &[u32],
) -> Result<RelativeNormDistance, MeasureError> {
    check_set(model, "relative norm distance male words", male)?;
    check_set(model, "relative norm distance female words", female)?;
    check_set(model, "relative norm distance words", words)?;
    let (v_m, v_f) = (mean_unit(model, male), mean_unit(model, female));
    let distance = |u: &[f64], v: &[f64]| {
        let d: Vec<f64> = u.iter().zip(v).map(|(a, b)| a - b).collect();
        norm(&d)
    };
    let per_word: Vec<f64> = words
        .iter()
        .map(|&w| {
            let u = unit(model, w);
            distance(&u, &v_f) - distance(&u, &v_m)
        })
        .collect();
    Ok(RelativeNormDistance {
        value: sum(&per_word),
        per_word,
    })
}
