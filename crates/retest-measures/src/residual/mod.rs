//! Gonen & Goldberg's (2019) tests of the gender bias a model keeps beyond a gender direction
//! ("Lipstick on a Pig"): words labelled masculine or feminine by their projection on he − she
//! are still told apart by 2-means clustering and by an RBF-kernel SVM, and a word's share of
//! masculine neighbours follows its projection. After hard debiasing every projection is 0, so
//! the labels come from the model before debiasing (`labels`), as Gonen & Goldberg take them.

mod kmeans;
mod svm;

pub use kmeans::two_means_accuracy;
pub use svm::RbfSvm;

use retest_reliability::{CorrelationResult, pearson};
use retest_rng::SeedPath;

use crate::permutation::below;
use crate::vectors::{check_ids, dot, unit};
use crate::{MeasureError, Model};

/// The most frequent words Gonen & Goldberg's tests look at (their `limit_vocab`).
pub const RESIDUAL_VOCABULARY: usize = 50_000;
/// Words per gender that are clustered: the most masculine and the most feminine.
pub const RESIDUAL_CLUSTERED: usize = 500;
/// Words per gender that are classified.
pub const RESIDUAL_CLASSIFIED: usize = 2_500;
/// Of those, the words per gender the classifier is trained on; it is tested on the rest.
pub const RESIDUAL_TRAINED: usize = 500;
/// Neighbours counted per word.
pub const RESIDUAL_NEIGHBOURS: usize = 100;
/// k-means++ starts of the clustering, the best (least inertia) kept: scikit-learn's `n_init`
/// when Gonen & Goldberg ran it.
pub const KMEANS_STARTS: usize = 10;
/// The stream of [`SeedPath`] the clustering's starts draw from.
pub const KMEANS_STREAM: &str = "residual-kmeans";
/// The stream of [`SeedPath`] the classifier's training words are drawn from.
pub const SPLIT_STREAM: &str = "residual-split";

/// Whether Gonen & Goldberg look at `word` (their `limit_vocab`): lowercase, fewer than 20
/// characters, no digit, and no ASCII punctuation but the `_` that joins a phrase's words —
/// Bolukbasi et al.'s (2016) filter of their embedding's words, which Gonen & Goldberg took over.
pub fn residual_word(word: &str) -> bool {
    let punctuated = |w: &str| w.chars().any(|c| c.is_ascii_punctuation());
    word.to_lowercase() == word
        && word.chars().count() < 20
        && !word.chars().any(|c| c.is_ascii_digit())
        && if word.contains('_') {
            !word.split('_').any(punctuated)
        } else {
            !punctuated(word)
        }
}

/// The sizes of the tests ([`RESIDUAL_CLUSTERED`] and the others by default).
#[derive(Debug, Clone, Copy)]
pub struct ResidualOptions<'s> {
    pub clustered: usize,
    pub classified: usize,
    pub trained: usize,
    pub neighbours: usize,
    pub seed: &'s SeedPath,
}

impl<'s> ResidualOptions<'s> {
    /// Gonen & Goldberg's sizes.
    pub fn gonen_goldberg(seed: &'s SeedPath) -> Self {
        ResidualOptions {
            clustered: RESIDUAL_CLUSTERED,
            classified: RESIDUAL_CLASSIFIED,
            trained: RESIDUAL_TRAINED,
            neighbours: RESIDUAL_NEIGHBOURS,
            seed,
        }
    }
}

/// The words the tests read, as ids of the model measured.
#[derive(Debug, Clone, Copy)]
pub struct ResidualWords<'w> {
    /// The candidate words: the most frequent words that pass [`residual_word`], less the
    /// gender-specific ones, in the vocabulary's order.
    pub candidates: &'w [u32],
    /// Each candidate's bias by projection, `cos(w, he) − cos(w, she)` ([`projection_bias`]),
    /// on the model the labels come from.
    pub bias: &'w [f64],
    /// The words whose neighbours are counted (professions), each a candidate.
    pub targets: &'w [u32],
}

