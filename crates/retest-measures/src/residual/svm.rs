//! A C-support vector classifier with the RBF kernel, fitted as libsvm fits it (scikit-learn's
//! `SVC`): sequential minimal optimisation over pairs chosen by second-order working-set
//! selection (Fan, Chen & Lin 2005), stopped when the maximal violation falls below `tol`.

/// libsvm's floor of a non-positive curvature.
const TAU: f64 = 1e-12;

/// libsvm's cap on SMO iterations.
const MAX_ITERATIONS: usize = 10_000_000;

/// A fitted RBF-kernel classifier: `f(x) = Σ yᵢ αᵢ K(xᵢ, x) − ρ`, `K(a, b) = exp(−γ‖a − b‖²)`.
#[derive(Debug, Clone)]
pub struct RbfSvm {
    /// The support vectors (αᵢ > 0) with their `yᵢ αᵢ`.
    support: Vec<(Vec<f64>, f64)>,
    gamma: f64,
    rho: f64,
}

fn rbf(a: &[f64], b: &[f64], gamma: f64) -> f64 {
    let d: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
    (-gamma * d).exp()
}

impl RbfSvm {
    /// The dual problem `min ½ αᵀQα − Σ α` subject to `0 ≤ α ≤ c`, `yᵀα = 0`
    /// (`Qᵢⱼ = yᵢ yⱼ K(xᵢ, xⱼ)`), solved by libsvm's SMO to a maximal violation below `tol`;
    /// `ρ` as libsvm sets it (the mean of `yᵢ Gᵢ` over the free vectors, else the middle of
    /// its bounds). `y` holds ±1; the kernel matrix is computed once (n² values).
    ///
    /// # Panics
    ///
    /// `x` and `y` differ in length, or `y` has a value other than ±1.
    pub fn fit(x: &[Vec<f64>], y: &[f64], gamma: f64, c: f64, tol: f64) -> RbfSvm {
        assert_eq!(x.len(), y.len(), "svm: one label per point");
        assert!(y.iter().all(|&v| v == 1.0 || v == -1.0), "svm: labels are ±1");
        let n = x.len();
        let mut q = vec![0.0f64; n * n];
        for i in 0..n {
            for j in i..n {
                let k = y[i] * y[j] * rbf(&x[i], &x[j], gamma);
                q[i * n + j] = k;
                q[j * n + i] = k;
            }
        }
        let mut alpha = vec![0.0f64; n];
        let mut grad = vec![-1.0f64; n];
        let upper = |a: f64| a >= c;
        let lower = |a: f64| a <= 0.0;
        for _ in 0..MAX_ITERATIONS {
            let Some((i, j)) = working_pair(&q, &grad, &alpha, y, c, tol) else {
                break;
            };
            let (qi, qj) = (&q[i * n..(i + 1) * n], &q[j * n..(j + 1) * n]);
            let (old_i, old_j) = (alpha[i], alpha[j]);
            if y[i] != y[j] {
                let curvature = positive(qi[i] + qj[j] + 2.0 * qi[j]);
                let delta = (-grad[i] - grad[j]) / curvature;
                let diff = alpha[i] - alpha[j];
                alpha[i] += delta;
                alpha[j] += delta;
                if diff > 0.0 {
                    if alpha[j] < 0.0 {
                        (alpha[j], alpha[i]) = (0.0, diff);
                    }
                } else if alpha[i] < 0.0 {
                    (alpha[i], alpha[j]) = (0.0, -diff);
                }
                if diff > 0.0 {
                    if alpha[i] > c {
                        (alpha[i], alpha[j]) = (c, c - diff);
                    }
                } else if alpha[j] > c {
                    (alpha[j], alpha[i]) = (c, c + diff);
                }
            } else {
                let curvature = positive(qi[i] + qj[j] - 2.0 * qi[j]);
                let delta = (grad[i] - grad[j]) / curvature;
                let sum = alpha[i] + alpha[j];
                alpha[i] -= delta;
                alpha[j] += delta;
                if sum > c {
                    if alpha[i] > c {
                        (alpha[i], alpha[j]) = (c, sum - c);
                    }
                } else if alpha[j] < 0.0 {
                    (alpha[j], alpha[i]) = (0.0, sum);
                }
                if sum > c {
                    if alpha[j] > c {
                        (alpha[j], alpha[i]) = (c, sum - c);
                    }
                } else if alpha[i] < 0.0 {
                    (alpha[i], alpha[j]) = (0.0, sum);
                }
            }
            let (di, dj) = (alpha[i] - old_i, alpha[j] - old_j);
            for k in 0..n {
                grad[k] += qi[k] * di + qj[k] * dj;
            }
        }
        // ρ: libsvm's `calculate_rho`.
        let (mut ub, mut lb, mut free, mut n_free) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0usize);
        for t in 0..n {
            let yg = y[t] * grad[t];
            if upper(alpha[t]) {
                if y[t] < 0.0 {
                    ub = ub.min(yg);
                } else {
                    lb = lb.max(yg);
                }
            } else if lower(alpha[t]) {
                if y[t] > 0.0 {
                    ub = ub.min(yg);
                } else {
                    lb = lb.max(yg);
                }
            } else {
                n_free += 1;
                free += yg;
            }
        }
        let rho = if n_free > 0 {
            free / n_free as f64
        } else {
            (ub + lb) / 2.0
        };
        let support = (0..n)
            .filter(|&t| alpha[t] > 0.0)
            .map(|t| (x[t].clone(), y[t] * alpha[t]))
            .collect();
        RbfSvm { support, gamma, rho }
    }

    /// `f(x)`: positive for the class labelled +1.
    pub fn decision(&self, x: &[f64]) -> f64 {
        let sum: f64 = (self.support.iter())
            .map(|(v, coef)| coef * rbf(v, x, self.gamma))
            .sum();
        sum - self.rho
    }

    /// The number of support vectors.
    pub fn n_support(&self) -> usize {
        self.support.len()
    }
}

