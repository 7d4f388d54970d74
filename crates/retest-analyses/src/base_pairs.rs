//! The role of base pairs (Zhang, Sneyd & Stevenson 2020): a rule's score read as a gender label
//! (its sign), how far base pairs, word forms, rules and ground truth agree on it, and how the
//! variation of scores splits into word, pair and seed parts.
//!
//! A score's label is masculine when the score is at least 0 (a score of exactly 0 counts as
//! masculine) and feminine otherwise ([`masculine`]); agreement is Cohen's κ between two label
//! vectors ([`sign_kappa`], [`truth_kappa`]) or Fleiss' κ across many ([`pairs_agreement`],
//! [`seeds_agreement`]). [`variance_components`] estimates the variance components of a fully
//! crossed word × pair × seed design.
//!
//! Which scores each of them is given is decided here too. On one seed, a [`BasePairDesign`]
//! names the words and pairs of the analyses by position in the model's [`SeedScores`], and
//! [`rule_summary`] (Tables 1–2), [`word_kappas`] (Tables 3–5), [`rule_kappas`] (Table 6),
//! [`direction_agreement`] (Figure 2), [`pair_cosine_baseline`] and [`flips`] slice them. Across
//! seeds, [`words_tensor`] stacks the words' scores of every seed, and
//! [`seeds_agreement_per_pair`] and [`variance_per_rule`] slice that.

mod across_seeds;
mod per_seed;

pub use across_seeds::{
    SeedsRecord, VarianceRecord, VarianceScale, seeds_agreement_per_pair, variance_per_rule, words_tensor,
};
pub use per_seed::{
    Against, BasePairDesign, DirectionAgreement, DirectionCorrelation, KappaRecord, RuleSummary, SeedScores,
    TruthSet, direction_agreement, flips, listed_scores, pair_cosine_baseline, rule_kappas, rule_summary,
    word_kappas,
};

use retest_reliability::{KappaResult, aggregate_raters, cohen_kappa, fleiss_kappa};

/// The label of a score: 1 (masculine) when it is at least 0, else 0 (feminine). NaN is feminine;
/// retest's scores are finite.
pub fn masculine(score: f32) -> i64 {
    i64::from(score >= 0.0)
}

/// The mean and population standard deviation of some values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanSd {
    pub n: usize,
    pub mean: f64,
    /// √(Σ (x − mean)² / n), NaN for no values.
    pub sd: f64,
}

/// The mean and population SD of `values` (Zhang et al.'s Table 1), in two passes in f64.
pub fn mean_sd(values: &[f32]) -> MeanSd {
    let n = values.len();
    if n == 0 {
        return MeanSd {
            n,
            mean: f64::NAN,
            sd: f64::NAN,
        };
    }
    let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
    let squares = values.iter().map(|&v| (f64::from(v) - mean).powi(2)).sum::<f64>();
    MeanSd {
        n,
        mean,
        sd: (squares / n as f64).sqrt(),
    }
}

/// How far a set of base pairs agree on the words of a list (Zhang et al.'s Table 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairsAgreement {
    /// Fleiss' κ of the labels, subjects = words, raters = base pairs.
    pub kappa: KappaResult,
    /// The mean over words of the share of the pair comparisons (every two pairs) whose scores
    /// differ by at least one SD: "significant magnitude changes" as the paper's text defines
    /// them (lower is better).
    pub magnitude_changed: f64,
    /// The mean over words of the share of the pair comparisons whose scores differ by less
    /// than one SD: what the authors' code computes under the same name, 1 − `magnitude_changed`.
    pub magnitude_within: f64,
    /// The share of words with the same label under every pair.
    pub same_label: f64,
    pub n_words: usize,
    pub n_pairs: usize,
}

