//! The query measures of the field beside WEAT, each one value per query (target sets against
//! attribute sets) and model, defined as WEFE 1.0.1 computes them at its defaults (raw vectors,
//! no normalisation):
//!
//! * [`rnd`] — relative norm distance (Garg et al. 2018);
//! * [`ect`] — embedding coherence test (Dev & Phillips 2019);
//! * [`mac`] — mean average cosine distance (Manzini et al. 2019);
//! * [`rnsb`] — relative negative sentiment bias (Sweeney & Najafian 2019), with its logistic
//!   regression fitted to the optimum ([`LogisticRegression`]);
//! * [`ripa_query`] — relational inner product association (Ethayarajh et al. 2019) of
//!   attribute words along pairs of target words.
//!
//! Sums run in f64 in the sets' order; WEFE works in the vectors' float32, so the two agree to
//! about 1e-7 (RNSB to liblinear's tolerance, about 1e-5).

use retest_reliability::average_ranks;
use retest_rng::SeedPath;

use crate::permutation::below;
use crate::score::ripa_direction;
use crate::vectors::{check_set, dot, dot_f32, norm, unit};
use crate::{MeasureError, Model, RelativeNormDistance};

/// The stream of [`SeedPath`] RNSB's holdout split draws from.
pub const RNSB_HOLDOUT_STREAM: &str = "rnsb-holdout";

/// WEFE's share of each attribute set RNSB's classifier does not see (`train_test_split`'s
/// `test_size=0.2`).
pub const RNSB_HOLDOUT: f64 = 0.2;

/// How RNSB's classifier is fitted.
#[derive(Clone, Copy, Debug)]
pub struct RnsbOptions<'s> {
    /// The share of each attribute set left out of the fit, drawn at random from `seed`
    /// (stream [`RNSB_HOLDOUT_STREAM`]); 0 fits on every attribute word (WEFE's
    /// `holdout=False`). In `[0, 1)`; each set keeps at least one word.
    pub holdout: f64,
    pub seed: &'s SeedPath,
}

/// `(1/|S|) Σ_{w∈S} w`, the mean of the raw vectors of a non-empty set, in the set's order.
fn mean_raw(model: &Model<'_>, ids: &[u32]) -> Vec<f64> {
    let mut c = vec![0.0f64; model.dim()];
    for &id in ids {
        for (ci, &x) in c.iter_mut().zip(model.raw_row(id)) {
            *ci += f64::from(x);
        }
    }
    c.iter_mut().for_each(|ci| *ci /= ids.len() as f64);
    c
}

fn raw(model: &Model<'_>, id: u32) -> Vec<f64> {
    model.raw_row(id).iter().map(|&x| f64::from(x)).collect()
}

/// `cos(u, v)` of two f64 vectors; 0 when either is zero.
fn cosine(u: &[f64], v: &[f64]) -> f64 {
    let (nu, nv) = (norm(u), norm(v));
    if nu == 0.0 || nv == 0.0 {
        0.0
    } else {
        dot(u, v) / (nu * nv)
    }
}

/// Relative norm distance: the mean over the attribute words `w` of `‖w − x̄‖ − ‖w − ȳ‖`, with
/// `x̄`, `ȳ` the means of the two target sets' raw vectors (`value`), and each word's term
/// (`per_word`, in the attribute set's order). Positive: the attribute words are nearer the
/// second target set.
///
/// # Errors
///
/// A set is empty or holds an id outside the model.
pub fn rnd(
    model: &Model<'_>,
    x: &[u32],
    y: &[u32],
    attribute: &[u32],
) -> Result<RelativeNormDistance, MeasureError> {
    check_set(model, "rnd first target set", x)?;
    check_set(model, "rnd second target set", y)?;
    check_set(model, "rnd attribute set", attribute)?;
    let (mx, my) = (mean_raw(model, x), mean_raw(model, y));
    let distance = |u: &[f64], v: &[f64]| {
        let d: Vec<f64> = u.iter().zip(v).map(|(a, b)| a - b).collect();
        norm(&d)
    };
    let per_word: Vec<f64> = (attribute.iter())
        .map(|&w| {
            let w = raw(model, w);
            distance(&w, &mx) - distance(&w, &my)
        })
        .collect();
    let total = per_word.iter().fold(0.0, |acc, t| acc + t);
    Ok(RelativeNormDistance {
        value: total / attribute.len() as f64,
        per_word,
    })
}

