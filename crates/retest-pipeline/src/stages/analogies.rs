//! The analogy stage of a measure job (a plan's `analogies` section): on every seed, each
//! solver's top answers to the query list, constrained and unconstrained, the rank of the answer
//! a paper reports, and the accuracy on the Google analogy set; across seeds, how often the seeds
//! give the same top answer (Fleiss' κ, the modal answer of each query), the test-retest ICC
//! of the Google sections' accuracies and the overlap of the generated pairs — designs of
//! retest-analyses (`top1_agreement`, `section_accuracy_icc`, `pair_overlap`), which this stage
//! feeds and labels.

use std::path::Path;

use anyhow::{Context, Result};
use retest_analyses::{
    AnswerAgreement, PairOverlap, SectionsIcc, Tally, pair_overlap, section_accuracy_icc, top1_agreement,
};
use retest_embeddings::Embeddings;
use retest_eval::{
    AnalogySet, CaseHandling, EvalOptions, SectionResult, SolverAccuracy, google_accuracy, read_analogies,
};
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

/// A Google section's name and its word pairs (x, y) as rows.
type SectionPairs = (String, Vec<(u32, u32)>);

/// Per combination, per query: the top answers.
type TopAnswers = Vec<Vec<Vec<Answer>>>;

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
    answers: TopAnswers,
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

/// Looks words up in a corpus's vocabulary, lowercased on a corpus whose reader lowercases.
struct Lookup<'v, 'w> {
    vocab: &'v Vocab<'w>,
    lowercase: bool,
}

impl Lookup<'_, '_> {
    /// The word's row.
    fn id(&self, word: &str) -> Option<u32> {
        if self.lowercase {
            self.vocab.id(&word.to_lowercase())
        } else {
            self.vocab.id(word)
        }
    }