/// The agreement of `n_pairs` base pairs on `n_words` words: `scores` is pair-major
/// (`scores[p * n_words + w]`), `sd` the SD a magnitude change is measured in (Table 1's, of
/// the same rule).
///
/// # Panics
///
/// When `scores.len() != n_pairs * n_words`.
pub fn pairs_agreement(scores: &[f32], n_pairs: usize, n_words: usize, sd: f64) -> PairsAgreement {
    assert_eq!(scores.len(), n_pairs * n_words, "scores are pairs × words");
    let score = |w: usize, p: usize| scores[p * n_words + w];
    let labels: Vec<i64> = (0..n_words)
        .flat_map(|w| (0..n_pairs).map(move |p| masculine(score(w, p))))
        .collect();
    let kappa = match aggregate_raters(&labels, n_words, n_pairs) {
        Ok(aggregated) => fleiss_kappa(&aggregated.table),
        Err(_) => unreachable!("labels are words × pairs"),
    };
    let comparisons = n_pairs * n_pairs.saturating_sub(1) / 2;
    let (mut changed, mut same) = (0.0f64, 0usize);
    for w in 0..n_words {
        let mut n_changed = 0usize;
        for p in 0..n_pairs {
            for q in p + 1..n_pairs {
                let difference = (f64::from(score(w, p)) - f64::from(score(w, q))).abs();
                n_changed += usize::from(difference >= sd);
            }
        }
        if comparisons > 0 {
            changed += n_changed as f64 / comparisons as f64;
        }
        let row = &labels[w * n_pairs..(w + 1) * n_pairs];
        same += usize::from(row.iter().all(|&l| l == row[0]));
    }
    let (magnitude_changed, same_label) = if n_words == 0 || comparisons == 0 {
        (f64::NAN, f64::NAN)
    } else {
        (changed / n_words as f64, same as f64 / n_words as f64)
    };
    PairsAgreement {
        kappa,
        magnitude_changed,
        magnitude_within: 1.0 - magnitude_changed,
        same_label,
        n_words,
        n_pairs,
    }
}

/// Cohen's κ between the labels of two score vectors of the same words.
///
/// # Panics
///
/// When the lengths differ.
pub fn sign_kappa(a: &[f32], b: &[f32]) -> KappaResult {
    assert_eq!(a.len(), b.len(), "sign_kappa: the score vectors differ in length");
    let labels = |s: &[f32]| s.iter().map(|&v| masculine(v)).collect::<Vec<_>>();
    cohen_kappa(&labels(a), &labels(b))
}

/// Cohen's κ between the labels of `scores` and the true genders (`true` = masculine).
///
/// # Panics
///
/// When the lengths differ.
pub fn truth_kappa(scores: &[f32], truth_masculine: &[bool]) -> KappaResult {
    assert_eq!(scores.len(), truth_masculine.len(), "truth_kappa: lengths differ");
    let labels: Vec<i64> = scores.iter().map(|&v| masculine(v)).collect();
    let truth: Vec<i64> = truth_masculine.iter().map(|&m| i64::from(m)).collect();
    cohen_kappa(&labels, &truth)
}

/// The share of words whose label differs between two score vectors, and how many differ.
///
/// # Panics
///
/// When the lengths differ.
pub fn label_flips(a: &[f32], b: &[f32]) -> (usize, f64) {
    assert_eq!(a.len(), b.len(), "label_flips: lengths differ");
    let flipped = a
        .iter()
        .zip(b)
        .filter(|&(&x, &y)| masculine(x) != masculine(y))
        .count();
    let share = if a.is_empty() {
        f64::NAN
    } else {
        flipped as f64 / a.len() as f64
    };
    (flipped, share)
}

/// Fleiss' κ of the labels of `n_words` words across `n_seeds` seeds (subjects = words, raters =
/// seeds): `scores` is word-major (`scores[w * n_seeds + s]`).
///
/// # Panics
///
/// When `scores.len() != n_words * n_seeds`.
pub fn seeds_agreement(scores: &[f32], n_words: usize, n_seeds: usize) -> KappaResult {
    assert_eq!(scores.len(), n_words * n_seeds, "scores are words × seeds");
    let labels: Vec<i64> = scores.iter().map(|&v| masculine(v)).collect();
    match aggregate_raters(&labels, n_words, n_seeds) {
        Ok(aggregated) => fleiss_kappa(&aggregated.table),
        Err(_) => unreachable!("labels are words × seeds"),
    }
}

/// The sources of variation of a fully crossed word × pair × seed design.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    Word,
    Pair,
    Seed,
    WordPair,
    WordSeed,
    PairSeed,
    /// The word × pair × seed interaction, confounded with error (one score per cell).
    Residual,
}

