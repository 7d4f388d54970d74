//! Word-analogy evaluation with 3CosAdd, as gensim's `KeyedVectors.evaluate_word_analogies`
//! computes it, with an exact nearest-neighbour search batched into matrix products.

use retest_embeddings::Embeddings;
use retest_measures::{AnalogySpace, Constraint, Query, SolveError, Solver, TopK, rank};
use serde::Serialize;

use crate::vocab::Lookup;
use crate::{AnalogySet, EvalOptions};

/// The result of an analogy benchmark.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalogyResult {
    /// `correct / attempted` over all sections (gensim's "Total accuracy"); NaN when nothing was
    /// attempted (gensim reports 0.0), serialised as `null`.
    pub total_accuracy: f64,
    /// Questions answered correctly.
    pub correct: usize,
    /// Questions with all four words in the (restricted) vocabulary.
    pub attempted: usize,
    /// Questions skipped because a word is out of vocabulary.
    pub skipped: usize,
    /// Per section, in file order.
    pub sections: Vec<SectionResult>,
}

/// The result of one analogy section.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SectionResult {
    /// The section name (`capital-common-countries`, …).
    pub name: String,
    /// Questions answered correctly.
    pub correct: usize,
    /// Questions with all four words in the vocabulary.
    pub attempted: usize,
    /// Questions skipped because a word is out of vocabulary.
    pub skipped: usize,
}

impl AnalogyResult {
    /// The mean of the accuracies of the sections with an attempted question (Nissim et al.
    /// 2020's "macro"); NaN when no section has one.
    pub fn macro_accuracy(&self) -> f64 {
        let accuracies: Vec<f64> = self
            .sections
            .iter()
            .filter(|s| s.attempted > 0)
            .map(SectionResult::accuracy)
            .collect();
        if accuracies.is_empty() {
            f64::NAN
        } else {
            accuracies.iter().sum::<f64>() / accuracies.len() as f64
        }
    }
}

impl SectionResult {
    /// `correct / attempted`, NaN when nothing was attempted.
    pub fn accuracy(&self) -> f64 {
        ratio(self.correct, self.attempted)
    }
}

fn ratio(correct: usize, attempted: usize) -> f64 {
    if attempted == 0 {
        f64::NAN
    } else {
        correct as f64 / attempted as f64
    }
}

/// [`evaluate_analogies_with`] with gensim's defaults, [`EvalOptions::GENSIM`].
pub fn evaluate_analogies(emb: &Embeddings, questions: &AnalogySet) -> AnalogyResult {
    evaluate_analogies_with(emb, questions, &EvalOptions::GENSIM)
}

/// Answers every question `a : b :: c : ?` with 3CosAdd, as gensim 4's
/// `evaluate_word_analogies(restrict_vocab, case_insensitive, dummy4unknown=False)`:
///
/// * a question is attempted when its four words are among the first `restrict_vocab` rows (with
///   [`crate::CaseHandling::Insensitive`], upper-cased, each standing for the most frequent row of
///   its upper-cased form); otherwise it is skipped;
/// * with unit vectors â, b̂, ĉ, the query is q = (b̂ + ĉ − â)/‖b̂ + ĉ − â‖ and the candidates are
///   the rows `r < restrict_vocab` by descending cos(r, q) (ties: lower row first), the three
///   question rows removed; of the first five, the answer is the first whose upper-cased word is
///   none of the question's `a`, `b`, `c` (or, if all five are, the fifth, as gensim does);
/// * the answer is correct when its upper-cased word is `d`'s.
///
/// Zero vectors have cosine 0 with everything (gensim divides by a zero norm and gets NaN).
/// The search is exact: it is [`crate::solve`]'s 3CosAdd (blocks of questions multiplied with
/// blocks of the unit-vector matrix, faer GEMM, `f32`), keeping a running top 8 per question;
/// blocks of questions run in parallel on rayon's pool, which does not change any result.
/// [`google_accuracy`] gives the same numbers for 3CosAdd constrained, beside the other solvers.
pub fn evaluate_analogies_with(
    emb: &Embeddings,
    questions: &AnalogySet,
    options: &EvalOptions,
) -> AnalogyResult {
    analogies_with_lookup(emb, &Lookup::new(emb, options), questions)
}

/// Candidates kept per question: gensim's `topn=5` plus the three question words.
const TOP: usize = 8;

/// A question whose words are all in the vocabulary, as the rows standing for them.
#[derive(Clone, Copy, Debug)]
struct Question {
    a: u32,
    b: u32,
    c: u32,
    expected: u32,
    section: usize,
}

/// The accuracy of one solver under one constraint on an analogy set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolverAccuracy {
    pub solver: Solver,
    pub constraint: Constraint,
    /// Micro accuracy in `total_accuracy`, per-section counts in `sections`, macro accuracy from
    /// [`AnalogyResult::macro_accuracy`].
    pub result: AnalogyResult,
}

