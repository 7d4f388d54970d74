//! Analogy solvers for A : B :: C : D over unit vectors — 3CosAdd, 3CosMul and Bolukbasi et al.'s
//! formula, constrained or unconstrained — scoring every candidate D with blocked matrix products.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use pulp::{Simd, WithSimd};
use rayon::prelude::*;
use retest_embeddings::Embeddings;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::SolveError;
use crate::names::{name_text, stable_names};
use crate::{Measure, MeasureError};

/// A solver's name without its parameters: how a pipeline's `analogies.solvers` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    CosAdd,
    CosMul,
    #[serde(rename = "cosmul_unshifted")]
    CosMulUnshifted,
    Bolukbasi,
}

impl SolverKind {
    /// Every solver: Nissim et al.'s Table 1 in its order, 3CosMul's unshifted form beside the
    /// shifted one.
    pub const ALL: [SolverKind; 4] = [
        SolverKind::CosAdd,
        SolverKind::CosMul,
        SolverKind::CosMulUnshifted,
        SolverKind::Bolukbasi,
    ];

    /// The solvers of Nissim et al.'s Table 1, as gensim and debiaswe compute them: a
    /// pipeline's default.
    pub const TABLE_1: [SolverKind; 3] = [SolverKind::CosAdd, SolverKind::CosMul, SolverKind::Bolukbasi];

    /// The solver's entry in the registry of measures, which names and labels it.
    pub fn measure(self) -> Measure {
        match self {
            SolverKind::CosAdd => Measure::CosAdd,
            SolverKind::CosMul => Measure::CosMul,
            SolverKind::CosMulUnshifted => Measure::CosMulUnshifted,
            SolverKind::Bolukbasi => Measure::Bolukbasi,
        }
    }

    /// The stable name: `cosadd`, `cosmul`, `cosmul_unshifted` or `bolukbasi` (the spec's and
    /// the tables' spelling, [`Measure::name`]).
    pub fn as_str(self) -> &'static str {
        self.measure().name()
    }

    /// The solver of this kind with 3CosMul's `epsilon` (both forms) and Bolukbasi's `delta`
    /// and `bound` (each used by its own solvers only).
    pub fn with(self, epsilon: f64, delta: f64, bound: DeltaBound) -> Solver {
        match self {
            SolverKind::CosAdd => Solver::CosAdd,
            SolverKind::CosMul => Solver::CosMul { epsilon },
            SolverKind::CosMulUnshifted => Solver::CosMulUnshifted { epsilon },
            SolverKind::Bolukbasi => Solver::Bolukbasi { delta, bound },
        }
    }
}

name_text!(SolverKind, as_str, SolverKind::ALL, |given| {
    MeasureError::UnknownSolver { given }
});

/// How the score of a candidate D for A : B :: C : D is computed. Every solver works on the unit
/// vectors â, b̂, ĉ, d̂ of [`AnalogySpace`]; a zero vector has cosine 0 with everything.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "solver", rename_all = "kebab-case")]
pub enum Solver {
    /// 3CosAdd (Mikolov et al. 2013): cos(D, B) − cos(D, A) + cos(D, C), the dot product of d̂
    /// with b̂ + ĉ − â. gensim's `most_similar(positive=[b, c], negative=[a])` ranks the same
    /// way; its score is this one divided by ‖b̂ + ĉ − â‖.
    CosAdd,
    /// 3CosMul (Levy & Goldberg 2014, Eq. 4 with footnote 7's shift):
    /// s(D, B) · s(D, C) / (s(D, A) + ε) with s = (1 + cos)/2 ∈ [0, 1], as gensim's
    /// `most_similar_cosmul` (ε = 1e-6, [`Solver::COSMUL_EPSILON`]). Nissim, van Noord & van der
    /// Goot (2020, Eq. 2) print the formula on the cosines themselves:
    /// [`Solver::CosMulUnshifted`].
    CosMul {
        /// ε > 0, finite: keeps the quotient finite when s(D, A) = 0.
        epsilon: f64,
    },
    /// 3CosMul as Nissim et al. (2020, Eq. 2) print it, on the cosines without the shift:
    /// cos(D, B) · cos(D, C) / (cos(D, A) + ε). Cosines may be negative, so a candidate with
    /// cos(D, A) just above −ε scores without bound, one below it flips its sign, and two
    /// negative cosines in the numerator make a positive score; the shift of
    /// [`Solver::CosMul`] is there to avoid exactly this (Levy & Goldberg's footnote 7).
    CosMulUnshifted {
        /// ε > 0, finite (the same [`Solver::COSMUL_EPSILON`] by default).
        epsilon: f64,
    },
    /// Bolukbasi et al. (2016), in the form of Nissim et al.'s Eq. 4: cos(a − c, b − d) when
    /// the distance between b̂ and d̂ is within `delta` (read as `bound` says), otherwise 0.
    /// When b̂ − d̂ or â − ĉ is the zero vector (D = B, unconstrained) the cosine is 0.
    Bolukbasi {
        /// δ ≥ 0, finite ([`Solver::BOLUKBASI_DELTA`] = 1 in Bolukbasi et al.).
        delta: f64,
        /// Whether δ bounds ‖b̂ − d̂‖ or ‖b̂ − d̂‖².
        bound: DeltaBound,
    },
}

