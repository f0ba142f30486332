//! AVX2 level 0 of the ADM DWT, the scalar twin's values (whose loops finish the columns
//! a vector step does not cover, and the mirrored edge columns). The AVX-512 table runs it
//! too (see `avx512`).
//!
//! The vertical pass's rows are kept as `i16` (the scalar twin truncates them to 16
//! bits). Below 16 bits a sample fits an `i16` lane, so the vertical pass interleaves rows
//! 0 and 1 (2 and 3) as 16-bit pairs for `vpmaddwd`, 16 columns a step; a step with a
//! sample at or past the depth (a malformed file) takes the 32-bit kernel, as 16-bit input
//! does. The horizontal pass multiplies and adds tap pairs with `vpmaddwd`: output `j`
//! reads inputs `2j-1 ..= 2j+2`, so 16 values loaded from `2j-1` (and from `2j+1`) pair up
//! as taps 0 and 1 (2 and 3) of eight outputs. Every sum fits 32 bits (at most 54822 ·
//! 32768 + 32768 in magnitude), so no wrap is lost.
//!
//! Levels 1..3 are in `avx2_dwt123`.

use std::arch::x86_64::*;

use super::super::bands::Bands;
use super::super::dwt::{self, level0_edges, level0_vertical, Taps, HI, LO, LO_SUM};
use super::dwt_rows::{fits, interior_end};
use crate::cpu::widen::widen_u8x16;

/// A sample type whose consecutive values load as 32-bit or as 16-bit lanes.
pub(super) trait Load: Copy + Into<i32> {
    /// The bits of one sample.
    const BITS: u32;

    /// Eight samples from `p` widened to `i32`.
    ///
    /// # Safety
    /// `p` must be valid for reading eight samples, and AVX2 must be available.
    unsafe fn load8(p: *const Self) -> __m256i;

    /// Sixteen samples from `p` as 16-bit lanes (zero-extended).
    ///
    /// # Safety
    /// `p` must be valid for reading sixteen samples, and AVX2 must be available.
    unsafe fn load16(p: *const Self) -> __m256i;
}

impl Load for u8 {
    const BITS: u32 = 8;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load8(p: *const u8) -> __m256i {
        // SAFETY: the caller guarantees eight readable bytes.
        _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(p as *const __m128i) })
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load16(p: *const u8) -> __m256i {
        // SAFETY: the caller guarantees sixteen readable bytes.
        unsafe { widen_u8x16(p) }
    }
}

impl Load for u16 {
    const BITS: u32 = 16;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load8(p: *const u16) -> __m256i {
        // SAFETY: the caller guarantees eight readable samples (16 bytes).
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(p as *const __m128i) })
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load16(p: *const u16) -> __m256i {
        // SAFETY: the caller guarantees sixteen readable samples (32 bytes).
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    }
}

/// DWT level 0 (see [`dwt::level0`]) with AVX2.
pub(super) fn level0<S: Load>(
    src: &[S],
    stride: usize,
    t: &Taps,
    bpc: u32,
    tmp: &mut [i32],
    out: &mut Bands<i16>,
    out_stride: usize,
) {
    if !(1..=16).contains(&bpc) || !fits(src, stride, t, tmp, out, out_stride) {
        return dwt::level0(src, stride, t, bpc, tmp, out, out_stride);
    }
    let w = t.w;
    let n = t.cols.len();
    // SAFETY: every bit pattern of two `i32`s is one of four `i16`s, and `i16`'s
    // alignment divides `i32`'s, so the middle part is the whole slice.
    let (_, rows16, _) = unsafe { tmp[..w].align_to_mut::<i16>() };
    let (lo, hi) = rows16.split_at_mut(w);
    dwt::each_output_row(t, out, out_stride, |rows, next, mut bands| {
        // The next output row's two new source rows are fetched into the cache while this
        // row is filtered.
        let ahead = [next[2], next[3]];
        // SAFETY: AVX2 was detected before this kernel was listed; `fits` checked that
        // every source row holds `w` samples, and lo and hi hold `w` values.
        let done = unsafe {
            if bpc < 16 {
                vertical0_pairs(src, stride, rows, ahead, bpc, lo, hi)
            } else {
                vertical0(src, stride, rows, bpc, lo, hi)
            }
        };
        level0_vertical(src, stride, rows, bpc, lo, hi, done);
        let ptrs = bands.each_mut().map(|b| b.as_mut_ptr());
        // SAFETY: as above; the band rows hold `n` columns, and the pointers are not used
        // after this call.
        let end = unsafe { horizontal0(lo, hi, ptrs, n) };
        level0_edges(lo, hi, &t.cols, bands, end);
    });
}

