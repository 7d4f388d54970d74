//! The logistic function as word2vec.c evaluates it: a 1000-entry table on [−6, 6), with the
//! gradient clipped outside.

/// Half-width of the tabulated interval (word2vec.c's `MAX_EXP`).
pub const MAX_EXP: f32 = 6.0;

/// Number of table entries (word2vec.c's `EXP_TABLE_SIZE`).
pub const TABLE_SIZE: usize = 1000;

/// Table entries per unit of the argument: `TABLE_SIZE / (2·MAX_EXP)`.
///
/// word2vec.c writes this as `EXP_TABLE_SIZE / MAX_EXP / 2` on integer macros, which C evaluates
/// as `1000 / 6 / 2 = 83` instead of `83.33…`, so its lookups drift up to 0.4% of the range to the
/// left and never reach the last four entries. We use the intended `1000 / 12`.
const SCALE: f32 = TABLE_SIZE as f32 / (2.0 * MAX_EXP);

/// `σ(x) = 1 / (1 + e^(−x))` tabulated at the left edge of each of the [`TABLE_SIZE`] bins:
/// entry `i` is `σ((2·i/TABLE_SIZE − 1)·MAX_EXP)`, computed in `f64` with retest-detmath's
/// deterministic `exp` (`Profile::SGNS`) and rounded to `f32` (word2vec.c's `expTable`).
#[derive(Debug, Clone)]
pub(crate) struct SigmoidTable {
    table: Box<[f32; TABLE_SIZE]>,
}

impl SigmoidTable {
    pub(crate) fn new() -> SigmoidTable {
        let mut table = Box::new([0.0f32; TABLE_SIZE]);
        for (i, entry) in table.iter_mut().enumerate() {
            let x = (i as f64 / TABLE_SIZE as f64 * 2.0 - 1.0) * f64::from(MAX_EXP);
            let e = retest_detmath::Profile::SGNS.exp(x);
            *entry = (e / (e + 1.0)) as f32;
        }
        SigmoidTable { table }
    }

    /// The scaled gradient `g = α·(label − σ(f))` of one (input, target) pair, where `f` is the
    /// dot product of the input and the target's output vector and `label` is 1 for the
    /// positive target and 0 for a negative one.
    ///
    /// As word2vec.c: for `f > MAX_EXP`, `g = (label − 1)·α`; for `f < −MAX_EXP`, `g = label·α`;
    /// otherwise `σ(f)` comes from the table. (gensim instead skips the pair when `|f| ≥ 6`; the
    /// two differ only for a negative with `f > 6`, which word2vec.c pushes away with the full
    /// step `−α`.)
    #[inline(always)]
    pub(crate) fn gradient(&self, f: f32, label: f32, alpha: f32) -> f32 {
        if f > MAX_EXP {
            (label - 1.0) * alpha
        } else if f < -MAX_EXP {
            label * alpha
        } else {
            // `f ∈ [−6, 6]` (or NaN, which the saturating cast maps to 0): the index is in
            // 0..=1000; `f = 6` exactly lands on 1000 and takes the last entry.
            let index = ((f + MAX_EXP) * SCALE) as usize;
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
        let t = SigmoidTable::new();
        for i in 0..TABLE_SIZE {
            let x = (i as f64 / TABLE_SIZE as f64 * 2.0 - 1.0) * 6.0;
            assert!((f64::from(t.table[i]) - sigma(x)).abs() < 1e-7, "entry {i}");
        }
        assert!((t.table[500] - 0.5).abs() < 1e-7);
    }

    #[test]
    fn gradient_uses_the_table_and_clips() {
        let t = SigmoidTable::new();
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
}
