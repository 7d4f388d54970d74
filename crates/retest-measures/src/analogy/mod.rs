//! The categorical family of the registry: analogy solvers, whose answer to a query
//! a : b :: c : ? is a word ([`solve`]: 3CosAdd, 3CosMul, Bolukbasi et al.'s formula), and
//! Bolukbasi et al.'s generation of word pairs along a seed direction ([`generate_pairs`]).

mod pairs;
mod solvers;

pub use pairs::{GeneratedPair, PAIRS_N, PAIRS_RESTRICT_VOCAB, PairOptions, generate_pairs};
pub use solvers::{
    AnalogySpace, Answer, Constraint, DeltaBound, Query, Solver, SolverKind, TopK, rank, rank_among,
    score_all, score_all_among, solve, solve_among,
};

/// Why an analogy solver or the pair generator refused its input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// No answer was asked for.
    #[error("top_n must be at least 1")]
    ZeroTopN,
    /// No pair was asked for.
    #[error("n_pairs must be at least 1")]
    ZeroPairs,
    /// 3CosMul's ε is not a finite positive number.
    #[error("3CosMul's epsilon must be a finite number > 0, found {0}")]
    Epsilon(f64),
    /// Bolukbasi et al.'s δ is not a finite positive number (at δ = 0 no word but B itself is
    /// within reach, and every answer would score 0).
    #[error("Bolukbasi's delta must be a finite number > 0, found {0}")]
    Delta(f64),
    /// An empty space was asked for.
    #[error("restrict_vocab must be at least 1")]
    RestrictZero,
    /// More rows than the embedding has were asked for.
    #[error("restrict_vocab {restrict_vocab} is larger than the vocabulary ({n_words} words)")]
    RestrictTooLarge { restrict_vocab: usize, n_words: usize },
    /// Answers among no rows, or among more rows than the space has.
    #[error("answers among {candidates} rows asked for, the space has {n_rows}")]
    Candidates { candidates: usize, n_rows: usize },
    /// A query names a row outside the space searched.
    #[error("query {query}: row {row} is not among the {n_rows} rows searched")]
    RowOutOfRange { query: usize, row: u32, n_rows: usize },
    /// A seed word of the pair generator is outside the space searched.
    #[error("seed row {row} is not among the {n_rows} rows searched")]
    SeedOutOfRange { row: u32, n_rows: usize },
}
