//! A width-generic view of the vector registers cambi's run kernels use, so that one body
//! of each (`super::runs_by`) serves AVX2 (eight 32-bit lanes) and AVX-512 (sixteen):
//! [`RunLanes`] names the operations, [`Avx2`] and [`Avx512`] implement them with the
//! level's intrinsics. A lane mask is a vector of all-ones lanes at AVX2 and a mask
//! register at AVX-512; either way a lane outside it is neither read past the data nor
//! stored.

use std::arch::x86_64::*;

/// The vector operations of one instruction-set level.
///
/// # Safety
/// Every method needs the level's instructions: call them only from code that runs after
/// the level was detected (the dispatch hands the tables out only then).
pub(super) trait RunLanes {
    /// 32-bit lanes per vector: the c-value row's columns a step.
    const LANES: usize;
    /// 16-bit lanes per vector: the histogram update's columns a step.
    const WORDS: usize;
    /// `LANES` 32-bit integers.
    type I: Copy;
    /// `LANES` single-precision values.
    type F: Copy;
    /// `WORDS` 16-bit integers.
    type W: Copy;
    /// A mask of `LANES` lanes.
    type M: Copy;
    /// What the run scan carries from one step of 32 columns to the next.
    type Carry: Copy;

    /// The mask of lanes `0..n` (all of them from `n >= LANES` on; `n < 2^31`).
    unsafe fn first(n: usize) -> Self::M;
    /// The counts from `p` widened to 32 bits, in the lanes of `k` (the others are not
    /// used). The `LANES` counts from `p` lie inside the histograms or their padding.
    unsafe fn counts(p: *const u16, k: Self::M) -> Self::I;
    /// All lanes 0.
    unsafe fn zero() -> Self::I;
    /// All lanes 0.0.
    unsafe fn zero_f() -> Self::F;
    /// `v` in every lane.
    unsafe fn splat(v: i32) -> Self::I;
    /// Lane by lane signed maximum.
    unsafe fn max(a: Self::I, b: Self::I) -> Self::I;
    /// Lane by lane signed minimum.
    unsafe fn min(a: Self::I, b: Self::I) -> Self::I;
    /// Lane by lane wrapping sum.
    unsafe fn add(a: Self::I, b: Self::I) -> Self::I;
    /// Lane by lane low 32 bits of the product.
    unsafe fn mul(a: Self::I, b: Self::I) -> Self::I;
    /// The lanes of `k` where `p` is not 0.
    unsafe fn nonzero(p: Self::I, k: Self::M) -> Self::M;
    /// Whether `m` holds no lane.
    unsafe fn none(m: Self::M) -> bool;
    /// `table[idx]` in the lanes of `on` (every such index inside the table), 0.0 in the
    /// others.
    unsafe fn gather(table: *const f32, idx: Self::I, on: Self::M) -> Self::F;
    /// `product` as single precision times `rc`.
    unsafe fn scale(product: Self::I, rc: Self::F) -> Self::F;
    /// `val` in the lanes of `on` where it is greater than `best`, else `best`.
    unsafe fn keep_greater(best: Self::F, val: Self::F, on: Self::M) -> Self::F;
    /// Stores the lanes of `k` of `v` at `p` (only those are written).
    unsafe fn store(p: *mut f32, k: Self::M, v: Self::F);

    /// The carry before a row's first step.
    unsafe fn carry() -> Self::Carry;
    /// Thirty-two columns of a row from `col`, where `at` is `(col, w)`, `col < w` and the
    /// row holds `w` samples and mask entries, and `band` is `(base, size)`, `size` not 0:
    /// a bit per column whose sample counts (its mask entry is not 0 and its level, the
    /// sample less `base`, is below `size`), and a bit per column whose sample equals the
    /// one to its left (the first column's left is the last sample of the step before, or
    /// 0). Bits past `w` are 0 in the first mask.
    unsafe fn scan32(
        img: &[u16],
        msk: &[u16],
        at: (usize, usize),
        band: (u16, usize),
        carry: &mut Self::Carry,
    ) -> (u32, u32);

