//! Uniform integers and the Fisher–Yates shuffle on a ChaCha stream.

use rand_core::Rng;
use retest_rng::below;

/// Swaps whose target is drawn, and its cache line prefetched, before they are made.
const DRAW_AHEAD: usize = 32;

/// Shuffles `items` uniformly: for `k = n−1 … 1`, swap item `k` with item `below(k + 1)`.
///
/// The targets are drawn [`DRAW_AHEAD`] swaps early (the same draws in the same order: they do
/// not depend on the items) so that the random item of each swap is prefetched while earlier
/// swaps are made; on tables far larger than the cache this hides most of its miss.
pub(crate) fn shuffle<T>(items: &mut [T], rng: &mut impl Rng) {
    let n = items.len();
    if n < 2 {
        return;
    }
    // Swap `s` (from 0) is the one for `k = n − 1 − s`; `ring[s % DRAW_AHEAD]` holds its target.
    let swaps = n - 1;
    let mut ring = [0usize; DRAW_AHEAD];
    let draw = |rng: &mut _, s: usize, items: &[T]| -> usize {
        let j = below(rng, (n - s) as u64) as usize;
        prefetch(items.as_ptr().wrapping_add(j));
        j
    };
    for (s, slot) in ring.iter_mut().enumerate().take(swaps) {
        *slot = draw(rng, s, items);
    }
    for s in 0..swaps {
        let j = ring[s % DRAW_AHEAD];
        if s + DRAW_AHEAD < swaps {
            ring[s % DRAW_AHEAD] = draw(rng, s + DRAW_AHEAD, items);
        }
        items.swap(n - 1 - s, j);
    }
}

/// Hints the cache to fetch the line at `p` (a prefetch never faults, whatever the address).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86-64 baseline; a prefetch has no architectural effect.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;
    use retest_rng::SeedPath;

    /// The plain loop the prefetching one must match draw for draw.
    fn plain_shuffle<T>(items: &mut [T], rng: &mut impl Rng) {
        for k in (1..items.len()).rev() {
            let j = below(rng, k as u64 + 1) as usize;
            items.swap(k, j);
        }
    }

    #[test]
    fn shuffle_matches_the_plain_fisher_yates_loop() {
        for n in [0usize, 1, 2, 3, DRAW_AHEAD - 1, DRAW_AHEAD, DRAW_AHEAD + 1, 1000] {
            let mut a: Vec<u32> = (0..n as u32).collect();
            let mut b = a.clone();
            let mut ra = SeedPath::new(7).stream("s");
            let mut rb = SeedPath::new(7).stream("s");
            shuffle(&mut a, &mut ra);
            plain_shuffle(&mut b, &mut rb);
            assert_eq!(a, b, "n = {n}");
            assert_eq!(ra.next_u64(), rb.next_u64(), "same draws consumed, n = {n}");
        }
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
