//! Lane-wise operations on one 16-lane [`Block`] for each compiled path: a portable scalar
//! version and SSE2, AVX2 and AVX-512F versions with `std::arch` intrinsics.
//!
//! Every path performs the same IEEE-754 single-precision operation on each lane (`+`, `×`,
//! load, store; no FMA, no horizontal operation), so all of them give the same bits; they differ
//! only in how many lanes one instruction covers (1, 4, 8 or 16).
//!
//! A path is a zero-sized token type; the x86 tokens can only be made by [`SimdPath`](crate::SimdPath)
//! detection after the CPU was checked, which is what makes their intrinsic calls sound. The
//! generic kernels are `#[inline(always)]` and are instantiated inside a
//! `#[target_feature(enable = …)]` function of the same path, where the intrinsics inline.

use crate::kernels::{Block, LANES};

/// The operations the kernels need, on one block held in registers.
pub(crate) trait Simd: Copy {
    /// A block in registers.
    type V: Copy;
    fn zero(self) -> Self::V;
    fn splat(self, x: f32) -> Self::V;
    fn load(self, b: &Block) -> Self::V;
    fn store(self, b: &mut Block, v: Self::V);
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    fn mul(self, a: Self::V, b: Self::V) -> Self::V;
}

/// Plain Rust on `[f32; 16]`: runs everywhere (the reference path, and the only one off x86-64).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Portable;

impl Simd for Portable {
    type V = [f32; LANES];
    #[inline(always)]
    fn zero(self) -> Self::V {
        [0.0; LANES]
    }
    #[inline(always)]
    fn splat(self, x: f32) -> Self::V {
        [x; LANES]
    }
    #[inline(always)]
    fn load(self, b: &Block) -> Self::V {
        b.0
    }
    #[inline(always)]
    fn store(self, b: &mut Block, v: Self::V) {
        b.0 = v;
    }
    #[inline(always)]
    fn add(self, a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|l| a[l] + b[l])
    }
    #[inline(always)]
    fn mul(self, a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|l| a[l] * b[l])
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Avx2, Avx512, Sse2};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Simd;
    use crate::kernels::Block;
    use core::arch::x86_64::*;

    /// SSE2 (the x86-64 baseline): four `__m128` per block.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Sse2(());

    impl Sse2 {
        /// SSE2 is part of x86-64, so this path is always available there.
        pub(crate) fn new() -> Sse2 {
            Sse2(())
        }
    }

    // SAFETY (all `unsafe` blocks of this impl): SSE2 is enabled on every x86-64 target, and
    // the pointers come from `&Block`/`&mut Block`, which are valid and 64-byte aligned.
    impl Simd for Sse2 {
        type V = [__m128; 4];
        #[inline(always)]
        fn zero(self) -> Self::V {
            unsafe { [_mm_setzero_ps(); 4] }
        }
        #[inline(always)]
        fn splat(self, x: f32) -> Self::V {
            unsafe { [_mm_set1_ps(x); 4] }
        }
        #[inline(always)]
        fn load(self, b: &Block) -> Self::V {
            let p = b.0.as_ptr();
            unsafe {
                [
                    _mm_load_ps(p),
                    _mm_load_ps(p.add(4)),
                    _mm_load_ps(p.add(8)),
                    _mm_load_ps(p.add(12)),
                ]
            }
        }
        #[inline(always)]
        fn store(self, b: &mut Block, v: Self::V) {
            let p = b.0.as_mut_ptr();
            unsafe {
                _mm_store_ps(p, v[0]);
                _mm_store_ps(p.add(4), v[1]);
                _mm_store_ps(p.add(8), v[2]);
                _mm_store_ps(p.add(12), v[3]);
            }
        }
        #[inline(always)]
        fn add(self, a: Self::V, b: Self::V) -> Self::V {
            unsafe { std::array::from_fn(|i| _mm_add_ps(a[i], b[i])) }
        }
        #[inline(always)]
        fn mul(self, a: Self::V, b: Self::V) -> Self::V {
            unsafe { std::array::from_fn(|i| _mm_mul_ps(a[i], b[i])) }
        }
    }

    /// AVX2: two `__m256` per block.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Avx2(());

    impl Avx2 {
        /// The token, if this CPU has AVX2.
        pub(crate) fn detect() -> Option<Avx2> {
            is_x86_feature_detected!("avx2").then_some(Avx2(()))
        }
    }

    // SAFETY (all `unsafe` blocks of this impl): an `Avx2` token exists only if the CPU supports
    // AVX2 (`Avx2::detect`); the pointers come from 64-byte-aligned blocks.
    impl Simd for Avx2 {
        type V = [__m256; 2];
        #[inline(always)]
        fn zero(self) -> Self::V {
            unsafe { [_mm256_setzero_ps(); 2] }
        }
        #[inline(always)]
        fn splat(self, x: f32) -> Self::V {
            unsafe { [_mm256_set1_ps(x); 2] }
        }
        #[inline(always)]
        fn load(self, b: &Block) -> Self::V {
            let p = b.0.as_ptr();
            unsafe { [_mm256_load_ps(p), _mm256_load_ps(p.add(8))] }
        }
        #[inline(always)]
        fn store(self, b: &mut Block, v: Self::V) {
            let p = b.0.as_mut_ptr();
            unsafe {
                _mm256_store_ps(p, v[0]);
                _mm256_store_ps(p.add(8), v[1]);
            }
        }
        #[inline(always)]
        fn add(self, a: Self::V, b: Self::V) -> Self::V {
            unsafe { [_mm256_add_ps(a[0], b[0]), _mm256_add_ps(a[1], b[1])] }
        }
        #[inline(always)]
        fn mul(self, a: Self::V, b: Self::V) -> Self::V {
            unsafe { [_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1])] }
        }
    }

    /// AVX-512F: one `__m512` per block.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Avx512(());

    impl Avx512 {
        /// The token, if this CPU has AVX-512F.
        pub(crate) fn detect() -> Option<Avx512> {
            is_x86_feature_detected!("avx512f").then_some(Avx512(()))
        }
    }

    // SAFETY (all `unsafe` blocks of this impl): an `Avx512` token exists only if the CPU
    // supports AVX-512F (`Avx512::detect`); the pointers come from 64-byte-aligned blocks.
    impl Simd for Avx512 {
        type V = __m512;
        #[inline(always)]
        fn zero(self) -> Self::V {
            unsafe { _mm512_setzero_ps() }
        }
        #[inline(always)]
        fn splat(self, x: f32) -> Self::V {
            unsafe { _mm512_set1_ps(x) }
        }
        #[inline(always)]
        fn load(self, b: &Block) -> Self::V {
            unsafe { _mm512_load_ps(b.0.as_ptr()) }
        }
        #[inline(always)]
        fn store(self, b: &mut Block, v: Self::V) {
            unsafe { _mm512_store_ps(b.0.as_mut_ptr(), v) }
        }
        #[inline(always)]
        fn add(self, a: Self::V, b: Self::V) -> Self::V {
            unsafe { _mm512_add_ps(a, b) }
        }
        #[inline(always)]
        fn mul(self, a: Self::V, b: Self::V) -> Self::V {
            unsafe { _mm512_mul_ps(a, b) }
        }
    }
}
