//! The logistic function as word2vec.c evaluates it: a 1000-entry table on [−6, 6), with the
//! gradient clipped (or, as gensim does, the pair skipped) outside.

use crate::{Saturation, SigmoidIndex};

/// Half-width of the tabulated interval (word2vec.c's `MAX_EXP`).
pub const MAX_EXP: f32 = 6.0;

/// Number of table entries (word2vec.c's `EXP_TABLE_SIZE`).
pub const TABLE_SIZE: usize = 1000;

/// Table entries per unit of the argument: `TABLE_SIZE / (2·MAX_EXP)` ([`SigmoidIndex::Exact`]).
///
/// word2vec.c and gensim write this as `EXP_TABLE_SIZE / MAX_EXP / 2` on integer constants,
/// which C evaluates as `1000 / 6 / 2 = 83` instead of `83.33…` ([`TRUNCATED_SCALE`]).
const EXACT_SCALE: f32 = TABLE_SIZE as f32 / (2.0 * MAX_EXP);

/// word2vec.c's and gensim's scale ([`SigmoidIndex::Truncated`]).
const TRUNCATED_SCALE: f32 = 83.0;

/// `σ(x) = 1 / (1 + e^(−x))` tabulated at the left edge of each of the [`TABLE_SIZE`] bins:
/// entry `i` is `σ((2·i/TABLE_SIZE − 1)·MAX_EXP)`, computed in `f64` with retest-detmath's
/// deterministic `exp` (`Profile::SGNS`) and rounded to `f32` (word2vec.c's `expTable`).
#[derive(Debug, Clone)]
pub(crate) struct SigmoidTable {
    table: Box<[f32; TABLE_SIZE]>,
    scale: f32,
    /// `f > upper` or `f < −upper` is outside the table: `MAX_EXP` for [`Saturation::Clip`],
    /// the largest `f32` below it for [`Saturation::Skip`] (so that `|f| ≥ MAX_EXP` is outside).
    upper: f32,
    /// Factor of the gradient outside the table: 1 (Clip) or 0 (Skip).
    outside: f32,
}

impl SigmoidTable {
    pub(crate) fn new(index: SigmoidIndex, saturation: Saturation) -> SigmoidTable {
        let mut table = Box::new([0.0f32; TABLE_SIZE]);
        for (i, entry) in table.iter_mut().enumerate() {
            let x = (i as f64 / TABLE_SIZE as f64 * 2.0 - 1.0) * f64::from(MAX_EXP);
            let e = retest_detmath::Profile::SGNS.exp(x);
            *entry = (e / (e + 1.0)) as f32;
        }
        let scale = match index {
            SigmoidIndex::Exact => EXACT_SCALE,
            SigmoidIndex::Truncated => TRUNCATED_SCALE,
        };
        let (upper, outside) = match saturation {
            Saturation::Clip => (MAX_EXP, 1.0),
            Saturation::Skip => (f32::from_bits(MAX_EXP.to_bits() - 1), 0.0),
        };
        SigmoidTable {
            table,
            scale,
            upper,
            outside,
        }
    }

