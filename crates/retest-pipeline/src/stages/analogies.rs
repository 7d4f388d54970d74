//! The analogy stage of a measure job (a plan's `analogies` section): on every seed, each
//! solver's top answers to the query list, constrained and unconstrained, the rank of the answer
//! a paper reports, and the accuracy on the Google analogy set; across seeds, how often the seeds
//! give the same top answer (Fleiss' κ, the modal answer of each query) and the test-retest ICC
//! of the Google sections' accuracies.

use std::path::Path;

use anyhow::{Context, Result};
use retest_analyses::{answer_agreement, pair_overlap, seeds_icc};
use retest_embeddings::Embeddings;
use retest_eval::{AnalogySet, CaseHandling, EvalOptions, SolverAccuracy, google_accuracy, read_analogies};
use retest_measures::{
    AnalogySpace, Answer, Constraint, GeneratedPair, PairOptions, Query, Solver, Vocab, generate_pairs,
    rank_among, score_all, solve,
};
use retest_spec::{AnalogyParams, Plan};
use retest_tables::{
    AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow, AnalogyReportedRow,
    AnalogyStabilityRow, AnalogySweepRow, AnalogyZhangRow, CoverageRow, Table, names,
};

use crate::lists::QueryLine;
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, lowercases, when_present};

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
        let built = Analogies::new(setup.plan, lines, google, setup.corpus_name(), setup.vocab)?;
        Ok(Collect::stage(built))
    },
};

/// Zhang et al.'s §7 leaves the Google section whose pairs are gendered out.
const GENDERED_SECTION: &str = "family";

/// The two directions of Zhang et al.'s test: the paper's text (man : x :: woman : ?) and its
/// code (x + man − woman, that is woman : x :: man : ?).
const ZHANG_DIRECTIONS: [&str; 2] = ["text", "code"];

/// The top-1 "answer" of a query without any (a space of at most three rows, constrained).
const NO_ANSWER: u32 = u32::MAX;

/// A Google section's name and its word pairs (x, y) as rows.
type SectionPairs = (String, Vec<(u32, u32)>);

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
    queries: Vec<Resolved>,
    /// The rows searched: the whole vocabulary or its most frequent `restrict_vocab` words.
    n_rows: usize,
    /// The Google analogy set, when the plan asks for its accuracy.
    google: Option<AnalogySet>,
    /// The rows of the pair generation's seed pair and the rows it searches, when it runs.
    pair_seed: Option<(u32, u32)>,
    pair_rows: usize,
    /// The sweep's query (`a:b::c` and its rows) and vocabulary sizes (ascending, the whole
    /// vocabulary last), when it runs.
    sweep: Option<(String, Query)>,
    sweep_sizes: Vec<usize>,
    /// Zhang et al.'s test, when it runs: the rows of man and woman, and per Google section
    /// (`family` left out) its distinct pairs (x, y) in the searched rows.
    zhang: Option<((u32, u32), Vec<SectionPairs>)>,
    /// The query list's coverage row.
    pub coverage: CoverageRow,
    /// Why queries are left out, one line each.
    pub notes: Vec<String>,
}

/// Everything the analogy measures give on one seed, per (solver, constraint) in the order of
/// [`Analogies::combinations`].
pub(crate) struct AnalogySeed {
    /// Per combination, per query: the top answers.
    answers: Vec<Vec<Vec<Answer>>>,
    /// Per combination, per query with a reported answer in vocabulary: its rank (`None`: an
    /// input word, excluded).
    reported: Vec<Vec<Option<u32>>>,
    /// Per combination, when the Google set is used.
    google: Vec<SolverAccuracy>,
    /// Bolukbasi et al.'s generated pairs, best first.
    pairs: Vec<GeneratedPair>,
    /// Per sweep δ, per sweep size: the best answer (`None`: a query word beyond the size).
    sweep: Vec<Vec<Option<Answer>>>,
    /// Zhang et al.'s test: per direction, per constraint, per section, the pairs solved.
    zhang: Vec<Vec<Vec<usize>>>,
}

