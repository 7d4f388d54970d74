//! Analogy queries on any embedding files, without a pipeline (`retest analogies`): each query
//! A : B :: C : ? of a queries file answered by one solver, one table row per (embedding, query,
//! rank).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, ensure};
use retest_embeddings::Embeddings;
use retest_measures::{
    AnalogySpace, Constraint, DeltaBound, Query, Solver, SolverKind, rank_among, score_all, solve,
};
use retest_tables::{AnalogyRow, names};
use rustc_hash::FxHashMap;

use crate::lists::{QueryLine, read_query_file};
use crate::stages::columns::{OUT_OF_VOCABULARY, ZERO_VECTOR};
use crate::tools::inputs::{EmbeddingFiles, TableFile, WordLookup};

/// What `retest analogies` was asked to do.
#[derive(Debug)]
pub struct AnalogiesRequest<'a> {
    pub embeddings: EmbeddingFiles<'a>,
    /// The queries file: `a b c` per line, `#` comments, blank lines.
    pub queries: &'a Path,
    /// The solver with its parameters (checked here, the flags named in the errors).
    pub solver: Solver,
    pub constraint: Constraint,
    /// Answers per query (at least 1).
    pub top_n: usize,
    /// Search only the first N words of each embedding (all when `None`).
    pub restrict_vocab: Option<usize>,
    pub out: TableFile<'a>,
}

/// Answers every query of the queries file on every embedding file and writes one row per
/// (embedding, query, rank), best first. A query with a word that is not among the words
/// searched gets one [`OUT_OF_VOCABULARY`] row (rank 0, the words in `detail`) and a warning on
/// stderr; the others are answered.
///
/// # Errors
///
/// `--out` is refused by the output policy; `--top-n` is 0; δ is negative or not finite; a file cannot be
/// read or parsed; `--restrict-vocab` is 0 or larger than an embedding's vocabulary; no query
/// of the file is in an embedding's vocabulary; the table cannot be written.
pub fn analogies_files(req: &AnalogiesRequest<'_>) -> Result<()> {
    req.out.check(&req.embeddings.and(&[req.queries]))?;
    let queries_from = req.queries.display().to_string();
    // The settings are checked before the queries file is read.
    let settings = AnalogyInput {
        queries: &[],
        queries_from: &queries_from,
        solver: req.solver,
        constraint: req.constraint,
        top_n: req.top_n,
        restrict_vocab: req.restrict_vocab,
    };
    settings.check()?;
    let queries = read_query_file(req.queries)?;
    let input = AnalogyInput {
        queries: &queries,
        ..settings
    };
    let mut rows = Vec::new();
    let mut err = std::io::stderr().lock();
    for path in req.embeddings.paths {
        let emb = req.embeddings.read(path)?;
        let name = path.display().to_string();
        rows.extend(analogy_rows(
            &name,
            &emb,
            &req.embeddings.lookup,
            &input,
            &mut err,
        )?);
    }
    req.out.write(names::ANALOGIES_FILE, &rows, "analogy rows")
}

/// The solver `kind` with the command's parameters: gensim's ε for 3CosMul, and Bolukbasi's δ
/// (its default when `None`), a bound on the distance ‖B − D‖ or, with `squared_delta`, on its
/// square as debiaswe's code reads it.
///
/// # Errors
///
/// `delta` or `squared_delta` is given for a solver other than Bolukbasi's.
pub fn analogy_solver(kind: SolverKind, delta: Option<f64>, squared_delta: bool) -> Result<Solver> {
    if kind != SolverKind::Bolukbasi {
        ensure!(
            delta.is_none() && !squared_delta,
            "--delta and --squared-delta apply to --solver bolukbasi only"
        );
    }
    let bound = if squared_delta {
        DeltaBound::SquaredDistance
    } else {
        DeltaBound::Distance
    };
    Ok(kind.with(
        Solver::COSMUL_EPSILON,
        delta.unwrap_or(Solver::BOLUKBASI_DELTA),
        bound,
    ))
}

/// What analogy queries are answered with: the queries (with where they came from, a file's
/// path, for messages), the solver with its parameters, the constraint, the answers per query
/// and the words searched.
#[derive(Clone, Copy, Debug)]
pub struct AnalogyInput<'a> {
    pub queries: &'a [QueryLine],
    pub queries_from: &'a str,
    pub solver: Solver,
    pub constraint: Constraint,
    /// Answers per query (at least 1).
    pub top_n: usize,
    /// Search only the first N words of each embedding (all when `None`).
    pub restrict_vocab: Option<usize>,
}

impl AnalogyInput<'_> {
    /// Refuses settings no query can be answered with (the flags named in the errors).
    fn check(&self) -> Result<()> {
        ensure!(self.top_n >= 1, "--top-n must be at least 1");
        ensure!(
            self.restrict_vocab != Some(0),
            "--restrict-vocab must be at least 1"
        );
        if let Solver::Bolukbasi { delta, .. } = self.solver {
            ensure!(
                delta.is_finite() && delta > 0.0,
                "--delta must be a finite number > 0, found {delta}"
            );
        }
        Ok(())
    }
}