    /// The word's row when it is among the `n_rows` most frequent words.
    fn among(&self, word: &str, n_rows: usize) -> Option<u32> {
        self.id(word).filter(|&id| (id as usize) < n_rows)
    }
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
        let words = Lookup {
            vocab,
            lowercase: lowercases(plan, corpus),
        };
        Analogies::resolve(params, lines, google, corpus, &words).map(Some)
    }

    /// [`Analogies::new`] for the plan's `analogies` section `params` and its query list.
    fn resolve(
        params: &'p AnalogyParams,
        lines: &[QueryLine],
        google: Option<&Path>,
        corpus: &str,
        words: &Lookup<'_, '_>,
    ) -> Result<Analogies<'p>> {
        let n_words = words.vocab.len();
        let mut notes = Vec::new();
        let n_rows = searched_rows(params.restrict_vocab, n_words, corpus, &mut notes);
        let (queries, coverage) = resolve_queries(params, lines, corpus, n_rows, words, &mut notes)?;
        let google = match google {
            Some(path) if params.google => Some(read_analogies(path)?),
            _ => None,
        };
        let pair_rows = params.pair_restrict_vocab.min(n_words);
        let pair_seed = (params.pairs)
            .then(|| resolve_pair_seed(&params.pair_seed, pair_rows, corpus, words, &mut notes))
            .flatten();
        let sweep = (params.sweep.as_ref()).and_then(|sweep| resolve_sweep(sweep, corpus, words, &mut notes));
        let zhang = match (&google, params.zhang) {
            (Some(set), true) => resolve_zhang(set, n_rows, corpus, words, &mut notes),
            _ => None,
        };
        Ok(Analogies {
            solvers: params.solvers(),
            params,
            queries,
            n_rows,
            google,
            pair_seed,
            pair_rows,
            sweep,
            sweep_sizes: sweep_sizes(&params.sweep_sizes, n_words),
            zhang,
            coverage,
            notes,
        })
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
        let (answers, reported) = self.query_answers(&space)?;
        Ok(AnalogySeed {
            answers,
            reported,
            google: self.google_accuracy(emb)?,
            pairs: self.generated_pairs(emb)?,
            sweep: self.sweep_answers(emb)?,
            zhang: self.zhang_solved(&space)?,
        })
    }

    /// Per combination, every query's top answers, and the rank of every reported answer in
    /// vocabulary (`None`: an input word, excluded).
    fn query_answers(&self, space: &AnalogySpace) -> Result<(TopAnswers, Vec<Vec<Option<u32>>>)> {
        let queries: Vec<Query> = self.queries.iter().map(|q| q.query).collect();
        let tracked: Vec<(usize, u32)> = (self.queries.iter().enumerate())
            .filter_map(|(i, q)| Some((i, q.reported.as_ref()?.1?)))
            .collect();
        let mut answers = Vec::new();
        let mut reported = Vec::new();
        let tracked_queries: Vec<Query> = tracked.iter().map(|&(i, _)| queries[i]).collect();
        for &solver in &self.solvers {
            let scores = score_all(space, &tracked_queries, solver)?;
            for constraint in Constraint::BOTH {
                answers.push(solve(space, &queries, solver, constraint, self.params.top_n)?);
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
        Ok((answers, reported))
    }

    /// Every combination's accuracy on the Google set, when it is used.
    fn google_accuracy(&self, emb: &Embeddings) -> Result<Vec<SolverAccuracy>> {
        let Some(set) = &self.google else {
            return Ok(Vec::new());
        };
        let options = EvalOptions {
            restrict_vocab: self.n_rows,
            case: CaseHandling::Insensitive,
        };
        google_accuracy(emb, set, &options, &self.solvers).context("Google analogy accuracy")
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
        let space = AnalogySpace::new(emb, Some(self.pair_rows))?;
        generate_pairs(&space, seed, &options).context("pair generation")
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
                let answers = solve(space, &queries, Solver::CosAdd, constraint, 1)?;
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

    /// The analogy tables of one configuration from the values of its seeds (in seed order).
    pub(crate) fn tables(
        &self,
        corpus: &str,
        algorithm: &str,
        vocab: &Vocab<'_>,
        seeds: &[AnalogySeed],
    ) -> Result<Vec<Table>> {
        let top1: Vec<_> = seeds.iter().map(AnalogySeed::top1).collect();
        let tallies: Vec<_> = seeds.iter().map(AnalogySeed::tallies).collect();
        let pair_sets: Vec<_> = seeds.iter().map(AnalogySeed::pair_set).collect();
        let across = AcrossSeeds {
            agreement: top1_agreement(&top1),
            sections: section_accuracy_icc(&tallies),
            pairs: self.pair_seed.map(|_| pair_overlap(&pair_sets)),
        };
        let rows = Rows {
            analogies: self,
            corpus,
            algorithm,
            vocab,
            seeds,
        };
        Ok(vec![
            Table::of(names::ANALOGY_ANSWERS, &rows.answers())?,
            Table::of(names::ANALOGY_REPORTED, &rows.reported())?,
            Table::of(names::ANALOGY_ACCURACY, &rows.accuracy())?,
            Table::of(names::ANALOGY_STABILITY, &rows.stability(&across))?,
            Table::of(names::ANALOGY_RELIABILITY, &rows.reliability(&across))?,
            Table::of(names::ANALOGY_PAIRS, &rows.pairs())?,
            Table::of(names::ANALOGY_SWEEP, &rows.sweep())?,
            Table::of(names::ANALOGY_ZHANG, &rows.zhang())?,
        ])
    }
}

// Resolving the plan's lists against the vocabulary.

/// The rows searched: the most frequent `restrict_vocab` words, or all `n_words` (with a note
/// when `restrict_vocab` exceeds them).
fn searched_rows(
    restrict_vocab: Option<usize>,
    n_words: usize,
    corpus: &str,
    notes: &mut Vec<String>,
) -> usize {
    match restrict_vocab {
        Some(n) if n > n_words => {
            notes.push(format!(
                "corpus `{corpus}`: analogies.restrict_vocab is {n}, the vocabulary has {n_words} words: all are searched"
            ));
            n_words
        }
        Some(n) => n,
        None => n_words,
    }
}

/// The queries of `lines` with their three words among the `n_rows` searched, and the list's
/// coverage row; a note when some are left out.
///
/// # Errors
///
/// No query left.
fn resolve_queries(
    params: &AnalogyParams,
    lines: &[QueryLine],
    corpus: &str,
    n_rows: usize,
    words: &Lookup<'_, '_>,
    notes: &mut Vec<String>,
) -> Result<(Vec<Resolved>, CoverageRow)> {
    let row = |w: &str| words.among(w, n_rows);
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
    Ok((queries, coverage))
}

/// The rows of the pair generation's seed pair, both among the `pair_rows` most frequent words;
/// otherwise none, with a note.
fn resolve_pair_seed(
    [s1, s2]: &[String; 2],
    pair_rows: usize,
    corpus: &str,
    words: &Lookup<'_, '_>,
    notes: &mut Vec<String>,
) -> Option<(u32, u32)> {
    match (words.among(s1, pair_rows), words.among(s2, pair_rows)) {
        (Some(x), Some(y)) => Some((x, y)),
        _ => {
            notes.push(format!(
                "corpus `{corpus}`: no pair generation: `{s1}` or `{s2}` (analogies.pair_seed) is not among the \
                 {pair_rows} most frequent words"
            ));
            None
        }
    }
}

/// The sweep's query, labelled `a:b::c`, its words in the vocabulary; otherwise none, with a
/// note.
fn resolve_sweep(
    [a, b, c]: &[String; 3],
    corpus: &str,
    words: &Lookup<'_, '_>,
    notes: &mut Vec<String>,
) -> Option<(String, Query)> {
    let label = format!("{a}:{b}::{c}");
    match (words.id(a), words.id(b), words.id(c)) {
        (Some(a), Some(b), Some(c)) => Some((label, Query { a, b, c })),
        _ => {
            notes.push(format!(
                "corpus `{corpus}`: no sweep: a word of `{label}` (analogies.sweep) is out of vocabulary"
            ));
            None
        }
    }
}

/// Zhang et al.'s test on the Google set: the rows of man and woman and the sections' pairs,
/// all among the `n_rows` searched; none, with a note, without man or woman.
fn resolve_zhang(
    set: &AnalogySet,
    n_rows: usize,
    corpus: &str,
    words: &Lookup<'_, '_>,
    notes: &mut Vec<String>,
) -> Option<((u32, u32), Vec<SectionPairs>)> {
    let row = |w: &str| words.among(w, n_rows);
    match (row("man"), row("woman")) {
        (Some(man), Some(woman)) => Some(((man, woman), zhang_pairs(set, &row))),
        _ => {
            notes.push(format!(
                "corpus `{corpus}`: no Zhang et al. test: `man` or `woman` is not among the words searched"
            ));
            None
        }
    }
}

/// The sweep's vocabulary sizes: those of `sizes` below `n_words`, and `n_words`, ascending.
fn sweep_sizes(sizes: &[usize], n_words: usize) -> Vec<usize> {
    let mut sizes: Vec<usize> = (sizes.iter().copied())
        .filter(|&n| n < n_words)
        .chain([n_words])
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
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

// The inputs of the designs across seeds (retest-analyses), read from one seed's values.

impl AnalogySeed {
    /// Per combination, per query: the best answer's row (`None`: no answer, in a space of at
    /// most three rows, constrained).
    fn top1(&self) -> Vec<Vec<Option<u32>>> {
        (self.answers.iter())
            .map(|queries| queries.iter().map(|a| a.first().map(|a| a.row)).collect())
            .collect()
    }

    /// Per combination, the Google sections' counts (none without the Google set).
    fn tallies(&self) -> Vec<Vec<Tally>> {
        (self.google.iter())
            .map(|acc| acc.result.sections.iter().map(tally).collect())
            .collect()
    }

    /// The generated pairs (x, y).
    fn pair_set(&self) -> Vec<(u32, u32)> {
        self.pairs.iter().map(|p| (p.x, p.y)).collect()
    }
}

/// A Google section's counts on one seed.
fn tally(section: &SectionResult) -> Tally {
    Tally {
        correct: section.correct,
        attempted: section.attempted,
    }
}

/// What the designs across seeds give a configuration.
struct AcrossSeeds {
    /// Per combination, the seeds' agreement on the top-1 answers.
    agreement: Vec<AnswerAgreement>,
    /// Per combination, the ICC of the Google sections' accuracies (none without the set).
    sections: Vec<SectionsIcc>,
    /// The overlap of the seeds' generated pairs, when they are generated.
    pairs: Option<PairOverlap>,
}

// Labelling: the values of a configuration's seeds as table rows.

/// The rows of a configuration's analogy tables: every seed's values, labelled with the
/// corpus's and model's names and the vocabulary's words.
struct Rows<'a> {
    analogies: &'a Analogies<'a>,
    corpus: &'a str,
    algorithm: &'a str,
    vocab: &'a Vocab<'a>,
    seeds: &'a [AnalogySeed],
}

impl Rows<'_> {
    /// Per combination, seed and query: the top answers, best first.
    fn answers(&self) -> Vec<AnalogyAnswerRow> {
        let mut rows = Vec::new();
        for (k, (solver, constraint)) in self.analogies.combinations().enumerate() {
            for (s, seed) in self.seeds.iter().enumerate() {
                for (q, answers) in self.analogies.queries.iter().zip(&seed.answers[k]) {
                    rows.extend(answers.iter().enumerate().map(|(r, a)| AnalogyAnswerRow {
                        corpus: self.corpus.to_owned(),
                        algorithm: self.algorithm.to_owned(),
                        seed: s as u32,
                        query: q.label.clone(),
                        solver: solver.as_str().to_owned(),
                        constraint: constraint.as_str().to_owned(),
                        rank: r as u32 + 1,
                        answer: self.vocab.word(a.row).to_owned(),
                        score: a.score,
                    }));
                }
            }
        }
        rows
    }

    /// Per combination, seed and query with a reported answer: the answer's rank.
    fn reported(&self) -> Vec<AnalogyReportedRow> {
        let mut rows = Vec::new();
        for (k, (solver, constraint)) in self.analogies.combinations().enumerate() {
            for (s, seed) in self.seeds.iter().enumerate() {
                let mut ranks = seed.reported[k].iter();
                for q in &self.analogies.queries {
                    let Some((reported, row)) = &q.reported else {
                        continue;
                    };
                    let (rank, status) = match row.map(|_| ranks.next().copied().flatten()) {
                        None => (0, "out_of_vocabulary"),
                        Some(None) => (0, "excluded"),
                        Some(Some(rank)) => (rank, "ok"),
                    };
                    rows.push(AnalogyReportedRow {
                        corpus: self.corpus.to_owned(),
                        algorithm: self.algorithm.to_owned(),
                        seed: s as u32,
                        query: q.label.clone(),
                        solver: solver.as_str().to_owned(),
                        constraint: constraint.as_str().to_owned(),
                        reported: reported.clone(),
                        rank,
                        status: status.to_owned(),
                    });
                }
            }
        }
        rows
    }

    /// Per combination and seed, the Google set's accuracy per section, micro and macro.
    fn accuracy(&self) -> Vec<AnalogyAccuracyRow> {
        let mut rows = Vec::new();
        for (k, (solver, constraint)) in self.analogies.combinations().enumerate() {
            for (s, seed) in self.seeds.iter().enumerate() {
                let Some(acc) = seed.google.get(k) else {
                    continue;
                };
                let row = |section: &str, correct: usize, total: usize, accuracy: f64| AnalogyAccuracyRow {
                    corpus: self.corpus.to_owned(),
                    algorithm: self.algorithm.to_owned(),
                    seed: s as u32,
                    solver: solver.as_str().to_owned(),
                    constraint: constraint.as_str().to_owned(),
                    section: section.to_owned(),
                    correct: correct as u32,
                    total: total as u32,
                    accuracy,
                };
                let r = &acc.result;
                rows.extend(r.sections.iter().map(|sec| {
                    let t = tally(sec);
                    row(&sec.name, t.correct, t.attempted, t.accuracy())
                }));
                rows.push(row("micro", r.correct, r.attempted, r.total_accuracy));
                rows.push(row("macro", r.correct, r.attempted, r.macro_accuracy()));
            }
        }
        rows
    }

    /// Per combination and query, the seeds' modal top-1 answer.
    fn stability(&self, across: &AcrossSeeds) -> Vec<AnalogyStabilityRow> {
        let mut rows = Vec::new();
        for ((solver, constraint), agreement) in self.analogies.combinations().zip(&across.agreement) {
            for (q, modal) in self.analogies.queries.iter().zip(&agreement.queries) {
                rows.push(AnalogyStabilityRow {
                    corpus: self.corpus.to_owned(),
                    algorithm: self.algorithm.to_owned(),
                    query: q.label.clone(),
                    solver: solver.as_str().to_owned(),
                    constraint: constraint.as_str().to_owned(),
                    modal_answer: modal
                        .answer
                        .map_or_else(String::new, |a| self.vocab.word(a).to_owned()),
                    modal_share: modal.share,
                    n_distinct: modal.n_distinct as u32,
                    n_seeds: self.seeds.len() as u32,
                });
            }
        }
        rows
    }

    /// Per combination, the top-1 κ and the section accuracies' ICC; then the generated pairs'
    /// overlap.
    fn reliability(&self, across: &AcrossSeeds) -> Vec<AnalogyReliabilityRow> {
        let row =
            |solver: &str, constraint: &str, measure: &str, value: f64, n_subjects: usize, status: &str| {
                AnalogyReliabilityRow {
                    corpus: self.corpus.to_owned(),
                    algorithm: self.algorithm.to_owned(),
                    solver: solver.to_owned(),
                    constraint: constraint.to_owned(),
                    measure: measure.to_owned(),
                    value,
                    n_subjects: n_subjects as u32,
                    n_seeds: self.seeds.len() as u32,
                    status: status.to_owned(),
                }
            };
        let mut rows = Vec::new();
        for (k, ((solver, constraint), agreement)) in
            self.analogies.combinations().zip(&across.agreement).enumerate()
        {
            let (solver, constraint) = (solver.as_str(), constraint.as_str());
            let kappa = &agreement.kappa;
            rows.push(row(
                solver,
                constraint,
                "top1_kappa",
                kappa.value,
                kappa.n_subjects,
                kappa.status.as_str(),
            ));
            if let Some(sections) = across.sections.get(k) {
                let icc = &sections.icc;
                rows.push(row(
                    solver,
                    constraint,
                    "section_accuracy_icc",
                    icc.value,
                    sections.n_sections,
                    icc.status.as_str(),
                ));
            }
        }
        if let Some(overlap) = &across.pairs {
            let status = |value: f64| if value.is_nan() { "too_few_raters" } else { "ok" };
            for (measure, value) in [
                ("pair_jaccard", overlap.mean_jaccard),
                ("pairs_in_half_of_seeds", overlap.share_in_half),
            ] {
                rows.push(row(
                    "bolukbasi",
                    "",
                    measure,
                    value,
                    overlap.n_distinct,
                    status(value),
                ));
            }
        }
        rows
    }

    /// Per seed, the generated pairs, best first.
    fn pairs(&self) -> Vec<AnalogyPairRow> {
        let mut rows = Vec::new();
        for (s, seed) in self.seeds.iter().enumerate() {
            rows.extend(seed.pairs.iter().enumerate().map(|(r, pair)| AnalogyPairRow {
                corpus: self.corpus.to_owned(),
                algorithm: self.algorithm.to_owned(),
                seed: s as u32,
                rank: r as u32 + 1,
                x: self.vocab.word(pair.x).to_owned(),
                y: self.vocab.word(pair.y).to_owned(),
                score: pair.score,
                distance: pair.distance,
            }));
        }
        rows
    }

    /// Per seed, δ and vocabulary size: the sweep's best answer.
    fn sweep(&self) -> Vec<AnalogySweepRow> {
        let mut rows = Vec::new();
        let Some((label, _)) = &self.analogies.sweep else {
            return rows;
        };
        for (s, seed) in self.seeds.iter().enumerate() {
            for (&delta, answers) in self.analogies.params.sweep_deltas.iter().zip(&seed.sweep) {
                for (&n, answer) in self.analogies.sweep_sizes.iter().zip(answers) {
                    rows.push(AnalogySweepRow {
                        corpus: self.corpus.to_owned(),
                        algorithm: self.algorithm.to_owned(),
                        seed: s as u32,
                        query: label.clone(),
                        restrict_vocab: n as u32,
                        delta,
                        answer: answer.map_or_else(String::new, |a| self.vocab.word(a.row).to_owned()),
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
        rows
    }

    /// Per seed, direction and constraint: Zhang et al.'s pairs solved per section and in all.
    fn zhang(&self) -> Vec<AnalogyZhangRow> {
        let mut rows = Vec::new();
        let Some((_, sections)) = &self.analogies.zhang else {
            return rows;
        };
        for (s, seed) in self.seeds.iter().enumerate() {
            for (direction, by_constraint) in ZHANG_DIRECTIONS.iter().zip(&seed.zhang) {
                for (constraint, solved) in Constraint::BOTH.iter().zip(by_constraint) {
                    let row = |section: &str, solved: usize, total: usize| AnalogyZhangRow {
                        corpus: self.corpus.to_owned(),
                        algorithm: self.algorithm.to_owned(),
                        seed: s as u32,
                        direction: (*direction).to_owned(),
                        constraint: constraint.as_str().to_owned(),
                        section: section.to_owned(),
                        solved: solved as u32,
                        total: total as u32,
                        share: solved as f64 / total as f64,
                    };
                    for ((name, pairs), &n) in sections.iter().zip(solved) {
                        rows.push(row(name, n, pairs.len()));
                    }
                    let total = sections.iter().map(|(_, p)| p.len()).sum();
                    rows.push(row("all", solved.iter().sum(), total));
                }
            }
        }
        rows
    }
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

#[cfg(test)]
mod tests;
