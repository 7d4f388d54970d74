//! Study designs: which slice of a score tensor is the subjects × raters matrix (or cases × items
//! table) of each reliability statistic, computed and returned as typed records.
//!
//! Pure: a [`retest_measures::ScoreTensor`] (rule × base pair × target × seed) and the target
//! lists in, records out; no I/O, no clock, no randomness. Records name rules, lists, words and
//! pairs by their index, so the caller turns them into table rows with its own labels. Every
//! design runs its subjects in parallel on the current rayon pool; the result does not depend on
//! the thread count.
//!
//! The designs of Du, Fang & Nguyen (2021) (`reliability_metrics.py`):
//!
//! | design | per | matrix (rows = subjects × columns = raters) | estimator |
//! |---|---|---|---|
//! | [`test_retest_words`] | rule, word | base pairs × seeds | ICC(2,1) |
//! | [`test_retest_pairs`] | rule, list, pair | list words × seeds | ICC(2,1) |
//! | [`inter_rater_words`] | scale, word | base pairs × rules (seed means) | ICC(3,1) |
//! | [`inter_rater_pairs`] | scale, list, pair | list words × rules (seed means) | ICC(3,1) |
//! | [`internal_consistency`] | rule, query | base pairs (cases) × query words (items), seed means | Cronbach's α |
//! | [`internal_consistency`] | rule, ensemble list | words (cases) × base pairs (items), seed means | Cronbach's α |
//! | [`set_level_reliability`] | test, family of tests, neutral list | words, tests, base pairs or directions × seeds | ICC(2,1) |
//!
//! and two summaries the paper reports: [`rule_correlations`] (§5.3, Pearson's r between the
//! rules' seed-averaged scores) and [`low_reliability`] (§5.2, the share of words or pairs whose
//! ICC is below 0.5).
//!
//! The set-level measures (WEAT, Direct Bias) give one value per test or direction and seed:
//! [`seed_spread`] summarises a value across seeds, [`seeds_icc`] rates a family of them
//! (subjects × seeds, ICC(2,1)). Analogy answers are categories: [`answer_agreement`] rates the
//! seeds' top-1 answers with Fleiss' κ (queries × seeds), [`top1_agreement`] for every solver and
//! constraint, [`section_accuracy_icc`] rates the Google sections' accuracies (sections × seeds,
//! ICC(2,1)) and [`pair_overlap`] compares the generated word pairs of the seeds.
//! Signs are categories too: Zhang et al.'s (2020) base-pair designs ([`pairs_agreement`],
//! [`sign_kappa`], [`truth_kappa`], [`seeds_agreement`]) rate a rule's signs across pairs, forms,
//! rules, true genders and seeds, and [`variance_components`] splits a word × pair × seed design.
//! Their slicing, per seed ([`BasePairDesign`], [`SeedScores`]) and across seeds
//! ([`words_tensor`]):
//!
//! | design | per | label vectors or matrix | estimator |
//! |---|---|---|---|
//! | [`rule_summary`] | rule | limited vocabulary × pairs; words × pairs | mean, SD; Fleiss' κ |
//! | [`word_kappas`] | rule, pair | words: capitalised pair, forms, truth lists | Cohen's κ |
//! | [`rule_kappas`] | two rules, pair | words under each rule | Cohen's κ |
//! | [`direction_agreement`] | rule, two pairs | words under each pair; cosines against κ | Cohen's κ, Pearson's r |
//! | [`flips`] | rule | words under the two flip pairs | share of labels that differ |
//! | [`seeds_agreement_per_pair`] | rule, pair | words × seeds | Fleiss' κ |
//! | [`variance_per_rule`] | rule, scale | words × pairs × seeds | variance components |
//!
//! ```
//! use retest_analyses::{Study, TargetSet, test_retest_words};
//! use retest_measures::{Rule, ScoreTensor};
//!
//! // One rule, 2 base pairs, 1 target word, 3 seeds: [rule][pair][target][seed].
//! let values = vec![1.0, 1.1, 0.9, /* pair 1 */ -1.0, -0.9, -1.1];
//! let tensor = ScoreTensor::from_values(&[Rule::Dbwa], 2, 1, 3, values).unwrap();
//! let lists = [TargetSet::new("list", vec![0])];
//! let study = Study::new(&tensor, &lists, &[]);
//! let records = test_retest_words(&study);
//! assert!(records[0].result.value > 0.9); // the pairs differ far more than the seeds
//! ```

mod analogies;
mod base_pairs;
mod consistency;
mod correlation;
mod inter_rater;
mod residual;
mod set_level;
mod shares;
mod study;
mod subspace;
mod test_retest;
#[cfg(test)]
mod tests;
mod validity;

pub use analogies::{
    AnswerAgreement, ModalAnswer, PairOverlap, SectionsIcc, Tally, answer_agreement, pair_overlap,
    section_accuracy_icc, top1_agreement,
};
pub use base_pairs::{
    Against, BasePairDesign, Component, ComponentEstimate, DirectionAgreement, DirectionCorrelation,
    KappaRecord, MeanSd, PairsAgreement, RuleSummary, SeedScores, SeedsRecord, TruthSet, VarianceComponents,
    VarianceRecord, VarianceScale, direction_agreement, flips, label_flips, listed_scores, masculine,
    mean_sd, pair_cosine_baseline, pairs_agreement, rule_kappas, rule_summary, seeds_agreement,
    seeds_agreement_per_pair, sign_kappa, truth_kappa, variance_components, variance_per_rule, word_kappas,
    words_tensor,
};
pub use consistency::{AlphaRecord, Items, internal_consistency};
pub use correlation::{CorrelationRecord, rule_correlations};
pub use inter_rater::{Scale, inter_rater_pairs, inter_rater_words};
pub use residual::{ResidualAcross, ResidualSeedValues, residual_across};
pub use set_level::{
    AgreementRecord, AgreementSeries, PER_TEST_QUERY_MEASURES, QuerySeed, SIGNIFICANCE, SeedSpread,
    SetAgreement, SetDesign, SetIccRecord, SetLevelSeed, SetLevelSpreads, WeatFamily, WeatKind, WeatSpread,
    mean_absolute_scores, seed_agreement, seed_spread, seeds_icc, set_level_agreement, set_level_reliability,
    set_level_spreads, subjects_icc, weat_families,
};
pub use shares::{POOR_RELIABILITY, ShareRecord, low_reliability};
pub use study::{IccRecord, Raters, SeedMeans, Study, Subject, TargetSet};
pub use subspace::{SpreadIcc, SubspaceAcross, SubspaceSeedValues, subspace_across};
pub use test_retest::{test_retest_pairs, test_retest_words};
pub use validity::{Validity, ValidityAcross, validity, validity_across};
