//! Zhang et al.'s analyses on one seed: which of a model's scores form which label vectors and
//! matrices (Tables 1–6, Figure 2, the pairs' cosine baseline and the label flips), as records
//! that name rules, pairs, forms and lists by index.

use retest_measures::{BiasScores, CosineSample};
use retest_reliability::{CorrelationResult, KappaResult, pearson};

use super::{MeanSd, PairsAgreement, label_flips, mean_sd, pairs_agreement, sign_kappa, truth_kappa};

/// One model's scores, `values[(rule * n_pairs + pair) * n_targets + target]` (as
/// [`BiasScores::values`] holds them); rules, pairs and targets by index.
#[derive(Clone, Copy, Debug)]
pub struct SeedScores<'a> {
    values: &'a [f32],
    n_rules: usize,
    n_pairs: usize,
    n_targets: usize,
}

impl<'a> SeedScores<'a> {
    /// The scores of `n_rules` rules × `n_pairs` pairs × `n_targets` targets.
    ///
    /// # Panics
    ///
    /// When `values.len() != n_rules * n_pairs * n_targets`.
    pub fn new(values: &'a [f32], n_rules: usize, n_pairs: usize, n_targets: usize) -> SeedScores<'a> {
        assert_eq!(
            values.len(),
            n_rules * n_pairs * n_targets,
            "scores are rules × pairs × targets"
        );
        SeedScores {
            values,
            n_rules,
            n_pairs,
            n_targets,
        }
    }

    /// The scores of a model, rules in [`BiasScores::rules`] order.
    pub fn of(scores: &'a BiasScores) -> SeedScores<'a> {
        SeedScores::new(
            scores.values(),
            scores.rules().len(),
            scores.n_pairs(),
            scores.n_targets(),
        )
    }

    /// Every target's score under rule `rule` and pair `pair`.
    pub fn row(&self, rule: usize, pair: usize) -> &'a [f32] {
        let start = (rule * self.n_pairs + pair) * self.n_targets;
        &self.values[start..start + self.n_targets]
    }

    /// The scores of the targets at `positions`, in their order.
    pub fn at(&self, rule: usize, pair: usize, positions: &[usize]) -> Vec<f32> {
        let row = self.row(rule, pair);
        positions.iter().map(|&t| row[t]).collect()
    }

    /// The number of rules.
    pub fn n_rules(&self) -> usize {
        self.n_rules
    }
}

/// Words with their true gender, as positions on the target axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TruthSet {
    pub targets: Vec<usize>,
    /// Per word, `true` when it is masculine.
    pub masculine: Vec<bool>,
}

/// The words and pairs of Zhang et al.'s analyses as positions in one seed's [`SeedScores`]:
/// words on the target axis, pairs on the pair axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasePairDesign {
    /// The listed base pairs are pairs `0..n_pairs`.
    pub n_pairs: usize,
    /// Per listed pair, the pair of its capitalised form, when it is scored.
    pub capitalised: Vec<Option<usize>>,
    /// The two pairs whose labels [`flips`] compares, when both are scored.
    pub flip: Option<(usize, usize)>,
    /// Table 1's limited vocabulary.
    pub limited: Vec<usize>,
    /// The words the pairs, forms, rules and truth are compared on (the professions).
    pub words: Vec<usize>,
    /// Table 4's words: those of `words` that have every applicable form.
    pub form_words: Vec<usize>,
    /// Per form, the forms of `form_words` in their order (`None`: the form is not
    /// applicable).
    pub forms: Vec<Option<Vec<usize>>>,
    /// Table 5's lists.
    pub truth: Vec<TruthSet>,
}

/// Tables 1 and 2 of one rule on one seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleSummary {
    /// Table 1: the scores of the limited vocabulary under every listed pair, pooled.
    pub spread: MeanSd,
    /// Table 2: how far the listed pairs agree on the words, magnitudes in `spread.sd`.
    pub agreement: PairsAgreement,
}

