//! The one error type of the measures crate: bad rule names, malformed or unusable word lists,
//! inconsistent models, degenerate base pairs and unusable inputs of the set-level measures.

/// Why a measures function refused its input. Messages are one line naming the list, line or
/// word at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeasureError {
    /// A rule name that is not one of [`crate::Rule::ALL`].
    #[error(
        "unknown scoring rule '{given}': expected one of {}",
        crate::Rule::ALL.map(crate::Rule::as_str).join(", ")
    )]
    UnknownRule {
        /// The name given.
        given: String,
    },
    /// A measure name that is not one of [`crate::Measure::ALL`].
    #[error(
        "unknown measure '{given}': expected one of {}",
        crate::Measure::ALL.map(crate::Measure::name).join(", ")
    )]
    UnknownMeasure {
        /// The name given.
        given: String,
    },
    /// An analogy solver name that is not one of [`crate::SolverKind::ALL`].
    #[error(
        "unknown analogy solver '{given}': expected one of {}",
        crate::SolverKind::ALL.map(crate::SolverKind::as_str).join(", ")
    )]
    UnknownSolver {
        /// The name given.
        given: String,
    },
    /// A value of a switch ([`crate::RipaTarget`], [`crate::NbmPool`]) that is not one of its names.
    #[error("unknown {option} '{given}': expected one of {expected}")]
    UnknownOption {
        /// Which switch.
        option: &'static str,
        /// The name given.
        given: String,
        /// The names accepted.
        expected: &'static str,
    },
    /// A score tensor whose values or a seed's scores do not fit its shape.
    #[error("score tensor: {message}")]
    BadTensor {
        /// What does not fit.
        message: String,
    },
    /// A rule listed twice in one call.
    #[error("scoring rule '{rule}' is listed twice")]
    DuplicateRule {
        /// The rule's name.
        rule: &'static str,
    },
    /// A line of a word or pair list that does not parse.
    #[error("{list}: line {line}: {message}")]
    ListSyntax {
        /// The list's name.
        list: String,
        /// 1-based line number.
        line: usize,
        /// What was expected and found.
        message: String,
    },
    /// A list with no entries.
    #[error("{list}: the list is empty (only blank lines and comments)")]
    EmptyList {
        /// The list's name.
        list: String,
    },
    /// Every word of a list is out of vocabulary.
    #[error("word list `{list}`: all {n_words} words are out of vocabulary")]
    AllWordsOov {
        /// The list's name.
        list: String,
        /// Words in the list.
        n_words: usize,
    },
    /// Every pair of a pair list has a word out of vocabulary.
    #[error("pair list `{list}`: all {n_pairs} pairs have a word out of vocabulary")]
    AllPairsOov {
        /// The list's name.
        list: String,
        /// Pairs in the list.
        n_pairs: usize,
    },
    /// The model's arrays do not fit together.
    #[error("model: {message}")]
    BadModel {
        /// What is wrong.
        message: String,
    },
    /// A word occurs twice in a model's vocabulary.
    #[error("model: the word '{word}' occurs twice in the vocabulary (ids {first} and {second})")]
    DuplicateWord {
        /// The word.
        word: String,
        /// Its first id.
        first: u32,
        /// Its second id.
        second: u32,
    },
    /// A word id outside the model.
    #[error("{what}: word id {id} is out of range for a vocabulary of {n_words}")]
    IdOutOfRange {
        /// Which argument.
        what: &'static str,
        /// The id.
        id: u32,
        /// Words in the model.
        n_words: usize,
    },
    /// A base pair whose direction is undefined.
    #[error("base pair ({male}, {female}): {reason}")]
    DegeneratePair {
        /// The masculine word.
        male: String,
        /// The feminine word.
        female: String,
        /// Why (same word, a zero vector, identical vectors).
        reason: &'static str,
    },
    /// An NBM option that cannot work.
    #[error("nbm: {message}")]
    BadNbm {
        /// What is wrong.
        message: String,
    },
    /// The neighbour search refused its input.
    #[error("nbm neighbour search")]
    Geometry(#[from] retest_geometry::GeometryError),
    /// A word set of a set-level measure (WEAT, Direct Bias) with no words.
    #[error("rnsb: the holdout must be in [0, 1), found {holdout}")]
    InvalidHoldout { holdout: f64 },

    #[error("{what}: the set is empty")]
    EmptySet {
        /// Which set (for instance `WEAT target set X`).
        what: &'static str,
    },
    /// A principal-component gender direction over too few definitional pairs.
    #[error("gender direction: a principal component needs at least 2 definitional pairs, found {n_pairs}")]
    TooFewPairs {
        /// Pairs given.
        n_pairs: usize,
    },
    /// Leaving one definitional pair out of too few pairs for a principal component.
    #[error("gender direction: leaving one pair out needs at least 3 definitional pairs, found {n_pairs}")]
    TooFewPairsToLeaveOut {
        /// Pairs given.
        n_pairs: usize,
    },
    /// A bias subspace of 0 components, or of more than the pairs allow.
    #[error("bias subspace: {k} components asked; {n_pairs} definitional pairs allow 1 to {max}")]
    ComponentsOutOfRange {
        /// Components asked.
        k: usize,
        /// Pairs given.
        n_pairs: usize,
        /// The pairs' count, or the dimension when smaller.
        max: usize,
    },
    /// A Direct Bias exponent that is negative or not a number.
    #[error("direct bias: the exponent c must be a finite number ≥ 0, found {c}")]
    BadExponent {
        /// The exponent given.
        c: f64,
    },
    /// A score given to a WEAT function that is NaN or infinite.
    #[error("{what}: score {index} is not a finite number ({value})")]
    NonFiniteScore {
        /// Which set of scores.
        what: &'static str,
        /// Its 0-based position in the set.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A permutation test asked to sample no partitions, or more than it may remember.
    #[error(
        "WEAT permutation test: {samples} sampled partitions; give from 1 to {}",
        crate::permutation::WEAT_MAX_SAMPLED_PARTITIONS
    )]
    SampleCount { samples: u64 },
    /// The rayon thread pool could not be built, or zero threads were asked for.
    #[error("could not start a pool of {threads} threads: {message}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// Why.
        message: String,
    },
}
