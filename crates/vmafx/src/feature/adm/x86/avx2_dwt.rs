//! AVX2 level 0 of the ADM DWT: eight columns per step in wrapping 32-bit lanes, the
//! same arithmetic as the scalar twin (whose loops finish the columns left over).
//!
//! Levels 1..3 are in `avx2_dwt123`.

use std::arch::x86_64::*;

use super::super::bands::Bands;
use super::super::dwt::{self, level0_horizontal, level0_vertical, Taps, HI, LO, LO_SUM};

/// A sample type whose eight consecutive values load as 32-bit lanes.
pub(super) trait Load8: Copy + Into<i32> {
    /// Eight samples from `p` widened to `i32`.
    ///
    /// # Safety
    /// `p` must be valid for reading eight samples, and AVX2 must be available.
    unsafe fn load8(p: *const Self) -> __m256i;
}

impl Load8 for u8 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load8(p: *const u8) -> __m256i {
        // SAFETY: the caller guarantees eight readable bytes.
        _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(p as *const __m128i) })
    }
}

impl Load8 for u16 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load8(p: *const u16) -> __m256i {
        // SAFETY: the caller guarantees eight readable samples (16 bytes).
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(p as *const __m128i) })
    }
}

/// Whether the buffers hold everything level 0 reads and writes (else the scalar twin
/// runs, and fails exactly as the reference would).
pub(super) fn fits<S>(
    src: &[S],
    stride: usize,
    t: &Taps,
    tmp: &[i32],
    out: &Bands<i16>,
    os: usize,
) -> bool {
    let w = t.w;
    let n = t.cols.len();
    let last_row = t.rows.iter().flatten().copied().max().unwrap_or(0);
    let out_len = t.rows.len().saturating_sub(1) * os + n;
    t.rows.iter().flatten().all(|&r| r < usize::MAX / 2)
        && last_row
            .checked_mul(stride)
            .is_some_and(|o| o + w <= src.len())
        && tmp.len() >= 2 * w
        && n == w.div_ceil(2)
        && t.cols.iter().flatten().all(|&c| c < w)
        && std::iter::once(&out.a)
            .chain(&out.hvd)
            .all(|b| b.len() >= out_len)
}

/// DWT level 0 (see [`dwt::level0`]) with AVX2.
pub(super) fn level0<S: Load8>(
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
    let (lo, hi) = tmp[..2 * w].split_at_mut(w);
    for (i, rows) in t.rows.iter().enumerate() {
        // The next output row's two new source rows, fetched into the cache while this
        // row is filtered (the last row fetches its own again).
        let next = t.rows.get(i + 1).unwrap_or(rows);
        let ahead = [next[2], next[3]];
        // SAFETY: AVX2 was detected before this kernel was listed; `fits` checked that
        // every source row holds `w` samples.
        let done = unsafe { vertical(src, stride, rows, ahead, bpc, lo, hi) };
        level0_vertical(src, stride, rows, bpc, lo, hi, done);
        let row = i * out_stride;
        let [bh, bv, bd] = &mut out.hvd;
        let bands = [
            &mut out.a[row..row + n],
            &mut bv[row..row + n],
            &mut bh[row..row + n],
            &mut bd[row..row + n],
        ];
        let [a, v, h, d] = bands;
        let ptrs = [
            a.as_mut_ptr(),
            v.as_mut_ptr(),
            h.as_mut_ptr(),
            d.as_mut_ptr(),
        ];
        // SAFETY: as above; the bands were just sliced to `n` columns, and the pointers
        // are not used after this call.
        let end = unsafe { horizontal(lo, hi, ptrs, n) };
        // The vector loop wrote columns 1..end; the edges are the scalar twin's.
        level0_horizontal(lo, hi, &t.cols, [&mut *a, &mut *v, &mut *h, &mut *d], 0..1);
        level0_horizontal(lo, hi, &t.cols, [a, v, h, d], end.max(1)..n);
    }
}

/// Sign-extends the low 16 bits of each lane (`as i16 as i32`).
#[inline]
#[target_feature(enable = "avx2")]
fn low16(x: __m256i) -> __m256i {
    _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(x))
}

/// The vertical pass over columns `0..8·k`; returns where the scalar loop resumes. The
/// same columns of the source rows `ahead` are prefetched a step at a time.
#[target_feature(enable = "avx2")]
unsafe fn vertical<S: Load8>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    bpc: u32,
    lo: &mut [i32],
    hi: &mut [i32],
) -> usize {
    let w = lo.len();
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
            // SAFETY: each row holds `w >= j + 8` samples from `r * stride` (`fits`).
            *v = unsafe { S::load8(src.as_ptr().add(r * stride + j)) };
        }
        for r in ahead {
            // A prefetch only hints the cache and reads nothing; the address is formed
            // with wrapping arithmetic and is a column of a source row anyway.
            let p = src.as_ptr().wrapping_add(r * stride + j) as *const i8;
            _mm_prefetch::<_MM_HINT_T0>(p);
        }
        let mut l = _mm256_setzero_si256();
        let mut g = _mm256_setzero_si256();
        for k in 0..4 {
            l = _mm256_add_epi32(l, _mm256_mullo_epi32(lo_taps[k], s[k]));
            g = _mm256_add_epi32(g, _mm256_mullo_epi32(hi_taps[k], s[k]));
        }
        let l = low16(_mm256_sra_epi32(_mm256_add_epi32(l, bias), count));
        let g = low16(_mm256_sra_epi32(_mm256_add_epi32(g, round), count));
        // SAFETY: lo and hi hold `w >= j + 8` values.
        unsafe {
            _mm256_storeu_si256(lo.as_mut_ptr().add(j) as *mut __m256i, l);
            _mm256_storeu_si256(hi.as_mut_ptr().add(j) as *mut __m256i, g);
        }
        j += 8;
    }
    j
}

