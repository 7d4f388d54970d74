//! Direction of the word-level effects on reliability (Du et al. 2021, Table 2) from the
//! `regression` table, by ordinary least squares with one intercept per (corpus, algorithm)
//! configuration: a fixed-effects stand-in for the paper's multilevel model, enough to say
//! whether each effect points the same way. `analysis/multilevel.R` fits the paper's model.

use std::collections::BTreeMap;

use retest_reliability::fdist;
use retest_tables::RegressionRow;

/// Predictors whose direction the paper reports, with its standardised estimate (Table 2):
/// (term, test-retest estimate, inter-rater estimate).
pub const PAPER_ESTIMATES: [(&str, f64, f64); 6] = [
    ("log_freq", 0.0062, 0.0241),
    ("log_freq_sq", 0.0023, 0.0008),
    ("log_senses", -0.0012, -0.0007),
    ("nn_sim", -0.0024, 0.0011),
    ("l2_norm", -0.0118, -0.0051),
    ("es", 0.0457, 0.0186),
];

/// How a term is named in the paper's Table 2.
pub fn term_label(term: &str) -> &str {
    match term {
        "log_freq" => "log freq",
        "log_freq_sq" => "log² freq",
        "log_senses" => "log #senses",
        "nn_sim" => "NN sim",
        "l2_norm" => "L2 norm",
        "es" => "ES",
        other => other,
    }
}

/// One estimated coefficient.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub term: String,
    pub estimate: f64,
    pub std_error: f64,
    pub t: f64,
    pub p_value: f64,
}

/// The fit of one analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// `test_retest` or `inter_rater`.
    pub analysis: String,
    pub n_obs: usize,
    /// Word-level estimates (standardised predictors), in the order of [`PAPER_ESTIMATES`].
    pub estimates: Vec<Estimate>,
    /// Predictors left out, with why (e.g. `nn_sim: no finite values`).
    pub notes: Vec<String>,
    /// R² of the whole model (configurations, rules, PoS and word features).
    pub r2: f64,
}

/// The rows of one analysis: test-retest rows of every rule, inter-rater rows on the raw scale
/// (the scale of the original study).
fn rows_of<'a>(rows: &'a [RegressionRow], analysis: &str) -> Vec<&'a RegressionRow> {
    rows.iter()
        .filter(|r| r.analysis == analysis && r.scale == "raw" && r.score.is_finite())
        .collect()
}

fn feature(row: &RegressionRow, term: &str) -> f64 {
    match term {
        "log_freq" => row.log_freq,
        "log_senses" => row.log_senses,
        "nn_sim" => row.nn_sim,
        "l2_norm" => row.l2_norm,
        "es" => row.es,
        _ => f64::NAN,
    }
}

/// Mean and standard deviation (n − 1) of values.
fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

