//! Named, reproducible random streams.
//!
//! Every random draw in retest comes from a [`ChaCha12Rng`] whose 256-bit key is derived from a
//! [`SeedPath`]: the pipeline seed followed by the names that identify a job and a stream
//! (`corpus`, `algorithm`, seed index, stream name). The key is the SHA-256 of an unambiguous
//! encoding of that path, so two different paths never share a stream and the same path gives
//! the same stream on every machine, whatever the thread count.
//!
//! ```
//! use retest_rng::SeedPath;
//! use rand_core::Rng;
//!
//! let job = SeedPath::new(20210907).with("wikitext-103").with("sgns").with_index(3);
//! let mut init = job.stream("init");
//! let mut again = job.stream("init");
//! assert_eq!(init.next_u64(), again.next_u64());
//! assert_ne!(job.stream("init").next_u64(), job.stream("negatives").next_u64());
//! ```

pub use rand_chacha::ChaCha12Rng;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

/// A path of names below a root seed; each distinct path names an independent random stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedPath {
    /// The unambiguous byte encoding of the path: root seed, then each part length-prefixed.
    encoded: Vec<u8>,
}

impl SeedPath {
    /// The root of every path: the pipeline's seed.
    pub fn new(root_seed: u64) -> Self {
        let mut encoded = b"retest-seed-path-v1".to_vec();
        encoded.extend_from_slice(&root_seed.to_le_bytes());
        SeedPath { encoded }
    }

    /// The path extended by one named part (a corpus, an algorithm, a stream name, ...).
    pub fn with(mut self, part: &str) -> Self {
        self.encoded.push(b's');
        self.encoded.extend_from_slice(&(part.len() as u64).to_le_bytes());
        self.encoded.extend_from_slice(part.as_bytes());
        self
    }

    /// The path extended by one numbered part (a seed index).
    pub fn with_index(mut self, index: u64) -> Self {
        self.encoded.push(b'i');
        self.encoded.extend_from_slice(&index.to_le_bytes());
        self
    }

    /// The 256-bit key of this path.
    pub fn key(&self) -> [u8; 32] {
        Sha256::digest(&self.encoded).into()
    }

    /// A 64-bit seed for this path, for tools that take one (the first 8 bytes of [`Self::key`]).
    pub fn seed_u64(&self) -> u64 {
        let key = self.key();
        u64::from_le_bytes(key[..8].try_into().expect("key has 32 bytes"))
    }

    /// The random stream named `name` below this path.
    pub fn stream(&self, name: &str) -> ChaCha12Rng {
        ChaCha12Rng::from_seed(self.clone().with(name).key())
    }
}

/// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire's multiply-and-reject):
/// GloVe's shuffle and the resampling of seeds draw with it.
pub fn below(rng: &mut impl rand_core::Rng, n: u64) -> u64 {
    debug_assert!(n > 0);
    let mut m = rng.next_u64() as u128 * n as u128;
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = rng.next_u64() as u128 * n as u128;
        }
    }
    (m >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = SeedPath::new(1).stream("t");
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut rng, 6) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (9_000..11_000).contains(&c)), "{counts:?}");
    }

    #[test]
    fn same_path_same_stream() {
        let a = SeedPath::new(7).with("wt103").with("glove").with_index(0);
        let b = SeedPath::new(7).with("wt103").with("glove").with_index(0);
        let xs: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(a.stream("s"), |r, _: u64| Some(r.next_u64()))
            .collect();
        let ys: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(b.stream("s"), |r, _: u64| Some(r.next_u64()))
            .collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn parts_are_unambiguous() {
        // "ab" + "c" must differ from "a" + "bc", and a name from an index with the same bytes.
        assert_ne!(
            SeedPath::new(1).with("ab").with("c").key(),
            SeedPath::new(1).with("a").with("bc").key()
        );
        assert_ne!(
            SeedPath::new(1).with_index(0).key(),
            SeedPath::new(1).with("").key()
        );
        assert_ne!(SeedPath::new(1).key(), SeedPath::new(2).key());
    }

    #[test]
    fn derivation_matches_its_specification() {
        // Pins the derivation: SHA-256 over "retest-seed-path-v1", the root seed (u64 LE), then
        // b's' + length (u64 LE) + bytes per name and b'i' + index (u64 LE) per number.
        // Values computed independently with Python's hashlib.
        let key = SeedPath::new(42).with("corpus").with_index(1).key();
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "e727b4bdc6c0b80215e14aa2f2405347324629373e2d369e2eed974fca9a98ed"
        );
        assert_eq!(SeedPath::new(0).seed_u64(), 8_831_721_534_107_895_244);
    }
}