/// Embedding coherence test: Spearman's ρ (average ranks for ties) between `cos(x̄, w)` and
/// `cos(ȳ, w)` over the attribute words, `x̄`, `ȳ` the means of the target sets' raw vectors.
/// 1: both target sets rank the attribute words alike (no bias); NaN with fewer than two
/// attribute words or when one side is constant.
///
/// # Errors
///
/// A set is empty or holds an id outside the model.
pub fn ect(model: &Model<'_>, x: &[u32], y: &[u32], attribute: &[u32]) -> Result<f64, MeasureError> {
    check_set(model, "ect first target set", x)?;
    check_set(model, "ect second target set", y)?;
    check_set(model, "ect attribute set", attribute)?;
    let (mx, my) = (mean_raw(model, x), mean_raw(model, y));
    let (sx, sy): (Vec<f64>, Vec<f64>) = attribute
        .iter()
        .map(|&w| {
            let w = raw(model, w);
            (cosine(&mx, &w), cosine(&my, &w))
        })
        .unzip();
    Ok(rank_correlation(&sx, &sy))
}

/// Spearman's ρ: Pearson's r of the average ranks (scipy's `spearmanr(x, y).correlation`, which
/// is defined from two pairs on); NaN when either side's ranks do not vary.
fn rank_correlation(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (average_ranks(x), average_ranks(y));
    let mean = |v: &[f64]| v.iter().fold(0.0, |acc, r| acc + r) / v.len() as f64;
    let (mx, my) = (mean(&rx), mean(&ry));
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        let (dx, dy) = (a - mx, b - my);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return f64::NAN;
    }
    (sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0)
}