impl Solver {
    /// gensim's ε of `most_similar_cosmul`.
    pub const COSMUL_EPSILON: f64 = 1e-6;
    /// Bolukbasi et al.'s δ.
    pub const BOLUKBASI_DELTA: f64 = 1.0;
    /// Every solver with its published parameters ([`Solver::COSMUL_EPSILON`],
    /// [`Solver::BOLUKBASI_DELTA`] bounding the distance, as the paper writes it), in the order
    /// of [`SolverKind::TABLE_1`].
    pub const PUBLISHED: [Solver; 3] = [
        Solver::CosAdd,
        Solver::CosMul {
            epsilon: Solver::COSMUL_EPSILON,
        },
        Solver::Bolukbasi {
            delta: Solver::BOLUKBASI_DELTA,
            bound: DeltaBound::Distance,
        },
    ];

    /// The stable name: `cosadd`, `cosmul`, `cosmul_unshifted` or `bolukbasi`.
    pub fn as_str(&self) -> &'static str {
        self.kind().as_str()
    }

    /// The solver without its parameters.
    pub fn kind(&self) -> SolverKind {
        match self {
            Solver::CosAdd => SolverKind::CosAdd,
            Solver::CosMul { .. } => SolverKind::CosMul,
            Solver::CosMulUnshifted { .. } => SolverKind::CosMulUnshifted,
            Solver::Bolukbasi { .. } => SolverKind::Bolukbasi,
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    ///
    /// A parameter outside its documented range.
    pub fn check(&self) -> Result<(), SolveError> {
        match *self {
            Solver::CosAdd => Ok(()),
            Solver::CosMul { epsilon } | Solver::CosMulUnshifted { epsilon } => {
                if epsilon.is_finite() && epsilon > 0.0 {
                    Ok(())
                } else {
                    Err(SolveError::Epsilon(epsilon))
                }
            }
            Solver::Bolukbasi { delta, .. } if delta.is_finite() && delta > 0.0 => Ok(()),
            Solver::Bolukbasi { delta, .. } => Err(SolveError::Delta(delta)),
        }
    }
}

/// What Bolukbasi et al.'s threshold δ bounds. The paper writes ‖b − d‖ ≤ δ; debiaswe's code
/// (`compute_neighbors_if_necessary`) keeps pairs with b̂·d̂ ≥ 1 − δ/2, which is
/// ‖b̂ − d̂‖² ≤ δ for unit vectors. At δ = 1 the two agree (cos ≥ 1/2, an angle of at most π/3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeltaBound {
    /// ‖b̂ − d̂‖ ≤ δ, as the paper writes it.
    Distance,
    /// ‖b̂ − d̂‖² ≤ δ, as debiaswe's code computes it.
    SquaredDistance,
}

stable_names! {
    /// The stable name: `distance` or `squared-distance`.
    DeltaBound { Distance => "distance", SquaredDistance => "squared-distance" }
}

impl DeltaBound {
    /// Whether a squared distance `dist2` is within `delta`.
    pub(crate) fn admits(self, dist2: f64, delta: f64) -> bool {
        match self {
            DeltaBound::Distance => dist2.sqrt() <= delta,
            DeltaBound::SquaredDistance => dist2 <= delta,
        }
    }

    /// The largest squared distance admitted.
    pub(crate) fn squared_limit(self, delta: f64) -> f64 {
        match self {
            DeltaBound::Distance => delta * delta,
            DeltaBound::SquaredDistance => delta,
        }
    }
}

/// Whether the answer D may be one of the query words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Constraint {
    /// D ∉ {A, B, C} (by row), as word2vec, gensim and debiaswe answer.
    Constrained,
    /// Every row may be the answer, A, B and C included (Nissim et al. 2020).
    Unconstrained,
}

impl Constraint {
    /// Both, constrained first.
    pub const BOTH: [Constraint; 2] = [Constraint::Constrained, Constraint::Unconstrained];
}

stable_names! {
    /// The stable name: `constrained` or `unconstrained`.
    Constraint { Constrained => "constrained", Unconstrained => "unconstrained" }
}

/// A query A : B :: C : ?, as rows of an [`AnalogySpace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

/// One answer D with its score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answer {
    /// The row of D.
    pub row: u32,
    pub score: f64,
}

/// The unit vectors of an embedding's first rows (its most frequent words: embedding files list
/// words by descending frequency), the candidates every solver searches.
#[derive(Clone, Debug)]
pub struct AnalogySpace {
    unit: Vec<f32>,
    /// ‖û_r‖² in f64 (1 up to rounding, 0 for a zero row).
    norms2: Vec<f64>,
    dim: usize,
    n_rows: usize,
}