impl Component {
    /// Every component, in table order.
    pub const ALL: [Component; 7] = [
        Component::Word,
        Component::Pair,
        Component::Seed,
        Component::WordPair,
        Component::WordSeed,
        Component::PairSeed,
        Component::Residual,
    ];

    /// The stable name (`word`, `pair`, `seed`, `word:pair`, `word:seed`, `pair:seed`,
    /// `residual`).
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Word => "word",
            Component::Pair => "pair",
            Component::Seed => "seed",
            Component::WordPair => "word:pair",
            Component::WordSeed => "word:seed",
            Component::PairSeed => "pair:seed",
            Component::Residual => "residual",
        }
    }
}

/// One component's line of the ANOVA table and its variance estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ComponentEstimate {
    pub component: Component,
    pub sum_of_squares: f64,
    pub df: usize,
    pub mean_square: f64,
    /// The expected-mean-squares estimate of the component's variance (may be negative).
    pub estimate: f64,
    /// `estimate` with a negative value set to 0, as is usual.
    pub variance: f64,
    /// `variance` over the sum of every component's `variance`.
    pub share: f64,
}

/// The variance decomposition of a word × pair × seed design.
#[derive(Debug, Clone, PartialEq)]
pub struct VarianceComponents {
    /// In [`Component::ALL`] order.
    pub components: Vec<ComponentEstimate>,
    pub n_words: usize,
    pub n_pairs: usize,
    pub n_seeds: usize,
}

impl VarianceComponents {
    /// The share of the variation beyond the words' own (every component but
    /// [`Component::Word`]) that the pair explains (pair and word × pair), the seed explains
    /// (seed and word × seed), and the two jointly (pair × seed and the residual): how much of
    /// a word's instability is the pair's and how much the seed's. NaN when there is none.
    pub fn instability_shares(&self) -> (f64, f64, f64) {
        let v = |c: Component| {
            (self.components.iter())
                .find(|e| e.component == c)
                .map_or(0.0, |e| e.variance)
        };
        let pair = v(Component::Pair) + v(Component::WordPair);
        let seed = v(Component::Seed) + v(Component::WordSeed);
        let joint = v(Component::PairSeed) + v(Component::Residual);
        let total = pair + seed + joint;
        if total > 0.0 {
            (pair / total, seed / total, joint / total)
        } else {
            (f64::NAN, f64::NAN, f64::NAN)
        }
    }
}

