//! Eigen-decomposition of a small symmetric matrix by the cyclic Jacobi method: what the
//! principal-component gender direction needs from a (2p) × (2p) Gram matrix.

/// The eigenvalues (descending; ties keep the lower original index first) and unit
/// eigenvectors (`vectors[i]` belongs to `values[i]`) of the symmetric `n × n` row-major
/// matrix `a`.
///
/// Cyclic Jacobi (Golub & Van Loan, *Matrix Computations*, §8.5): sweeps of plane rotations
/// over every off-diagonal pair `(p, q)` in a fixed order, each zeroing `a_pq`, until the
/// off-diagonal Frobenius norm is below `1e-15 ‖A‖_F` (at most 100 sweeps; convergence is
/// quadratic, a few sweeps for the sizes used here). The result depends only on `a`.
pub(crate) fn symmetric_eigen(a: &[f64], n: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
    debug_assert_eq!(a.len(), n * n);
    let mut a = a.to_vec();
    let mut v = vec![0.0f64; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let frob: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let tol = 1e-15 * frob;
    for _ in 0..100 {
        let mut off = 0.0f64;
        for p in 0..n {
            for q in p + 1..n {
                off += 2.0 * a[p * n + q] * a[p * n + q];
            }
        }
        if off.sqrt() <= tol {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                // Rotation J with J_pp = J_qq = c, J_pq = s, J_qp = −s; A ← JᵀAJ zeroes a_pq when
                // t = s/c solves t² + 2θt − 1 = 0 (the smaller root).
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| a[j * n + j].total_cmp(&a[i * n + i]).then(i.cmp(&j)));
    let values = order.iter().map(|&i| a[i * n + i]).collect();
    let vectors = order
        .iter()
        .map(|&i| (0..n).map(|k| v[k * n + i]).collect())
        .collect();
    (values, vectors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_by_two_by_hand() {
        // [[2, 1], [1, 2]]: eigenvalues 3 (1, 1)/√2 and 1 (1, −1)/√2.
        let (values, vectors) = symmetric_eigen(&[2.0, 1.0, 1.0, 2.0], 2);
        assert!((values[0] - 3.0).abs() < 1e-15 && (values[1] - 1.0).abs() < 1e-15);
        let h = std::f64::consts::FRAC_1_SQRT_2;
        assert!((vectors[0][0].abs() - h).abs() < 1e-15);
        assert!((vectors[0][0] - vectors[0][1]).abs() < 1e-15);
        assert!((vectors[1][0] + vectors[1][1]).abs() < 1e-15);
    }

    #[test]
    fn reconstructs_a_symmetric_matrix() {
        // A = B Bᵀ for a fixed 5 × 3 B: rank 3, two zero eigenvalues.
        let b = [
            [0.3, -1.2, 0.5],
            [1.1, 0.4, -0.7],
            [-0.2, 0.9, 0.8],
            [0.6, 0.0, -1.5],
            [2.0, -0.3, 0.1],
        ];
        let n = 5;
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = (0..3).map(|k| b[i][k] * b[j][k]).sum();
            }
        }
        let (values, vectors) = symmetric_eigen(&a, n);
        assert!(values.windows(2).all(|w| w[0] >= w[1]));
        let trace: f64 = (0..n).map(|i| a[i * n + i]).sum();
        assert!((values.iter().sum::<f64>() - trace).abs() < 1e-12);
        assert!(values[3].abs() < 1e-12 && values[4].abs() < 1e-12);
        for i in 0..n {
            for j in 0..n {
                let r: f64 = (0..n).map(|k| values[k] * vectors[k][i] * vectors[k][j]).sum();
                assert!((r - a[i * n + j]).abs() < 1e-12, "({i}, {j})");
                let o: f64 = (0..n).map(|k| vectors[i][k] * vectors[j][k]).sum();
                assert!((o - f64::from(u8::from(i == j))).abs() < 1e-12);
            }
        }
    }
}
