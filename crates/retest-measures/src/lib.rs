//! Gender-bias scoring rules for word embeddings (DB/WA, RIPA, NBM), word and base-pair lists,
//! and the bias tensor of one model, as Du, Fang & Nguyen (2021) compute them; and the
//! set-level measures on one model: WEAT ([`weat`]: per-word scores, statistic, effect size,
//! exact or sampled permutation p-value) and Bolukbasi et al.'s Direct Bias
//! ([`gender_direction`], [`direct_bias`]), with Schröder et al.'s attribute difference; and
//! Bakarov's (2021) stereotype detectors, Occupational Stereotypes
//! ([`occupational_stereotypes`]) and Gender Direction (Garg et al.'s
//! [`relative_norm_distance`]); and Bolukbasi et al.'s hard debiasing ([`hard_debias`]), which
//! gives a new model.
//!
//! The categorical family: analogy solvers ([`solve`]: 3CosAdd, 3CosMul and Bolukbasi et al.'s
//! formula over the unit vectors of the N most frequent words, [`AnalogySpace`]; constrained
//! (D ∉ {A, B, C}) or not; top-n answers per query) and Bolukbasi et al.'s pair generation
//! ([`generate_pairs`]: the pairs x : y closest to a seed direction such as she − he, among
//! words within δ of each other, one-to-one).
//!
//! Pure numerics: no I/O (lists are parsed from text the caller read), no clock. The one random
//! draw, the sampled WEAT permutation test, comes from a stream of the caller's
//! `retest_rng::SeedPath`. Neighbour search comes from `retest-geometry`, the analogy solvers'
//! blocked matrix products from faer.
//!
//! ```
//! use retest_measures::{Model, PairList, Rule, ScoreOptions, WordList, score};
//!
//! let words: Vec<String> = ["he", "she", "nurse", "engineer"].map(String::from).to_vec();
//! let raw = [1.0, 0.0, 0.0, /* she */ 0.0, 1.0, 0.0, /* nurse */ 0.2, 0.9, 0.1, /* engineer */ 0.8, 0.3, 0.2];
//! let model = Model::new(&words, &raw, 3).unwrap();
//! let pairs = PairList::parse("pairs", "he she\n").unwrap().resolve(model.vocab()).unwrap();
//! let targets = WordList::parse("targets", "nurse\nengineer\nastronaut\n").unwrap().resolve(model.vocab()).unwrap();
//! assert_eq!(targets.oov, ["astronaut"]); // dropped, and counted
//! let opts = ScoreOptions { nbm_k: 2, ..ScoreOptions::paper(1) };
//! let b = score(&model, &pairs.ids, &targets.ids, &Rule::ALL, &opts).unwrap();
//! assert!(b.get(Rule::Dbwa, 0, 0).unwrap() < 0.0); // nurse: feminine
//! assert!(b.get(Rule::Dbwa, 0, 1).unwrap() > 0.0); // engineer: masculine
//! ```

mod analogy;
mod bakarov;
mod baselines;
mod debias;
mod direct_bias;
mod eigen;
mod error;
mod model;
mod names;
mod permutation;
mod query_measures;
mod registry;
mod residual;
mod rule;
mod score;
mod subspace;
mod tensor;
mod vectors;
mod weat;
mod wordlist;

pub use analogy::{
    AnalogySpace, Answer, Constraint, DeltaBound, GeneratedPair, PAIRS_N, PAIRS_RESTRICT_VOCAB, PairOptions,
    Query, SolveError, Solver, SolverKind, TopK, generate_pairs, rank, rank_among, score_all,
    score_all_among, solve, solve_among,
};
pub use bakarov::{
    OccupationalStereotypes, RelativeNormDistance, occupational_stereotypes, relative_norm_distance,
};
pub use baselines::{CosineSample, MAX_RANDOM_SAMPLES, RANDOM_SAMPLE_BYTES, cosine, random_cosines};
pub use debias::{HardDebiasLists, HardDebiased, hard_debias};
pub use direct_bias::{
    DIRECT_BIAS_C_BOLUKBASI, DirectBias, DirectionSource, GenderDirection, direct_bias, gender_direction,
    projections,
};
pub use error::MeasureError;
pub use model::{Model, Vocab};
pub use permutation::{
    PMethod, PermutationOptions, PermutationTest, WEAT_EXACT_PARTITIONS_MAX, WEAT_MAX_SAMPLED_PARTITIONS,
    WEAT_PERMUTATION_STREAM, WEAT_SAMPLED_PARTITION_BYTES, WEAT_SAMPLED_PARTITIONS, binomial,
    permutation_test,
};
pub use query_measures::{
    LogisticRegression, RNSB_HOLDOUT, RNSB_HOLDOUT_STREAM, RnsbOptions, ect, mac, ripa_query, rnd, rnsb,
};
pub use registry::{Family, Measure, Reference};
pub use residual::{
    KMEANS_STARTS, KMEANS_STREAM, NeighbourBias, RESIDUAL_CLASSIFIED, RESIDUAL_CLUSTERED,
    RESIDUAL_NEIGHBOURS, RESIDUAL_TRAINED, RESIDUAL_VOCABULARY, RbfSvm, ResidualBias, ResidualOptions,
    ResidualWords, SPLIT_STREAM, most_biased, projection_bias, residual_bias, residual_word, svm_accuracy,
    two_means_accuracy,
};
pub use rule::{NbmPool, NeighbourPool, RipaTarget, Rule};
pub use score::{
    BiasScores, NBM_K_DU2021, NeighbourSearch, ScoreOptions, Scorer, Scoring, nearest_similarity, score,
};
pub use subspace::{
    BiasSubspace, IndirectBias, SubspaceDirectBias, bias_subspace, indirect_bias, leave_one_pair_out,
    subspace_direct_bias,
};
pub use tensor::ScoreTensor;
pub use weat::{
    AttributeDifference, EffectSize, EffectStatus, SdKind, Weat, WeatOptions, WeatSets, association_scores,
    attribute_difference, effect_size, normalized_scores, separability, weat, weat_statistic,
};
pub use wordlist::{
    NEUTRAL_POOL_MOST_FREQUENT, PLACEHOLDER_WORDS, PairList, Resolved, ResolvedPairs, WordList, neutral_pool,
    placeholder_ids,
};
