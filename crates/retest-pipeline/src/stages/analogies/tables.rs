//! The analogy tables of one configuration: the designs across seeds of retest-analyses fed
//! from every seed's values, and every row labelled with words, solvers and sections.

use anyhow::Result;
use retest_analyses::{
    AnswerAgreement, PairOverlap, SectionsIcc, Tally, pair_overlap, section_accuracy_icc, seed_spread,
    top1_agreement,
};
use retest_eval::SectionResult;
use retest_measures::{Constraint, Vocab};
use retest_tables::{
    AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow, AnalogyReportedRow,
    AnalogyStabilityRow, AnalogySweepRow, AnalogyZhangRow, Table, names,
};

use super::{Analogies, AnalogySeed, ReportedRank, ZHANG_DIRECTIONS};
use crate::stages::columns::OUT_OF_VOCABULARY;

impl Analogies<'_> {
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
                    let (rank, status) = match row.and_then(|_| ranks.next().copied()) {
                        None | Some(ReportedRank::NotSearched) => (0, OUT_OF_VOCABULARY),
                        Some(ReportedRank::Excluded) => (0, "excluded"),
                        Some(ReportedRank::Rank(rank)) => (rank, "ok"),
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
                        status: if answer.is_some() { "ok" } else { OUT_OF_VOCABULARY }.to_owned(),
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
                    let (cosines, base_cosine) = &seed.zhang_cosines;
                    let row = |section: &str, solved: usize, total: usize, cosines: &[f64]| {
                        let spread = seed_spread(cosines, false);
                        AnalogyZhangRow {
                            corpus: self.corpus.to_owned(),
                            algorithm: self.algorithm.to_owned(),
                            seed: s as u32,
                            direction: (*direction).to_owned(),
                            constraint: constraint.as_str().to_owned(),
                            section: section.to_owned(),
                            solved: solved as u32,
                            total: total as u32,
                            share: solved as f64 / total as f64,
                            mean_cosine: spread.mean,
                            sd_cosine: spread.sd,
                            base_cosine: *base_cosine,
                        }
                    };
                    for (((name, pairs), &n), cosines) in sections.iter().zip(solved).zip(cosines) {
                        rows.push(row(name, n, pairs.len(), cosines));
                    }
                    let total = sections.iter().map(|(_, p)| p.len()).sum();
                    let all: Vec<f64> = cosines.iter().flatten().copied().collect();
                    rows.push(row("all", solved.iter().sum(), total, &all));
                }
            }
        }
        rows
    }
}