impl AnalogySpace {
    /// The first `restrict_vocab` rows of `emb` (all of them for `None`), each divided by its
    /// norm (computed in f64, the product rounded once to f32); a zero row stays zero.
    ///
    /// # Errors
    ///
    /// `restrict_vocab` is 0 or larger than the vocabulary.
    pub fn new(emb: &Embeddings, restrict_vocab: Option<usize>) -> Result<AnalogySpace, SolveError> {
        let n_words = emb.n_words();
        let n_rows = match restrict_vocab {
            None => n_words,
            Some(0) => return Err(SolveError::RestrictZero),
            Some(n) if n > n_words => {
                return Err(SolveError::RestrictTooLarge {
                    restrict_vocab: n,
                    n_words,
                });
            }
            Some(n) => n,
        };
        Ok(AnalogySpace::first_rows(emb, n_rows))
    }

    /// The first `n_rows ≤ n_words` rows, unchecked.
    ///
    /// # Panics
    ///
    /// If `n_rows` does not fit in `u32`.
    pub fn first_rows(emb: &Embeddings, n_rows: usize) -> AnalogySpace {
        assert!(u32::try_from(n_rows).is_ok(), "more than 2^32 rows");
        AnalogySpace::of(emb, emb.rows().take(n_rows), n_rows)
    }

    /// The rows `ids` of `emb`, in that order: row `i` of the space is word `ids[i]`.
    ///
    /// # Panics
    ///
    /// If an id is outside `emb`.
    pub fn of_rows(emb: &Embeddings, ids: &[u32]) -> AnalogySpace {
        let rows = ids.iter().map(|&id| emb.row(id as usize));
        AnalogySpace::of(emb, rows, ids.len())
    }

    /// The unit vectors of `rows` (`n_rows` of them).
    fn of<'e>(emb: &Embeddings, rows: impl Iterator<Item = &'e [f32]>, n_rows: usize) -> AnalogySpace {
        let mut unit = Vec::with_capacity(n_rows * emb.dim());
        for row in rows {
            let norm = row
                .iter()
                .map(|&x| f64::from(x) * f64::from(x))
                .sum::<f64>()
                .sqrt();
            let scale = if norm > 0.0 { 1.0 / norm } else { 0.0 };
            unit.extend(row.iter().map(|&x| (f64::from(x) * scale) as f32));
        }
        let norms2 = unit.chunks_exact(emb.dim()).map(norm2_f64).collect();
        AnalogySpace {
            unit,
            norms2,
            dim: emb.dim(),
            n_rows,
        }
    }

    /// Rows searched.
    pub fn n_rows(&self) -> usize {
        self.n_rows
    }

    /// The dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The unit rows, row-major `n_rows × dim`.
    pub fn unit_rows(&self) -> &[f32] {
        &self.unit
    }

    /// ‖û_r‖² of every row, in f64.
    pub(crate) fn norms2(&self) -> &[f64] {
        &self.norms2
    }

    /// Unit row `r`.
    pub fn row(&self, r: u32) -> &[f32] {
        &self.unit[r as usize * self.dim..(r as usize + 1) * self.dim]
    }
}

/// The `top_n` best answers D to each query A : B :: C : ?, best first, among the rows of
/// `space`: by descending score, ties to the lower row. Constrained, the rows A, B and C are
/// never answers. Fewer than `top_n` answers come back only when the space has fewer candidates.
///
/// Every candidate is considered. Blocks of 256 queries are multiplied with blocks of 2,048 unit
/// rows (faer GEMM, f32): one column per query (b̂ + ĉ − â) for 3CosAdd, three (â, b̂, ĉ) for
/// the others, whose cosines are then combined in f64. Bolukbasi's scores are exact, computed
/// in f64 from the vectors, so the threshold and the score near D = B do not suffer from
/// cancellation; but only candidates that can still enter the top list are scored so. A
/// candidate whose f32 distance to b̂ is beyond δ by more than the f32 rounding error scores 0.
/// One within δ is scored exactly when its f32 distance is within that error of δ or of 0, or
/// when an upper bound on its score from the f32 cosines and their rounding error reaches the
/// query's current k-th best exact score; any other candidate's exact score is at most that
/// k-th best, so it could not enter. The answers and their scores are therefore those of
/// scoring every candidate exactly (as [`score_all`] does).
/// Blocks of queries run in parallel on rayon's pool; the result does not depend on it.
///
/// # Errors
///
/// `top_n` is 0, a solver parameter is out of range, or a query row is not in the space.
pub fn solve(
    space: &AnalogySpace,
    queries: &[Query],
    solver: Solver,
    constraint: Constraint,
    top_n: usize,
) -> Result<Vec<Vec<Answer>>, SolveError> {
    solve_among(space, queries, solver, constraint, top_n, space.n_rows)
}