/// A predictor of the fit: its term, and the mean and SD it is standardised with.
type Continuous = (&'static str, f64, f64);

/// The word features usable as predictors (at least 3 finite values, some variance), with a note
/// for each one left out.
fn continuous_terms(rows: &[&RegressionRow]) -> (Vec<Continuous>, Vec<String>) {
    let mut notes = Vec::new();
    let mut continuous = Vec::new();
    for term in ["log_freq", "log_senses", "nn_sim", "l2_norm", "es"] {
        let finite: Vec<f64> = rows
            .iter()
            .map(|r| feature(r, term))
            .filter(|v| v.is_finite())
            .collect();
        if finite.len() < 3 {
            // A frequency of 0 is unknown: a model read from files without a counts file.
            let why = if term == "log_freq" && rows.iter().all(|r| r.frequency == 0) {
                "no word counts (models read from files without a `counts` file)"
            } else {
                "no finite values"
            };
            notes.push(format!("{}: {why}", term_label(term)));
            continue;
        }
        let (mean, sd) = mean_sd(&finite);
        if sd <= 0.0 || !sd.is_finite() {
            notes.push(format!("{}: no variance", term_label(term)));
            continue;
        }
        continuous.push((term, mean, sd));
    }
    (continuous, notes)
}

/// Writes the design row of `r` into `x`: the intercept, one dummy per non-reference level of
/// the configuration, metric and PoS factors, then the standardised features (and the square of
/// the log frequency).
fn design_row(x: &mut [f64], r: &RegressionRow, factors: [&[String]; 3], continuous: &[Continuous]) {
    x.iter_mut().for_each(|v| *v = 0.0);
    x[0] = 1.0;
    let mut k = 1;
    for (levels, value) in factors.into_iter().zip([
        format!("{}/{}", r.corpus, r.algorithm),
        r.metric.clone(),
        r.pos.clone(),
    ]) {
        if let Some(i) = levels.iter().position(|l| *l == value)
            && i > 0
        {
            x[k + i - 1] = 1.0;
        }
        k += levels.len().saturating_sub(1);
    }
    for (term, mean, sd) in continuous {
        let z = (feature(r, term) - mean) / sd;
        x[k] = z;
        k += 1;
        if *term == "log_freq" {
            x[k] = z * z;
            k += 1;
        }
    }
}

/// Fits `score ~ config + metric + z(log_freq) + z(log_freq)² + z(log_senses) + pos +
/// z(nn_sim) + z(l2_norm) + z(es)` by least squares, z the z-score over the analysis's rows (the squared
/// term is the square of the standardised log frequency, as in the original R code). `metric`
/// enters only for test-retest, a configuration dummy only with more than one configuration.
/// A predictor without finite values or without variance is left out and noted; rows with a
/// missing value in a used predictor are dropped. `None` with fewer rows than coefficients + 2
/// or a singular design.
pub fn fit(rows: &[RegressionRow], analysis: &str) -> Option<Fit> {
    let rows = rows_of(rows, analysis);
    let (continuous, notes) = continuous_terms(&rows);
    let rows: Vec<&RegressionRow> = rows
        .into_iter()
        .filter(|r| continuous.iter().all(|(t, _, _)| feature(r, t).is_finite()))
        .collect();
    let levels = |f: &dyn Fn(&RegressionRow) -> String| -> Vec<String> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for r in &rows {
            *counts.entry(f(r)).or_default() += 1;
        }
        counts.into_keys().collect()
    };
    let configs = levels(&|r| format!("{}/{}", r.corpus, r.algorithm));
    let metrics = if analysis == "test_retest" {
        levels(&|r| r.metric.clone())
    } else {
        Vec::new()
    };
    let pos = levels(&|r| r.pos.clone());
    // Design: intercept, dummies (first level of each factor is the reference), features.
    let mut names: Vec<String> = vec!["(Intercept)".into()];
    names.extend(configs.iter().skip(1).map(|c| format!("config {c}")));
    names.extend(metrics.iter().skip(1).map(|m| format!("metric {m}")));
    names.extend(pos.iter().skip(1).map(|p| format!("pos {p}")));
    let first_feature = names.len();
    for (term, _, _) in &continuous {
        names.push((*term).to_owned());
        if *term == "log_freq" {
            names.push("log_freq_sq".to_owned());
        }
    }
    let p = names.len();
    if rows.len() < p + 2 {
        return None;
    }
    let mut xtx = vec![0.0; p * p];
    let mut xty = vec![0.0; p];
    let mut x = vec![0.0; p];
    let (mut sum_y, mut sum_yy) = (0.0, 0.0);
    for r in &rows {
        design_row(&mut x, r, [&configs, &metrics, &pos], &continuous);
        for a in 0..p {
            xty[a] += x[a] * r.score;
            for b in 0..p {
                xtx[a * p + b] += x[a] * x[b];
            }
        }
        sum_y += r.score;
        sum_yy += r.score * r.score;
    }
    let inverse = invert(&xtx, p)?;
    let beta: Vec<f64> = (0..p)
        .map(|a| (0..p).map(|b| inverse[a * p + b] * xty[b]).sum())
        .collect();
    let n = rows.len() as f64;
    // RSS = y'y − β'X'y for the least-squares β.
    let rss = (sum_yy - beta.iter().zip(&xty).map(|(b, v)| b * v).sum::<f64>()).max(0.0);
    let tss = sum_yy - sum_y * sum_y / n;
    let df = n - p as f64;
    let sigma2 = rss / df;
    let estimates = (first_feature..p)
        .map(|a| {
            let std_error = (sigma2 * inverse[a * p + a]).sqrt();
            let t = beta[a] / std_error;
            Estimate {
                term: names[a].clone(),
                estimate: beta[a],
                std_error,
                t,
                p_value: fdist::sf(t * t, 1.0, df),
            }
        })
        .collect();
    Some(Fit {
        analysis: analysis.to_owned(),
        n_obs: rows.len(),
        estimates,
        notes,
        r2: if tss > 0.0 { 1.0 - rss / tss } else { f64::NAN },
    })
}