/// One target word's bias by projection and its share of masculine neighbours.
#[derive(Debug, Clone, PartialEq)]
pub struct NeighbourBias {
    pub word: u32,
    pub bias: f64,
    /// The share of its nearest candidates (cosine, itself left out) with a positive bias.
    pub masculine_share: f64,
}

/// The three tests on one model.
#[derive(Debug, Clone, PartialEq)]
pub struct ResidualBias {
    /// Words clustered per gender.
    pub n_clustered: usize,
    /// The share of the clustered words whose 2-means cluster matches their gender (the better
    /// of the two matchings: at least 0.5).
    pub cluster_accuracy: f64,
    /// Words per gender the classifier was trained and tested on.
    pub n_trained: usize,
    pub n_tested: usize,
    /// The share of the test words the classifier labels with their gender.
    pub svm_accuracy: f64,
    /// Every target in the candidates, in the order given.
    pub neighbours: Vec<NeighbourBias>,
    /// Pearson's r of the targets' bias with their share of masculine neighbours.
    pub neighbour_correlation: CorrelationResult,
}

/// `cos(w, he) − cos(w, she)` of every word (positive: masculine).
///
/// # Errors
///
/// An id out of range.
pub fn projection_bias(
    model: &Model<'_>,
    words: &[u32],
    he: u32,
    she: u32,
) -> Result<Vec<f64>, MeasureError> {
    check_ids(model, "projected words", words)?;
    check_ids(model, "he and she", &[he, she])?;
    let (h, s) = (unit(model, he), unit(model, she));
    Ok(words
        .iter()
        .map(|&w| {
            let u = unit(model, w);
            dot(&u, &h) - dot(&u, &s)
        })
        .collect())
}

/// The `n` most feminine and the `n` most masculine candidates by bias, as Gonen & Goldberg
/// take them: the candidates sorted by bias (ties in the candidates' order), the first `n`
/// (most feminine first) and the last `n` (most masculine last). Fewer when there are fewer
/// than `2n` candidates: half of them each.
pub fn most_biased(candidates: &[u32], bias: &[f64], n: usize) -> (Vec<u32>, Vec<u32>) {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| bias[a].total_cmp(&bias[b]));
    let n = n.min(candidates.len() / 2);
    let feminine = order[..n].iter().map(|&i| candidates[i]).collect();
    let masculine = order[order.len() - n..].iter().map(|&i| candidates[i]).collect();
    (masculine, feminine)
}