/// RIPA of a query, as WEFE computes it: the two target sets paired word by word, each pair
/// `(x_i, y_i)` a relation vector `b_i = (x_i − y_i)/‖x_i − y_i‖`; the value is the mean over
/// the attribute words `w` of the mean over the pairs of `w · b_i` (raw vectors). Positive: the
/// attribute words lean to the first target set. Each term is Du et al.'s per-word RIPA
/// ([`crate::Rule::Ripa`], raw target vector) of `w` along the pair.
///
/// # Errors
///
/// No pair or no attribute word; an id outside the model; a pair with identical vectors.
pub fn ripa_query(model: &Model<'_>, pairs: &[(u32, u32)], attribute: &[u32]) -> Result<f64, MeasureError> {
    if pairs.is_empty() {
        return Err(MeasureError::EmptySet { what: "ripa pairs" });
    }
    check_set(model, "ripa attribute words", attribute)?;
    let directions = (pairs.iter())
        .map(|&(x, y)| {
            check_set(model, "ripa pairs", &[x, y])?;
            ripa_direction(model, x, y)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let per_word: Vec<f64> = (attribute.iter())
        .map(|&w| {
            let terms = directions.iter().map(|b| dot_f32(model.raw_row(w), b));
            terms.fold(0.0, |acc, t| acc + t) / directions.len() as f64
        })
        .collect();
    Ok(per_word.iter().fold(0.0, |acc, t| acc + t) / per_word.len() as f64)
}

/// Mean average cosine distance: over every word `t` of every target set and every attribute
/// set `A`, the mean of `1 − cos(t, w)` over `w ∈ A`; MAC is the mean of those means. Lower:
/// the targets are closer to the attributes.
///
/// # Errors
///
/// No target set or no attribute set; a set is empty or holds an id outside the model.
pub fn mac(model: &Model<'_>, targets: &[&[u32]], attributes: &[&[u32]]) -> Result<f64, MeasureError> {
    if targets.is_empty() {
        return Err(MeasureError::EmptySet {
            what: "mac target sets",
        });
    }
    if attributes.is_empty() {
        return Err(MeasureError::EmptySet {
            what: "mac attribute sets",
        });
    }
    for t in targets {
        check_set(model, "mac target set", t)?;
    }
    for a in attributes {
        check_set(model, "mac attribute set", a)?;
    }
    let units: Vec<Vec<Vec<f64>>> = (attributes.iter())
        .map(|a| a.iter().map(|&w| unit(model, w)).collect())
        .collect();
    let (mut total, mut n) = (0.0, 0usize);
    for &t in targets.iter().flat_map(|t| t.iter()) {
        let t = unit(model, t);
        for set in &units {
            let distances = set.iter().fold(0.0, |acc, w| acc + (1.0 - dot(&t, w)));
            total += distances / set.len() as f64;
            n += 1;
        }
    }
    Ok(total / n as f64)
}

/// Relative negative sentiment bias: a logistic regression of the first attribute set (+1)
/// against the second (−1), fitted on the attribute words the holdout keeps (see
/// [`RnsbOptions`], [`LogisticRegression`]), gives each target word of every set its
/// probability of the second class; RNSB is the Kullback–Leibler divergence (natural log) of
/// those probabilities, normalised to sum to 1, from the uniform distribution. 0: every target
/// word equally "negative".
///
/// WEFE splits with scikit-learn's `train_test_split` (stratified, `test_size=0.2`); the split
/// here is drawn from the seed instead, `round(holdout · n)` words of each set of `n`, so a
/// value with a holdout is reproducible but is not WEFE's; without one the two agree.
///
/// # Errors
///
/// No target set; a set is empty or holds an id outside the model; a holdout outside `[0, 1)`.
pub fn rnsb(
    model: &Model<'_>,
    targets: &[&[u32]],
    positive: &[u32],
    negative: &[u32],
    options: &RnsbOptions<'_>,
) -> Result<f64, MeasureError> {
    if !(0.0..1.0).contains(&options.holdout) {
        return Err(MeasureError::InvalidHoldout {
            holdout: options.holdout,
        });
    }
    if targets.is_empty() {
        return Err(MeasureError::EmptySet {
            what: "rnsb target sets",
        });
    }
    for t in targets {
        check_set(model, "rnsb target set", t)?;
    }
    check_set(model, "rnsb first attribute set", positive)?;
    check_set(model, "rnsb second attribute set", negative)?;
    let mut rng = options.seed.stream(RNSB_HOLDOUT_STREAM);
    let mut kept = |set: &[u32]| {
        let mut ids = set.to_vec();
        let left_out = ((options.holdout * ids.len() as f64).round() as usize).min(ids.len() - 1);
        // The first `left_out` places of a seeded Fisher–Yates shuffle are held out.
        for i in 0..left_out {
            let j = i + below(&mut rng, (ids.len() - i) as u64) as usize;
            ids.swap(i, j);
        }
        ids.split_off(left_out)
    };
    let (positive, negative) = (kept(positive), kept(negative));
    let samples: Vec<(Vec<f64>, f64)> = (positive.iter().map(|&w| (raw(model, w), 1.0)))
        .chain(negative.iter().map(|&w| (raw(model, w), -1.0)))
        .collect();
    let fit = LogisticRegression::fit(&samples, 1.0);
    let p: Vec<f64> = (targets.iter().flat_map(|t| t.iter()))
        .map(|&w| fit.probability(&raw(model, w), -1.0))
        .collect();
    Ok(divergence_from_uniform(&p))
}

/// `Σ pᵢ ln(n pᵢ)` of `p` normalised to sum to 1 (scipy's `entropy(p, uniform)`); a zero
/// probability adds 0.
fn divergence_from_uniform(p: &[f64]) -> f64 {
    let total = p.iter().fold(0.0, |acc, x| acc + x);
    let n = p.len() as f64;
    p.iter().fold(0.0, |acc, &x| {
        let q = x / total;
        if q > 0.0 { acc + q * (n * q).ln() } else { acc }
    })
}

/// An L2-regularised logistic regression with the intercept penalised like the weights, as
/// liblinear fits it (scikit-learn's `LogisticRegression(solver="liblinear")`, C the inverse
/// strength): minimises `½‖(w, b)‖² + C Σᵢ ln(1 + exp(−yᵢ (w·xᵢ + b)))` over `yᵢ ∈ {+1, −1}`.
/// Fitted by Newton's method with a backtracking line search to a gradient below 1e-10 (the
/// objective is strongly convex, so the optimum is unique; liblinear stops earlier, at its
/// tolerance). Each Newton system `(I + Bᵀ B) p = −g`, `B = D^½ X`, is solved through the
/// `n × n` matrix `I + B Bᵀ` (Woodbury), so a fit costs `O(n² d)` for `n` samples of `d`
/// dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticRegression {
    /// The weights, then the intercept.
    pub coefficients: Vec<f64>,
    /// Newton steps taken.
    pub iterations: usize,
}

impl LogisticRegression {
    const TOLERANCE: f64 = 1e-10;
    const MAX_ITERATIONS: usize = 100;

    /// Fits the model to `samples` (each a vector and its label, +1 or −1; all of one length)
    /// with inverse regularisation strength `c`.
    pub fn fit(samples: &[(Vec<f64>, f64)], c: f64) -> LogisticRegression {
        let d = samples.first().map_or(0, |(x, _)| x.len()) + 1;
        // Rows with the intercept's constant 1 appended.
        let rows: Vec<Vec<f64>> = (samples.iter())
            .map(|(x, _)| x.iter().copied().chain([1.0]).collect())
            .collect();
        let labels: Vec<f64> = samples.iter().map(|&(_, y)| y).collect();
        let objective = |w: &[f64]| {
            let loss = rows
                .iter()
                .zip(&labels)
                .fold(0.0, |acc, (x, &y)| acc + log1p_exp(-y * dot(w, x)));
            0.5 * dot(w, w) + c * loss
        };
        let mut w = vec![0.0; d];
        let mut iterations = 0;
        while iterations < Self::MAX_ITERATIONS {
            let margins: Vec<f64> = rows.iter().zip(&labels).map(|(x, &y)| y * dot(&w, x)).collect();
            // g = w − C Σ yᵢ σ(−mᵢ) xᵢ; D = C σ(mᵢ) σ(−mᵢ).
            let mut g = w.clone();
            for ((x, &y), &m) in rows.iter().zip(&labels).zip(&margins) {
                let s = sigmoid(-m);
                for (gj, xj) in g.iter_mut().zip(x) {
                    *gj -= c * y * s * xj;
                }
            }
            if g.iter().fold(0.0f64, |acc, v| acc.max(v.abs())) < Self::TOLERANCE {
                break;
            }
            let scale: Vec<f64> = margins
                .iter()
                .map(|&m| (c * sigmoid(m) * sigmoid(-m)).sqrt())
                .collect();
            let step = newton_step(&rows, &scale, &g);
            let (f0, slope) = (objective(&w), dot(&g, &step));
            let mut t = 1.0;
            loop {
                let trial: Vec<f64> = w.iter().zip(&step).map(|(a, p)| a + t * p).collect();
                if objective(&trial) <= f0 + 1e-4 * t * slope || t < 1e-10 {
                    w = trial;
                    break;
                }
                t *= 0.5;
            }
            iterations += 1;
        }
        LogisticRegression {
            coefficients: w,
            iterations,
        }
    }

    /// The probability of `label` (+1 or −1) for the vector `x`.
    pub fn probability(&self, x: &[f64], label: f64) -> f64 {
        let (w, b) = self.coefficients.split_at(self.coefficients.len() - 1);
        sigmoid(label * (dot(w, x) + b[0]))
    }
}

/// `p = −H⁻¹ g` for `H = I + Bᵀ B`, `B`'s rows `scale[i] · rows[i]`:
/// `H⁻¹ g = g − Bᵀ (I + B Bᵀ)⁻¹ B g`.
fn newton_step(rows: &[Vec<f64>], scale: &[f64], g: &[f64]) -> Vec<f64> {
    let n = rows.len();
    let b: Vec<Vec<f64>> = rows
        .iter()
        .zip(scale)
        .map(|(x, &s)| x.iter().map(|v| s * v).collect())
        .collect();
    let mut gram = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let v = dot(&b[i], &b[j]) + if i == j { 1.0 } else { 0.0 };
            gram[i * n + j] = v;
            gram[j * n + i] = v;
        }
    }
    let bg: Vec<f64> = b.iter().map(|row| dot(row, g)).collect();
    let z = cholesky_solve(&mut gram, n, &bg);
    let mut step: Vec<f64> = g.iter().map(|v| -v).collect();
    for (row, zi) in b.iter().zip(&z) {
        for (sj, rj) in step.iter_mut().zip(row) {
            *sj += zi * rj;
        }
    }
    step
}