/// Sign-extends the low 16 bits of each lane (`as i16 as i32`).
#[inline]
#[target_feature(enable = "avx2")]
fn low16(x: __m256i) -> __m256i {
    _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(x))
}

/// Eight `i32` lanes holding `i16` values, packed to eight `i16` in order.
#[inline]
#[target_feature(enable = "avx2")]
fn pack8(v: __m256i) -> __m128i {
    let packed = _mm256_permute4x64_epi64::<0b00_00_10_00>(_mm256_packs_epi32(v, v));
    _mm256_castsi256_si128(packed)
}

/// The vertical pass of level 0 in wrapping 32-bit lanes over columns `0..8·k`, kept to
/// 16 bits; returns where it stopped.
#[target_feature(enable = "avx2")]
unsafe fn vertical0<S: Load>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    bpc: u32,
    lo: &mut [i16],
    hi: &mut [i16],
) -> usize {
    let w = lo.len().min(hi.len());
    let round = 1i32 << (bpc - 1);
    let bias = _mm256_set1_epi32(round.wrapping_sub(LO_SUM.wrapping_mul(round)));
    let round = _mm256_set1_epi32(round);
    let count = _mm_cvtsi32_si128(bpc as i32);
    let lo_taps = LO.map(|f| _mm256_set1_epi32(f));
    let hi_taps = HI.map(|f| _mm256_set1_epi32(f));
    let mut j = 0;
    while j + 8 <= w {
        let mut s = [_mm256_setzero_si256(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w >= j + 8` samples from `r * stride` (the
            // caller's `fits`).
            *v = unsafe { S::load8(src.as_ptr().add(r * stride + j)) };
        }
        let mut l = _mm256_setzero_si256();
        let mut g = _mm256_setzero_si256();
        for k in 0..4 {
            l = _mm256_add_epi32(l, _mm256_mullo_epi32(lo_taps[k], s[k]));
            g = _mm256_add_epi32(g, _mm256_mullo_epi32(hi_taps[k], s[k]));
        }
        // Truncated to 16 bits first, so the saturating pack is exact.
        let l = low16(_mm256_sra_epi32(_mm256_add_epi32(l, bias), count));
        let g = low16(_mm256_sra_epi32(_mm256_add_epi32(g, round), count));
        // SAFETY: lo and hi hold `w >= j + 8` values.
        unsafe {
            _mm_storeu_si128(lo.as_mut_ptr().add(j) as *mut __m128i, pack8(l));
            _mm_storeu_si128(hi.as_mut_ptr().add(j) as *mut __m128i, pack8(g));
        }
        j += 8;
    }
    j
}

/// Two 16-bit taps as one 32-bit `vpmaddwd` lane: `a` times the even, `b` the odd word.
fn tap_word(a: i32, b: i32) -> i32 {
    (((b as u32) << 16) | (a as u32 & 0xffff)) as i32
}

/// [`tap_word`] in every lane.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn tap_pair(a: i32, b: i32) -> __m256i {
    _mm256_set1_epi32(tap_word(a, b))
}

/// The vertical pass of level 0 at depths below 16 bits, 16 columns a step; returns where
/// it stopped. Runs of steps whose samples all lie below 2^bpc are `pairs_run`'s; a step
/// with a sample at or past it (a malformed file) takes the 32-bit kernel, out of the
/// run's loop so that its registers stay the run's.
#[target_feature(enable = "avx2")]
unsafe fn vertical0_pairs<S: Load>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    bpc: u32,
    lo: &mut [i16],
    hi: &mut [i16],
) -> usize {
    let w = lo.len().min(hi.len());
    let mut j = 0;
    loop {
        // SAFETY: the caller's.
        j = unsafe { pairs_run(src, stride, rows, ahead, bpc, lo, hi, j) };
        if j + 16 > w {
            return j;
        }
        // The 32-bit kernel over this step's columns, from a source that starts at
        // column j.
        let end = j + 16;
        // SAFETY: as the caller's; each row still holds its columns j..end.
        let done = unsafe {
            vertical0(
                &src[j..],
                stride,
                rows,
                bpc,
                &mut lo[j..end],
                &mut hi[j..end],
            )
        };
        debug_assert_eq!(done, 16);
        j = end;
    }
}

/// Steps of `vertical0_pairs` from column `from` while every sample of a step lies below
/// 2^bpc; returns where it stopped (at a step with a sample at or past it, or at the end).
/// Rows 0 and 1 (2 and 3) interleave as 16-bit pairs for `vpmaddwd`, and the sums pack
/// back to `i16` in column order (each 128-bit lane holds eight consecutive columns).
/// Samples below 2^bpc <= 2^15 make every pair sum exact and every shifted sum an `i16`
/// (at most 27411 in magnitude), so the saturating pack is the scalar truncation. The same
/// columns of the source rows `ahead` are prefetched a step at a time.
#[allow(clippy::too_many_arguments)]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn pairs_run<S: Load>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    bpc: u32,
    lo: &mut [i16],
    hi: &mut [i16],
    from: usize,
) -> usize {
    let w = lo.len().min(hi.len());
    let round = 1i32 << (bpc - 1);
    let bias = _mm256_set1_epi32(round.wrapping_sub(LO_SUM.wrapping_mul(round)));
    let round = _mm256_set1_epi32(round);
    let count = _mm_cvtsi32_si128(bpc as i32);
    let f_lo = [tap_pair(LO[0], LO[1]), tap_pair(LO[2], LO[3])];
    let f_hi = [tap_pair(HI[0], HI[1]), tap_pair(HI[2], HI[3])];
    let too_big = _mm256_set1_epi16(!((1u16 << bpc) - 1) as i16);
    let mut j = from;
    while j + 16 <= w {
        let mut s = [_mm256_setzero_si256(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w >= j + 16` samples from `r * stride` (the
            // caller's `fits`).
            *v = unsafe { S::load16(src.as_ptr().add(r * stride + j)) };
        }
        for r in ahead {
            // A prefetch only hints the cache and reads nothing; the address is formed
            // with wrapping arithmetic and is a column of a source row anyway.
            let p = src.as_ptr().wrapping_add(r * stride + j) as *const i8;
            _mm_prefetch::<_MM_HINT_T0>(p);
        }
        if bpc < S::BITS {
            let any = _mm256_or_si256(_mm256_or_si256(s[0], s[1]), _mm256_or_si256(s[2], s[3]));
            if _mm256_testz_si256(any, too_big) == 0 {
                return j;
            }
        }
        let pairs = [
            _mm256_unpacklo_epi16(s[0], s[1]),
            _mm256_unpacklo_epi16(s[2], s[3]),
            _mm256_unpackhi_epi16(s[0], s[1]),
            _mm256_unpackhi_epi16(s[2], s[3]),
        ];
        let sum = |f: &[__m256i; 2], p: &[__m256i]| {
            _mm256_add_epi32(_mm256_madd_epi16(p[0], f[0]), _mm256_madd_epi16(p[1], f[1]))
        };
        let shifted = |x: __m256i, add: __m256i| _mm256_sra_epi32(_mm256_add_epi32(x, add), count);
        let l = _mm256_packs_epi32(
            shifted(sum(&f_lo, &pairs[..2]), bias),
            shifted(sum(&f_lo, &pairs[2..]), bias),
        );
        let g = _mm256_packs_epi32(
            shifted(sum(&f_hi, &pairs[..2]), round),
            shifted(sum(&f_hi, &pairs[2..]), round),
        );
        // SAFETY: lo and hi hold `w >= j + 16` values.
        unsafe {
            _mm256_storeu_si256(lo.as_mut_ptr().add(j) as *mut __m256i, l);
            _mm256_storeu_si256(hi.as_mut_ptr().add(j) as *mut __m256i, g);
        }
        j += 16;
    }
    j
}

/// The tap pairs of eight outputs from `q` = `2j - 1`: sixteen values loaded at `q`
/// (taps 0 and 1) and at `q + 2` (taps 2 and 3).
///
/// # Safety
/// `q .. q + 18` must be readable, and AVX2 must be available.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn pairs(q: *const i16) -> (__m256i, __m256i) {
    // SAFETY: the caller guarantees eighteen readable values from `q`.
    unsafe {
        (
            _mm256_loadu_si256(q as *const __m256i),
            _mm256_loadu_si256(q.add(2) as *const __m256i),
        )
    }
}

/// `(Σ taps + 32768) >> 16` of eight outputs from their tap pairs `x` (taps 0, 1) and
/// `y` (taps 2, 3), as `i32` lanes holding `i16` values.
#[inline]
#[target_feature(enable = "avx2")]
fn taps8(x: __m256i, y: __m256i, f: &[__m256i; 2]) -> __m256i {
    let acc = _mm256_add_epi32(_mm256_madd_epi16(x, f[0]), _mm256_madd_epi16(y, f[1]));
    _mm256_srai_epi32::<16>(_mm256_add_epi32(acc, _mm256_set1_epi32(32768)))
}

/// The horizontal pass of level 0 over the interior output columns, sixteen (then eight)
/// a step, into the bands (a, v, h, d) at `bands` (each valid for `n` values); writes
/// columns `1..end` (every interior one when there are eight) and returns `end`.
#[target_feature(enable = "avx2")]
unsafe fn horizontal0(lo: &[i16], hi: &[i16], bands: [*mut i16; 4], n: usize) -> usize {
    let w = lo.len().min(hi.len());
    let taps = [
        [tap_pair(LO[0], LO[1]), tap_pair(LO[2], LO[3])],
        [tap_pair(HI[0], HI[1]), tap_pair(HI[2], HI[3])],
    ];
    // Output j reads inputs 2j-1 ..= 2j+2; sixteen outputs from j read 2j-1 .. 2j+33.
    let mut j = 1;
    while j + 16 <= n && 2 * j + 33 <= w {
        for (t, dst) in [(lo, [bands[0], bands[1]]), (hi, [bands[2], bands[3]])] {
            let p = t.as_ptr();
            // SAFETY: 2j - 1 >= 1 and 2j + 33 <= w <= t.len(): both reads are in `t`.
            let ((x0, y0), (x1, y1)) =
                unsafe { (pairs(p.add(2 * j - 1)), pairs(p.add(2 * j + 15))) };
            for (f, out) in taps.iter().zip(dst) {
                let packed = _mm256_packs_epi32(taps8(x0, y0, f), taps8(x1, y1, f));
                // The shifted sums lie in i16's range, so the saturating pack is exact.
                let v = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                // SAFETY: each band holds `n >= j + 16` values; the pointers came from
                // live mutable slices the caller does not touch while this runs.
                unsafe { _mm256_storeu_si256(out.add(j) as *mut __m256i, v) };
            }
        }
        j += 16;
    }
    // The last interior outputs, eight a step; the last step may overlap the one before
    // (it writes the same values again).
    let last = interior_end(w).min(n);
    while j < last && last >= 9 {
        let at = j.min(last - 8);
        // SAFETY: `at >= 1`, and outputs at..at + 8 are interior (2(at + 7) + 2 <= w - 1)
        // and within the `n` values of each band.
        unsafe { eight0(lo, hi, bands, &taps, at) };
        j = at + 8;
    }
    j
}

/// Eight interior outputs of the horizontal pass of level 0 from column `j`.
///
/// # Safety
/// `j >= 1`, `2j + 17 <= w` (the rows' length), each band at `bands` holds `j + 8`
/// values, and AVX2 is available.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn eight0(lo: &[i16], hi: &[i16], bands: [*mut i16; 4], taps: &[[__m256i; 2]; 2], j: usize) {
    for (t, dst) in [(lo, [bands[0], bands[1]]), (hi, [bands[2], bands[3]])] {
        // SAFETY: 2j - 1 >= 1 and 2j + 17 <= w <= t.len() (the caller's): the reads are
        // in `t`.
        let (x, y) = unsafe { pairs(t.as_ptr().add(2 * j - 1)) };
        for (f, out) in taps.iter().zip(dst) {
            // SAFETY: each band holds `j + 8` values (the caller's).
            unsafe { _mm_storeu_si128(out.add(j) as *mut __m128i, pack8(taps8(x, y, f))) };
        }
    }
}