/// [`solve`] with the answers among the space's first `candidates` rows only, while the query
/// words may be any of its rows: gensim's `restrict_vocab`, and how Nissim et al. answer with
/// Bolukbasi et al.'s formula among the 50,000 most frequent words.
///
/// # Errors
///
/// As [`solve`]; `candidates` is 0 or more than the space's rows.
pub fn solve_among(
    space: &AnalogySpace,
    queries: &[Query],
    solver: Solver,
    constraint: Constraint,
    top_n: usize,
    candidates: usize,
) -> Result<Vec<Vec<Answer>>, SolveError> {
    if top_n == 0 {
        return Err(SolveError::ZeroTopN);
    }
    solver.check()?;
    check_rows(space, queries)?;
    check_candidates(space, candidates)?;
    let keep = match constraint {
        Constraint::Constrained => top_n + 3,
        Constraint::Unconstrained => top_n,
    };
    let tops = rank(space, queries, solver, keep, candidates);
    Ok(queries
        .iter()
        .zip(tops)
        .map(|(q, top)| {
            top.answers()
                .filter(|a| constraint == Constraint::Unconstrained || ![q.a, q.b, q.c].contains(&a.row))
                .take(top_n)
                .collect()
        })
        .collect())
}

/// Every candidate's score for each query, unconstrained (`scores[q][row]`), computed exactly
/// as [`solve`] ranks them: for following where one particular answer ranks
/// ([`rank_among`]). Memory: one f64 per row and query.
///
/// # Errors
///
/// A solver parameter is out of range, or a query row is not in the space.
pub fn score_all(
    space: &AnalogySpace,
    queries: &[Query],
    solver: Solver,
) -> Result<Vec<Vec<f64>>, SolveError> {
    score_all_among(space, queries, solver, space.n_rows)
}

/// [`score_all`] for the space's first `candidates` rows only (`scores[q]` has `candidates`
/// entries), as [`solve_among`] ranks them.
///
/// # Errors
///
/// As [`score_all`]; `candidates` is 0 or more than the space's rows.
pub fn score_all_among(
    space: &AnalogySpace,
    queries: &[Query],
    solver: Solver,
    candidates: usize,
) -> Result<Vec<Vec<f64>>, SolveError> {
    solver.check()?;
    check_rows(space, queries)?;
    check_candidates(space, candidates)?;
    Ok(queries
        .par_chunks(QUESTION_BLOCK)
        .flat_map_iter(|block| {
            let mut all = AllScores(vec![vec![0.0f64; candidates]; block.len()]);
            for_each_scored_block(space, block, solver, candidates, &mut all);
            all.0
        })
        .collect())
}

fn check_candidates(space: &AnalogySpace, candidates: usize) -> Result<(), SolveError> {
    if candidates == 0 || candidates > space.n_rows {
        return Err(SolveError::Candidates {
            candidates,
            n_rows: space.n_rows,
        });
    }
    Ok(())
}

/// The rank (1 = best) of row `target` among `scores` in [`solve`]'s order (descending score,
/// ties to the lower row), the rows of `excluded` left out; `None` when `target` is excluded.
pub fn rank_among(scores: &[f64], target: u32, excluded: &[u32]) -> Option<u32> {
    if excluded.contains(&target) {
        return None;
    }
    let t = target as usize;
    let own = scores[t];
    let ahead = (scores.iter().enumerate())
        .filter(|&(row, &s)| (s > own || (s == own && row < t)) && !excluded.contains(&(row as u32)))
        .count();
    Some(ahead as u32 + 1)
}

fn check_rows(space: &AnalogySpace, queries: &[Query]) -> Result<(), SolveError> {
    for (i, q) in queries.iter().enumerate() {
        if let Some(&row) = [q.a, q.b, q.c].iter().find(|&&r| r as usize >= space.n_rows) {
            return Err(SolveError::RowOutOfRange {
                query: i,
                row,
                n_rows: space.n_rows,
            });
        }
    }
    Ok(())
}

/// Queries per block: one block's cosines against [`VOCAB_BLOCK`] rows are at most 6 MB of f32.
const QUESTION_BLOCK: usize = 256;
/// Vocabulary rows per matrix product.
const VOCAB_BLOCK: usize = 2048;

/// The `keep` best of the first `candidates` rows for every query, unconstrained (rows
/// checked, parameters valid, `candidates` at most the space's rows).
pub fn rank(
    space: &AnalogySpace,
    queries: &[Query],
    solver: Solver,
    keep: usize,
    candidates: usize,
) -> Vec<TopK> {
    queries
        .par_chunks(QUESTION_BLOCK)
        .flat_map_iter(|block| {
            let mut tops = vec![TopK::new(keep); block.len()];
            for_each_scored_block(space, block, solver, candidates, tops.as_mut_slice());
            tops
        })
        .collect()
}

/// Per query, what turns its GEMM columns into scores.
enum Prepared {
    /// The unit query column and ‖b̂ + ĉ − â‖.
    CosAdd {
        norm: f64,
    },
    /// 3CosMul, on the shifted cosines (1 + cos)/2 or (`shifted` false) the cosines.
    CosMul {
        epsilon: f64,
        shifted: bool,
    },
    Bolukbasi(Box<BolukbasiQuery>),
}