/// The even and the odd lanes of `a` then `b`: (a0 a2 .. b6, a1 a3 .. b7).
#[inline]
#[target_feature(enable = "avx2")]
fn deinterleave(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    let (a, b) = (_mm256_castsi256_ps(a), _mm256_castsi256_ps(b));
    let even = _mm256_castps_pd(_mm256_shuffle_ps::<0b10_00_10_00>(a, b));
    let odd = _mm256_castps_pd(_mm256_shuffle_ps::<0b11_01_11_01>(a, b));
    (
        _mm256_castpd_si256(_mm256_permute4x64_pd::<0b11_01_10_00>(even)),
        _mm256_castpd_si256(_mm256_permute4x64_pd::<0b11_01_10_00>(odd)),
    )
}

/// `(Σ f·x + 32768) >> 16` of the four tap vectors, as eight `i16` stored at `dst`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn tap_store(x: [__m256i; 4], f: &[__m256i; 4], dst: *mut i16) {
    let mut acc = _mm256_set1_epi32(32768);
    for k in 0..4 {
        acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(f[k], x[k]));
    }
    let v = _mm256_srai_epi32::<16>(acc);
    // The shifted sums lie in i16's range, so the saturating pack is exact.
    let packed = _mm256_permute4x64_epi64::<0b00_00_10_00>(_mm256_packs_epi32(v, v));
    // SAFETY: the caller guarantees eight writable values at `dst`.
    unsafe { _mm_storeu_si128(dst as *mut __m128i, _mm256_castsi256_si128(packed)) };
}

/// The horizontal pass over the interior output columns in steps of eight, written to
/// the bands (a, v, h, d) at `bands` (each valid for `n` values); it writes columns
/// `1..end` and returns `end`.
#[target_feature(enable = "avx2")]
unsafe fn horizontal(lo: &[i32], hi: &[i32], bands: [*mut i16; 4], n: usize) -> usize {
    let w = lo.len();
    let lo_taps = LO.map(|f| _mm256_set1_epi32(f));
    let hi_taps = HI.map(|f| _mm256_set1_epi32(f));
    // Output j reads inputs 2j-1 ..= 2j+2; eight outputs from j read 2j-1 .. 2j+17.
    let mut j = 1;
    while j + 8 <= n && 2 * j + 17 <= w {
        for (t, dst) in [(lo, [bands[0], bands[1]]), (hi, [bands[2], bands[3]])] {
            let p = t.as_ptr();
            // SAFETY: 2j - 1 >= 1 and 2j + 17 <= w = t.len(): all four loads are in `t`.
            let (x0, x1, y0, y1) = unsafe {
                (
                    _mm256_loadu_si256(p.add(2 * j - 1) as *const __m256i),
                    _mm256_loadu_si256(p.add(2 * j + 7) as *const __m256i),
                    _mm256_loadu_si256(p.add(2 * j + 1) as *const __m256i),
                    _mm256_loadu_si256(p.add(2 * j + 9) as *const __m256i),
                )
            };
            let (xe, xo) = deinterleave(x0, x1);
            let (ye, yo) = deinterleave(y0, y1);
            let x = [xe, xo, ye, yo];
            // SAFETY: each band holds `n >= j + 8` values; the pointers came from live
            // mutable slices the caller does not touch while this runs.
            unsafe {
                tap_store(x, &lo_taps, dst[0].add(j));
                tap_store(x, &hi_taps, dst[1].add(j));
            }
        }
        j += 8;
    }
    j
}

/// Whether the buffers hold everything a level 1..3 reads and writes.
pub(super) fn fits_n<S>(
    src: &[S],
    stride: usize,
    t: &Taps,
    tmp: &[i64],
    out: &Bands<i32>,
    out_stride: usize,
) -> bool {
    let w = t.w;
    let n = t.cols.len();
    let last_row = t.rows.iter().flatten().copied().max().unwrap_or(0);
    let out_len = t.rows.len().saturating_sub(1) * out_stride + n;
    out_stride >= n
        && last_row
            .checked_mul(stride)
            .is_some_and(|o| o + w <= src.len())
        && tmp.len() >= 2 * w
        && n == w.div_ceil(2)
        && t.cols.iter().flatten().all(|&c| c < w)
        && std::iter::once(&out.a)
            .chain(&out.hvd)
            .all(|b| b.len() >= out_len)
}