/// Every solver of `solvers`, constrained and unconstrained, on an analogy set (the Google set,
/// `questions-words.txt`, in Nissim et al. 2020's Table 1): one [`SolverAccuracy`] per
/// (solver, constraint), in the order of `solvers`, constrained first.
///
/// Questions are looked up and skipped as [`evaluate_analogies_with`] does, and candidates are
/// the first `restrict_vocab` rows. Constrained, the answer is chosen among the best candidates
/// other than the question rows as [`evaluate_analogies_with`] chooses it (gensim's rule for
/// case variants), so 3CosAdd constrained gives exactly its numbers; unconstrained, the answer is
/// the best candidate (standing for its upper-cased form when matching case-insensitively),
/// which may be a question word.
///
/// # Errors
///
/// A solver parameter is out of range.
pub fn google_accuracy(
    emb: &Embeddings,
    questions: &AnalogySet,
    options: &EvalOptions,
    solvers: &[Solver],
) -> Result<Vec<SolverAccuracy>, SolveError> {
    for solver in solvers {
        solver.check()?;
    }
    let lookup = Lookup::new(emb, options);
    let prepared = prepare(emb, &lookup, questions);
    Ok(solvers
        .iter()
        .flat_map(|&solver| {
            let [constrained, unconstrained] = prepared.answer(solver);
            [
                SolverAccuracy {
                    solver,
                    constraint: Constraint::Constrained,
                    result: prepared.tally(&constrained),
                },
                SolverAccuracy {
                    solver,
                    constraint: Constraint::Unconstrained,
                    result: prepared.tally(&unconstrained),
                },
            ]
        })
        .collect())
}

/// An analogy set resolved against one vocabulary.
struct Prepared {
    sections: Vec<SectionResult>,
    questions: Vec<Question>,
    space: AnalogySpace,
    representative: Vec<u32>,
}

fn prepare(emb: &Embeddings, lookup: &Lookup, set: &AnalogySet) -> Prepared {
    let mut sections: Vec<SectionResult> = set
        .sections
        .iter()
        .map(|s| SectionResult {
            name: s.name.clone(),
            correct: 0,
            attempted: 0,
            skipped: 0,
        })
        .collect();
    let mut questions = Vec::new();
    for (section, s) in set.sections.iter().enumerate() {
        for [a, b, c, d] in &s.questions {
            match (lookup.get(a), lookup.get(b), lookup.get(c), lookup.get(d)) {
                (Some(a), Some(b), Some(c), Some(expected)) => {
                    questions.push(Question {
                        a,
                        b,
                        c,
                        expected,
                        section,
                    });
                    sections[section].attempted += 1;
                }
                _ => sections[section].skipped += 1,
            }
        }
    }
    let n_rows = if questions.is_empty() { 0 } else { lookup.n_rows() };
    Prepared {
        sections,
        questions,
        space: AnalogySpace::first_rows(emb, n_rows),
        representative: lookup.representatives(emb),
    }
}

impl Prepared {
    /// Each question's answer (as the row standing for the predicted word), constrained and
    /// unconstrained.
    fn answer(&self, solver: Solver) -> [Vec<Option<u32>>; 2] {
        let queries: Vec<Query> = self
            .questions
            .iter()
            .map(|q| Query {
                a: q.a,
                b: q.b,
                c: q.c,
            })
            .collect();
        let tops = if queries.is_empty() {
            Vec::new()
        } else {
            rank(&self.space, &queries, solver, TOP, self.space.n_rows())
        };
        let constrained = self
            .questions
            .iter()
            .zip(&tops)
            .map(|(q, top)| choose(q, top, &self.representative))
            .collect();
        let unconstrained = tops
            .iter()
            .map(|top| top.rows().next().map(|r| self.representative[r as usize]))
            .collect();
        [constrained, unconstrained]
    }

    fn tally(&self, answers: &[Option<u32>]) -> AnalogyResult {
        let mut sections = self.sections.clone();
        for (q, answer) in self.questions.iter().zip(answers) {
            if *answer == Some(q.expected) {
                sections[q.section].correct += 1;
            }
        }
        let correct = sections.iter().map(|s| s.correct).sum();
        let attempted = sections.iter().map(|s| s.attempted).sum();
        AnalogyResult {
            total_accuracy: ratio(correct, attempted),
            correct,
            attempted,
            skipped: sections.iter().map(|s| s.skipped).sum(),
            sections,
        }
    }
}

pub(crate) fn analogies_with_lookup(emb: &Embeddings, lookup: &Lookup, set: &AnalogySet) -> AnalogyResult {
    let prepared = prepare(emb, lookup, set);
    let [constrained, _] = prepared.answer(Solver::CosAdd);
    prepared.tally(&constrained)
}

/// gensim's choice among the candidates: drop the question rows, keep five, take the first whose
/// word (upper-cased) is not a question word; if there is none, the last one.
fn choose(q: &Question, top: &TopK, representative: &[u32]) -> Option<u32> {
    let inputs = [q.a, q.b, q.c];
    let mut answer = None;
    for row in top.rows().filter(|r| !inputs.contains(r)).take(5) {
        let word = representative[row as usize];
        answer = Some(word);
        if !inputs.contains(&word) {
            break;
        }
    }
    answer
}
