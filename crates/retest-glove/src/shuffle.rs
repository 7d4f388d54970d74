//! Uniform integers and the Fisher–Yates shuffle on a ChaCha stream.

use rand_core::Rng;

/// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire's multiply-and-reject).
pub(crate) fn below(rng: &mut impl Rng, n: u64) -> u64 {
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

/// Shuffles `items` uniformly: for `k = n−1 … 1`, swap item `k` with item `below(k + 1)`.
pub(crate) fn shuffle<T>(items: &mut [T], rng: &mut impl Rng) {
    for k in (1..items.len()).rev() {
        let j = below(rng, k as u64 + 1) as usize;
        items.swap(k, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retest_rng::SeedPath;

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
    fn shuffle_is_a_seeded_permutation() {
        let mut a: Vec<u32> = (0..100).collect();
        let mut b = a.clone();
        shuffle(&mut a, &mut SeedPath::new(1).stream("s"));
        shuffle(&mut b, &mut SeedPath::new(1).stream("s"));
        assert_eq!(a, b);
        assert_ne!(a, (0..100).collect::<Vec<_>>());
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
    }
}
