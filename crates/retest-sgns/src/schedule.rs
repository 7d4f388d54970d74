//! The learning-rate schedule: linear in the number of corpus words processed.

/// The learning rate after `words_done` of `words_total` training words (corpus tokens ×
/// epochs, counted before sub-sampling):
///
/// `α(p) = α₀ − (α₀ − α_min)·p`, `p = words_done / words_total`,
///
/// evaluated in `f64` and rounded to `f32`, and never below `α_min`. `α(0) = α₀` and
/// `α(1) = α_min` exactly. This is gensim's `_get_next_alpha` / `get_next_alpha`; word2vec.c
/// falls towards 0 instead, `α₀·(1 − p)`, floored at `10⁻⁴·α₀`.
///
/// With [`crate::Decay::Sentences`] the trainer passes sentences (pieces) done and in total
/// instead of words, which is what gensim does whenever it knows `total_examples`.
///
/// The trainer evaluates it at the start of every sentence (a sentence being at most
/// [`crate::MAX_SENTENCE_LEN`] words), so the step is constant within a sentence; word2vec.c
/// and gensim update it every ~10,000 words instead.
pub fn learning_rate(alpha: f32, min_alpha: f32, words_done: u64, words_total: u64) -> f32 {
    if words_total == 0 {
        return alpha;
    }
    let progress = (words_done as f64 / words_total as f64).min(1.0);
    let (a, m) = (f64::from(alpha), f64::from(min_alpha));
    let rate = (a - (a - m) * progress) as f32;
    if alpha >= min_alpha {
        rate.max(min_alpha)
    } else {
        rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_exact() {
        assert_eq!(learning_rate(0.025, 0.0001, 0, 1000), 0.025);
        assert_eq!(learning_rate(0.025, 0.0001, 1000, 1000), 0.0001);
        assert_eq!(learning_rate(0.025, 0.0001, 2000, 1000), 0.0001);
        assert_eq!(learning_rate(0.05, 0.0, 12_345, 12_345), 0.0);
        assert_eq!(learning_rate(0.025, 0.0001, 0, 0), 0.025);
    }

    #[test]
    fn schedule_is_linear() {
        let total = 5 * 1_000_003u64;
        let at = |done: u64| f64::from(learning_rate(0.025, 0.0001, done, total));
        // Equal steps in words give equal steps in rate (up to f32 rounding).
        let step = total / 10;
        let first = at(step) - at(0);
        for k in 0..10 {
            let d = at((k + 1) * step) - at(k * step);
            assert!((d - first).abs() < 1e-8, "step {k}: {d} vs {first}");
        }
        // The midpoint is the mean of the endpoints.
        assert!((at(total / 2) - (0.025 + 0.0001) / 2.0).abs() < 1e-8);
        // Monotone non-increasing.
        let mut previous = f32::INFINITY;
        for done in (0..=total).step_by(9_973) {
            let rate = learning_rate(0.025, 0.0001, done, total);
            assert!(rate <= previous);
            previous = rate;
        }
    }
}
