//! Two-means clustering as scikit-learn's `KMeans(n_clusters=2)` runs it: greedy k-means++
//! starts, Lloyd's iterations until no point changes cluster, the start of least inertia kept.

use rand_core::Rng;

use crate::permutation::below;

/// Lloyd's iterations per start, at most (scikit-learn's `max_iter`).
const MAX_ITERATIONS: usize = 300;

/// k-means++ candidates per centre after the first: scikit-learn's `2 + ⌊ln k⌋` for k = 2.
const LOCAL_TRIALS: usize = 2;

/// The share of `points` whose 2-means cluster matches `labels`, the better of the two matchings
/// (so at least 0.5), over the start of least inertia among `starts` seeded k-means++ starts.
///
/// # Panics
///
/// `points` and `labels` differ in length, or there are fewer than 2 points.
pub fn two_means_accuracy(points: &[Vec<f64>], labels: &[bool], starts: usize, rng: &mut impl Rng) -> f64 {
    assert_eq!(points.len(), labels.len(), "k-means: one label per point");
    assert!(points.len() >= 2, "k-means: at least 2 points");
    let mut best: Option<(f64, Vec<bool>)> = None;
    for _ in 0..starts.max(1) {
        let centres = plus_plus(points, rng);
        let (inertia, clusters) = lloyd(points, centres);
        if best.as_ref().is_none_or(|(b, _)| inertia < *b) {
            best = Some((inertia, clusters));
        }
    }
    let (_, clusters) = best.expect("one start at least");
    let agree = clusters.iter().zip(labels).filter(|(c, l)| c == l).count() as f64 / points.len() as f64;
    agree.max(1.0 - agree)
}

fn distance2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// A point drawn with probability proportional to `weights` (their sum `total`).
fn draw(weights: &[f64], total: f64, rng: &mut impl Rng) -> usize {
    // A uniform in [0, total) from 53 random bits.
    let u = (below(rng, 1 << 53) as f64 / (1u64 << 53) as f64) * total;
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if u < acc {
            return i;
        }
    }
    weights.len() - 1
}

/// Greedy k-means++ for two centres: the first a uniform point, the second the best (least
/// potential) of [`LOCAL_TRIALS`] points drawn with probability ∝ squared distance.
fn plus_plus(points: &[Vec<f64>], rng: &mut impl Rng) -> [Vec<f64>; 2] {
    let first = points[below(rng, points.len() as u64) as usize].clone();
    let d2: Vec<f64> = points.iter().map(|p| distance2(p, &first)).collect();
    let total: f64 = d2.iter().sum();
    if total == 0.0 {
        return [first.clone(), first];
    }
    let mut best: Option<(f64, usize)> = None;
    for _ in 0..LOCAL_TRIALS {
        let c = draw(&d2, total, rng);
        let potential: f64 = (points.iter().zip(&d2))
            .map(|(p, &d)| d.min(distance2(p, &points[c])))
            .sum();
        if best.is_none_or(|(b, _)| potential < b) {
            best = Some((potential, c));
        }
    }
    [first, points[best.expect("a trial").1].clone()]
}

/// Lloyd's iterations from `centres` until no point changes cluster: the inertia and each
/// point's cluster (`true`: the first).
fn lloyd(points: &[Vec<f64>], mut centres: [Vec<f64>; 2]) -> (f64, Vec<bool>) {
    let dim = points[0].len();
    let assign = |centres: &[Vec<f64>; 2]| -> Vec<bool> {
        (points.iter())
            .map(|p| distance2(p, &centres[0]) <= distance2(p, &centres[1]))
            .collect()
    };
    let mut clusters = assign(&centres);
    for _ in 0..MAX_ITERATIONS {
        for (c, first) in [(0, true), (1, false)] {
            let members: Vec<&Vec<f64>> = (points.iter().zip(&clusters))
                .filter(|&(_, &k)| k == first)
                .map(|(p, _)| p)
                .collect();
            if members.is_empty() {
                continue;
            }
            let mut mean = vec![0.0; dim];
            for p in &members {
                mean.iter_mut().zip(p.iter()).for_each(|(m, x)| *m += x);
            }
            mean.iter_mut().for_each(|m| *m /= members.len() as f64);
            centres[c] = mean;
        }
        let next = assign(&centres);
        if next == clusters {
            break;
        }
        clusters = next;
    }
    let inertia = (points.iter().zip(&clusters))
        .map(|(p, &k)| distance2(p, &centres[usize::from(!k)]))
        .sum();
    (inertia, clusters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clouds_are_found_whatever_the_start() {
        // Two clouds on a line, one point of the left cloud labelled with the right one.
        let points: Vec<Vec<f64>> = [-3.0, -2.5, -2.0, -1.5, 1.5, 2.0, 2.5, 3.0]
            .iter()
            .map(|&x| vec![x, 0.0])
            .collect();
        let labels = [false, false, false, true, true, true, true, true];
        for seed in 0..5 {
            let mut rng = retest_rng::SeedPath::new(seed).stream("k");
            assert_eq!(two_means_accuracy(&points, &labels, 3, &mut rng), 7.0 / 8.0);
        }
    }
}