/// Every query of `input` answered on `emb` (`name` in the rows' `embedding` column), the words
/// looked up by `lookup`: one row per (query, rank), best first. A query with a word that is not
/// among the words searched, or with an all-zero vector, gets one row with that status (rank 0,
/// the words in `detail`) and a warning on `warn`; then a summary line for the embedding.
///
/// # Errors
///
/// The settings are refused (as [`analogies_files`] names them); `restrict_vocab` is larger
/// than the vocabulary; no query has its three words among those searched; `warn` cannot be
/// written.
pub fn analogy_rows(
    name: &str,
    emb: &Embeddings,
    lookup: &WordLookup,
    input: &AnalogyInput<'_>,
    warn: &mut dyn Write,
) -> Result<Vec<AnalogyRow>> {
    input.check()?;
    let queries = input.queries;
    if let Some(n) = input.restrict_vocab {
        ensure!(
            n <= emb.n_words(),
            "{name}: --restrict-vocab {n} is larger than the vocabulary ({} words)",
            emb.n_words()
        );
    }
    let space = AnalogySpace::new(emb, input.restrict_vocab).with_context(|| name.to_owned())?;
    let searched = space.n_rows();
    let row_of: FxHashMap<&str, u32> = emb.words()[..searched]
        .iter()
        .enumerate()
        .map(|(i, w)| (w.as_str(), i as u32))
        .collect();
    let lookup = |word: &str| row_of.get(&*lookup.case(word)).copied();
    let where_ = if searched < emb.n_words() {
        format!("among the first {searched} words")
    } else {
        "in the vocabulary".to_owned()
    };
    let zero = zero_rows(emb, searched, name, warn)?;
    let resolved: Vec<Resolved<'_>> = queries.iter().map(|q| resolve(q, &lookup, &zero)).collect();
    let answerable: Vec<Query> = resolved.iter().filter_map(|r| r.as_ref().ok().copied()).collect();
    ensure!(
        !answerable.is_empty(),
        "{name}: none of the {} queries of {} has its three words {where_}",
        queries.len(),
        input.queries_from
    );
    let mut answers = solve(
        &space,
        &answerable,
        input.solver,
        input.constraint,
        input.top_n + zero.len(),
    )
    .with_context(|| name.to_owned())?
    .into_iter()
    .map(|top| {
        (top.into_iter()
            .filter(|a| !is_zero(&zero, a.row))
            .take(input.top_n))
        .collect::<Vec<_>>()
    });
    let reported_ranks =
        reported_ranks(&space, input, &resolved, &zero, lookup).with_context(|| name.to_owned())?;
    let row = |q: &QueryLine, (reported_rank, reported_status): (u32, &str)| AnalogyRow {
        embedding: name.to_owned(),
        a: q.words[0].clone(),
        b: q.words[1].clone(),
        c: q.words[2].clone(),
        solver: input.solver.as_str().to_owned(),
        constraint: input.constraint.as_str().to_owned(),
        rank: 0,
        answer: String::new(),
        score: f64::NAN,
        status: "ok".to_owned(),
        detail: String::new(),
        reported: q.reported.clone().unwrap_or_default(),
        reported_rank,
        reported_status: reported_status.to_owned(),
    };
    let mut rows = Vec::new();
    let (mut n_oov, mut n_zero) = (0, 0);
    for ((q, resolved), &reported) in queries.iter().zip(&resolved).zip(&reported_ranks) {
        match resolved {
            Ok(_) => {
                let top = answers.next().expect("one answer list per answerable query");
                for (rank, answer) in top.iter().enumerate() {
                    rows.push(AnalogyRow {
                        rank: rank as u32 + 1,
                        answer: emb.word(answer.row as usize).to_owned(),
                        score: answer.score,
                        ..row(q, reported)
                    });
                }
            }
            Err(unanswered) => {
                let why = if unanswered.status == ZERO_VECTOR {
                    n_zero += 1;
                    "has an all-zero vector".to_owned()
                } else {
                    n_oov += 1;
                    format!("not {where_}")
                };
                writeln!(
                    warn,
                    "warning: {name}: query `{}` ({}:{}): {} {why}; its row has status {}",
                    q.words.join(" "),
                    input.queries_from,
                    q.line,
                    unanswered.words.join(", "),
                    unanswered.status,
                )?;
                rows.push(AnalogyRow {
                    status: unanswered.status.to_owned(),
                    detail: unanswered.words.join(" "),
                    ..row(q, reported)
                });
            }
        }
    }
    writeln!(
        warn,
        "{name}: {} of {} queries answered among {searched} words{}{}",
        queries.len() - n_oov - n_zero,
        queries.len(),
        if n_oov > 0 {
            format!(", {n_oov} with a word out of vocabulary")
        } else {
            String::new()
        },
        if n_zero > 0 {
            format!(", {n_zero} with a word of all-zero vector")
        } else {
            String::new()
        }
    )?;
    Ok(rows)
}

