//! The analogy stage of a measure job (a plan's `analogies` section): on every seed, each
//! solver's top answers to the query list, constrained and unconstrained, the rank of the answer
//! a paper reports, and the accuracy on the Google analogy set; across seeds, how often the seeds
//! give the same top answer (Fleiss' κ, the modal answer of each query), the test-retest ICC
//! of the Google sections' accuracies and the overlap of the generated pairs — designs of
//! retest-analyses (`top1_agreement`, `section_accuracy_icc`, `pair_overlap`), which this stage
//! feeds and labels.

use anyhow::{Context, Result};
use retest_embeddings::Embeddings;
use retest_eval::{AnalogySet, CaseHandling, EvalOptions, SolverAccuracy, google_accuracy};
use retest_measures::{
    AnalogySpace, Answer, Constraint, GeneratedPair, PairOptions, Query, Solver, generate_pairs, rank_among,
    score_all, score_all_among, solve_among,
};
use retest_spec::AnalogyParams;
use retest_tables::{CoverageRow, Table, names};

use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, when_present};

/// The analogy measures: a configuration has their tables when its plan has an `analogies`
/// section.
pub(crate) const FAMILY: Family = Family {
    name: "analogies",
    title: "analogies",
    tables: &[
        names::ANALOGY_ANSWERS.name(),
        names::ANALOGY_REPORTED.name(),
        names::ANALOGY_ACCURACY.name(),
        names::ANALOGY_STABILITY.name(),
        names::ANALOGY_RELIABILITY.name(),
        names::ANALOGY_PAIRS.name(),
        names::ANALOGY_SWEEP.name(),
        names::ANALOGY_ZHANG.name(),
    ],
    optional: true,
    key: |plan| when_present("analogies", &plan.analogies),
    build: |setup| {
        let lines = setup.lists.analogies.as_deref();
        let google = setup.lists.benchmarks.google.as_deref();
        let built = Analogies::new(setup.plan, lines, google, setup.corpus_name(), setup.cased())?;
        Ok(Collect::stage(built))
    },
};

/// Zhang et al.'s §7 leaves the Google section whose pairs are gendered out.
const GENDERED_SECTION: &str = "family";

/// The two directions of Zhang et al.'s test: the paper's text (man : x :: woman : ?) and its
/// code (x + man − woman, that is woman : x :: man : ?).
const ZHANG_DIRECTIONS: [&str; 2] = ["text", "code"];

/// A Google section's name and its word pairs (x, y) as rows.
type SectionPairs = (String, Vec<(u32, u32)>);

/// Per combination, per query: the top answers.
type TopAnswers = Vec<Vec<Vec<Answer>>>;

/// Where the answer a paper reports ranks under one solver and constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ReportedRank {
    /// 1 + the candidates scored higher.
    Rank(u32),
    /// An input word, constrained.
    Excluded,
    /// Beyond the solver's candidates (`analogies.solver_restrict_vocab`).
    NotSearched,
}

/// One query of the list with its words in the searched vocabulary.
struct Resolved {
    /// `a:b::c`.
    label: String,
    query: Query,
    /// The answer a paper reports and its row (`None`: out of vocabulary).
    reported: Option<(String, Option<u32>)>,
}

/// The analogy measures of one configuration, resolved against its corpus's vocabulary.
pub(crate) struct Analogies<'p> {
    params: &'p AnalogyParams,
    solvers: Vec<Solver>,
    /// Per solver, its answers among the first this many of the rows searched.
    candidates: Vec<usize>,
    queries: Vec<Resolved>,
    /// The rows searched: the whole vocabulary or its most frequent `restrict_vocab` words.
    n_rows: usize,
    /// The Google analogy set, when the plan asks for its accuracy.
    google: Option<AnalogySet>,
    /// The rows of the pair generation's seed pair, when it runs, and the words it pairs: the
    /// most frequent `pair_restrict_vocab`, those Bolukbasi et al. kept with `pair_filter`, in
    /// id order.
    pair_seed: Option<(u32, u32)>,
    pair_words: Vec<u32>,
    /// The sweep's query (`a:b::c` and its rows) and vocabulary sizes (ascending, the whole
    /// vocabulary last), when it runs.
    sweep: Option<(String, Query)>,
    sweep_sizes: Vec<usize>,
    /// Zhang et al.'s test, when it runs: the rows of man and woman, and per Google section
    /// (`family` left out) its distinct pairs (x, y), all among the first `zhang_rows` rows,
    /// which are its answers' candidates.
    zhang: Option<((u32, u32), Vec<SectionPairs>)>,
    zhang_rows: usize,
    /// The query list's coverage row.
    pub coverage: CoverageRow,
    /// Why queries are left out, one line each.
    pub notes: Vec<String>,
}