/// What a κ compares the labels of one rule's scores of the words under one listed pair with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// Table 3: the same words under the pair's capitalised form.
    Capitalised,
    /// Table 4: the words' form `form` (index into [`BasePairDesign::forms`]) under the pair.
    Form(usize),
    /// Table 5: the true genders of truth list `list` (index into [`BasePairDesign::truth`]);
    /// the words are that list's.
    Truth(usize),
    /// Table 6: the same words under rule `rule_b`.
    Rule(usize),
    /// Figure 2: the same words under listed pair `pair_b`.
    Pair(usize),
}

/// One Cohen's κ of the base-pair analyses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KappaRecord {
    pub rule: usize,
    pub pair: usize,
    pub against: Against,
    /// `None` when there is nothing to compare with: the capitalised pair is not scored, or the
    /// form is not applicable.
    pub result: Option<KappaResult>,
}

/// Figure 2 of one listed pair: Pearson's r between the cosines of its difference vector with
/// the other pairs' and the κ of its labels with theirs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionCorrelation {
    pub pair: usize,
    /// Over the other pairs, as the paper's text describes it.
    pub text: CorrelationResult,
    /// Over every pair, the pair itself included with its own cosine and κ = 1, as the
    /// authors' code computes it.
    pub code: CorrelationResult,
}

/// Figure 2 on one seed: the κ of every two listed pairs (`pair < pair_b`) and each pair's
/// correlations.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectionAgreement {
    pub kappas: Vec<KappaRecord>,
    pub correlations: Vec<DirectionCorrelation>,
}

/// Rule `rule`'s scores of the targets at `positions` under every listed pair, pair-major
/// (`[pair][position]`).
pub fn listed_scores(
    scores: &SeedScores<'_>,
    design: &BasePairDesign,
    rule: usize,
    positions: &[usize],
) -> Vec<f32> {
    (0..design.n_pairs)
        .flat_map(|p| scores.at(rule, p, positions))
        .collect()
}

/// Tables 1 and 2 of rule `rule`: the [`mean_sd`] of the limited vocabulary's scores under
/// every listed pair, and the [`pairs_agreement`] of the listed pairs on the words, a magnitude
/// change measured in Table 1's SD.
pub fn rule_summary(scores: &SeedScores<'_>, design: &BasePairDesign, rule: usize) -> RuleSummary {
    let spread = mean_sd(&listed_scores(scores, design, rule, &design.limited));
    let words = listed_scores(scores, design, rule, &design.words);
    RuleSummary {
        spread,
        agreement: pairs_agreement(&words, design.n_pairs, design.words.len(), spread.sd),
    }
}

/// Tables 3–5 of rule `rule`, per listed pair in order: the [`sign_kappa`] of the words under
/// the pair and under its capitalised form ([`Against::Capitalised`]), of the form words and
/// each of their forms under the pair ([`Against::Form`]), and the [`truth_kappa`] of each truth
/// list under the pair ([`Against::Truth`]).
pub fn word_kappas(scores: &SeedScores<'_>, design: &BasePairDesign, rule: usize) -> Vec<KappaRecord> {
    let mut records = Vec::new();
    for pair in 0..design.n_pairs {
        let record = |against, result| KappaRecord {
            rule,
            pair,
            against,
            result,
        };
        let words = scores.at(rule, pair, &design.words);
        let capital =
            design.capitalised[pair].map(|q| sign_kappa(&words, &scores.at(rule, q, &design.words)));
        records.push(record(Against::Capitalised, capital));
        let form_words = scores.at(rule, pair, &design.form_words);
        for (f, positions) in design.forms.iter().enumerate() {
            let k = (positions.as_ref())
                .map(|positions| sign_kappa(&form_words, &scores.at(rule, pair, positions)));
            records.push(record(Against::Form(f), k));
        }
        for (list, truth) in design.truth.iter().enumerate() {
            let k = truth_kappa(&scores.at(rule, pair, &truth.targets), &truth.masculine);
            records.push(record(Against::Truth(list), Some(k)));
        }
    }
    records
}