fn positive(curvature: f64) -> f64 {
    if curvature > 0.0 { curvature } else { TAU }
}

/// libsvm's second-order working-set selection (WSS3): `i` the maximal violator, `j` the partner
/// of largest decrease of the objective; `None` once the maximal violation is below `tol`.
fn working_pair(
    q: &[f64],
    grad: &[f64],
    alpha: &[f64],
    y: &[f64],
    c: f64,
    tol: f64,
) -> Option<(usize, usize)> {
    let n = alpha.len();
    let (mut gmax, mut gmax_at) = (f64::NEG_INFINITY, None);
    for t in 0..n {
        let (in_up, value) = if y[t] > 0.0 {
            (alpha[t] < c, -grad[t])
        } else {
            (alpha[t] > 0.0, grad[t])
        };
        if in_up && value >= gmax {
            (gmax, gmax_at) = (value, Some(t));
        }
    }
    let i = gmax_at?;
    let qi = &q[i * n..(i + 1) * n];
    let (mut gmax2, mut best, mut best_at) = (f64::NEG_INFINITY, f64::INFINITY, None);
    for j in 0..n {
        let (in_low, value, curvature) = if y[j] > 0.0 {
            (alpha[j] > 0.0, grad[j], qi[i] + q[j * n + j] - 2.0 * y[i] * qi[j])
        } else {
            (alpha[j] < c, -grad[j], qi[i] + q[j * n + j] + 2.0 * y[i] * qi[j])
        };
        if !in_low {
            continue;
        }
        gmax2 = gmax2.max(value);
        let gain = gmax + value;
        if gain > 0.0 {
            let objective = -(gain * gain) / positive(curvature);
            if objective <= best {
                (best, best_at) = (objective, Some(j));
            }
        }
    }
    if gmax + gmax2 < tol {
        return None;
    }
    best_at.map(|j| (i, j))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separable_points_are_classified_and_the_margin_is_symmetric() {
        // Two points per class on a line: the decision is antisymmetric about the middle.
        let x: Vec<Vec<f64>> = [-2.0, -1.0, 1.0, 2.0].iter().map(|&v| vec![v]).collect();
        let y = [-1.0, -1.0, 1.0, 1.0];
        let svm = RbfSvm::fit(&x, &y, 0.5, 1.0, 1e-6);
        assert!(svm.decision(&[1.5]) > 0.0 && svm.decision(&[-1.5]) < 0.0);
        assert!((svm.decision(&[0.3]) + svm.decision(&[-0.3])).abs() < 1e-6);
    }

    /// Two points ±1: α₁ = α₂ = 1/(1 − K₁₂) below C, ρ = 0, and both lie on the margin.
    #[test]
    fn two_points_lie_on_the_margin() {
        let x = [vec![-1.0], vec![1.0]];
        let svm = RbfSvm::fit(&x, &[-1.0, 1.0], 0.5, 10.0, 1e-9);
        assert_eq!(svm.n_support(), 2);
        assert!((svm.decision(&[1.0]) - 1.0).abs() < 1e-9);
        assert!((svm.decision(&[-1.0]) + 1.0).abs() < 1e-9);
        assert!(svm.decision(&[0.0]).abs() < 1e-12);
    }
}
