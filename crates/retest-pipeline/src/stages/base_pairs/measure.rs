//! The analyses on one seed: score the words under the pairs, run retest-analyses' base-pair
//! designs on the scores, and label their records as table rows.

use anyhow::Result;
use retest_analyses::{
    Against, DirectionCorrelation, KappaRecord, RuleSummary, SeedScores, direction_agreement, flips,
    listed_scores, pair_cosine_baseline, rule_kappas, rule_summary, word_kappas,
};
use retest_measures::{Model, NeighbourPool, Rule, ScoreOptions};
use retest_tables::{
    BasePairAgreementRow, BasePairBaselineRow, BasePairCorrelationRow, BasePairDirectionRow,
    BasePairExampleRow, BasePairFlipRow, BasePairKappaRow, BasePairSummaryRow,
};

use super::{BasePairSeed, BasePairs, FORMS, NOT_APPLICABLE, OUT_OF_VOCABULARY};

/// The cosines between the difference vectors f̂ − m̂ of `pairs` (normalised in f64 from the
/// raw vectors), every two of them: row-major `pairs.len() × pairs.len()`.
fn direction_cosines(model: &Model<'_>, pairs: &[(u32, u32)]) -> Vec<f64> {
    let unit = |w: u32| {
        let norm = model.norm(w);
        model.raw_row(w).iter().map(move |&x| f64::from(x) / norm)
    };
    let differences: Vec<Vec<f64>> = (pairs.iter())
        .map(|&(m, f)| unit(f).zip(unit(m)).map(|(x, y)| x - y).collect())
        .collect();
    let cosine = |x: &[f64], y: &[f64]| {
        let dot: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
        let norm = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>().sqrt();
        dot / (norm(x) * norm(y))
    };
    (differences.iter())
        .flat_map(|x| differences.iter().map(|y| cosine(x, y)))
        .collect()
}