/// Table 6: for every two rules `rule < rule_b` and every listed pair, the [`sign_kappa`] of the
/// words under the two rules ([`Against::Rule`]).
pub fn rule_kappas(scores: &SeedScores<'_>, design: &BasePairDesign) -> Vec<KappaRecord> {
    let n_rules = scores.n_rules();
    let mut records = Vec::new();
    for rule in 0..n_rules {
        for rule_b in rule + 1..n_rules {
            for pair in 0..design.n_pairs {
                let k = sign_kappa(
                    &scores.at(rule, pair, &design.words),
                    &scores.at(rule_b, pair, &design.words),
                );
                records.push(KappaRecord {
                    rule,
                    pair,
                    against: Against::Rule(rule_b),
                    result: Some(k),
                });
            }
        }
    }
    records
}

/// Figure 2 of rule `rule` (Zhang et al. use DB/WA): `cosines` is the `n_pairs × n_pairs`
/// matrix (row-major) of the cosines between the listed pairs' difference vectors. The κ of
/// pairs p and q is the [`sign_kappa`] of the words under them, 1 for p = q; per pair p,
/// Pearson's r between row p of `cosines` and those κ, without (`text`) and with (`code`) p
/// itself.
///
/// # Panics
///
/// When `cosines.len() != n_pairs²`.
pub fn direction_agreement(
    scores: &SeedScores<'_>,
    design: &BasePairDesign,
    rule: usize,
    cosines: &[f64],
) -> DirectionAgreement {
    let n_pairs = design.n_pairs;
    assert_eq!(cosines.len(), n_pairs * n_pairs, "cosines are pairs × pairs");
    let mut kappas = Vec::new();
    let mut correlations = Vec::new();
    for p in 0..n_pairs {
        let mut agreements = Vec::with_capacity(n_pairs);
        for q in 0..n_pairs {
            if p == q {
                agreements.push(1.0);
                continue;
            }
            let k = sign_kappa(
                &scores.at(rule, p, &design.words),
                &scores.at(rule, q, &design.words),
            );
            if q > p {
                kappas.push(KappaRecord {
                    rule,
                    pair: p,
                    against: Against::Pair(q),
                    result: Some(k),
                });
            }
            agreements.push(k.value);
        }
        let row = &cosines[p * n_pairs..(p + 1) * n_pairs];
        let others = |v: &[f64]| -> Vec<f64> { (0..n_pairs).filter(|&q| q != p).map(|q| v[q]).collect() };
        correlations.push(DirectionCorrelation {
            pair: p,
            text: pearson(&others(row), &others(&agreements)),
            code: pearson(row, &agreements),
        });
    }
    DirectionAgreement { kappas, correlations }
}

/// The cosines baseline of the base pairs themselves: the mean and SD of the cosines between
/// every two listed pairs' difference vectors (`p < q` of the row-major `n_pairs × n_pairs`
/// matrix `cosines`).
///
/// # Panics
///
/// When `cosines.len() != n_pairs²`.
pub fn pair_cosine_baseline(cosines: &[f64], n_pairs: usize) -> CosineSample {
    assert_eq!(cosines.len(), n_pairs * n_pairs, "cosines are pairs × pairs");
    let upper: Vec<f64> = (0..n_pairs)
        .flat_map(|p| (p + 1..n_pairs).map(move |q| cosines[p * n_pairs + q]))
        .collect();
    CosineSample::of(&upper)
}

/// The [`label_flips`] of rule `rule`'s scores of the words between the two flip pairs, when
/// both are scored (Zhang et al. use RIPA).
pub fn flips(scores: &SeedScores<'_>, design: &BasePairDesign, rule: usize) -> Option<(usize, f64)> {
    let (p, q) = design.flip?;
    Some(label_flips(
        &scores.at(rule, p, &design.words),
        &scores.at(rule, q, &design.words),
    ))
}

#[cfg(test)]
mod tests;
