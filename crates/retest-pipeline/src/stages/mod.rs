//! The measure job and its stages: every measure family (Du et al.'s per-word rules, the
//! set-level measures, analogies, base pairs, criterion validity, residual bias, the gender subspace) is a stage of
//! one shape (`stage.rs`), and the job (`job.rs`) builds the stages a plan asks for, reads every
//! seed once and writes their tables.

pub(crate) mod analogies;
pub(crate) mod base_pairs;
pub(crate) mod columns;
pub(crate) mod debias;
pub(crate) mod job;
pub(crate) mod residual;
pub(crate) mod rules;
pub(crate) mod seeds;
pub(crate) mod set_level;
pub(crate) mod stage;
pub(crate) mod subspace;
pub(crate) mod validity;
pub(crate) mod vocab;

use stage::Family;

/// Every measure family, in the order their stages run and their tables are read: Du et al.'s
/// rules first (the set-level stage reports beside their scores), then the families a plan
/// opts into.
pub(crate) const FAMILIES: &[Family] = &[
    rules::FAMILY,
    set_level::FAMILY,
    analogies::FAMILY,
    base_pairs::FAMILY,
    validity::FAMILY,
    residual::FAMILY,
    subspace::FAMILY,
];