/// Gonen & Goldberg's three tests on `model`, its unit vectors clustered and classified, the
/// labels and biases of `words` taken as given (from `model` itself, or from the model before
/// debiasing).
///
/// * Clustering: the `clustered` most masculine and most feminine candidates in two k-means
///   clusters ([`two_means_accuracy`], `KMEANS_STARTS` seeded k-means++ starts).
/// * Classification: of the `classified` most masculine and most feminine candidates, `trained`
///   of each drawn at random (stream [`SPLIT_STREAM`]) train an RBF SVM (scikit-learn's `SVC`
///   defaults: C = 1, γ = 1/dim, tolerance 1e-3); the accuracy is on the others.
/// * Neighbours: each target's share of masculine words among its `neighbours` nearest
///   candidates, correlated with its bias.
///
/// # Errors
///
/// An id out of range; fewer than 4 candidates; `trained` not below `classified`.
pub fn residual_bias(
    model: &Model<'_>,
    words: &ResidualWords<'_>,
    options: &ResidualOptions<'_>,
) -> Result<ResidualBias, MeasureError> {
    check_ids(model, "residual-bias candidates", words.candidates)?;
    check_ids(model, "residual-bias targets", words.targets)?;
    if words.candidates.len() < 4 {
        return Err(MeasureError::EmptySet {
            what: "residual-bias candidates (at least 4 words)",
        });
    }
    if options.trained >= options.classified {
        return Err(MeasureError::BadModel {
            message: format!(
                "residual bias: {} training words per gender leave none of {} to test",
                options.trained, options.classified
            ),
        });
    }
    let points = |ids: &[u32]| -> Vec<Vec<f64>> { ids.iter().map(|&w| unit(model, w)).collect() };

    let (masculine, feminine) = most_biased(words.candidates, words.bias, options.clustered);
    let n_clustered = masculine.len();
    let clustered: Vec<Vec<f64>> = points(&masculine).into_iter().chain(points(&feminine)).collect();
    let labels: Vec<bool> = (0..clustered.len()).map(|i| i < masculine.len()).collect();
    let mut rng = options.seed.stream(KMEANS_STREAM);
    let cluster_accuracy = two_means_accuracy(&clustered, &labels, KMEANS_STARTS, &mut rng);

    let (mut masculine, mut feminine) = most_biased(words.candidates, words.bias, options.classified);
    let mut rng = options.seed.stream(SPLIT_STREAM);
    for set in [&mut masculine, &mut feminine] {
        for i in (1..set.len()).rev() {
            let j = below(&mut rng, i as u64 + 1) as usize;
            set.swap(i, j);
        }
    }
    let trained = options.trained.min(masculine.len() - 1);
    let (svm_accuracy, n_tested) = svm_accuracy(
        (&points(&masculine[..trained]), &points(&feminine[..trained])),
        (&points(&masculine[trained..]), &points(&feminine[trained..])),
    );

    let neighbours = neighbour_bias(model, words, options.neighbours);
    let (bias, share): (Vec<f64>, Vec<f64>) = neighbours.iter().map(|n| (n.bias, n.masculine_share)).unzip();
    Ok(ResidualBias {
        n_clustered,
        cluster_accuracy,
        n_trained: trained,
        n_tested,
        svm_accuracy,
        neighbour_correlation: pearson(&bias, &share),
        neighbours,
    })
}

/// scikit-learn's `SVC()` with γ = 1/dim (`gamma='auto'`, Gonen & Goldberg's) trained on
/// `train` (masculine, feminine) and its accuracy on `test`, with the test words per gender.
pub fn svm_accuracy(train: (&[Vec<f64>], &[Vec<f64>]), test: (&[Vec<f64>], &[Vec<f64>])) -> (f64, usize) {
    let x: Vec<Vec<f64>> = train.0.iter().chain(train.1).cloned().collect();
    let y: Vec<f64> = (0..x.len())
        .map(|i| if i < train.0.len() { 1.0 } else { -1.0 })
        .collect();
    let gamma = 1.0 / x.first().map_or(1, Vec::len) as f64;
    let svm = RbfSvm::fit(&x, &y, gamma, 1.0, 1e-3);
    let right = (test.0.iter().filter(|p| svm.decision(p) > 0.0).count())
        + (test.1.iter().filter(|p| svm.decision(p) <= 0.0).count());
    let n = test.0.len() + test.1.len();
    (right as f64 / n as f64, test.0.len())
}

/// Each target's bias and share of masculine words (positive bias) among its `k` nearest
/// candidates by cosine, itself left out.
fn neighbour_bias(model: &Model<'_>, words: &ResidualWords<'_>, k: usize) -> Vec<NeighbourBias> {
    let units: Vec<Vec<f64>> = words.candidates.iter().map(|&w| unit(model, w)).collect();
    let mut out = Vec::with_capacity(words.targets.len());
    for &target in words.targets {
        let Some(at) = words.candidates.iter().position(|&w| w == target) else {
            continue;
        };
        let mut near: Vec<(f64, usize)> = (units.iter().enumerate())
            .filter(|&(i, _)| i != at)
            .map(|(i, u)| (dot(u, &units[at]), i))
            .collect();
        let k = k.min(near.len());
        let masculine_share = if k == 0 {
            f64::NAN
        } else {
            // The k largest cosines (ties: the candidates' order), in any order.
            near.select_nth_unstable_by(k - 1, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            near[..k].iter().filter(|&&(_, i)| words.bias[i] > 0.0).count() as f64 / k as f64
        };
        out.push(NeighbourBias {
            word: target,
            bias: words.bias[at],
            masculine_share,
        });
    }
    out
}