    /// The scaled gradient `g = α·(label − σ(f))` of one (input, target) pair, where `f` is the
    /// dot product of the input and the target's output vector and `label` is 1 for the
    /// positive target and 0 for a negative one. A zero `g` means the pair changes nothing.
    ///
    /// [`Saturation::Clip`] (word2vec.c): for `f > MAX_EXP`, `g = (label − 1)·α`; for
    /// `f < −MAX_EXP`, `g = label·α`; otherwise `σ(f)` comes from the table.
    /// [`Saturation::Skip`] (gensim): `g = 0` for `|f| ≥ MAX_EXP`. The two differ for a pair on
    /// the wrong side — a negative with `f > 6` or the positive with `f < −6` — which Clip moves
    /// with the full step `∓α` and Skip leaves alone (and at `f = ±6` exactly, where Clip reads
    /// the table).
    ///
    /// Outside the table the clipped gradient is multiplied by 1 (Clip: the same bits) or 0
    /// (Skip: `±0`, which the trainer treats as no update), so both policies take the same
    /// branches.
    #[inline(always)]
    pub(crate) fn gradient(&self, f: f32, label: f32, alpha: f32) -> f32 {
        if f > self.upper {
            (label - 1.0) * alpha * self.outside
        } else if f < -self.upper {
            label * alpha * self.outside
        } else {
            // `f ∈ [−6, 6]` (or NaN, which the saturating cast maps to 0): the index is in
            // 0..=1000; `f = 6` exactly lands on 1000 with the exact scale and takes the last
            // entry (996 with the truncated one).
            let index = ((f + MAX_EXP) * self.scale) as usize;
            (label - self.table[index.min(TABLE_SIZE - 1)]) * alpha
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sigma(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    #[test]
    fn table_is_the_logistic_at_bin_edges() {
        let t = SigmoidTable::new(SigmoidIndex::Exact, Saturation::Clip);
        for i in 0..TABLE_SIZE {
            let x = (i as f64 / TABLE_SIZE as f64 * 2.0 - 1.0) * 6.0;
            assert!((f64::from(t.table[i]) - sigma(x)).abs() < 1e-7, "entry {i}");
        }
        assert!((t.table[500] - 0.5).abs() < 1e-7);
    }

    #[test]
    fn gradient_uses_the_table_and_clips() {
        let t = SigmoidTable::new(SigmoidIndex::Exact, Saturation::Clip);
        let alpha = 0.5;
        // Inside: close to the exact logistic (bins are 0.012 wide; σ' ≤ 1/4).
        for f in [-5.9f32, -1.0, 0.0, 0.3, 2.5, 5.99] {
            let want = (1.0 - sigma(f64::from(f))) * 0.5;
            assert!((f64::from(t.gradient(f, 1.0, alpha)) - want).abs() < 0.5 * 0.004);
            let want = -sigma(f64::from(f)) * 0.5;
            assert!((f64::from(t.gradient(f, 0.0, alpha)) - want).abs() < 0.5 * 0.004);
        }
        // Clipped: a saturated pair gets no update, a wrong-side pair the full step.
        assert_eq!(t.gradient(6.5, 1.0, alpha), 0.0);
        assert_eq!(t.gradient(-6.5, 0.0, alpha), 0.0);
        assert_eq!(t.gradient(6.5, 0.0, alpha), -0.5);
        assert_eq!(t.gradient(-6.5, 1.0, alpha), 0.5);
        // The edges of the table.
        assert_eq!(t.gradient(6.0, 1.0, 1.0), 1.0 - t.table[TABLE_SIZE - 1]);
        assert_eq!(t.gradient(-6.0, 1.0, 1.0), 1.0 - t.table[0]);
    }

    #[test]
    fn skip_leaves_every_pair_outside_the_table_alone() {
        let clip = SigmoidTable::new(SigmoidIndex::Exact, Saturation::Clip);
        let skip = SigmoidTable::new(SigmoidIndex::Exact, Saturation::Skip);
        let alpha = 0.5;
        for label in [0.0, 1.0] {
            for f in [6.0f32, 6.5, 1e6, -6.0, -6.5, -1e6] {
                assert_eq!(skip.gradient(f, label, alpha), 0.0, "f {f}, label {label}");
            }
            // Inside the table the two agree bit for bit.
            for f in [-5.99f32, -1.0, 0.0, 0.3, 2.5, 5.99] {
                assert_eq!(
                    skip.gradient(f, label, alpha).to_bits(),
                    clip.gradient(f, label, alpha).to_bits()
                );
            }
        }
        // Only the wrong-side pairs (and f = ±6 exactly) differ from clipping.
        assert_eq!(clip.gradient(6.5, 0.0, alpha), -0.5);
        assert_eq!(clip.gradient(-6.5, 1.0, alpha), 0.5);
        assert_ne!(clip.gradient(6.0, 1.0, alpha), 0.0);
    }

    #[test]
    fn truncated_index_reads_to_the_left() {
        let exact = SigmoidTable::new(SigmoidIndex::Exact, Saturation::Clip);
        let truncated = SigmoidTable::new(SigmoidIndex::Truncated, Saturation::Clip);
        // σ(f) = −g(f, label 0, α 1), exactly. f = 0: bin 500, and ⌊6·83⌋ = 498 truncated.
        let sigma_at = |t: &SigmoidTable, f: f32| -t.gradient(f, 0.0, 1.0);
        assert_eq!(sigma_at(&exact, 0.0), exact.table[500]);
        assert_eq!(sigma_at(&truncated, 0.0), exact.table[498]);
        // f = 6: the last entry, against ⌊12·83⌋ = 996.
        assert_eq!(sigma_at(&exact, 6.0), exact.table[999]);
        assert_eq!(sigma_at(&truncated, 6.0), exact.table[996]);
        // Never to the right, and at most 0.009 lower (σ' ≤ 1/4 times a shift of at most three
        // bins near f = 0: 0.004·(f + 6) plus the rounding of both indices).
        for k in -600..=600 {
            let f = k as f32 * 0.01;
            let (e, t) = (sigma_at(&exact, f), sigma_at(&truncated, f));
            assert!(t <= e && e - t < 0.0091, "f {f}: {e} vs {t}");
        }
    }
}
