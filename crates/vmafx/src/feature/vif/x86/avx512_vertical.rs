//! AVX-512 (VNNI) vertical statistic passes: thirty-two columns a step, two rows a dot
//! product (`vpdpwssd`).
//!
//! Each row's samples are interleaved with the next row's as 16-bit words, once; the
//! word products of interleaved words are the interleaved squares and products, so one
//! dot product adds both rows' terms under their two taps. A last dummy row under a
//! zero tap pairs an odd row out. Words are taken less 32768 where they may pass 2^15:
//! their filter is then the sum less 2^31 (the taps sum to 2^16), which adding 2^31 back
//! restores exactly in 32-bit lanes.
//!
//! 8-bit samples at scale 0 are taken less 128: their squares and products then fit
//! signed words, and the sums of the samples' own follow exactly (see
//! `vertical_u8_avx512`). Deeper samples (and the 16-bit means of later scales) have
//! 32-bit squares and products, taken as their high and low words (`vpmulhuw`,
//! `vpmullw`); the filter of such a moment is `hi * 2^16 + lo`, whose rounded shift by
//! `s` (1..=16) is `hi * 2^(16 - s) + ((lo + 2^(s - 1)) >> s)` (the high part loses no
//! bits), truncated to 32 bits as the scalar code truncates it.
//!
//! Both passes write the horizontal pass's biased words themselves (`store_block`), and
//! the five 32-bit rows only where the scalar code and the mirrors read them.

use std::arch::x86_64::*;

use super::avx2;
use crate::cpu::vnni::dpwssd;
use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::VerticalFn;
use crate::feature::vif::stats::{mirror_scratch, vertical_columns, StatScratch, VerticalShift};
use crate::feature::vif::subsample::{down_vertical_columns, vertical_down_with, DownScratch};
use crate::feature::vif::tables::{tap_pair, TAPS};

/// The 64-bit lanes of (low, high) unpack results that put 32-bit lanes in column order:
/// the first sixteen columns, then the next sixteen.
#[inline]
#[target_feature(enable = "avx512f")]
fn in_order(lo: __m512i, hi: __m512i) -> [__m512i; 2] {
    let first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    let second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    [
        _mm512_permutex2var_epi64(lo, first, hi),
        _mm512_permutex2var_epi64(lo, second, hi),
    ]
}

/// Taps `2p` and `2p + 1` as a pair of words in every 32-bit lane (0 past the last).
#[target_feature(enable = "avx512f")]
fn tap_pairs<const P: usize>(taps: &[u16]) -> [__m512i; P] {
    std::array::from_fn(|p| _mm512_set1_epi32(tap_pair(taps, 2 * p as isize)))
}

/// The vertical pass over 8-bit planes; scale 0 (no moment shift) here, the rest by AVX2.
pub(super) fn vertical_u8(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    if scale != 0 || shift.moment != 0 {
        return (avx2::KERNELS.vertical_u8)(reference, distorted, y, width, scale, shift, s);
    }
    // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when the
    // processor has AVX-512 (F, BW) and VNNI.
    unsafe { vertical_u8_avx512::<false>(reference, distorted, y, width, shift, s, None) };
    vertical_columns(
        reference,
        distorted,
        y,
        width / 32 * 32,
        width,
        scale,
        shift,
        s,
    );
    mirror_scratch(s, width, scale);
}

/// The 8-bit pass at scale 0 fused with the vertical down-sampling filter of scale 1 (see
/// `VerticalDownFn`): the down-sampler's nine rows are the middle ones of the statistic's
/// seventeen, whose mirrored pair sums it reuses.
#[allow(clippy::too_many_arguments)]
pub(super) fn vertical_down_u8(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    if scale != 0 || shift.moment != 0 || shift.mean != 8 {
        let k = (
            vertical_u8 as VerticalFn<u8>,
            super::avx512_down::down_vertical_u8 as _,
        );
        return vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
    }
    let (convol, convol_dis) = (d.convol.body_mut(), d.convol_dis.body_mut());
    // SAFETY: as for `vertical_u8`.
    unsafe {
        vertical_u8_avx512::<true>(
            reference,
            distorted,
            y,
            width,
            shift,
            s,
            Some((convol, convol_dis)),
        )
    };
    let n32 = width / 32 * 32;
    vertical_columns(reference, distorted, y, n32, width, 0, shift, s);
    mirror_scratch(s, width, 0);
    down_vertical_columns(reference, y as isize, n32, width, 1, 8, d);
    std::mem::swap(&mut d.convol, &mut d.convol_dis);
    down_vertical_columns(distorted, y as isize, n32, width, 1, 8, d);
    std::mem::swap(&mut d.convol, &mut d.convol_dis);
}