    /// `v` in every 16-bit lane.
    unsafe fn splat_w(v: i16) -> Self::W;
    /// `v + i` in 16-bit lane `i`.
    unsafe fn iota_w(v: i16) -> Self::W;
    /// Lane by lane wrapping 16-bit sum.
    unsafe fn add_w(a: Self::W, b: Self::W) -> Self::W;
    /// Lane by lane wrapping 16-bit difference.
    unsafe fn sub_w(a: Self::W, b: Self::W) -> Self::W;
    /// How many of the run's windows reach the column of each lane (see `add_run_by`):
    /// `min(y, run)` less `y - reach`, each difference clamped at 0, and 0 where `y >=
    /// limit` (every value below 2^15).
    unsafe fn windows(y: Self::W, run: Self::W, reach: Self::W, limit: Self::W) -> Self::W;
    /// `WORDS` words from `p` (unaligned).
    unsafe fn load_w(p: *const u16) -> Self::W;
    /// `v` as `WORDS` words at `p` (unaligned).
    unsafe fn store_w(p: *mut u16, v: Self::W);
}

/// The AVX2 level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2;

/// The AVX-512 level (F, BW and VL).
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512;

/// Thirty-two columns of one row at AVX2: samples, mask entries, and the samples one
/// column to the left (the first lane the last sample of the columns before, or zero).
///
/// # Safety
/// AVX2; `col < width`, and the row holds `width` samples and mask entries.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_columns(img: &[u16], msk: &[u16], col: usize, width: usize) -> [[__m256i; 2]; 3] {
    let ld = |p: *const u16| {
        // SAFETY: every caller reads sixteen entries inside the slice or array at `p`.
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    };
    if col > 0 && col + 32 <= width {
        let (v, m) = (img[col - 1..col + 32].as_ptr(), msk[col..col + 32].as_ptr());
        return [
            [ld(v.wrapping_add(1)), ld(v.wrapping_add(17))],
            [ld(m), ld(m.wrapping_add(16))],
            [ld(v), ld(v.wrapping_add(16))],
        ];
    }
    // The first and the last columns: copies, zero past the width.
    let n = (width - col).min(32);
    let (mut v, mut m) = ([0u16; 33], [0u16; 32]);
    if col > 0 {
        v[0] = img[col - 1];
    }
    v[1..=n].copy_from_slice(&img[col..col + n]);
    m[..n].copy_from_slice(&msk[col..col + n]);
    let (v, m) = (v.as_ptr(), m.as_ptr());
    [
        [ld(v.wrapping_add(1)), ld(v.wrapping_add(17))],
        [ld(m), ld(m.wrapping_add(16))],
        [ld(v), ld(v.wrapping_add(16))],
    ]
}