/// Everything the analogy measures give on one seed, per (solver, constraint) in the order of
/// [`Analogies::combinations`].
pub(crate) struct AnalogySeed {
    answers: TopAnswers,
    /// Per combination, per query with a reported answer in vocabulary: its rank.
    reported: Vec<Vec<ReportedRank>>,
    /// Per combination, when the Google set is used.
    google: Vec<SolverAccuracy>,
    /// Bolukbasi et al.'s generated pairs, best first.
    pairs: Vec<GeneratedPair>,
    /// Per sweep δ, per sweep size: the best answer (`None`: a query word beyond the size).
    sweep: Vec<Vec<Option<Answer>>>,
    /// Zhang et al.'s test: per direction, per constraint, per section, the pairs solved.
    zhang: Vec<Vec<Vec<usize>>>,
    /// Zhang et al.'s test: per section, the cosine of each pair's two words; and the cosine of
    /// man and woman.
    zhang_cosines: (Vec<Vec<f64>>, f64),
}

impl<'p> Analogies<'p> {
    /// Every (solver, constraint), solvers in the plan's order, constrained first.
    fn combinations(&self) -> impl Iterator<Item = (Solver, Constraint)> + '_ {
        (self.solvers.iter()).flat_map(|&s| Constraint::BOTH.map(|c| (s, c)))
    }

    /// The analogy measures on one seed's embeddings.
    ///
    /// # Errors
    ///
    /// A solver failing (never for a validated plan).
    pub(crate) fn measure_seed(&self, emb: &Embeddings) -> Result<AnalogySeed> {
        let space = AnalogySpace::new(emb, Some(self.n_rows))?;
        let (answers, reported) = self.query_answers(&space)?;
        Ok(AnalogySeed {
            answers,
            reported,
            google: self.google_accuracy(emb)?,
            pairs: self.generated_pairs(emb)?,
            sweep: self.sweep_answers(emb)?,
            zhang: self.zhang_solved(&space)?,
            zhang_cosines: self.zhang_cosines(&space),
        })
    }

    /// Per combination, every query's top answers, and the rank of every reported answer in
    /// vocabulary.
    fn query_answers(&self, space: &AnalogySpace) -> Result<(TopAnswers, Vec<Vec<ReportedRank>>)> {
        let queries: Vec<Query> = self.queries.iter().map(|q| q.query).collect();
        let tracked: Vec<(usize, u32)> = (self.queries.iter().enumerate())
            .filter_map(|(i, q)| Some((i, q.reported.as_ref()?.1?)))
            .collect();
        let mut answers = Vec::new();
        let mut reported = Vec::new();
        let tracked_queries: Vec<Query> = tracked.iter().map(|&(i, _)| queries[i]).collect();
        for (&solver, &candidates) in self.solvers.iter().zip(&self.candidates) {
            let scores = score_all_among(space, &tracked_queries, solver, candidates)?;
            for constraint in Constraint::BOTH {
                let top_n = self.params.top_n;
                answers.push(solve_among(
                    space, &queries, solver, constraint, top_n, candidates,
                )?);
                reported.push(
                    (tracked.iter().zip(&scores))
                        .map(|(&(i, target), scores)| {
                            let q = queries[i];
                            let excluded = match constraint {
                                Constraint::Constrained => vec![q.a, q.b, q.c],
                                Constraint::Unconstrained => Vec::new(),
                            };
                            if target as usize >= candidates {
                                return ReportedRank::NotSearched;
                            }
                            rank_among(scores, target, &excluded)
                                .map_or(ReportedRank::Excluded, ReportedRank::Rank)
                        })
                        .collect(),
                );
            }
        }
        Ok((answers, reported))
    }

    /// Every combination's accuracy on the Google set, when it is used: each solver among its
    /// candidates (the questions with a word beyond them skipped, as `retest eval` does), the
    /// solvers with the same candidates in one pass.
    fn google_accuracy(&self, emb: &Embeddings) -> Result<Vec<SolverAccuracy>> {
        let Some(set) = &self.google else {
            return Ok(Vec::new());
        };
        let mut limits = self.candidates.clone();
        limits.sort_unstable();
        limits.dedup();
        let mut by_solver = vec![Vec::new(); self.solvers.len()];
        for n in limits {
            let options = EvalOptions {
                restrict_vocab: n,
                case: CaseHandling::Insensitive,
            };
            let chosen: Vec<usize> = (0..self.solvers.len())
                .filter(|&i| self.candidates[i] == n)
                .collect();
            let solvers: Vec<Solver> = chosen.iter().map(|&i| self.solvers[i]).collect();
            let accuracy =
                google_accuracy(emb, set, &options, &solvers).context("Google analogy accuracy")?;
            // Two rows per solver, constrained first.
            for (&i, pair) in chosen.iter().zip(accuracy.chunks(Constraint::BOTH.len())) {
                by_solver[i] = pair.to_vec();
            }
        }
        Ok(by_solver.concat())
    }

    /// Bolukbasi et al.'s pairs along the seed pair, when they are generated.
    fn generated_pairs(&self, emb: &Embeddings) -> Result<Vec<GeneratedPair>> {
        let Some(seed) = self.pair_seed else {
            return Ok(Vec::new());
        };
        let p = self.params;
        let options = PairOptions {
            delta: p.delta,
            bound: p.delta_bound,
            n_pairs: p.n_pairs,
        };
        // The space's rows are the pair words, in order: a pair is mapped back to word ids.
        let space = AnalogySpace::of_rows(emb, &self.pair_words);
        let row = |id: u32| {
            let row = self
                .pair_words
                .binary_search(&id)
                .expect("the seed words are pair words");
            row as u32
        };
        let mut pairs =
            generate_pairs(&space, (row(seed.0), row(seed.1)), &options).context("pair generation")?;
        for pair in &mut pairs {
            (pair.x, pair.y) = (self.pair_words[pair.x as usize], self.pair_words[pair.y as usize]);
        }
        Ok(pairs)
    }

    /// The sweep's best answers, per δ and vocabulary size, when it runs.
    fn sweep_answers(&self, emb: &Embeddings) -> Result<Vec<Vec<Option<Answer>>>> {
        let mut sweep = Vec::new();
        let Some((_, q)) = self.sweep else {
            return Ok(sweep);
        };
        let space = AnalogySpace::new(emb, None)?;
        for &delta in &self.params.sweep_deltas {
            let solver = Solver::Bolukbasi {
                delta,
                bound: self.params.delta_bound,
            };
            let scores = score_all(&space, &[q], solver)?.pop().expect("one query");
            sweep.push(
                (self.sweep_sizes.iter())
                    .map(|&n| {
                        let inside = [q.a, q.b, q.c].iter().all(|&r| (r as usize) < n);
                        inside.then(|| best_of(&scores[..n]))
                    })
                    .collect(),
            );
        }
        Ok(sweep)
    }

    /// Zhang et al.'s test, when it runs: per direction, per constraint, per section, the pairs
    /// (x, y) whose query (man : x :: woman : ? in the text direction) 3CosAdd answers with y.
    fn zhang_solved(&self, space: &AnalogySpace) -> Result<Vec<Vec<Vec<usize>>>> {
        let mut zhang = Vec::new();
        let Some(((man, woman), sections)) = &self.zhang else {
            return Ok(zhang);
        };
        for (from, to) in [(*man, *woman), (*woman, *man)] {
            let queries: Vec<Query> = (sections.iter())
                .flat_map(|(_, pairs)| pairs.iter().map(|&(x, _)| Query { a: from, b: x, c: to }))
                .collect();
            let mut by_constraint = Vec::new();
            for constraint in Constraint::BOTH {
                let answers = solve_among(space, &queries, Solver::CosAdd, constraint, 1, self.zhang_rows)?;
                let mut answers = answers.iter();
                by_constraint.push(
                    (sections.iter())
                        .map(|(_, pairs)| {
                            (pairs.iter())
                                .zip(answers.by_ref())
                                .filter(|((_, y), a)| a.first().is_some_and(|a| a.row == *y))
                                .count()
                        })
                        .collect(),
                );
            }
            zhang.push(by_constraint);
        }
        Ok(zhang)
    }
}