struct BolukbasiQuery {
    /// â − ĉ in f64.
    ac: Vec<f64>,
    ac_norm: f64,
    /// (â − ĉ) · b̂.
    ac_b: f64,
    /// ‖b̂‖².
    b_norm2: f64,
    delta: f64,
    bound: DeltaBound,
    /// The bound on the error of a GEMM squared distance (see [`gemm_margin`]).
    margin: f64,
    /// GEMM squared distances above `high` are beyond δ for certain (−∞ when â = ĉ: every
    /// score is then 0).
    high: f64,
    /// GEMM squared distances from `low` to `high` are decided exactly.
    low: f64,
    /// GEMM squared distances below `near` (d̂ = b̂ or nearly) are scored exactly.
    near: f64,
}

/// Where [`for_each_scored_block`] hands the scores of each query of a block.
trait ScoreSink {
    /// A score that query `q` would ignore if offered now, so would it any lower one (−∞:
    /// every score counts). A row whose score is known to be at most this need not be scored
    /// nor offered.
    fn floor(&self, q: usize) -> f64;
    /// The scores of query `q` for rows `first_row`, `first_row + 1`, …; across calls, rows
    /// come in ascending order, those left out as [`ScoreSink::floor`] allows skipped.
    fn offer(&mut self, q: usize, first_row: usize, scores: &[f64]);
}

/// The running top list of each query: a score matters only above the k-th best so far.
impl ScoreSink for [TopK] {
    fn floor(&self, q: usize) -> f64 {
        self[q].threshold()
    }

    #[inline(always)]
    fn offer(&mut self, q: usize, first_row: usize, scores: &[f64]) {
        self[q].scan(scores, first_row as u32);
    }
}

/// Every row's score of each query, `scores[q][row]`: every score counts.
struct AllScores(Vec<Vec<f64>>);

impl ScoreSink for AllScores {
    fn floor(&self, _q: usize) -> f64 {
        f64::NEG_INFINITY
    }

    fn offer(&mut self, q: usize, first_row: usize, scores: &[f64]) {
        self.0[q][first_row..first_row + scores.len()].copy_from_slice(scores);
    }
}

/// Scores each of the first `candidates` rows for each query of `block`, a block of rows at a
/// time, and offers each query's scores to `sink`, rows in ascending order.
///
/// The GEMM multiplies the rows with one unit query vector per query for 3CosAdd and, for the
/// other solvers, with each word the block's queries use once (a query set such as Google's
/// repeats its words, so this is far fewer than three columns per query). 3CosAdd and 3CosMul
/// combine the f32 GEMM cosines in f64 and offer every row. Bolukbasi's
/// score is exact: [`bolukbasi_exact`] in f64 from the vectors, or 0 when the GEMM distance
/// to b̂ is beyond δ by more than its error bound ([`gemm_margin`]). Row by row, a candidate
/// is offered only when its score may exceed the sink's current [`ScoreSink::floor`], and
/// scored exactly only then ([`BolukbasiQuery::may_matter`]): a score of 0 beyond δ when
/// 0 exceeds the floor; a candidate whose GEMM distance is within the error bound of δ
/// (admission is decided exactly) or close to 0 (d̂ = b̂ or nearly, where the estimate is
/// useless); any other candidate within δ when an upper bound on its exact score, from the
/// GEMM cosines and their error bound, is not below the floor. The rows left out would not
/// change what the sink keeps: with [`TopK`], the answers are those of scoring every row
/// exactly; [`AllScores`], whose floor is −∞, gets every row's exact score.
fn for_each_scored_block(
    space: &AnalogySpace,
    block: &[Query],
    solver: Solver,
    candidates: usize,
    sink: &mut (impl ScoreSink + ?Sized),
) {
    let dim = space.dim;
    let n_rows = candidates;
    let margin = gemm_margin(dim);
    // The GEMM's right-hand side: one unit query column per query for 3CosAdd; for the
    // others, the block's distinct rows among a, b and c (questions of one set share most of
    // their words), `slots[q]` naming the columns of query q's â, b̂ and ĉ.
    let mut rhs = Vec::new();
    let mut slots = Vec::with_capacity(block.len());
    let mut column_of: FxHashMap<u32, usize> = FxHashMap::default();
    let mut prepared = Vec::with_capacity(block.len());
    for (index, q) in block.iter().enumerate() {
        let (a, b, c) = (space.row(q.a), space.row(q.b), space.row(q.c));
        if let Solver::CosAdd = solver {
            slots.push([index; 3]);
        } else {
            slots.push([q.a, q.b, q.c].map(|row| {
                *column_of.entry(row).or_insert_with(|| {
                    rhs.extend_from_slice(space.row(row));
                    rhs.len() / dim - 1
                })
            }));
        }
        prepared.push(match solver {
            Solver::CosAdd => {
                let mut norm2 = 0.0f64;
                let start = rhs.len();
                for j in 0..dim {
                    let v = f64::from(b[j]) + f64::from(c[j]) - f64::from(a[j]);
                    rhs.push(v as f32);
                    norm2 += v * v;
                }
                let norm = norm2.sqrt();
                if norm2 > 0.0 {
                    let scale = 1.0 / norm;
                    rhs[start..]
                        .iter_mut()
                        .for_each(|x| *x = (f64::from(*x) * scale) as f32);
                }
                Prepared::CosAdd { norm }
            }
            Solver::CosMul { epsilon } => Prepared::CosMul {
                epsilon,
                shifted: true,
            },
            Solver::CosMulUnshifted { epsilon } => Prepared::CosMul {
                epsilon,
                shifted: false,
            },
            Solver::Bolukbasi { delta, bound } => {
                let ac: Vec<f64> = a
                    .iter()
                    .zip(c)
                    .map(|(&x, &y)| f64::from(x) - f64::from(y))
                    .collect();
                let ac_norm = ac.iter().map(|x| x * x).sum::<f64>().sqrt();
                let ac_b = ac.iter().zip(b).map(|(&x, &y)| x * f64::from(y)).sum();
                let limit = bound.squared_limit(delta);
                Prepared::Bolukbasi(Box::new(BolukbasiQuery {
                    ac,
                    ac_norm,
                    ac_b,
                    b_norm2: norm2_f64(b),
                    delta,
                    bound,
                    margin,
                    high: if ac_norm == 0.0 {
                        f64::NEG_INFINITY
                    } else {
                        limit + margin
                    },
                    low: limit - margin,
                    near: NEAR_B * margin,
                }))
            }
        });
    }
    let n_cols = rhs.len() / dim;
    let block_rows = VOCAB_BLOCK.min(n_rows);
    let mut gemm = vec![0.0f32; block_rows * n_cols];
    let mut scores = vec![0.0f64; block_rows];
    let rhs = MatRef::from_row_major_slice(&rhs, n_cols, dim).transpose();
    for start in (0..n_rows).step_by(VOCAB_BLOCK) {
        let end = (start + VOCAB_BLOCK).min(n_rows);
        let n_block = end - start;
        // gemm (n_block × n_cols, column-major) = U[start..end] · rhsᵀ: each column holds the
        // cosines of one query vector (3CosAdd) or one query word with the block's rows.
        let dst = MatMut::from_column_major_slice_mut(&mut gemm[..n_block * n_cols], n_block, n_cols);
        let lhs = MatRef::from_row_major_slice(&space.unit[start * dim..end * dim], n_block, dim);
        matmul(dst, Accum::Replace, lhs, rhs, 1.0f32, Par::Seq);
        pulp::Arch::new().dispatch(ScoreBlock {
            space,
            block,
            prepared: &prepared,
            slots: &slots,
            gemm: &gemm[..n_block * n_cols],
            scores: &mut scores[..n_block],
            start,
            sink: &mut *sink,
        });
    }
}