/// Thirty-two samples from `p`, less 128, as signed words.
///
/// # Safety
/// AVX-512 BW, and 32 bytes from `p` readable.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn centred32(p: *const u8) -> __m512i {
    // SAFETY: the caller makes the 32 bytes read (unaligned) readable.
    let v = unsafe { _mm256_loadu_si256(p as *const __m256i) };
    // Flipping the top bit of a byte takes 128 from it, read as a signed byte.
    _mm512_cvtepi8_epi16(_mm256_xor_si256(v, _mm256_set1_epi8(i8::MIN)))
}

/// Sixteen 32-bit lanes into `d[at..at + 16]` (bounds-checked).
#[inline]
#[target_feature(enable = "avx512f")]
fn store16(d: &mut [u32], at: usize, v: __m512i) {
    let d = &mut d[at..at + 16];
    // SAFETY: `d` holds the 64 bytes written (unaligned store).
    unsafe { _mm512_storeu_si512(d.as_mut_ptr() as *mut _, v) }
}

/// Stores the block of columns `$j..$j + 32` of the five rows (`mu1`, `mu2`, `ref_sq`,
/// `dis_sq`, `ref_dis`, each as unpack-ordered halves, see `in_order`) of a row whose
/// SIMD blocks end at `$n32`, into the scratch `$s`: as the horizontal pass's biased
/// words, from word `$half + $j` on (`$half` the filter's half width), and as the rows
/// themselves only in the first and last blocks, where the mirrors and the scalar
/// columns read them. A macro, not a function: the compiler would not inline the
/// function into the kernels, and `#[inline(always)]` cannot go with
/// `#[target_feature]`. Only for use inside functions with AVX-512 F and BW enabled.
macro_rules! store_block {
    ($s:expr, $j:expr, $n32:expr, $half:expr, $rows:expr) => {{
        let (s, j, n32, half, rows): (&mut StatScratch, usize, usize, usize, [[__m512i; 2]; 5]) =
            ($s, $j, $n32, $half, $rows);
        let bias16 = _mm512_set1_epi16(i16::MIN);
        let low16 = _mm512_set1_epi32(0xFFFF);
        // Packing the two unpack-ordered halves puts the words in column order; every
        // lane is below 2^16, so the saturating pack is exact.
        let packed = |v: [__m512i; 2]| _mm512_xor_si512(_mm512_packus_epi32(v[0], v[1]), bias16);
        let high = |v: [__m512i; 2]| packed(v.map(|x| _mm512_srli_epi32::<16>(x)));
        let low = |v: [__m512i; 2]| packed(v.map(|x| _mm512_and_si512(x, low16)));
        let words = [
            packed(rows[0]),
            packed(rows[1]),
            high(rows[2]),
            low(rows[2]),
            high(rows[3]),
            low(rows[3]),
            high(rows[4]),
            low(rows[4]),
        ];
        for (dst, v) in s.words.iter_mut().zip(words) {
            let d = &mut dst[half + j..half + j + 32];
            // SAFETY: `d` holds the 64 bytes written (unaligned store).
            unsafe { _mm512_storeu_si512(d.as_mut_ptr() as *mut _, v) };
        }
        if j == 0 || j + 32 == n32 {
            for (d, v) in s.bodies_mut().into_iter().zip(rows) {
                let [first, second] = in_order(v[0], v[1]);
                store16(d, j, first);
                store16(d, j + 16, second);
            }
        }
    }};
}

