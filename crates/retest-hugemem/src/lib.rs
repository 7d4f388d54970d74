//! Large fixed-length buffers backed by transparent huge pages.
//!
//! The trainers read and write large tables at random positions: `retest-sgns`'s two weight
//! matrices, `retest-glove`'s parameters, its shuffled records and its dense co-occurrence table.
//! With 4 KiB pages nearly every such access is also a TLB miss, whose page walk stalls even the
//! software prefetches meant to hide the cache miss. A [`HugeBuf`] of at least [`HUGE_PAGE`]
//! bytes starts at a `HUGE_PAGE` boundary inside its allocation and asks Linux for transparent
//! huge pages (`madvise(MADV_HUGEPAGE)`) before its memory is first touched.
//!
//! The advice is a hint that never changes contents: results do not depend on whether the
//! kernel follows it, and off Linux it is not given at all.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Size of a transparent huge page on x86-64 and most aarch64 kernels.
pub const HUGE_PAGE: usize = 2 << 20;

/// A fixed-length buffer of `T`, aligned to and advised for huge pages when it is large.
///
/// A buffer of fewer than [`HUGE_PAGE`] bytes is a plain `Vec`. A larger one starts at the
/// first element position at or after a `HUGE_PAGE` boundary of its allocation (on the
/// boundary itself whenever the allocation is aligned to `size_of::<T>()`, as it is for
/// power-of-two-sized element types), and its pages are advised for transparent huge pages.
/// It dereferences to `[T]`.
pub struct HugeBuf<T> {
    /// `start` padding elements (the alignment gap), then the elements; never grows, so the
    /// allocation (and with it the alignment) stays where it was made.
    data: Vec<T>,
    start: usize,
}

impl<T: Copy> HugeBuf<T> {
    /// `len` copies of `value`.
    ///
    /// # Panics
    /// If `len` elements of `T` overflow the address space (see [`HugeBuf::try_filled`]).
    pub fn filled(len: usize, value: T) -> HugeBuf<T> {
        HugeBuf::try_filled(len, value).expect("HugeBuf: capacity overflow")
    }

    /// `len` copies of `value`, or `None` if `len` elements (with the alignment gap) do not
    /// fit in `isize::MAX` bytes.
    pub fn try_filled(len: usize, value: T) -> Option<HugeBuf<T>> {
        HugeBuf::try_from_exact_iter(std::iter::repeat_n(value, len), value)
    }

    /// The items of `items`, which must yield exactly `items.len()` of them, written straight
    /// into the advised memory; `filler` (any value) fills the alignment gap in front.
    ///
    /// # Panics
    /// If the iterator yields another number of items than its `len()`, or the buffer
    /// overflows the address space.
    pub fn from_exact_iter(items: impl ExactSizeIterator<Item = T>, filler: T) -> HugeBuf<T> {
        HugeBuf::try_from_exact_iter(items, filler).expect("HugeBuf: capacity overflow")
    }

    fn try_from_exact_iter(items: impl ExactSizeIterator<Item = T>, filler: T) -> Option<HugeBuf<T>> {
        let len = items.len();
        let size = size_of::<T>();
        let bytes = len.checked_mul(size)?;
        if size == 0 || bytes < HUGE_PAGE {
            let data: Vec<T> = items.collect();
            assert_eq!(data.len(), len, "the iterator's length is exact");
            return Some(HugeBuf { data, start: 0 });
        }
        // Room for the gap up to the first huge-page boundary (less than `HUGE_PAGE` bytes).
        let total = len.checked_add(HUGE_PAGE.div_ceil(size))?;
        if total.checked_mul(size)? > isize::MAX as usize {
            return None;
        }
        // Reserved, not yet touched: the advice applies to the pages the items fault in.
        let mut data: Vec<T> = Vec::with_capacity(total);
        let address = data.as_ptr() as usize;
        let boundary = address.next_multiple_of(HUGE_PAGE);
        let gap = boundary - address;
        let start = gap.div_ceil(size);
        // From the boundary to the end of the elements: inside the reservation, since
        // `gap ≤ start·size` and `start + len ≤ total`.
        advise_huge_pages(boundary, start * size - gap + bytes);
        data.resize(start, filler);
        data.extend(items);
        assert_eq!(data.len(), start + len, "the iterator's length is exact");
        Some(HugeBuf { data, start })
    }
}