/// The scoring of one block of vocabulary rows in [`for_each_scored_block`], from the GEMM
/// columns of those rows, as a `pulp` operation: its loops compile for the CPU's vector
/// instructions, with the same operations in the same order, so the same scores.
struct ScoreBlock<'a, K: ScoreSink + ?Sized> {
    space: &'a AnalogySpace,
    block: &'a [Query],
    prepared: &'a [Prepared],
    slots: &'a [[usize; 3]],
    /// The block's rows × the GEMM columns, column-major.
    gemm: &'a [f32],
    /// One score per row of the block.
    scores: &'a mut [f64],
    /// The block's first row.
    start: usize,
    sink: &'a mut K,
}

impl<K: ScoreSink + ?Sized> WithSimd for ScoreBlock<'_, K> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        self.run()
    }
}

impl<K: ScoreSink + ?Sized> ScoreBlock<'_, K> {
    #[inline(always)]
    fn run(self) {
        let ScoreBlock {
            space,
            block,
            prepared,
            slots,
            gemm,
            scores,
            start,
            sink,
        } = self;
        let n_block = scores.len();
        let end = start + n_block;
        let column = |slot: usize| &gemm[slot * n_block..(slot + 1) * n_block];
        for (index, ((q, prep), &[sa, sb, sc])) in (block.iter().zip(prepared)).zip(slots).enumerate() {
            let (ca, cb, cc) = (column(sa), column(sb), column(sc));
            match prep {
                Prepared::CosAdd { norm } => {
                    for (s, &x) in scores.iter_mut().zip(ca) {
                        *s = f64::from(x) * norm;
                    }
                }
                &Prepared::CosMul {
                    epsilon,
                    shifted: true,
                } => {
                    let shift = |x: f32| (1.0 + f64::from(x)) / 2.0;
                    for (((s, &a), &b), &c) in scores.iter_mut().zip(ca).zip(cb).zip(cc) {
                        *s = shift(b) * shift(c) / (shift(a) + epsilon);
                    }
                }
                &Prepared::CosMul {
                    epsilon,
                    shifted: false,
                } => {
                    for (((s, &a), &b), &c) in scores.iter_mut().zip(ca).zip(cb).zip(cc) {
                        *s = f64::from(b) * f64::from(c) / (f64::from(a) + epsilon);
                    }
                }
                Prepared::Bolukbasi(p) => {
                    let norms2 = &space.norms2[start..end];
                    let b = space.row(q.b);
                    let mut cut = p.cut(sink.floor(index));
                    for i in 0..n_block {
                        if !p.may_matter(ca[i], cb[i], cc[i], norms2[i], &cut) {
                            continue;
                        }
                        let row = start + i;
                        let score = if p.dist2(cb[i], norms2[i]) <= p.high {
                            bolukbasi_exact(&p.ac, p.ac_norm, b, space.row(row as u32), p.delta, p.bound)
                        } else {
                            0.0
                        };
                        sink.offer(index, row, std::slice::from_ref(&score));
                        cut = p.cut(sink.floor(index));
                    }
                    continue;
                }
            }
            sink.offer(index, start, scores);
        }
    }
}

