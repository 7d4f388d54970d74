//! Word-analogy evaluation with 3CosAdd, as gensim's `KeyedVectors.evaluate_word_analogies`
//! computes it, with an exact nearest-neighbour search batched into matrix products.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;
use retest_embeddings::Embeddings;
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
/// The search is exact: blocks of questions are multiplied with blocks of the unit-vector matrix
/// (faer GEMM, `f32`) and a running top 8 is kept per question; blocks of questions run in
/// parallel on rayon's pool, which does not change any result.
pub fn evaluate_analogies_with(
    emb: &Embeddings,
    questions: &AnalogySet,
    options: &EvalOptions,
) -> AnalogyResult {
    analogies_with_lookup(emb, &Lookup::new(emb, options), questions)
}

/// Questions per block: one block's scores against [`VOCAB_BLOCK`] rows are 2 MB of `f32`.
const QUESTION_BLOCK: usize = 256;
/// Vocabulary rows per matrix product.
const VOCAB_BLOCK: usize = 2048;
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

pub(crate) fn analogies_with_lookup(emb: &Embeddings, lookup: &Lookup, set: &AnalogySet) -> AnalogyResult {
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
    if !questions.is_empty() {
        let dim = emb.dim();
        let unit = unit_rows(emb, lookup.n_rows());
        let representative = lookup.representatives(emb);
        let answers: Vec<Option<u32>> = questions
            .par_chunks(QUESTION_BLOCK)
            .flat_map_iter(|block| answer_block(block, &unit, dim, &representative))
            .collect();
        for (q, answer) in questions.iter().zip(answers) {
            if answer == Some(q.expected) {
                sections[q.section].correct += 1;
            }
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

/// The first `n_rows` rows scaled to unit length (norm in `f64`); zero rows stay zero.
fn unit_rows(emb: &Embeddings, n_rows: usize) -> Vec<f32> {
    let mut unit = Vec::with_capacity(n_rows * emb.dim());
    for row in emb.rows().take(n_rows) {
        let norm = row
            .iter()
            .map(|&x| f64::from(x) * f64::from(x))
            .sum::<f64>()
            .sqrt();
        let scale = if norm > 0.0 { 1.0 / norm } else { 0.0 };
        unit.extend(row.iter().map(|&x| (f64::from(x) * scale) as f32));
    }
    unit
}

/// The answer (as the row standing for the predicted word) to each question of `block`.
fn answer_block(block: &[Question], unit: &[f32], dim: usize, representative: &[u32]) -> Vec<Option<u32>> {
    let n_rows = unit.len() / dim;
    let n_questions = block.len();
    let mut queries = vec![0.0f32; n_questions * dim];
    for (q, query) in block.iter().zip(queries.chunks_exact_mut(dim)) {
        let row = |r: u32| &unit[r as usize * dim..(r as usize + 1) * dim];
        let (a, b, c) = (row(q.a), row(q.b), row(q.c));
        let mut norm2 = 0.0f64;
        for (j, x) in query.iter_mut().enumerate() {
            let v = f64::from(b[j]) + f64::from(c[j]) - f64::from(a[j]);
            *x = v as f32;
            norm2 += v * v;
        }
        if norm2 > 0.0 {
            let scale = 1.0 / norm2.sqrt();
            query.iter_mut().for_each(|x| *x = (f64::from(*x) * scale) as f32);
        }
    }
    let mut tops = vec![TopK::new(); n_questions];
    let mut scores = vec![0.0f32; VOCAB_BLOCK.min(n_rows) * n_questions];
    let rhs = MatRef::from_row_major_slice(&queries, n_questions, dim).transpose();
    for start in (0..n_rows).step_by(VOCAB_BLOCK) {
        let end = (start + VOCAB_BLOCK).min(n_rows);
        let n_block = end - start;
        // scores (n_block × n_questions, column-major) = U[start..end] · Qᵀ: column q holds
        // question q's cosines with the block's rows, contiguous.
        let dst =
            MatMut::from_column_major_slice_mut(&mut scores[..n_block * n_questions], n_block, n_questions);
        let lhs = MatRef::from_row_major_slice(&unit[start * dim..end * dim], n_block, dim);
        matmul(dst, Accum::Replace, lhs, rhs, 1.0f32, Par::Seq);
        for (top, column) in tops.iter_mut().zip(scores.chunks_exact(n_block)) {
            top.scan(column, start as u32);
        }
    }
    block
        .iter()
        .zip(&tops)
        .map(|(q, top)| choose(q, top, representative))
        .collect()
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

/// The `TOP` highest scores seen so far, in descending order; among equal scores the row seen
/// first (the lower row, as rows are scanned in ascending order) comes first.
#[derive(Clone, Debug)]
struct TopK {
    scores: [f32; TOP],
    rows: [u32; TOP],
    len: usize,
}

impl TopK {
    fn new() -> Self {
        TopK {
            scores: [f32::NEG_INFINITY; TOP],
            rows: [u32::MAX; TOP],
            len: 0,
        }
    }

    fn rows(&self) -> impl Iterator<Item = u32> + '_ {
        self.rows[..self.len].iter().copied()
    }

    /// Offers `scores[i]` for row `first_row + i`, in ascending row order. NaN and −∞ never enter.
    fn scan(&mut self, scores: &[f32], first_row: u32) {
        let mut threshold = if self.len == TOP {
            self.scores[TOP - 1]
        } else {
            f32::NEG_INFINITY
        };
        for (i, &score) in scores.iter().enumerate() {
            if score > threshold {
                self.insert(score, first_row + i as u32);
                if self.len == TOP {
                    threshold = self.scores[TOP - 1];
                }
            }
        }
    }

    fn insert(&mut self, score: f32, row: u32) {
        // After every kept score >= `score`: equal scores keep their (lower) rows first.
        let at = self.scores[..self.len]
            .iter()
            .position(|&s| s < score)
            .unwrap_or(self.len);
        let end = (self.len + 1).min(TOP);
        for k in (at + 1..end).rev() {
            self.scores[k] = self.scores[k - 1];
            self.rows[k] = self.rows[k - 1];
        }
        if at < TOP {
            self.scores[at] = score;
            self.rows[at] = row;
        }
        self.len = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_keeps_the_highest_with_lower_rows_first_on_ties() {
        let mut top = TopK::new();
        let scores = [0.1, 0.5, 0.5, 0.9, -0.2, 0.5, 0.3, 0.7, 0.0, 0.8, 0.5, 0.6];
        top.scan(&scores[..5], 0);
        top.scan(&scores[5..], 5);
        assert_eq!(top.rows().collect::<Vec<_>>(), [3, 9, 7, 11, 1, 2, 5, 10]);
        assert_eq!(top.scores, [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5, 0.5]);
    }

    #[test]
    fn top_k_with_fewer_rows_than_slots() {
        let mut top = TopK::new();
        top.scan(&[0.2, 0.4, 0.3], 10);
        assert_eq!(top.rows().collect::<Vec<_>>(), [11, 12, 10]);
    }
}