impl<'p> Analogies<'p> {
    /// Resolves the plan's query list against `vocab` (lowercased on a corpus whose reader
    /// lowercases) and reads the Google set from `google` when the plan asks for its accuracy;
    /// a query with a word outside the searched rows is left out with a note.
    ///
    /// # Errors
    ///
    /// Every query out of vocabulary, or the Google set unreadable.
    pub(crate) fn new(
        plan: &'p Plan,
        lines: Option<&[QueryLine]>,
        google: Option<&Path>,
        corpus: &str,
        vocab: &Vocab<'_>,
    ) -> Result<Option<Analogies<'p>>> {
        let (Some(params), Some(lines)) = (plan.analogies.as_ref(), lines) else {
            return Ok(None);
        };
        let mut notes = Vec::new();
        let n_rows = match params.restrict_vocab {
            Some(n) if n > vocab.len() => {
                notes.push(format!(
                    "corpus `{corpus}`: analogies.restrict_vocab is {n}, the vocabulary has {} words: all are searched",
                    vocab.len()
                ));
                vocab.len()
            }
            Some(n) => n,
            None => vocab.len(),
        };
        let lowercase = lowercases(plan, corpus);
        let id = |w: &str| -> Option<u32> {
            let w = if lowercase { w.to_lowercase() } else { w.to_owned() };
            vocab.id(&w)
        };
        // A word of the rows searched.
        let row = |w: &str| id(w).filter(|&id| (id as usize) < n_rows);
        let mut queries = Vec::new();
        let mut dropped = Vec::new();
        for line in lines {
            let [a, b, c] = &line.words;
            let label = format!("{a}:{b}::{c}");
            match (row(a), row(b), row(c)) {
                (Some(a), Some(b), Some(c)) => queries.push(Resolved {
                    label,
                    query: Query { a, b, c },
                    reported: line.reported.as_ref().map(|r| (r.clone(), row(r))),
                }),
                _ => dropped.push(label),
            }
        }
        let coverage = CoverageRow::of(corpus, &params.queries, "analogy_queries", lines.len(), &dropped);
        if queries.is_empty() {
            anyhow::bail!(
                "corpus `{corpus}`: none of the {} queries of `{}` (analogies.queries) has its three words among the \
                 {n_rows} words searched",
                lines.len(),
                params.queries
            );
        }
        if !dropped.is_empty() {
            notes.push(format!(
                "corpus `{corpus}`: {} of {} analogy queries left out, a word out of vocabulary (see the coverage \
                 table)",
                dropped.len(),
                lines.len()
            ));
        }
        let google = match &google {
            Some(path) if params.google => Some(read_analogies(path)?),
            _ => None,
        };
        let pair_rows = params.pair_restrict_vocab.min(vocab.len());
        let pair_seed = if params.pairs {
            let [s1, s2] = &params.pair_seed;
            let seed_row = |w: &str| id(w).filter(|&id| (id as usize) < pair_rows);
            match (seed_row(s1), seed_row(s2)) {
                (Some(x), Some(y)) => Some((x, y)),
                _ => {
                    notes.push(format!(
                        "corpus `{corpus}`: no pair generation: `{s1}` or `{s2}` (analogies.pair_seed) is not among \
                         the {pair_rows} most frequent words"
                    ));
                    None
                }
            }
        } else {
            None
        };
        let sweep = params.sweep.as_ref().and_then(|[a, b, c]| {
            let label = format!("{a}:{b}::{c}");
            match (id(a), id(b), id(c)) {
                (Some(a), Some(b), Some(c)) => Some((label, Query { a, b, c })),
                _ => {
                    notes.push(format!(
                        "corpus `{corpus}`: no sweep: a word of `{label}` (analogies.sweep) is out of vocabulary"
                    ));
                    None
                }
            }
        });
        let zhang = match (&google, params.zhang) {
            (Some(set), true) => match (row("man"), row("woman")) {
                (Some(man), Some(woman)) => Some(((man, woman), zhang_pairs(set, &row))),
                _ => {
                    notes.push(format!(
                        "corpus `{corpus}`: no Zhang et al. test: `man` or `woman` is not among the words searched"
                    ));
                    None
                }
            },
            _ => None,
        };
        let mut sweep_sizes: Vec<usize> = (params.sweep_sizes.iter().copied())
            .filter(|&n| n < vocab.len())
            .chain([vocab.len()])
            .collect();
        sweep_sizes.sort_unstable();
        sweep_sizes.dedup();
        Ok(Some(Analogies {
            solvers: params.solvers(),
            params,
            queries,
            n_rows,
            google,
            pair_seed,
            pair_rows,
            sweep,
            sweep_sizes,
            zhang,
            coverage,
            notes,
        }))
    }

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
        let queries: Vec<Query> = self.queries.iter().map(|q| q.query).collect();
        let tracked: Vec<(usize, u32)> = (self.queries.iter().enumerate())
            .filter_map(|(i, q)| Some((i, q.reported.as_ref()?.1?)))
            .collect();
        let mut answers = Vec::new();
        let mut reported = Vec::new();
        let tracked_queries: Vec<Query> = tracked.iter().map(|&(i, _)| queries[i]).collect();
        for &solver in &self.solvers {
            let scores = score_all(&space, &tracked_queries, solver)?;
            for constraint in Constraint::BOTH {
                answers.push(solve(&space, &queries, solver, constraint, self.params.top_n)?);
                reported.push(
                    (tracked.iter().zip(&scores))
                        .map(|(&(i, target), scores)| {
                            let q = queries[i];
                            let excluded = match constraint {
                                Constraint::Constrained => vec![q.a, q.b, q.c],
                                Constraint::Unconstrained => Vec::new(),
                            };
                            rank_among(scores, target, &excluded)
                        })
                        .collect(),
                );
            }
        }
        let google = match &self.google {
            Some(set) => {
                let options = EvalOptions {
                    restrict_vocab: self.n_rows,
                    case: CaseHandling::Insensitive,
                };
                google_accuracy(emb, set, &options, &self.solvers).context("Google analogy accuracy")?
            }
            None => Vec::new(),
        };
        let p = self.params;
        let pairs = match self.pair_seed {
            Some(seed) => {
                let options = PairOptions {
                    delta: p.delta,
                    bound: p.delta_bound,
                    n_pairs: p.n_pairs,
                };
                let space = AnalogySpace::new(emb, Some(self.pair_rows))?;
                generate_pairs(&space, seed, &options).context("pair generation")?
            }
            None => Vec::new(),
        };
        let mut sweep = Vec::new();
        if let Some((_, q)) = self.sweep {
            let space = AnalogySpace::new(emb, None)?;
            for &delta in &p.sweep_deltas {
                let solver = Solver::Bolukbasi {
                    delta,
                    bound: p.delta_bound,
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
        }
        let mut zhang = Vec::new();
        if let Some(((man, woman), sections)) = &self.zhang {
            for (from, to) in [(*man, *woman), (*woman, *man)] {
                let queries: Vec<Query> = (sections.iter())
                    .flat_map(|(_, pairs)| pairs.iter().map(|&(x, _)| Query { a: from, b: x, c: to }))
                    .collect();
                let mut by_constraint = Vec::new();
                for constraint in Constraint::BOTH {
                    let answers = solve(&space, &queries, Solver::CosAdd, constraint, 1)?;
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
        }
        Ok(AnalogySeed {
            answers,
            reported,
            google,
            pairs,
            sweep,
            zhang,
        })
    }

    /// The analogy tables of one configuration from the values of its seeds (in seed order).
    pub(crate) fn tables(
        &self,
        corpus: &str,
        algorithm: &str,
        vocab: &Vocab<'_>,
        seeds: &[AnalogySeed],
    ) -> Result<Vec<Table>> {
        let (mut answer_rows, mut reported_rows, mut accuracy_rows) = (Vec::new(), Vec::new(), Vec::new());
        let (mut stability_rows, mut reliability_rows) = (Vec::new(), Vec::new());
        let n_seeds = seeds.len();
        for (k, (solver, constraint)) in self.combinations().enumerate() {
            let (solver, constraint) = (solver.as_str(), constraint.as_str());
            let reliability =
                |measure: &str, value: f64, n_subjects: usize, status: &str| AnalogyReliabilityRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    solver: solver.to_owned(),
                    constraint: constraint.to_owned(),
                    measure: measure.to_owned(),
                    value,
                    n_subjects: n_subjects as u32,
                    n_seeds: n_seeds as u32,
                    status: status.to_owned(),
                };
            for (s, seed) in seeds.iter().enumerate() {
                for (q, answers) in self.queries.iter().zip(&seed.answers[k]) {
                    answer_rows.extend(answers.iter().enumerate().map(|(r, a)| AnalogyAnswerRow {
                        corpus: corpus.to_owned(),
                        algorithm: algorithm.to_owned(),
                        seed: s as u32,
                        query: q.label.clone(),
                        solver: solver.to_owned(),
                        constraint: constraint.to_owned(),
                        rank: r as u32 + 1,
                        answer: vocab.word(a.row).to_owned(),
                        score: a.score,
                    }));
                }
                let mut ranks = seed.reported[k].iter();
                for q in &self.queries {
                    let Some((reported, row)) = &q.reported else {
                        continue;
                    };
                    let (rank, status) = match row.map(|_| ranks.next().copied().flatten()) {
                        None => (0, "out_of_vocabulary"),
                        Some(None) => (0, "excluded"),
                        Some(Some(rank)) => (rank, "ok"),
                    };
                    reported_rows.push(AnalogyReportedRow {
                        corpus: corpus.to_owned(),
                        algorithm: algorithm.to_owned(),
                        seed: s as u32,
                        query: q.label.clone(),
                        solver: solver.to_owned(),
                        constraint: constraint.to_owned(),
                        reported: reported.clone(),
                        rank,
                        status: status.to_owned(),
                    });
                }
                if let Some(acc) = seed.google.get(k) {
                    let row =
                        |section: &str, correct: usize, total: usize, accuracy: f64| AnalogyAccuracyRow {
                            corpus: corpus.to_owned(),
                            algorithm: algorithm.to_owned(),
                            seed: s as u32,
                            solver: solver.to_owned(),
                            constraint: constraint.to_owned(),
                            section: section.to_owned(),
                            correct: correct as u32,
                            total: total as u32,
                            accuracy,
                        };
                    let r = &acc.result;
                    accuracy_rows.extend(r.sections.iter().map(|sec| {
                        let accuracy = sec.correct as f64 / sec.attempted as f64;
                        row(&sec.name, sec.correct, sec.attempted, accuracy)
                    }));
                    accuracy_rows.push(row("micro", r.correct, r.attempted, r.total_accuracy));
                    accuracy_rows.push(row("macro", r.correct, r.attempted, r.macro_accuracy()));
                }
            }
            // Top-1 answers: queries × seeds (`NO_ANSWER` when a space has too few rows).
            let top1: Vec<u32> = (0..self.queries.len())
                .flat_map(|q| {
                    seeds
                        .iter()
                        .map(move |seed| seed.answers[k][q].first().map_or(NO_ANSWER, |a| a.row))
                })
                .collect();
            let agreement = answer_agreement(&top1, self.queries.len(), n_seeds);
            for (q, modal) in self.queries.iter().zip(&agreement.queries) {
                stability_rows.push(AnalogyStabilityRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    query: q.label.clone(),
                    solver: solver.to_owned(),
                    constraint: constraint.to_owned(),
                    modal_answer: if modal.answer == NO_ANSWER {
                        String::new()
                    } else {
                        vocab.word(modal.answer).to_owned()
                    },
                    modal_share: modal.share,
                    n_distinct: modal.n_distinct as u32,
                    n_seeds: n_seeds as u32,
                });
            }
            let kappa = &agreement.kappa;
            reliability_rows.push(reliability(
                "top1_kappa",
                kappa.value,
                kappa.n_subjects,
                kappa.status.as_str(),
            ));
            // Google sections with questions: sections × seeds.
            if seeds.first().is_some_and(|s| !s.google.is_empty()) {
                let sections: Vec<usize> = (0..seeds[0].google[k].result.sections.len())
                    .filter(|&i| seeds[0].google[k].result.sections[i].attempted > 0)
                    .collect();
                let m: Vec<f64> = (sections.iter())
                    .flat_map(|&i| {
                        seeds.iter().map(move |seed| {
                            let sec = &seed.google[k].result.sections[i];
                            sec.correct as f64 / sec.attempted as f64
                        })
                    })
                    .collect();
                let icc = seeds_icc(&m, sections.len(), n_seeds);
                reliability_rows.push(reliability(
                    "section_accuracy_icc",
                    icc.value,
                    sections.len(),
                    icc.status.as_str(),
                ));
            }
        }
        let (mut pair_rows, mut sweep_rows) = (Vec::new(), Vec::new());
        for (s, seed) in seeds.iter().enumerate() {
            pair_rows.extend(seed.pairs.iter().enumerate().map(|(r, pair)| AnalogyPairRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                seed: s as u32,
                rank: r as u32 + 1,
                x: vocab.word(pair.x).to_owned(),
                y: vocab.word(pair.y).to_owned(),
                score: pair.score,
                distance: pair.distance,
            }));
            let Some((label, _)) = &self.sweep else {
                continue;
            };
            for (&delta, answers) in self.params.sweep_deltas.iter().zip(&seed.sweep) {
                for (&n, answer) in self.sweep_sizes.iter().zip(answers) {
                    sweep_rows.push(AnalogySweepRow {
                        corpus: corpus.to_owned(),
                        algorithm: algorithm.to_owned(),
                        seed: s as u32,
                        query: label.clone(),
                        restrict_vocab: n as u32,
                        delta,
                        answer: answer.map_or_else(String::new, |a| vocab.word(a.row).to_owned()),
                        score: answer.map_or(f64::NAN, |a| a.score),
                        status: if answer.is_some() {
                            "ok"
                        } else {
                            "out_of_vocabulary"
                        }
                        .to_owned(),
                    });
                }
            }
        }
        let mut zhang_rows = Vec::new();
        if let Some((_, sections)) = &self.zhang {
            for (s, seed) in seeds.iter().enumerate() {
                for (direction, by_constraint) in ZHANG_DIRECTIONS.iter().zip(&seed.zhang) {
                    for (constraint, solved) in Constraint::BOTH.iter().zip(by_constraint) {
                        let row = |section: &str, solved: usize, total: usize| AnalogyZhangRow {
                            corpus: corpus.to_owned(),
                            algorithm: algorithm.to_owned(),
                            seed: s as u32,
                            direction: (*direction).to_owned(),
                            constraint: constraint.as_str().to_owned(),
                            section: section.to_owned(),
                            solved: solved as u32,
                            total: total as u32,
                            share: solved as f64 / total as f64,
                        };
                        for ((name, pairs), &n) in sections.iter().zip(solved) {
                            zhang_rows.push(row(name, n, pairs.len()));
                        }
                        let total = sections.iter().map(|(_, p)| p.len()).sum();
                        zhang_rows.push(row("all", solved.iter().sum(), total));
                    }
                }
            }
        }
        if self.pair_seed.is_some() {
            let sets: Vec<Vec<(u32, u32)>> = (seeds.iter())
                .map(|s| s.pairs.iter().map(|p| (p.x, p.y)).collect())
                .collect();
            let overlap = pair_overlap(&sets);
            let row = |measure: &str, value: f64| AnalogyReliabilityRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                solver: "bolukbasi".to_owned(),
                constraint: String::new(),
                measure: measure.to_owned(),
                value,
                n_subjects: overlap.n_distinct as u32,
                n_seeds: n_seeds as u32,
                status: if value.is_nan() { "too_few_raters" } else { "ok" }.to_owned(),
            };
            reliability_rows.push(row("pair_jaccard", overlap.mean_jaccard));
            reliability_rows.push(row("pairs_in_half_of_seeds", overlap.share_in_half));
        }
        Ok(vec![
            Table::of(names::ANALOGY_ANSWERS, &answer_rows)?,
            Table::of(names::ANALOGY_REPORTED, &reported_rows)?,
            Table::of(names::ANALOGY_ACCURACY, &accuracy_rows)?,
            Table::of(names::ANALOGY_STABILITY, &stability_rows)?,
            Table::of(names::ANALOGY_RELIABILITY, &reliability_rows)?,
            Table::of(names::ANALOGY_PAIRS, &pair_rows)?,
            Table::of(names::ANALOGY_SWEEP, &sweep_rows)?,
            Table::of(names::ANALOGY_ZHANG, &zhang_rows)?,
        ])
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

/// The distinct word pairs (x, y) of every Google section but `family`, in file order, both
/// words among the searched rows (`row`); sections without such a pair are left out.
fn zhang_pairs(set: &AnalogySet, row: &impl Fn(&str) -> Option<u32>) -> Vec<SectionPairs> {
    (set.sections.iter())
        .filter(|s| s.name != GENDERED_SECTION)
        .filter_map(|s| {
            let mut pairs: Vec<(u32, u32)> = Vec::new();
            for [a, b, c, d] in &s.questions {
                for (x, y) in [(a, b), (c, d)] {
                    if let (Some(x), Some(y)) = (row(x), row(y))
                        && !pairs.contains(&(x, y))
                    {
                        pairs.push((x, y));
                    }
                }
            }
            (!pairs.is_empty()).then(|| (s.name.clone(), pairs))
        })
        .collect()
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
