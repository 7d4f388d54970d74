//! Large buffers backed by transparent huge pages.
//!
//! Training reads two parameter rows per record at random positions of a table of
//! `2 · V · dim · 8` bytes (123 MB at 25k words and dim 300), and the shuffle swaps records at
//! random positions of a table of 16 bytes per record; co-occurrence counting adds to cells at
//! random positions of a dense table of up to half the memory budget. With 4 KiB pages nearly every such access
//! is also a TLB miss, whose page walk stalls even the software prefetches that are meant to hide
//! the cache miss. A [`HugeBuf`] of at least [`HUGE_PAGE`] bytes starts on a `HUGE_PAGE` boundary
//! inside its allocation and asks Linux for transparent huge pages (`madvise(MADV_HUGEPAGE)`)
//! before its memory is first touched. The advice never changes contents, so results do not
//! depend on whether the kernel follows it.

use std::ops::{Deref, DerefMut};

/// Size of a transparent huge page on x86-64 and most aarch64 kernels.
const HUGE_PAGE: usize = 2 << 20;

/// A fixed-length buffer of `T`, page-aligned and advised for huge pages when it is large.
#[derive(Debug, Clone)]
pub(crate) struct HugeBuf<T> {
    /// `start` unused elements (alignment), then the `len` elements.
    data: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy> HugeBuf<T> {
    /// `len` copies of `value`.
    pub(crate) fn filled(len: usize, value: T) -> HugeBuf<T> {
        HugeBuf::from_exact_iter(std::iter::repeat_n(value, len), value)
    }

    /// The items of `items`, which must yield exactly `items.len()` of them; `filler` (any
    /// valid value) pads the alignment gap in front.
    pub(crate) fn from_exact_iter(items: impl ExactSizeIterator<Item = T>, filler: T) -> HugeBuf<T> {
        let len = items.len();
        let size = size_of::<T>().max(1);
        let bytes = len.saturating_mul(size);
        if bytes < HUGE_PAGE {
            let data: Vec<T> = items.collect();
            assert_eq!(data.len(), len, "the iterator's length is exact");
            return HugeBuf { data, start: 0, len };
        }
        // Room for the gap up to the first huge-page boundary.
        let slack = HUGE_PAGE.div_ceil(size) + 1;
        // Reserved, not yet touched: the advice applies to the pages the items fault in.
        let mut data: Vec<T> = Vec::with_capacity(len + slack);
        let address = data.as_ptr() as usize;
        let boundary = address.next_multiple_of(HUGE_PAGE);
        let start = (boundary - address).div_ceil(size);
        advise_huge_pages(boundary, bytes);
        data.resize(start, filler);
        data.extend(items);
        assert_eq!(data.len(), start + len, "the iterator's length is exact");
        HugeBuf { data, start, len }
    }
}

impl HugeBuf<u64> {
    /// `len` zeros, left untouched: the allocator maps fresh zero pages, so pages never written
    /// cost nothing until read (then they map the shared zero page).
    pub(crate) fn zeros(len: usize) -> HugeBuf<u64> {
        let size = size_of::<u64>();
        if len.saturating_mul(size) < HUGE_PAGE {
            return HugeBuf {
                data: vec![0; len],
                start: 0,
                len,
            };
        }
        let slack = HUGE_PAGE / size;
        let data = vec![0u64; len + slack];
        let address = data.as_ptr() as usize;
        let boundary = address.next_multiple_of(HUGE_PAGE);
        advise_huge_pages(boundary, len * size);
        HugeBuf {
            data,
            start: (boundary - address) / size,
            len,
        }
    }
}

impl<T> Deref for HugeBuf<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.data[self.start..self.start + self.len]
    }
}

impl<T> DerefMut for HugeBuf<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.data[self.start..self.start + self.len]
    }
}

/// Asks Linux to back `[address, address + bytes)` with transparent huge pages (a hint: no
/// effect on results, ignored where unsupported).
fn advise_huge_pages(address: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `madvise` with `MADV_HUGEPAGE` changes only how the kernel backs the pages of
        // the range (huge-page-aligned start, inside one live allocation of this process), never
        // their contents; an error leaves the mapping as it was.
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

    #[test]
    fn small_and_huge_buffers_hold_their_items() {
        for len in [0usize, 5, HUGE_PAGE / 16 + 3] {
            let b = HugeBuf::from_exact_iter((0..len).map(|k| [k as u64, k as u64 * 3]), [7, 7]);
            assert_eq!(b.len(), len);
            assert!(b.iter().enumerate().all(|(k, e)| *e == [k as u64, 3 * k as u64]));
            if len * 16 >= HUGE_PAGE {
                assert_eq!(b.as_ptr() as usize % HUGE_PAGE, 0, "starts on a huge page");
            }
        }
        let mut z = HugeBuf::zeros(HUGE_PAGE / 8 + 5);
        assert!(z.iter().all(|&x| x == 0) && z.len() == HUGE_PAGE / 8 + 5);
        assert_eq!(z.as_ptr() as usize % HUGE_PAGE, 0);
        z[HUGE_PAGE / 8 + 4] = 9;
        assert_eq!(HugeBuf::zeros(3).len(), 3);
        let mut f = HugeBuf::filled(HUGE_PAGE / 4, 1.5f32);
        f[3] = 2.0;
        assert_eq!((f.len(), f[2], f[3]), (HUGE_PAGE / 4, 1.5, 2.0));
    }
}
