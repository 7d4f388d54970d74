//! The one error type of the geometry crate: inputs whose shapes or values do not fit.

/// Why a geometry function refused its input.
///
/// Every variant is a caller error that can be checked before any work is done; the functions
/// of this crate never fail half-way.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// The dimension is zero.
    #[error("the vector dimension must be at least 1")]
    ZeroDimension,
    /// A row-major matrix's length is not a multiple of (or not equal to) what its shape says.
    #[error("{what}: expected {expected} values, found {found}")]
    ShapeMismatch {
        /// Which argument.
        what: &'static str,
        /// Values implied by the shape (rows × dim).
        expected: usize,
        /// Values in the slice.
        found: usize,
    },
    /// A vector component is NaN or infinite.
    #[error("{what}: row {row} has a non-finite component")]
    NonFinite {
        /// Which argument.
        what: &'static str,
        /// The first offending row.
        row: usize,
    },
    /// A word id is not a row of the matrix.
    #[error("{what}: id {id} is out of range for {n_rows} rows")]
    IdOutOfRange {
        /// Which argument.
        what: &'static str,
        /// The offending id.
        id: u32,
        /// Rows of the matrix.
        n_rows: usize,
    },
    /// `k` is zero.
    #[error("k must be at least 1")]
    ZeroK,
    /// Fewer candidates than neighbours asked for.
    #[error("asked for k = {k} neighbours but only {available} candidates are available per query")]
    TooFewCandidates {
        /// Neighbours asked for.
        k: usize,
        /// Candidates a query can have (the pool, minus the query itself when it is excluded).
        available: usize,
    },
    /// A thread count of zero.
    #[error("the thread count must be at least 1")]
    ZeroThreads,
    /// A block size of zero.
    #[error(
        "block sizes must be at least 1 (got {query_rows} query rows × {candidate_cols} candidate columns)"
    )]
    ZeroBlock {
        /// Query rows per block.
        query_rows: usize,
        /// Candidate columns per block.
        candidate_cols: usize,
    },
    /// Embedding stability needs at least two models.
    #[error("embedding stability needs at least 2 models (seeds), got {n_models}")]
    TooFewModels {
        /// Models passed.
        n_models: usize,
    },
    /// Fewer shared words than needed for the fit.
    #[error("{what}: needs at least 1 row, got 0")]
    NoRows {
        /// Which argument.
        what: &'static str,
    },
    /// The SVD of the cross-covariance did not converge.
    #[error("the SVD of the {dim}×{dim} cross-covariance did not converge")]
    SvdFailed {
        /// The dimension.
        dim: usize,
    },
    /// The rayon thread pool could not be built.
    #[error("could not start a pool of {threads} threads: {message}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// rayon's message.
        message: String,
    },
}