/// Solves `A z = r` for the symmetric positive definite `n × n` matrix `a` (row-major,
/// overwritten by its Cholesky factor).
fn cholesky_solve(a: &mut [f64], n: usize, r: &[f64]) -> Vec<f64> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut v = a[i * n + j];
            for k in 0..j {
                v -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = v / d;
        }
    }
    let mut z = r.to_vec();
    for i in 0..n {
        for k in 0..i {
            z[i] -= a[i * n + k] * z[k];
        }
        z[i] /= a[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            z[i] -= a[k * n + i] * z[k];
        }
        z[i] /= a[i * n + i];
    }
    z
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln(1 + eˣ)` without overflow.
fn log1p_exp(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model_of<'a>(words: &'a [String], raw: &'a [f32], dim: usize) -> Model<'a> {
        Model::new(words, raw, dim).unwrap()
    }

    fn words(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("w{i}")).collect()
    }

    #[test]
    fn rnd_is_the_mean_difference_of_distances_to_the_target_means() {
        // x̄ = (1, 0), ȳ = (0, 1); w0 = (1, 0): 0 − √2; w1 = (0, 2): √5 − 1.
        let raw = [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 2.0];
        let (w, m) = (words(4), 2);
        let model = model_of(&w, &raw, m);
        let want = ((0.0 - 2f64.sqrt()) + (5f64.sqrt() - 1.0)) / 2.0;
        let got = rnd(&model, &[0], &[1], &[2, 3]).unwrap();
        assert!((got.value - want).abs() < 1e-15);
        assert_eq!(got.per_word, [0.0 - 2f64.sqrt(), 5f64.sqrt() - 1.0]);
    }

    #[test]
    fn ect_is_one_when_both_targets_rank_the_attributes_alike_and_nan_for_one_word() {
        // Targets (1, 0) and (1, 0.1); attributes at angles 10°, 50°, 80° from (1, 0).
        let angle = |deg: f32| [deg.to_radians().cos(), deg.to_radians().sin()];
        let mut raw = vec![1.0, 0.0, 1.0, 0.1];
        for deg in [10.0, 50.0, 80.0] {
            raw.extend(angle(deg));
        }
        let w = words(5);
        let model = model_of(&w, &raw, 2);
        assert!((ect(&model, &[0], &[1], &[2, 3, 4]).unwrap() - 1.0).abs() < 1e-15);
        assert!(ect(&model, &[0], &[1], &[2]).unwrap().is_nan());
        // Two words, as scipy: ±1.
        assert!((ect(&model, &[0], &[1], &[2, 4]).unwrap() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn mac_averages_the_cosine_distances_per_target_word_and_attribute_set() {
        // t = (1, 0); A1 = {(1, 0), (0, 1)}: mean distance ½; A2 = {(−1, 0)}: 2. MAC = 1.25.
        let raw = [1.0, 0.0, 1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
        let w = words(4);
        let model = model_of(&w, &raw, 2);
        assert!((mac(&model, &[&[0]], &[&[1, 2], &[3]]).unwrap() - 1.25).abs() < 1e-15);
        assert!(matches!(
            mac(&model, &[], &[&[1]]),
            Err(MeasureError::EmptySet {
                what: "mac target sets"
            })
        ));
    }

    #[test]
    fn the_logistic_regression_reaches_the_optimum_of_its_objective() {
        // One feature: x = 1 labelled +1, x = −1 labelled −1, C = 1. By symmetry b = 0 and
        // w solves w = 2 σ(−w) (the gradient is zero).
        let samples = vec![(vec![1.0], 1.0), (vec![-1.0], -1.0)];
        let fit = LogisticRegression::fit(&samples, 1.0);
        let (w, b) = (fit.coefficients[0], fit.coefficients[1]);
        assert!(b.abs() < 1e-12, "{b}");
        assert!((w - 2.0 * sigmoid(-w)).abs() < 1e-10, "{w}");
        assert!((fit.probability(&[1.0], 1.0) - sigmoid(w)).abs() < 1e-15);
        assert!(fit.iterations < 10);
    }

    #[test]
    fn divergence_from_uniform_is_zero_for_equal_probabilities() {
        assert_eq!(divergence_from_uniform(&[0.3, 0.3, 0.3]), 0.0);
        // p = (¾, ¼): ¾ ln(3/2) + ¼ ln(1/2).
        let want = 0.75 * 1.5f64.ln() + 0.25 * 0.5f64.ln();
        assert!((divergence_from_uniform(&[3.0, 1.0]) - want).abs() < 1e-15);
    }
}