/// Below `NEAR_B` times [`gemm_margin`], a GEMM squared distance to b̂ is too uncertain to
/// bound a score with: such candidates (d̂ = b̂ or nearly) are scored exactly.
const NEAR_B: f64 = 4.0;

/// The bound on the error of a squared distance ‖b̂ − d̂‖² = ‖b̂‖² + ‖d̂‖² − 2 b̂·d̂ whose cosine
/// b̂·d̂ comes from the f32 GEMM, unit vectors of dimension `dim`: twice the error of 2 b̂·d̂.
///
/// The f32 GEMM error of a cosine of unit vectors is below (dim + 1)·2⁻²³ (Higham 2002, §3.1:
/// γ_dim with u = 2⁻²⁴, with room for the rounding of the unit vectors); the margin is four
/// times that, so each GEMM cosine is within `margin` / 4 of the exact value and such a squared
/// distance within `margin` / 2.
pub(crate) fn gemm_margin(dim: usize) -> f64 {
    4.0 * (dim as f64 + 1.0) * f64::from(f32::EPSILON) + 1e-12
}

/// What [`BolukbasiQuery::may_matter`] compares a candidate's bound with: the sink's floor,
/// lowered by 10⁻⁹ · (1 + |floor|) to cover the f64 rounding of the exact score and of the
/// bound (relative 2⁻⁵³ per operation), as `scaled` = f·|f|·‖â − ĉ‖².
struct Cut {
    /// Whether a score of 0 exceeds the floor.
    zero: bool,
    scaled: f64,
}

impl BolukbasiQuery {
    /// ‖b̂ − d̂‖² from the GEMM: ‖b̂‖² + ‖d̂‖² − 2 b̂·d̂, given `cb` = b̂·d̂ from the GEMM
    /// and ‖d̂‖² = `norm2`; within `margin` / 2 of the exact value.
    #[inline]
    fn dist2(&self, cb: f32, norm2: f64) -> f64 {
        self.b_norm2 + norm2 - 2.0 * f64::from(cb)
    }

    /// The cut for a sink's `floor`.
    fn cut(&self, floor: f64) -> Cut {
        let f = floor - 1e-9 * (1.0 + floor.abs());
        Cut {
            zero: 0.0 > floor,
            scaled: f * f.abs() * (self.ac_norm * self.ac_norm),
        }
    }

    /// Whether candidate d̂, with GEMM cosines `ca` = â·d̂, `cb` = b̂·d̂, `cc` = ĉ·d̂ and
    /// ‖d̂‖² = `norm2`, may have a [`bolukbasi_exact`] score above the floor of `cut`; when
    /// not, its score is at most the floor.
    ///
    /// Beyond δ for certain (the GEMM distance above `high`), the score is 0, compared as such.
    /// Within `margin` of δ (admission is decided exactly) or below `near` (near d̂ = b̂,
    /// where the estimate is useless), the candidate may matter. Otherwise it is within δ and
    /// its score is at most a bound from the GEMM: (â − ĉ)·(b̂ − d̂) = (â − ĉ)·b̂ − â·d̂ + ĉ·d̂
    /// is within `margin` / 2 of its estimate and ‖b̂ − d̂‖² within `margin` / 2 of the GEMM
    /// distance, so the score, that dot product over ‖â − ĉ‖·‖b̂ − d̂‖, is at most the largest
    /// dot product (the estimate plus `margin`) over ‖â − ĉ‖ times the root of the squared
    /// distance that makes it largest (the GEMM distance minus `margin` for a positive dot
    /// product, plus `margin` otherwise; positive either way, as it is at least `near` −
    /// `margin`). That bound is compared with the floor f as bound·|bound| < f·|f|, both sides
    /// multiplied by ‖â − ĉ‖² times that squared distance (x ↦ x·|x| is increasing), which
    /// needs neither a square root nor a division.
    #[inline]
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN may matter.
    fn may_matter(&self, ca: f32, cb: f32, cc: f32, norm2: f64, cut: &Cut) -> bool {
        let dist2 = self.dist2(cb, norm2);
        let dot = self.ac_b - (f64::from(ca) - f64::from(cc)) + self.margin;
        let extreme = if dot >= 0.0 {
            dist2 - self.margin
        } else {
            dist2 + self.margin
        };
        let beyond = !(dist2 <= self.high);
        let undecided = (dist2 >= self.low) | (dist2 < self.near);
        let reaches = !(dot * dot.abs() < cut.scaled * extreme);
        if beyond { cut.zero } else { undecided | reaches }
    }
}

