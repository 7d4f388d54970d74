//! Errors of the trainer: inputs it cannot train on, each with the value that was wrong.

/// Why [`crate::train`] refused to train. Every variant is detected before any work is done.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SgnsError {
    /// The corpus has no tokens.
    #[error("the corpus is empty: there is nothing to train on")]
    EmptyCorpus,

    /// A hyperparameter is out of its range.
    #[error("invalid SGNS configuration: {field} is {value}, expected {expected}")]
    InvalidConfig {
        /// The [`crate::SgnsConfig`] field.
        field: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },

    /// The word counts do not describe the corpus' vocabulary.
    #[error("got {counts} word counts for a vocabulary of {vocab} words")]
    CountsLength {
        /// `counts.len()`.
        counts: usize,
        /// The corpus' vocabulary size.
        vocab: usize,
    },

    /// No word has a positive count, so there is no distribution to draw negatives from.
    #[error("every word count is zero: the negative-sampling distribution is empty")]
    ZeroCounts,

    /// The two weight matrices would not fit in the address space.
    #[error("{words} words × {dim} dimensions is too large to allocate")]
    TooLarge {
        /// Vocabulary size.
        words: usize,
        /// Dimension.
        dim: usize,
    },

    /// [`crate::train_with`] was asked for a path this CPU cannot run.
    #[error("the SIMD path {0} is not supported by this CPU")]
    SimdUnavailable(&'static str),
}