/// The 8-bit pass at scale 0, on samples taken less 128 (see the note on the sums below).
///
/// Each row pair's centred samples are interleaved once, reference and distorted apart;
/// the interleaved words serve the means as they are and, multiplied word by word, give
/// the interleaved products (`a'²`, `b'²`, `a'b'`, all within 16 signed bits) without
/// further shuffles. The filter being symmetric, rows `2p, 2p + 1` and their mirrors
/// `16 - 2p, 15 - 2p` share their taps: their centred samples, added (within 9 signed
/// bits), take one dot product for the means of all four rows.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn vertical_u8_avx512<const DOWN: bool>(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    mut down: Option<(&mut [u32], &mut [u32])>,
) {
    const N: usize = 17;
    let taps = TAPS[0];
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`.
    let (rows_r, rows_d) = (
        reference.window::<N>(y, width),
        distorted.window::<N>(y, width),
    );
    // Rows 2p, 2p + 1 (p < 4) pair with their mirrors 16 - 2p, 15 - 2p under the same
    // taps (the filter is symmetric); row 8 pairs with itself under (c8, 0).
    let pairs = tap_pairs::<4>(taps);
    let centre = _mm512_set1_epi32(taps[half] as i32);
    // With a = a' + 128 and taps summing to 2^16, the sums of the samples and of their
    // products follow from those of the centred samples, exactly in wrapping 32 bits:
    //   sum c a  = sum c a' + 2^23
    //   sum c a² = sum c a'² + 256 sum c a' + 2^30
    //   sum c ab = sum c a'b' + 128 (sum c a' + sum c b') + 2^30
    let mean_bias = _mm512_set1_epi32((1 << 23) + (((1u32 << shift.mean) >> 1) as i32));
    let count = _mm_cvtsi32_si128(shift.mean as i32);
    let moment_bias = _mm512_set1_epi32(1 << 30);
    let low16 = _mm512_set1_epi32(0xFFFF);
    // The down-sampler's taps (scale 1, nine, symmetric) for the mirrored pair sums of
    // rows 4 + 12 and 5 + 11 (pair 2), 6 + 10 and 7 + 9 (pair 3), and for the centre row
    // interleaved with itself under (c4, 0); its sums of centred samples are 2^23 short
    // (see below), and its shift for 8-bit samples is 8.
    let down_taps = [tap_pair(TAPS[1], 0), tap_pair(TAPS[1], 2)].map(|c| _mm512_set1_epi32(c));
    let down_centre = _mm512_set1_epi32(TAPS[1][4] as i32);
    let down_bias = _mm512_set1_epi32((1 << 23) + (1 << 7));
    let n32 = width / 32 * 32;
    // The row the next output row adds to the window, fetched into the cache while this
    // one is filtered: the frames are read in place, so their rows come from memory. Rows
    // past the bottom are mirrors of rows already read: none is fetched there.
    let next = y + half + 1;
    let ahead =
        [reference, distorted].map(|p| (next < p.height()).then(|| p.row(next as isize).as_ptr()));
    for j in (0..n32).step_by(32) {
        for p in ahead.into_iter().flatten() {
            // A prefetch only hints the cache and reads nothing; the address is formed
            // with wrapping arithmetic.
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(j) as *const i8);
        }
        // Down-sampler sums: [reference, distorted] x unpack halves.
        let mut dn = [[_mm512_setzero_si512(); 2]; 2];
        // Rows k0 and k1 of both planes, centred and interleaved: (low, high) unpacks.
        let interleaved = |k0: usize, k1: usize| {
            // SAFETY: j + 32 <= width, the length of each row.
            let (a0, b0, a1, b1) = unsafe {
                (
                    centred32(rows_r[k0].add(j)),
                    centred32(rows_d[k0].add(j)),
                    centred32(rows_r[k1].add(j)),
                    centred32(rows_d[k1].add(j)),
                )
            };
            (
                [_mm512_unpacklo_epi16(a0, a1), _mm512_unpackhi_epi16(a0, a1)],
                [_mm512_unpacklo_epi16(b0, b1), _mm512_unpackhi_epi16(b0, b1)],
            )
        };
        let mut acc = [_mm512_setzero_si512(); 10];
        let (a, b) = interleaved(half, half);
        if DOWN {
            for h in 0..2 {
                dn[0][h] = dpwssd(dn[0][h], a[h], down_centre);
                dn[1][h] = dpwssd(dn[1][h], b[h], down_centre);
            }
        }
        for h in 0..2 {
            let terms = [
                a[h],
                b[h],
                _mm512_mullo_epi16(a[h], a[h]),
                _mm512_mullo_epi16(b[h], b[h]),
                _mm512_mullo_epi16(a[h], b[h]),
            ];
            for (t, v) in terms.into_iter().enumerate() {
                acc[2 * t + h] = dpwssd(acc[2 * t + h], v, centre);
            }
        }
        for (p, &c) in pairs.iter().enumerate() {
            let (a, b) = interleaved(2 * p, 2 * p + 1);
            let (ma, mb) = interleaved(N - 1 - 2 * p, N - 2 - 2 * p);
            for h in 0..2 {
                // Centred samples of a row and its mirror add within 9 signed bits: one
                // dot product takes the means of both pairs.
                let means = [_mm512_add_epi16(a[h], ma[h]), _mm512_add_epi16(b[h], mb[h])];
                for (t, v) in means.into_iter().enumerate() {
                    acc[2 * t + h] = dpwssd(acc[2 * t + h], v, c);
                    if DOWN && p >= 2 {
                        dn[t][h] = dpwssd(dn[t][h], v, down_taps[p - 2]);
                    }
                }
                let products = [
                    (
                        _mm512_mullo_epi16(a[h], a[h]),
                        _mm512_mullo_epi16(ma[h], ma[h]),
                    ),
                    (
                        _mm512_mullo_epi16(b[h], b[h]),
                        _mm512_mullo_epi16(mb[h], mb[h]),
                    ),
                    (
                        _mm512_mullo_epi16(a[h], b[h]),
                        _mm512_mullo_epi16(ma[h], mb[h]),
                    ),
                ];
                for (t, (u, v)) in products.into_iter().enumerate() {
                    let i = 2 * (t + 2) + h;
                    acc[i] = dpwssd(dpwssd(acc[i], u, c), v, c);
                }
            }
        }
        // The sums lie in unpack order (see `in_order`); the arithmetic is lane by lane.
        let mean = |t: usize| {
            [0, 1].map(|i| {
                let v = _mm512_srl_epi32(_mm512_add_epi32(acc[2 * t + i], mean_bias), count);
                _mm512_and_si512(v, low16)
            })
        };
        let square = |t: usize, lin: usize| {
            [0, 1].map(|i| {
                let sq = _mm512_add_epi32(acc[2 * t + i], moment_bias);
                _mm512_add_epi32(sq, _mm512_slli_epi32::<8>(acc[2 * lin + i]))
            })
        };
        let product = |t: usize| {
            [0, 1].map(|i| {
                let lin = _mm512_slli_epi32::<7>(_mm512_add_epi32(acc[i], acc[2 + i]));
                _mm512_add_epi32(_mm512_add_epi32(acc[2 * t + i], moment_bias), lin)
            })
        };
        let rows = [mean(0), mean(1), square(2, 0), square(3, 1), product(4)];
        store_block!(s, j, n32, half, rows);
        if let (true, Some((dr, dd))) = (DOWN, down.as_mut()) {
            for (dst, v) in [&mut **dr, &mut **dd].into_iter().zip(dn) {
                let [first, second] = in_order(v[0], v[1]);
                let row = |x| _mm512_srli_epi32::<8>(_mm512_add_epi32(x, down_bias));
                store16(dst, j, row(first));
                store16(dst, j + 16, row(second));
            }
        }
    }
    s.words_done = n32;
}

/// The vertical pass over 16-bit words (deep samples at scale 0, means later) at scales
/// 0..2, whose taps fit 15 bits; scale 3 by AVX2.
pub(super) fn vertical_u16(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    if scale > 2 || !(1..=16).contains(&shift.moment) || !(1..=16).contains(&shift.mean) {
        return (avx2::KERNELS.vertical_u16)(reference, distorted, y, width, scale, shift, s);
    }
    // SAFETY: as for `vertical_u8`.
    unsafe {
        match TAPS[scale].len() {
            17 => vertical_u16_avx512::<17, 9, false>(
                reference, distorted, y, width, scale, shift, s, None,
            ),
            9 => vertical_u16_avx512::<9, 5, false>(
                reference, distorted, y, width, scale, shift, s, None,
            ),
            _ => vertical_u16_avx512::<5, 3, false>(
                reference, distorted, y, width, scale, shift, s, None,
            ),
        }
    }
    vertical_columns(
        reference,
        distorted,
        y,
        width / 32 * 32,
        width,
        scale,
        shift,
        s,
    );
    mirror_scratch(s, width, scale);
}

/// The pass over 16-bit words at scales 0 and 1 fused with the vertical down-sampling
/// filter of the next scale (see `VerticalDownFn`): the down-sampler's rows are the
/// statistic's middle ones, from an even row of the window on, so its taps go with the
/// statistic's interleaved row pairs.
#[allow(clippy::too_many_arguments)]
pub(super) fn vertical_down_u16(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    if scale > 1 || !(1..=16).contains(&shift.moment) || !(1..=16).contains(&shift.mean) {
        let k = (
            vertical_u16 as VerticalFn<u16>,
            super::avx512_down::down_vertical_u16 as _,
        );
        return vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
    }
    let down = Some((d.convol.body_mut(), d.convol_dis.body_mut()));
    // SAFETY: as for `vertical_u8`.
    unsafe {
        if scale == 0 {
            vertical_u16_avx512::<17, 9, true>(
                reference, distorted, y, width, scale, shift, s, down,
            )
        } else {
            vertical_u16_avx512::<9, 5, true>(reference, distorted, y, width, scale, shift, s, down)
        }
    };
    let n32 = width / 32 * 32;
    vertical_columns(reference, distorted, y, n32, width, scale, shift, s);
    mirror_scratch(s, width, scale);
    let next = scale + 1;
    down_vertical_columns(reference, y as isize, n32, width, next, shift.mean, d);
    std::mem::swap(&mut d.convol, &mut d.convol_dis);
    down_vertical_columns(distorted, y as isize, n32, width, next, shift.mean, d);
    std::mem::swap(&mut d.convol, &mut d.convol_dis);
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn vertical_u16_avx512<const N: usize, const P: usize, const DOWN: bool>(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    mut down: Option<(&mut [u32], &mut [u32])>,
) {
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`. Row 2P-1
    // is the dummy: row N-1 again, under a zero tap.
    let mut rows_r = [std::ptr::null::<u16>(); 18];
    let mut rows_d = [std::ptr::null::<u16>(); 18];
    for k in 0..2 * P {
        let row = y as isize - half as isize + k.min(N - 1) as isize;
        rows_r[k] = reference.row(row)[..width].as_ptr();
        rows_d[k] = distorted.row(row)[..width].as_ptr();
    }
    let pairs = tap_pairs::<P>(TAPS[scale]);
    let bias16 = _mm512_set1_epi16(i16::MIN);
    let bias32 = _mm512_set1_epi32(i32::MIN);
    let mean_round = _mm512_set1_epi32(((1u32 << shift.mean) >> 1) as i32);
    let mean_count = _mm_cvtsi32_si128(shift.mean as i32);
    let mom_round = _mm512_set1_epi32((1u32 << (shift.moment - 1)) as i32);
    let mom_count = _mm_cvtsi32_si128(shift.moment as i32);
    let high_count = _mm_cvtsi32_si128(16 - shift.moment as i32);
    let low16 = _mm512_set1_epi32(0xFFFF);
    // The down-sampler's taps (the next scale's; `DOWN` only at scales 0 and 1), over the
    // row pairs `first..first + count` of the window; its shift is the means' shift.
    let next = TAPS[(scale + 1).min(3)];
    let (first_pair, count) = ((N / 2 - next.len() / 2) / 2, next.len().div_ceil(2));
    debug_assert!(!DOWN || (scale < 2 && (N / 2 - next.len() / 2).is_multiple_of(2)));
    let down_taps: [__m512i; 5] =
        std::array::from_fn(|i| _mm512_set1_epi32(tap_pair(next, 2 * i as isize)));
    let n32 = width / 32 * 32;
    let load = |row: *const u16, j: usize| {
        // SAFETY: the 32 words from `j` of a row are readable (j + 32 <= width, the
        // row's length; unaligned load).
        unsafe { _mm512_loadu_si512(row.add(j) as *const _) }
    };
    for j in (0..n32).step_by(32) {
        let mut acc = [_mm512_setzero_si512(); 16];
        // Down-sampler sums: [reference, distorted] x unpack halves.
        let mut dn = [[_mm512_setzero_si512(); 2]; 2];
        for (p, &c) in pairs.iter().enumerate() {
            let (a0, b0) = (load(rows_r[2 * p], j), load(rows_d[2 * p], j));
            let (a1, b1) = (load(rows_r[2 * p + 1], j), load(rows_d[2 * p + 1], j));
            // The rows are interleaved once; the word products of interleaved words are
            // the interleaved products. Every word is biased only as it is summed.
            let a = [_mm512_unpacklo_epi16(a0, a1), _mm512_unpackhi_epi16(a0, a1)];
            let b = [_mm512_unpacklo_epi16(b0, b1), _mm512_unpackhi_epi16(b0, b1)];
            let biased = |v| _mm512_xor_si512(v, bias16);
            for h in 0..2 {
                let (a, b) = (a[h], b[h]);
                let terms = [
                    a,
                    b,
                    _mm512_mulhi_epu16(a, a),
                    _mm512_mullo_epi16(a, a),
                    _mm512_mulhi_epu16(b, b),
                    _mm512_mullo_epi16(b, b),
                    _mm512_mulhi_epu16(a, b),
                    _mm512_mullo_epi16(a, b),
                ];
                for (t, v) in terms.into_iter().enumerate() {
                    acc[2 * t + h] = dpwssd(acc[2 * t + h], biased(v), c);
                }
                if DOWN && p >= first_pair && p < first_pair + count {
                    let c = down_taps[p - first_pair];
                    dn[0][h] = dpwssd(dn[0][h], biased(a), c);
                    dn[1][h] = dpwssd(dn[1][h], biased(b), c);
                }
            }
        }
        // The sums lie in unpack order (see `in_order`); the arithmetic is lane by lane.
        let sum = |t: usize| [0, 1].map(|i| _mm512_xor_si512(acc[2 * t + i], bias32));
        let mean = |v| {
            let v = _mm512_srl_epi32(_mm512_add_epi32(v, mean_round), mean_count);
            _mm512_and_si512(v, low16)
        };
        let moment = |t: usize| {
            let (h, l) = (sum(t), sum(t + 1));
            [0, 1].map(|i| {
                let l = _mm512_srl_epi32(_mm512_add_epi32(l[i], mom_round), mom_count);
                _mm512_add_epi32(_mm512_sll_epi32(h[i], high_count), l)
            })
        };
        let rows = [
            sum(0).map(mean),
            sum(1).map(mean),
            moment(2),
            moment(4),
            moment(6),
        ];
        store_block!(s, j, n32, half, rows);
        if let (true, Some((dr, dd))) = (DOWN, down.as_mut()) {
            for (dst, v) in [&mut **dr, &mut **dd].into_iter().zip(dn) {
                let v = v.map(|x| mean(_mm512_xor_si512(x, bias32)));
                let [first, second] = in_order(v[0], v[1]);
                store16(dst, j, first);
                store16(dst, j + 16, second);
            }
        }
    }
    s.words_done = n32;
}