/// The inverse of a symmetric positive-definite p × p matrix (row-major) by Gauss–Jordan
/// elimination with partial pivoting; `None` when a pivot is (relatively) zero.
fn invert(m: &[f64], p: usize) -> Option<Vec<f64>> {
    let mut a = m.to_vec();
    let mut inv = vec![0.0; p * p];
    for i in 0..p {
        inv[i * p + i] = 1.0;
    }
    let scale = (0..p)
        .map(|i| m[i * p + i].abs())
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    for col in 0..p {
        let pivot_row =
            (col..p).max_by(|&r1, &r2| a[r1 * p + col].abs().total_cmp(&a[r2 * p + col].abs()))?;
        if a[pivot_row * p + col].abs() <= 1e-12 * scale {
            return None;
        }
        if pivot_row != col {
            for k in 0..p {
                a.swap(col * p + k, pivot_row * p + k);
                inv.swap(col * p + k, pivot_row * p + k);
            }
        }
        let d = a[col * p + col];
        for k in 0..p {
            a[col * p + k] /= d;
            inv[col * p + k] /= d;
        }
        for r in 0..p {
            if r != col {
                let f = a[r * p + col];
                if f != 0.0 {
                    for k in 0..p {
                        a[r * p + k] -= f * a[col * p + k];
                        inv[r * p + k] -= f * inv[col * p + k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(word: usize, metric: &str, score: f64, log_freq: f64, es: f64) -> RegressionRow {
        RegressionRow {
            analysis: "test_retest".into(),
            corpus: "c".into(),
            algorithm: "sgns".into(),
            metric: metric.into(),
            scale: "raw".into(),
            word: format!("w{word}"),
            score,
            frequency: 1,
            log_freq,
            log_freq_sq: log_freq * log_freq,
            n_senses: 1,
            log_senses: (word % 3) as f64,
            pos: if word.is_multiple_of(2) {
                "NOUN".into()
            } else {
                "VERB".into()
            },
            nn_sim: f64::NAN,
            l2_norm: (word % 5) as f64,
            es,
        }
    }

    #[test]
    fn recovers_signs_and_notes_missing_predictors() {
        let rows: Vec<RegressionRow> = (0..200)
            .flat_map(|w| {
                let lf = (w % 17) as f64 / 3.0;
                let es = ((w * 7) % 13) as f64 / 13.0;
                let noise = ((w * 31) % 11) as f64 / 1000.0;
                ["dbwa", "ripa"].map(|m| {
                    let shift = if m == "ripa" { -0.01 } else { 0.0 };
                    row(
                        w,
                        m,
                        0.5 + 0.02 * lf + 0.3 * es - 0.01 * (w % 5) as f64 + shift + noise,
                        lf,
                        es,
                    )
                })
            })
            .collect();
        let fit = fit(&rows, "test_retest").unwrap();
        assert_eq!(fit.n_obs, 400);
        assert_eq!(fit.notes, vec!["NN sim: no finite values".to_owned()]);
        let get = |t: &str| fit.estimates.iter().find(|e| e.term == t).unwrap();
        assert!(get("es").estimate > 0.0 && get("es").p_value < 0.05);
        assert!(get("log_freq").estimate > 0.0);
        assert!(get("l2_norm").estimate < 0.0);
        assert!(fit.r2 > 0.9, "{}", fit.r2);
        // Without word counts (frequency 0: unknown), log freq leaves the fit and the note says why.
        let uncounted: Vec<RegressionRow> = (rows.iter().cloned())
            .map(|r| RegressionRow {
                frequency: 0,
                log_freq: f64::NAN,
                log_freq_sq: f64::NAN,
                ..r
            })
            .collect();
        let fit = super::fit(&uncounted, "test_retest").unwrap();
        assert_eq!(
            fit.notes,
            [
                "log freq: no word counts (models read from files without a `counts` file)",
                "NN sim: no finite values"
            ]
        );
        assert!(fit.estimates.iter().all(|e| e.term != "log_freq"));
        assert!(super::fit(&rows, "inter_rater").is_none());
    }

    #[test]
    fn inverse_of_a_small_matrix() {
        let inv = invert(&[4.0, 2.0, 2.0, 3.0], 2).unwrap();
        // [[4, 2], [2, 3]]⁻¹ = [[3, −2], [−2, 4]] / 8.
        for (a, b) in inv.iter().zip([0.375, -0.25, -0.25, 0.5]) {
            assert!((a - b).abs() < 1e-12);
        }
        assert!(invert(&[1.0, 1.0, 1.0, 1.0], 2).is_none());
    }
}
