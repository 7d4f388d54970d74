//! Embedding geometry for retest: row normalisation, exact top-k cosine neighbours, orthogonal
//! Procrustes and embedding stability.
//!
//! Pure numerics on row-major `f32` matrices (`n × dim` slices, row `w` = word id `w`): no I/O,
//! no randomness, and clocks in one place only: [`KnnKernel::Auto`] times its two filters on a
//! sample (thread CPU time, wall time for the whole measurement) to run the faster one on this
//! CPU and size its buffers, which changes the speed, the memory and the diagnostics
//! [`Neighbours::filter_timing`] and [`Neighbours::rescued_rows`], never an id or a similarity. Linear algebra is faer's (GEMM,
//! SVD). Every result is a function of the input values alone — the same for every thread
//! count, every filter and every x86-64 CPU — because each decision that rounding could flip
//! (which neighbour ranks k-th, ties) is taken on an exact, fixed-order f64 re-score
//! ([`dot_f64`]) behind a rigorous error bound; see [`top_k_neighbours`].
//!
//! ```
//! use retest_geometry::{Blocking, Candidates, KnnKernel, KnnParams, Queries, SelfMatch, normalize_rows, top_k_neighbours};
//!
//! // Four 2-d words; word 3 duplicates word 0's direction.
//! let raw = [1.0, 0.0, 0.8, 0.6, 0.0, 1.0, 2.0, 0.0];
//! let unit = normalize_rows(&raw, 2);
//! let params = KnnParams {
//!     k: 2,
//!     self_match: SelfMatch::Exclude,
//!     threads: 1,
//!     blocking: Blocking::AUTO,
//!     kernel: KnnKernel::Auto,
//! };
//! let nn = top_k_neighbours(&unit, 2, Queries::Ids(&[0]), Candidates::All, &params).unwrap();
//! // Word 0 itself is excluded by identity; its duplicate (word 3) is its nearest neighbour.
//! assert_eq!(nn.ids_of(0), &[3, 1]);
//! ```

mod error;
mod knn;
mod procrustes;
mod rows;
mod stability;

pub use error::GeometryError;
pub use knn::{
    Blocking, Candidates, FilterTiming, KnnKernel, KnnParams, Neighbours, Queries, SelfMatch,
    top_k_neighbours,
};
pub use procrustes::procrustes;
pub use rows::{cosine_f64, dot_f64, normalize_rows, row_norms};
pub use stability::{embedding_stability, embedding_stability_for};

/// Runs `f` inside a rayon pool of `threads` threads (faer's `Par::rayon` and every parallel
/// iterator in `f` then use that pool, not the global one).
pub(crate) fn with_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, GeometryError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| GeometryError::ThreadPool {
            threads,
            message: e.to_string(),
        })?;
    Ok(pool.install(f))
}
