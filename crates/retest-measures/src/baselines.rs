//! Random baselines for cosines in an embedding space (Zhang, Sneyd & Stevenson 2020, §7 and
//! their footnote 5): how similar two random words are, and how similar the difference vectors
//! of two random word pairs are.

use rand_core::Rng;
use retest_rng::SeedPath;

use crate::Model;
use crate::permutation::below;

/// The mean and population SD of sampled cosines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CosineSample {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
}

impl CosineSample {
    /// The mean and population SD of `values` (NaN for none).
    pub fn of(values: &[f64]) -> CosineSample {
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n as f64;
        let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        CosineSample { n, mean, sd }
    }
}

/// The most samples [`random_cosines`] draws of each kind: their cosines are kept (two
/// `f64` per sample, 160 MB at this bound) for the mean and SD.
pub const MAX_RANDOM_SAMPLES: usize = 10_000_000;

/// The memory [`random_cosines`] keeps per sample: a pair's cosine and a difference's.
pub const RANDOM_SAMPLE_BYTES: u64 = 16;

/// Cosines of `samples` random pairs of distinct words a, b (cos(a, b)) and of `samples` random
/// quadruples of distinct words a, b, c, d (cos(a − b, c − d)), on the raw vectors of `words`
/// (word ids of `model`; at least 4). Words are drawn uniformly with replacement across samples,
/// from the streams `random-word-pairs` and `random-differences` of `seed`. A zero vector's
/// cosine is 0.
///
/// # Panics
///
/// With fewer than 4 words, or `samples` 0 or above [`MAX_RANDOM_SAMPLES`].
pub fn random_cosines(
    model: &Model<'_>,
    words: &[u32],
    samples: usize,
    seed: &SeedPath,
) -> (CosineSample, CosineSample) {
    assert!(
        words.len() >= 4 && (1..=MAX_RANDOM_SAMPLES).contains(&samples),
        "random_cosines needs 4 words and from 1 to {MAX_RANDOM_SAMPLES} samples"
    );
    let dim = model.dim();
    let row = |id: u32| model.raw_row(id).iter().map(|&x| f64::from(x));
    let mut pairs = Vec::with_capacity(samples);
    let mut rng = seed.stream("random-word-pairs");
    for _ in 0..samples {
        let [a, b] = distinct(&mut rng, words);
        pairs.push(cosine(row(a), row(b)));
    }
    let mut differences = Vec::with_capacity(samples);
    let mut rng = seed.stream("random-differences");
    let mut x = vec![0.0; dim];
    let mut y = vec![0.0; dim];
    for _ in 0..samples {
        let [a, b, c, d] = distinct(&mut rng, words);
        for (((x, a), b), ((y, c), d)) in
            (x.iter_mut().zip(row(a)).zip(row(b))).zip(y.iter_mut().zip(row(c)).zip(row(d)))
        {
            *x = a - b;
            *y = c - d;
        }
        differences.push(cosine(x.iter().copied(), y.iter().copied()));
    }
    (CosineSample::of(&pairs), CosineSample::of(&differences))
}

/// `K` distinct words drawn uniformly (a repeat is drawn again).
fn distinct<const K: usize>(rng: &mut impl Rng, words: &[u32]) -> [u32; K] {
    let mut picked = [0u32; K];
    let mut k = 0;
    while k < K {
        let w = words[below(rng, words.len() as u64) as usize];
        if !picked[..k].contains(&w) {
            picked[k] = w;
            k += 1;
        }
    }
    picked
}

/// cos(x, y) in f64, 0 when either is the zero vector: `Σxy/(√Σx²·√Σy²)`, each sum taken left
/// to right.
pub fn cosine(x: impl Iterator<Item = f64>, y: impl Iterator<Item = f64>) -> f64 {
    let (mut xy, mut xx, mut yy) = (0.0, 0.0, 0.0);
    for (a, b) in x.zip(y) {
        xy += a * b;
        xx += a * a;
        yy += b * b;
    }
    if xx == 0.0 || yy == 0.0 {
        0.0
    } else {
        xy / (xx.sqrt() * yy.sqrt())
    }
}