impl HugeBuf<u64> {
    /// `len` zeros, left untouched: the allocator hands out fresh zero pages, so pages never
    /// written cost nothing until read (and then map the shared zero page).
    ///
    /// # Panics
    /// If `len` elements overflow the address space.
    pub fn zeros(len: usize) -> HugeBuf<u64> {
        const SIZE: usize = size_of::<u64>();
        let bytes = len.checked_mul(SIZE).expect("HugeBuf: capacity overflow");
        if bytes < HUGE_PAGE {
            return HugeBuf {
                data: vec![0; len],
                start: 0,
            };
        }
        let total = len
            .checked_add(HUGE_PAGE / SIZE)
            .expect("HugeBuf: capacity overflow");
        // Zeroed by the allocator (fresh mappings for a buffer this large), not written here.
        let mut data = vec![0u64; total];
        let address = data.as_ptr() as usize;
        let boundary = address.next_multiple_of(HUGE_PAGE);
        // Both are multiples of 8 (the allocation is aligned to `u64`): the gap is exact.
        let start = (boundary - address) / SIZE;
        advise_huge_pages(boundary, bytes);
        // Drops the unused tail without touching it.
        data.truncate(start + len);
        HugeBuf { data, start }
    }
}

impl<T: Copy> Clone for HugeBuf<T> {
    /// A copy aligned and advised like a new buffer of the same length.
    fn clone(&self) -> HugeBuf<T> {
        match self.data.first() {
            None => HugeBuf {
                data: Vec::new(),
                start: 0,
            },
            // The first stored value (padding or element) serves as the copy's padding.
            Some(&filler) => HugeBuf::from_exact_iter(self.iter().copied(), filler),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for HugeBuf<T> {
    /// The elements, as a slice prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T> Deref for HugeBuf<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `start ≤ data.len()` (every constructor pushes the `start` padding elements
        // first and nothing removes elements): the range is in bounds. Unchecked because the
        // trainers index rows through this on every access.
        unsafe { self.data.get_unchecked(self.start..) }
    }
}

impl<T> DerefMut for HugeBuf<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, `start ≤ data.len()`.
        unsafe { self.data.get_unchecked_mut(self.start..) }
    }
}

