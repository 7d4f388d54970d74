//! A tiny deterministic generator for test data that must not depend on any RNG crate's stream.

/// A linear congruential generator with Knuth's MMIX constants
/// (`state ← state · 6364136223846793005 + 1442695040888963407`, mod 2⁶⁴), for test data only.
#[derive(Debug, Clone)]
pub struct Lcg(u64);

impl Lcg {
    /// A generator starting from `seed` (the first draw advances it once).
    pub const fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// The next state, all 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }

    /// Uniform in [0, 1): the state's top 53 bits over 2⁵³.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index below `n`: the state's top 31 bits modulo `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() >> 33) as usize % n
    }
}