impl BasePairs<'_> {
    /// The analyses on one seed's model.
    ///
    /// # Errors
    ///
    /// A degenerate pair (a zero vector, or two words with one vector).
    pub(crate) fn measure_seed(&self, model: &Model<'_>, seed: u32, threads: usize) -> Result<BasePairSeed> {
        let options = ScoreOptions {
            ripa_target: self.ripa_target,
            nbm_k: self.params.nbm_k as usize,
            nbm_pool: NeighbourPool::Neutral(&self.pool),
            threads,
        };
        let scored = retest_measures::score(model, &self.scored_pairs, &self.targets, &self.rules, &options)?;
        let scores = SeedScores::of(&scored);
        let design = &self.design;
        let (mut summary, mut agreement, mut kappas) = (Vec::new(), Vec::new(), Vec::new());
        for rule in 0..self.rules.len() {
            let s = rule_summary(&scores, design, rule);
            summary.push(self.summary_row(seed, rule, &s));
            agreement.push(self.agreement_row(seed, rule, &s));
            kappas.extend(self.kappa_rows(seed, &word_kappas(&scores, design, rule)));
        }
        kappas.extend(self.kappa_rows(seed, &rule_kappas(&scores, design)));

        // Figure 2: the difference vectors' cosines against the κ of DB/WA labels, pair by pair.
        let cosines = direction_cosines(model, &self.scored_pairs[..self.n_pairs()]);
        let mut correlations = Vec::new();
        if let Some(dbwa) = self.rule_index(Rule::Dbwa) {
            let figure = direction_agreement(&scores, design, dbwa, &cosines);
            kappas.extend(self.kappa_rows(seed, &figure.kappas));
            correlations = self.correlation_rows(seed, &figure.correlations);
        }
        let professions = (0..self.rules.len())
            .flat_map(|rule| listed_scores(&scores, design, rule, &design.words))
            .collect();
        Ok(BasePairSeed {
            seed,
            summary,
            agreement,
            kappas,
            directions: self.direction_rows(seed, &cosines),
            correlations,
            baselines: self.baseline_rows(model, seed, &cosines),
            flips: self.flip_rows(seed, &scores),
            examples: self.example_rows(seed, &scores),
            professions,
        })
    }

    /// The position of `rule` among the rules scored, when it is.
    fn rule_index(&self, rule: Rule) -> Option<usize> {
        self.rules.iter().position(|&r| r == rule)
    }

    /// Table 1's row of rule `rule`.
    fn summary_row(&self, seed: u32, rule: usize, s: &RuleSummary) -> BasePairSummaryRow {
        BasePairSummaryRow {
            corpus: self.corpus.clone(),
            algorithm: self.algorithm.clone(),
            seed,
            rule: self.rules[rule].as_str().to_owned(),
            n_words: self.design.limited.len() as u32,
            n_scores: s.spread.n as u32,
            mean: s.spread.mean,
            sd: s.spread.sd,
        }
    }

    /// Table 2's row of rule `rule`.
    fn agreement_row(&self, seed: u32, rule: usize, s: &RuleSummary) -> BasePairAgreementRow {
        let a = &s.agreement;
        BasePairAgreementRow {
            corpus: self.corpus.clone(),
            algorithm: self.algorithm.clone(),
            seed,
            rule: self.rules[rule].as_str().to_owned(),
            n_words: a.n_words as u32,
            n_pairs: a.n_pairs as u32,
            kappa: a.kappa.value,
            magnitude_changed: a.magnitude_changed,
            magnitude_within: a.magnitude_within,
            same_label: a.same_label,
            status: a.kappa.status.as_str().to_owned(),
        }
    }

    /// The κ rows of `records`, in order; a record without a value says why in `status`.
    fn kappa_rows(&self, seed: u32, records: &[KappaRecord]) -> Vec<BasePairKappaRow> {
        let professions = self.params.professions.as_str();
        let record_row = |k: &KappaRecord| {
            let (analysis, list, rule_b, pair_b, why) = match k.against {
                Against::Capitalised => match &self.capitalised[k.pair] {
                    Ok(capital) => ("capitalised", professions, "", capital.as_str(), NOT_APPLICABLE),
                    Err(why) => ("capitalised", professions, "", "", *why),
                },
                Against::Form(form) => (FORMS[form], professions, "", "", NOT_APPLICABLE),
                Against::Truth(list) => ("truth", self.truth_names[list].as_str(), "", "", NOT_APPLICABLE),
                Against::Rule(b) => ("rules", professions, self.rules[b].as_str(), "", NOT_APPLICABLE),
                Against::Pair(q) => (
                    "pairs",
                    professions,
                    "",
                    self.pair_names[q].as_str(),
                    NOT_APPLICABLE,
                ),
            };
            let (n_words, kappa, status) = match k.result {
                Some(k) => (k.n_subjects as u32, k.value, k.status.as_str()),
                None => (0, f64::NAN, why),
            };
            BasePairKappaRow {
                corpus: self.corpus.clone(),
                algorithm: self.algorithm.clone(),
                seed,
                analysis: analysis.to_owned(),
                list: list.to_owned(),
                rule: self.rules[k.rule].as_str().to_owned(),
                rule_b: rule_b.to_owned(),
                pair: self.pair_names[k.pair].clone(),
                pair_b: pair_b.to_owned(),
                n_words,
                kappa,
                status: status.to_owned(),
            }
        };
        records.iter().map(record_row).collect()
    }

    /// Figure 2's cosines, every listed pair against every listed pair.
    fn direction_rows(&self, seed: u32, cosines: &[f64]) -> Vec<BasePairDirectionRow> {
        let n_pairs = self.n_pairs();
        (0..n_pairs * n_pairs)
            .map(|i| BasePairDirectionRow {
                corpus: self.corpus.clone(),
                algorithm: self.algorithm.clone(),
                seed,
                pair: self.pair_names[i / n_pairs].clone(),
                pair_b: self.pair_names[i % n_pairs].clone(),
                cosine: cosines[i],
            })
            .collect()
    }

    /// Figure 2's correlations, per pair as the text and as the code read it.
    fn correlation_rows(
        &self,
        seed: u32,
        correlations: &[DirectionCorrelation],
    ) -> Vec<BasePairCorrelationRow> {
        let row = |c: &DirectionCorrelation| {
            [("text", c.text), ("code", c.code)].map(|(reading, r)| BasePairCorrelationRow {
                corpus: self.corpus.clone(),
                algorithm: self.algorithm.clone(),
                seed,
                pair: self.pair_names[c.pair].clone(),
                reading: reading.to_owned(),
                n: r.n as u32,
                r: r.value,
                p_value: r.p_value,
            })
        };
        correlations.iter().flat_map(row).collect()
    }

    /// The cosine baselines: random word pairs, random difference vectors (drawn from the
    /// seed's stream) and the listed pairs' difference vectors.
    fn baseline_rows(&self, model: &Model<'_>, seed: u32, cosines: &[f64]) -> Vec<BasePairBaselineRow> {
        let seed_path = self.root.clone().with_index(u64::from(seed));
        let (words, differences) = retest_measures::random_cosines(
            model,
            &self.random_words,
            self.params.random_samples,
            &seed_path,
        );
        let pairs = pair_cosine_baseline(cosines, self.n_pairs());
        [
            ("word_pairs", words),
            ("difference_vectors", differences),
            ("base_pairs", pairs),
        ]
        .into_iter()
        .map(|(baseline, sample)| BasePairBaselineRow {
            corpus: self.corpus.clone(),
            algorithm: self.algorithm.clone(),
            seed,
            baseline: baseline.to_owned(),
            n: sample.n as u32,
            mean: sample.mean,
            sd: sample.sd,
        })
        .collect()
    }

    /// The RIPA label flips between the flip pairs, when RIPA is scored.
    fn flip_rows(&self, seed: u32, scores: &SeedScores<'_>) -> Vec<BasePairFlipRow> {
        let Some(ripa) = self.rule_index(Rule::Ripa) else {
            return Vec::new();
        };
        let (n_words, flipped, share, status) = match flips(scores, &self.design, ripa) {
            Some((flipped, share)) => (self.design.words.len(), flipped, share, "ok"),
            None => (0, 0, f64::NAN, OUT_OF_VOCABULARY),
        };
        vec![BasePairFlipRow {
            corpus: self.corpus.clone(),
            algorithm: self.algorithm.clone(),
            seed,
            rule: Rule::Ripa.as_str().to_owned(),
            pair: self.flip.0.clone(),
            pair_b: self.flip.1.clone(),
            n_words: n_words as u32,
            flipped: flipped as u32,
            share,
            status: status.to_owned(),
        }]
    }

    /// Figure 1: the example word's and its forms' scores, per rule and listed pair.
    fn example_rows(&self, seed: u32, scores: &SeedScores<'_>) -> Vec<BasePairExampleRow> {
        let mut rows = Vec::new();
        for (r, rule) in self.rules.iter().enumerate() {
            for (p, pair) in self.pair_names.iter().enumerate() {
                let all = scores.row(r, p);
                for (form, word, position) in &self.example {
                    rows.push(BasePairExampleRow {
                        corpus: self.corpus.clone(),
                        algorithm: self.algorithm.clone(),
                        seed,
                        rule: rule.as_str().to_owned(),
                        pair: pair.clone(),
                        form: (*form).to_owned(),
                        word: word.clone(),
                        score: f64::from(all[*position]),
                    });
                }
            }
        }
        rows
    }
}