impl Analogies<'_> {
    /// Zhang et al.'s similarity of the pairs they ask about (their §7: the two words of a
    /// Google pair are highly similar, so man : x :: woman : ? often answers y for that reason
    /// alone): per section, cos(x, y) of each pair; and cos(man, woman). Empty and NaN when the
    /// test does not run.
    fn zhang_cosines(&self, space: &AnalogySpace) -> (Vec<Vec<f64>>, f64) {
        let Some(((man, woman), sections)) = &self.zhang else {
            return (Vec::new(), f64::NAN);
        };
        let dim = space.dim();
        let row = |r: u32| &space.unit_rows()[r as usize * dim..(r as usize + 1) * dim];
        let cos = |a: u32, b: u32| -> f64 {
            let (a, b) = (row(a), row(b));
            let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
            let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
            dot / (norm(a) * norm(b))
        };
        let per_section = (sections.iter())
            .map(|(_, pairs)| pairs.iter().map(|&(x, y)| cos(x, y)).collect())
            .collect();
        (per_section, cos(*man, *woman))
    }
}

/// The best row of `scores` (ties: the lower row) with its score; `scores` is not empty.
fn best_of(scores: &[f64]) -> Answer {
    let mut best = Answer {
        row: 0,
        score: scores[0],
    };
    for (row, &score) in scores.iter().enumerate().skip(1) {
        if score > best.score {
            best = Answer {
                row: row as u32,
                score,
            };
        }
    }
    best
}

impl PerSeed for Analogies<'_> {
    type Values = AnalogySeed;
    const WHAT: &'static str = "analogies";

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn coverage(&self) -> &[CoverageRow] {
        std::slice::from_ref(&self.coverage)
    }

    fn measure(&self, seed: &Seed<'_>) -> Result<AnalogySeed> {
        self.measure_seed(seed.embeddings)
    }

    fn tables(&self, seeds: &[AnalogySeed], across: &Across<'_>) -> Result<Vec<Table>> {
        self.tables(across.corpus, across.model, across.vocab, seeds)
    }
}

mod resolve;
mod tables;
#[cfg(test)]
mod tests;