/// Asks Linux to back `[address, address + bytes)` with transparent huge pages (a hint: no
/// effect on contents, ignored where unsupported). `address` is a multiple of [`HUGE_PAGE`] and
/// the range lies inside one live allocation of this process.
fn advise_huge_pages(address: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `madvise` with `MADV_HUGEPAGE` changes only how the kernel backs the pages of
        // the range (huge-page-aligned start, inside one live allocation, as the callers
        // guarantee), never their contents or mapping; it dereferences nothing, and an error
        // (e.g. a kernel without transparent huge pages) leaves the mapping as it was.
        unsafe {
            libc::madvise(address as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (address, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64-byte element like the trainers' SIMD blocks.
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C, align(64))]
    struct Block([f32; 16]);

    fn is_huge_aligned<T>(b: &HugeBuf<T>) -> bool {
        (b.as_ptr() as usize).is_multiple_of(HUGE_PAGE)
    }

    #[test]
    fn large_buffers_start_on_a_huge_page() {
        let blocks = HugeBuf::filled(HUGE_PAGE / 64 + 3, Block([1.0; 16]));
        assert!(is_huge_aligned(&blocks));
        let pairs = HugeBuf::from_exact_iter((0..HUGE_PAGE / 16).map(|k| [k as u64, 0]), [7, 7]);
        assert!(is_huge_aligned(&pairs));
        let zeros = HugeBuf::zeros(HUGE_PAGE / 8);
        assert!(is_huge_aligned(&zeros));
        // Below the threshold: a plain vector, aligned only as `T` requires.
        let small = HugeBuf::filled(HUGE_PAGE / 64 - 1, Block([0.0; 16]));
        assert_eq!((small.start, small.as_ptr() as usize % 64), (0, 0));
    }

    #[test]
    fn contents_and_lengths_are_exact() {
        for len in [0usize, 5, HUGE_PAGE / 16 - 1, HUGE_PAGE / 16 + 3] {
            let b = HugeBuf::from_exact_iter((0..len).map(|k| [k as u64, 3 * k as u64]), [7, 7]);
            assert_eq!(b.len(), len);
            assert!(b.iter().enumerate().all(|(k, e)| *e == [k as u64, 3 * k as u64]));
            let f = HugeBuf::filled(len, 2.5f32);
            assert_eq!(f.len(), len);
            assert!(f.iter().all(|&x| x == 2.5));
        }
    }

    #[test]
    fn zeros_are_zero_initialised() {
        for len in [0usize, 3, HUGE_PAGE / 8 - 1, 3 * HUGE_PAGE / 8 + 5] {
            let z = HugeBuf::zeros(len);
            assert_eq!(z.len(), len);
            assert!(z.iter().all(|&x| x == 0));
        }
        let b = HugeBuf::filled(HUGE_PAGE / 64 + 1, Block([0.0; 16]));
        assert!(b.iter().all(|x| x.0.iter().all(|v| v.to_bits() == 0)));
    }

    #[test]
    fn deref_mut_writes_are_seen_by_deref() {
        let len = HUGE_PAGE / 8 + 5;
        let mut z = HugeBuf::zeros(len);
        z[0] = 1;
        z[len - 1] = 9;
        z[1..4].copy_from_slice(&[2, 3, 4]);
        assert_eq!((&z[..5], z[len - 1]), (&[1, 2, 3, 4, 0][..], 9));
        assert_eq!(z.iter().sum::<u64>(), 19);
        let mut s = HugeBuf::filled(4, 0u8);
        s[3] = 1;
        assert_eq!(&*s, &[0, 0, 0, 1]);
    }

    #[test]
    fn clones_are_equal_independent_and_aligned() {
        let mut a = HugeBuf::from_exact_iter((0..HUGE_PAGE / 8 + 7).map(|k| k as u64), 0);
        let b = a.clone();
        assert!(is_huge_aligned(&b));
        assert_eq!(*a, *b);
        a[5] = 0;
        assert_eq!((a[5], b[5]), (0, 5));
        let small = HugeBuf::filled(3, 1u16);
        assert_eq!(&*small.clone(), &[1, 1, 1]);
        let empty = HugeBuf::<u32>::filled(0, 1);
        assert!(empty.clone().is_empty());
    }

    #[test]
    fn oversized_and_zero_sized_buffers() {
        assert!(HugeBuf::try_filled(usize::MAX / 32, Block([0.0; 16])).is_none());
        assert!(HugeBuf::try_filled(isize::MAX as usize / 64 - 10, Block([0.0; 16])).is_none());
        let unit = HugeBuf::filled(HUGE_PAGE + 1, ());
        assert_eq!((unit.len(), unit.start), (HUGE_PAGE + 1, 0));
        assert_eq!(format!("{:?}", HugeBuf::filled(2, 1u8)), "[1, 1]");
    }

    /// Resident memory of this process in bytes (Linux).
    #[cfg(target_os = "linux")]
    fn resident_bytes() -> usize {
        let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
        let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
        pages * 4096
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dropping_returns_the_memory() {
        // 16 written buffers of 64 MiB: 1 GiB resident if drops leaked.
        let before = resident_bytes();
        for round in 0..16u64 {
            let b = HugeBuf::filled(64 << 20 >> 3, round);
            assert_eq!(b[b.len() - 1], round);
        }
        let grown = resident_bytes().saturating_sub(before);
        assert!(grown < 512 << 20, "resident memory grew by {grown} bytes");
    }
}