/// Bolukbasi et al.'s score of candidate `d` in f64 from the vectors: cos(a − c, b − d) when
/// ‖b − d‖ is within δ, else 0; 0 when either difference is the zero vector.
fn bolukbasi_exact(ac: &[f64], ac_norm: f64, b: &[f32], d: &[f32], delta: f64, bound: DeltaBound) -> f64 {
    let (dist2, dot) = diff_stats(ac, b, d);
    if !bound.admits(dist2, delta) || dist2 == 0.0 || ac_norm == 0.0 {
        0.0
    } else {
        dot / (ac_norm * dist2.sqrt())
    }
}

/// ‖x − y‖² and g · (x − y), in f64 in index order.
pub(crate) fn diff_stats(g: &[f64], x: &[f32], y: &[f32]) -> (f64, f64) {
    let (mut dist2, mut dot) = (0.0f64, 0.0f64);
    for ((&a, &b), &w) in x.iter().zip(y).zip(g) {
        let v = f64::from(a) - f64::from(b);
        dist2 += v * v;
        dot += w * v;
    }
    (dist2, dot)
}

/// ‖x‖² in f64.
pub(crate) fn norm2_f64(x: &[f32]) -> f64 {
    x.iter().map(|&v| f64::from(v) * f64::from(v)).sum()
}

/// The `k` highest scores seen so far, in descending order; among equal scores the row seen
/// first (the lower row, as rows are scanned in ascending order) comes first.
#[derive(Clone, Debug)]
pub struct TopK {
    k: usize,
    scores: Vec<f64>,
    rows: Vec<u32>,
}

impl TopK {
    pub(crate) fn new(k: usize) -> Self {
        TopK {
            k,
            scores: Vec::with_capacity(k),
            rows: Vec::with_capacity(k),
        }
    }

    /// The rows kept, best first.
    pub fn rows(&self) -> impl Iterator<Item = u32> + '_ {
        self.rows.iter().copied()
    }

    /// The rows kept with their scores, best first.
    pub fn answers(&self) -> impl Iterator<Item = Answer> + '_ {
        self.rows
            .iter()
            .zip(&self.scores)
            .map(|(&row, &score)| Answer { row, score })
    }

    /// Offers `scores[i]` for row `first_row + i`, in ascending row order. NaN and −∞ never enter.
    /// Runs of 16 scores none of which enters are passed over at once.
    #[inline(always)]
    pub(crate) fn scan(&mut self, scores: &[f64], first_row: u32) {
        let mut threshold = self.threshold();
        for (run, chunk) in scores.chunks(16).enumerate() {
            if !chunk.iter().fold(false, |any, &score| any | (score > threshold)) {
                continue;
            }
            for (i, &score) in chunk.iter().enumerate() {
                if score > threshold {
                    self.insert(score, first_row + (16 * run + i) as u32);
                    threshold = self.threshold();
                }
            }
        }
    }

    /// The score a row must exceed to enter now: the k-th best, −∞ while fewer are kept.
    fn threshold(&self) -> f64 {
        if self.scores.len() == self.k {
            self.scores[self.k - 1]
        } else {
            f64::NEG_INFINITY
        }
    }

    #[inline(never)]
    fn insert(&mut self, score: f64, row: u32) {
        // After every kept score >= `score`: equal scores keep their (lower) rows first.
        let at = self
            .scores
            .iter()
            .position(|&s| s < score)
            .unwrap_or(self.scores.len());
        if self.scores.len() == self.k {
            self.scores.pop();
            self.rows.pop();
        }
        self.scores.insert(at, score);
        self.rows.insert(at, row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_keeps_the_highest_with_lower_rows_first_on_ties() {
        let mut top = TopK::new(8);
        let scores = [0.1, 0.5, 0.5, 0.9, -0.2, 0.5, 0.3, 0.7, 0.0, 0.8, 0.5, 0.6];
        top.scan(&scores[..5], 0);
        top.scan(&scores[5..], 5);
        assert_eq!(top.rows().collect::<Vec<_>>(), [3, 9, 7, 11, 1, 2, 5, 10]);
        assert_eq!(top.scores, [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5, 0.5]);
    }

    #[test]
    fn top_k_with_fewer_rows_than_slots() {
        let mut top = TopK::new(8);
        top.scan(&[0.2, 0.4, 0.3, f64::NAN], 10);
        assert_eq!(top.rows().collect::<Vec<_>>(), [11, 12, 10]);
    }

    #[test]
    fn delta_bounds_agree_at_one_and_differ_elsewhere() {
        for dist2 in [0.25, 0.81, 1.0, 1.21] {
            assert_eq!(
                DeltaBound::Distance.admits(dist2, 1.0),
                DeltaBound::SquaredDistance.admits(dist2, 1.0)
            );
        }
        // ‖b − d‖ = 0.8: within δ = 0.7 squared (0.64 ≤ 0.7), not as a distance.
        assert!(DeltaBound::SquaredDistance.admits(0.64, 0.7));
        assert!(!DeltaBound::Distance.admits(0.64, 0.7));
    }
}