/// The variance components of scores `values[(w * n_pairs + p) * n_seeds + s]` in a fully
/// crossed random-effects design with one score per cell: the ANOVA sums of squares of the
/// three main effects and three two-way interactions (the three-way interaction is the
/// residual), and each component's variance solved from the expected mean squares
/// (generalizability theory's p × i × o design):
///
/// σ²_res = MS_res; σ²_wp = (MS_wp − MS_res)/S; σ²_ws = (MS_ws − MS_res)/P;
/// σ²_ps = (MS_ps − MS_res)/W; σ²_w = (MS_w − MS_wp − MS_ws + MS_res)/(P S);
/// σ²_p = (MS_p − MS_wp − MS_ps + MS_res)/(W S); σ²_s = (MS_s − MS_ws − MS_ps + MS_res)/(W P).
///
/// Needs at least 2 levels of each factor; with fewer every estimate is NaN.
///
/// # Panics
///
/// When `values.len() != n_words * n_pairs * n_seeds`.
pub fn variance_components(
    values: &[f64],
    n_words: usize,
    n_pairs: usize,
    n_seeds: usize,
) -> VarianceComponents {
    let (nw, np, ns) = (n_words, n_pairs, n_seeds);
    assert_eq!(values.len(), nw * np * ns, "values are words × pairs × seeds");
    let at = |w: usize, p: usize, s: usize| values[(w * np + p) * ns + s];
    let n = (nw * np * ns) as f64;
    let grand = values.iter().sum::<f64>() / n;
    let mut word = vec![0.0; nw];
    let mut pair = vec![0.0; np];
    let mut seed = vec![0.0; ns];
    let mut word_pair = vec![0.0; nw * np];
    let mut word_seed = vec![0.0; nw * ns];
    let mut pair_seed = vec![0.0; np * ns];
    for w in 0..nw {
        for p in 0..np {
            for s in 0..ns {
                let y = at(w, p, s);
                word[w] += y;
                pair[p] += y;
                seed[s] += y;
                word_pair[w * np + p] += y;
                word_seed[w * ns + s] += y;
                pair_seed[p * ns + s] += y;
            }
        }
    }
    let scale = |v: &mut [f64], by: usize| v.iter_mut().for_each(|x| *x /= by as f64);
    scale(&mut word, np * ns);
    scale(&mut pair, nw * ns);
    scale(&mut seed, nw * np);
    scale(&mut word_pair, ns);
    scale(&mut word_seed, np);
    scale(&mut pair_seed, nw);
    let squares = |v: &[f64]| v.iter().map(|x| (x - grand).powi(2)).sum::<f64>();
    let ss_word = (np * ns) as f64 * squares(&word);
    let ss_pair = (nw * ns) as f64 * squares(&pair);
    let ss_seed = (nw * np) as f64 * squares(&seed);
    let (mut ss_wp, mut ss_ws, mut ss_ps, mut ss_res) = (0.0, 0.0, 0.0, 0.0);
    for w in 0..nw {
        for p in 0..np {
            ss_wp += (word_pair[w * np + p] - word[w] - pair[p] + grand).powi(2);
        }
        for s in 0..ns {
            ss_ws += (word_seed[w * ns + s] - word[w] - seed[s] + grand).powi(2);
        }
    }
    for p in 0..np {
        for s in 0..ns {
            ss_ps += (pair_seed[p * ns + s] - pair[p] - seed[s] + grand).powi(2);
        }
    }
    for w in 0..nw {
        for p in 0..np {
            for s in 0..ns {
                let fitted = word_pair[w * np + p] + word_seed[w * ns + s] + pair_seed[p * ns + s]
                    - word[w]
                    - pair[p]
                    - seed[s]
                    + grand;
                ss_res += (at(w, p, s) - fitted).powi(2);
            }
        }
    }
    let (dw, dp, ds) = (nw.saturating_sub(1), np.saturating_sub(1), ns.saturating_sub(1));
    let lines = [
        (Component::Word, ss_word, dw),
        (Component::Pair, ss_pair, dp),
        (Component::Seed, ss_seed, ds),
        (Component::WordPair, ss_wp * ns as f64, dw * dp),
        (Component::WordSeed, ss_ws * np as f64, dw * ds),
        (Component::PairSeed, ss_ps * nw as f64, dp * ds),
        (Component::Residual, ss_res, dw * dp * ds),
    ];
    let valid = nw >= 2 && np >= 2 && ns >= 2;
    let ms = |i: usize| {
        let (_, ss, df) = lines[i];
        if valid { ss / df as f64 } else { f64::NAN }
    };
    let (ms_w, ms_p, ms_s, ms_wp, ms_ws, ms_ps, ms_res) = (ms(0), ms(1), ms(2), ms(3), ms(4), ms(5), ms(6));
    let (w, p, s) = (nw as f64, np as f64, ns as f64);
    let estimates = [
        (ms_w - ms_wp - ms_ws + ms_res) / (p * s),
        (ms_p - ms_wp - ms_ps + ms_res) / (w * s),
        (ms_s - ms_ws - ms_ps + ms_res) / (w * p),
        (ms_wp - ms_res) / s,
        (ms_ws - ms_res) / p,
        (ms_ps - ms_res) / w,
        ms_res,
    ];
    let variances = estimates.map(|e| if e < 0.0 { 0.0 } else { e });
    let total: f64 = variances.iter().sum();
    let components = (lines.iter().zip(estimates).zip(variances))
        .enumerate()
        .map(
            |(i, ((&(component, sum_of_squares, df), estimate), variance))| ComponentEstimate {
                component,
                sum_of_squares,
                df,
                mean_square: ms(i),
                estimate,
                variance,
                share: variance / total,
            },
        )
        .collect();
    VarianceComponents {
        components,
        n_words: nw,
        n_pairs: np,
        n_seeds: ns,
    }
}

#[cfg(test)]
mod tests;