impl RunLanes for Avx2 {
    const LANES: usize = 8;
    const WORDS: usize = 16;
    type I = __m256i;
    type F = __m256;
    type W = __m256i;
    type M = __m256i;
    type Carry = ();

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn first(n: usize) -> __m256i {
        // n is below 2^31 (a row's columns; `check_bounds`).
        let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        _mm256_cmpgt_epi32(_mm256_set1_epi32(n as i32), lanes)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn counts(p: *const u16, _k: __m256i) -> __m256i {
        // SAFETY: the caller makes the eight counts from `p` readable.
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(p as *const __m128i) })
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn zero() -> __m256i {
        _mm256_setzero_si256()
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn zero_f() -> __m256 {
        _mm256_setzero_ps()
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(v: i32) -> __m256i {
        _mm256_set1_epi32(v)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn max(a: __m256i, b: __m256i) -> __m256i {
        _mm256_max_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn min(a: __m256i, b: __m256i) -> __m256i {
        _mm256_min_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn mul(a: __m256i, b: __m256i) -> __m256i {
        _mm256_mullo_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn nonzero(p: __m256i, k: __m256i) -> __m256i {
        _mm256_andnot_si256(_mm256_cmpeq_epi32(p, _mm256_setzero_si256()), k)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn none(m: __m256i) -> bool {
        _mm256_testz_si256(m, m) != 0
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn gather(table: *const f32, idx: __m256i, on: __m256i) -> __m256 {
        // SAFETY: the caller keeps every index of `on` inside the table; the other lanes
        // read nothing.
        unsafe {
            _mm256_mask_i32gather_ps::<4>(_mm256_setzero_ps(), table, idx, _mm256_castsi256_ps(on))
        }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn scale(product: __m256i, rc: __m256) -> __m256 {
        _mm256_mul_ps(_mm256_cvtepi32_ps(product), rc)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn keep_greater(best: __m256, val: __m256, on: __m256i) -> __m256 {
        let better = _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_GT_OQ>(val, best),
            _mm256_castsi256_ps(on),
        );
        _mm256_blendv_ps(best, val, better)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(p: *mut f32, k: __m256i, v: __m256) {
        // SAFETY: the caller makes the lanes of `k` writable; the others are not touched.
        unsafe { _mm256_maskstore_ps(p, k, v) }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn carry() {}
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn scan32(
        img: &[u16],
        msk: &[u16],
        (col, w): (usize, usize),
        (base, size): (u16, usize),
        _carry: &mut (),
    ) -> (u32, u32) {
        let zero = _mm256_setzero_si256();
        let base = _mm256_set1_epi16(base as i16);
        let top = _mm256_set1_epi16((size - 1) as u16 as i16);
        // One bit per 16-bit lane of two vectors, in column order.
        let bits = |lo: __m256i, hi: __m256i| {
            let packed = _mm256_packs_epi16(lo, hi);
            _mm256_movemask_epi8(_mm256_permute4x64_epi64::<0xD8>(packed)) as u32
        };
        let counted = |v: __m256i, m: __m256i| {
            let level = _mm256_sub_epi16(v, base);
            let in_band = _mm256_cmpeq_epi16(_mm256_min_epu16(level, top), level);
            _mm256_andnot_si256(_mm256_cmpeq_epi16(m, zero), in_band)
        };
        // SAFETY: the caller's: col < w, and the row holds w entries.
        let [v, m, prev] = unsafe { load_columns(img, msk, col, w) };
        let k = bits(counted(v[0], m[0]), counted(v[1], m[1]));
        let same = bits(
            _mm256_cmpeq_epi16(v[0], prev[0]),
            _mm256_cmpeq_epi16(v[1], prev[1]),
        );
        (k, same)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat_w(v: i16) -> __m256i {
        _mm256_set1_epi16(v)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn iota_w(v: i16) -> __m256i {
        _mm256_add_epi16(
            _mm256_set1_epi16(v),
            _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        )
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add_w(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub_w(a: __m256i, b: __m256i) -> __m256i {
        _mm256_sub_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn windows(y: __m256i, run: __m256i, reach: __m256i, limit: __m256i) -> __m256i {
        let n = _mm256_subs_epu16(_mm256_min_epu16(y, run), _mm256_subs_epu16(y, reach));
        // Signed and unsigned agree below 2^15.
        _mm256_and_si256(n, _mm256_cmpgt_epi16(limit, y))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_w(p: *const u16) -> __m256i {
        // SAFETY: the caller makes the sixteen words from `p` readable.
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_w(p: *mut u16, v: __m256i) {
        // SAFETY: the caller makes the sixteen words at `p` writable.
        unsafe { _mm256_storeu_si256(p as *mut __m256i, v) }
    }
}

impl RunLanes for Avx512 {
    const LANES: usize = 16;
    const WORDS: usize = 32;
    type I = __m512i;
    type F = __m512;
    type W = __m512i;
    type M = __mmask16;
    type Carry = __m512i;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn first(n: usize) -> __mmask16 {
        if n >= 16 {
            0xffff
        } else {
            (1u16 << n) - 1
        }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn counts(p: *const u16, k: __mmask16) -> __m512i {
        // SAFETY: the caller makes the counts of `k`'s lanes readable; a masked load
        // touches no other.
        _mm512_cvtepu16_epi32(unsafe { _mm256_maskz_loadu_epi16(k, p as *const i16) })
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn zero() -> __m512i {
        _mm512_setzero_si512()
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn zero_f() -> __m512 {
        _mm512_setzero_ps()
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn splat(v: i32) -> __m512i {
        _mm512_set1_epi32(v)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn max(a: __m512i, b: __m512i) -> __m512i {
        _mm512_max_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn min(a: __m512i, b: __m512i) -> __m512i {
        _mm512_min_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn mul(a: __m512i, b: __m512i) -> __m512i {
        _mm512_mullo_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn nonzero(p: __m512i, k: __mmask16) -> __mmask16 {
        k & _mm512_test_epi32_mask(p, p)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn none(m: __mmask16) -> bool {
        m == 0
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn gather(table: *const f32, idx: __m512i, on: __mmask16) -> __m512 {
        // SAFETY: the caller keeps every index of `on` inside the table; the other lanes
        // read nothing.
        unsafe { _mm512_mask_i32gather_ps::<4>(_mm512_setzero_ps(), on, idx, table) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn scale(product: __m512i, rc: __m512) -> __m512 {
        _mm512_mul_ps(_mm512_cvtepi32_ps(product), rc)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn keep_greater(best: __m512, val: __m512, on: __mmask16) -> __m512 {
        let better = on & _mm512_cmp_ps_mask::<_CMP_GT_OQ>(val, best);
        _mm512_mask_mov_ps(best, better, val)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn store(p: *mut f32, k: __mmask16, v: __m512) {
        // SAFETY: the caller makes the lanes of `k` writable; the others are not touched.
        unsafe { _mm512_mask_storeu_ps(p, k, v) }
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn carry() -> __m512i {
        _mm512_setzero_si512()
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn scan32(
        img: &[u16],
        msk: &[u16],
        (col, w): (usize, usize),
        (base, size): (u16, usize),
        prev: &mut __m512i,
    ) -> (u32, u32) {
        // Lane i takes lane i - 1 of the second operand, lane 0 the last of the first.
        let shift = _mm512_set_epi16(
            62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
            40, 39, 38, 37, 36, 35, 34, 33, 32, 31,
        );
        let t = if w - col >= 32 {
            u32::MAX
        } else {
            (1u32 << (w - col)) - 1
        };
        // SAFETY: the masked lanes are columns below w, which the row holds.
        let (v, m) = unsafe {
            (
                _mm512_maskz_loadu_epi16(t, img.as_ptr().add(col) as *const i16),
                _mm512_maskz_loadu_epi16(t, msk.as_ptr().add(col) as *const i16),
            )
        };
        let base = _mm512_set1_epi16(base as i16);
        let size = _mm512_set1_epi16(size as u16 as i16);
        let k = _mm512_test_epi16_mask(m, m)
            & _mm512_cmplt_epu16_mask(_mm512_sub_epi16(v, base), size)
            & t;
        let same = _mm512_cmpeq_epi16_mask(v, _mm512_permutex2var_epi16(*prev, shift, v));
        *prev = v;
        (k, same)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn splat_w(v: i16) -> __m512i {
        _mm512_set1_epi16(v)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn iota_w(v: i16) -> __m512i {
        _mm512_add_epi16(
            _mm512_set1_epi16(v),
            _mm512_set_epi16(
                31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
                10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
            ),
        )
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn add_w(a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn sub_w(a: __m512i, b: __m512i) -> __m512i {
        _mm512_sub_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn windows(y: __m512i, run: __m512i, reach: __m512i, limit: __m512i) -> __m512i {
        let inside = _mm512_cmplt_epu16_mask(y, limit);
        _mm512_maskz_subs_epu16(
            inside,
            _mm512_min_epu16(y, run),
            _mm512_subs_epu16(y, reach),
        )
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn load_w(p: *const u16) -> __m512i {
        // SAFETY: the caller makes the thirty-two words from `p` readable.
        unsafe { _mm512_loadu_si512(p as *const _) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn store_w(p: *mut u16, v: __m512i) {
        // SAFETY: the caller makes the thirty-two words at `p` writable.
        unsafe { _mm512_storeu_si512(p as *mut _, v) }
    }
}