/// Why a query has no answers: its `status` (`out_of_vocabulary`, `zero_vector`) and the
/// words at fault.
struct Unanswered<'q> {
    status: &'static str,
    words: Vec<&'q str>,
}

/// A query's rows, or why it has none.
type Resolved<'q> = std::result::Result<Query, Unanswered<'q>>;

/// The rows among the first `searched` of `emb` whose vector is all zeros, ascending, named in a
/// warning: they have no direction, so they are never an answer and a query with one is not
/// answered.
fn zero_rows(emb: &Embeddings, searched: usize, name: &str, warn: &mut dyn Write) -> Result<Vec<u32>> {
    let zero: Vec<u32> = (0..searched as u32)
        .filter(|&r| emb.row(r as usize).iter().all(|&x| x == 0.0))
        .collect();
    if !zero.is_empty() {
        let shown: Vec<&str> = zero.iter().take(10).map(|&r| emb.word(r as usize)).collect();
        writeln!(
            warn,
            "warning: {name}: {} word(s) with an all-zero vector (no direction) are never answers: {}{}",
            zero.len(),
            shown.join(" "),
            if zero.len() > shown.len() { " …" } else { "" }
        )?;
    }
    Ok(zero)
}

/// Whether `row` is one of `zero`, the ascending rows [`zero_rows`] gives.
fn is_zero(zero: &[u32], row: u32) -> bool {
    zero.binary_search(&row).is_ok()
}

/// Query `q`'s rows (`lookup` finds a word's row among those searched), or why it has none: a
/// word not found, or one of the `zero` rows.
fn resolve<'q>(q: &'q QueryLine, lookup: &impl Fn(&str) -> Option<u32>, zero: &[u32]) -> Resolved<'q> {
    let found = q.words.each_ref().map(|w| lookup(w));
    let words_where = |bad: &dyn Fn(Option<u32>) -> bool| -> Vec<&'q str> {
        (q.words.iter().zip(found))
            .filter(|(_, f)| bad(*f))
            .map(|(w, _)| w.as_str())
            .collect()
    };
    match found {
        [Some(a), Some(b), Some(c)] if [a, b, c].iter().any(|&r| is_zero(zero, r)) => Err(Unanswered {
            status: ZERO_VECTOR,
            words: words_where(&|f| f.is_some_and(|r| is_zero(zero, r))),
        }),
        [Some(a), Some(b), Some(c)] => Ok(Query { a, b, c }),
        _ => Err(Unanswered {
            status: OUT_OF_VOCABULARY,
            words: words_where(&|f| f.is_none()),
        }),
    }
}

/// Per query: where the answer it reports (its fourth word) ranks among the words searched
/// under the input's solver and constraint, as `analogy_reported` ranks it in a pipeline:
/// `(rank, "ok")`, `(0, "out_of_vocabulary")` when the query or the reported word is not among
/// them, `(0, "zero_vector")` when the reported word's vector is all zeros (`zero`: such rows,
/// never ranked), `(0, "excluded")` when the constraint excludes it (an input word), `(0, "")`
/// without one.
fn reported_ranks(
    space: &AnalogySpace,
    input: &AnalogyInput<'_>,
    resolved: &[Resolved<'_>],
    zero: &[u32],
    lookup: impl Fn(&str) -> Option<u32>,
) -> Result<Vec<(u32, &'static str)>> {
    let queries = input.queries;
    let tracked: Vec<(usize, Query, Option<u32>)> = (queries.iter().zip(resolved).enumerate())
        .filter_map(|(i, (q, r))| Some((i, *r.as_ref().ok()?, lookup(q.reported.as_deref()?))))
        .collect();
    let asked: Vec<Query> = tracked.iter().filter(|t| t.2.is_some()).map(|t| t.1).collect();
    let mut scores = score_all(space, &asked, input.solver)?.into_iter();
    let mut ranks: Vec<(u32, &'static str)> = (queries.iter())
        .map(|q| match q.reported {
            Some(_) => (0, OUT_OF_VOCABULARY),
            None => (0, ""),
        })
        .collect();
    for (i, q, target) in tracked {
        let Some(target) = target else { continue };
        let scores = scores.next().expect("scores for every query asked");
        if is_zero(zero, target) {
            ranks[i] = (0, ZERO_VECTOR);
            continue;
        }
        // Rows without a direction are never answers, so they rank above nothing.
        let mut excluded = zero.to_vec();
        if input.constraint == Constraint::Constrained {
            excluded.extend([q.a, q.b, q.c]);
        }
        ranks[i] = rank_among(&scores, target, &excluded).map_or((0, "excluded"), |r| (r, "ok"));
    }
    Ok(ranks)
}
