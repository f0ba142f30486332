//! The AVX2 scoring of the horizontal passes' pixels (every scale), by compaction: the
//! flat pixels are summed in vectors as they come, and the three sigmas of the others are
//! packed, eight at a time, into short buffers that are then scored four at a time with
//! every lane in use and no data-dependent branch: each takes the denominator's term, and
//! a pixel whose numerator term is not taken (`sigma12` or `sigma2_sq` not positive, a few
//! per cent of them) has its two numerator logarithms taken of the same value, which adds
//! exactly 0. On smooth pictures most groups of four mix flat and other pixels, which the
//! branch-per-group scoring paid for both in wasted lanes and in mispredicted branches.
//!
//! The log2 table is read by scalar loads instead of gathers (on AMD's Zen cores a
//! four-lane `vpgatherqd` costs more than the four loads it stands for). A logarithm's
//! exponent and table index both come from the value as a double (see [`log2_parts`]);
//! the exponents are summed in vectors, the indices stored and read back for the scalar
//! look-ups, whose values are summed in scalar `i64`s. The pixels left over at the end of
//! a row (fewer than four in a buffer) are scored with zero sigmas padding the last four,
//! which add exactly 0. Every sum is an integer sum, so neither the order nor the split
//! changes a bit of the totals.

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use crate::feature::vif::tables::{log2_table, SIGMA_NSQ};

/// Pixels a buffer holds before it is scored (then fewer than four stay): a few hundred,
/// so that the scoring loop's set-up and the move of the leftovers come rarely (64 cost
/// 1.4% more of a 1080p run on Zen 4; 512 and 1024 gained nothing more).
const FLUSH: usize = 256;
/// A buffer's length: room for one more eight-lane store past [`FLUSH`], and for the
/// four-lane move of the leftovers from the last full group of four.
const LEN: usize = FLUSH + 12;

/// For each 8-bit lane mask, the lanes set, in order, as `vpermd` indices (the rest 0).
#[repr(align(32))]
struct PackTable([[u32; 8]; 256]);

/// The pack permutations of every lane mask.
static PACK: PackTable = PackTable(pack_table());

const fn pack_table() -> [[u32; 8]; 256] {
    let mut t = [[0u32; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut n) = (0, 0);
        while lane < 8 {
            if m & (1 << lane) != 0 {
                t[m][n] = lane as u32;
                n += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
}

/// The four sums of the statistic over one row, with the buffer of pixels not yet
/// scored.
pub(super) struct ScoreSums {
    table: &'static [u16; 65536],
    gain_limit: f64,
    /// The numerator's logarithms' exponent fields (with's less numer's), in 64-bit lanes:
    /// their `2048 k` parts over 2048.
    num_log: __m256i,
    /// The denominator's logarithms' exponent fields, in 64-bit lanes (`k + 1038` each).
    den_log: __m256i,
    /// The flat pixels' `sigma2_sq`, in 64-bit lanes.
    num_flat: __m256i,
    /// Flat pixels counted negatively in 32-bit lanes (a row has far fewer than 2^31).
    den_flat: __m256i,
    /// The table parts of the logarithms, and the `-2048 * (17 + 1038)` of each denominator
    /// term (its constant and its exponent field's bias).
    num_table: i64,
    den_table: i64,
    /// The three sigmas of the pixels that are not flat, `len` of them, each buffer
    /// written before it is read (left uninitialised: zeroing 3 KiB per row and scale was
    /// 0.4% of a 1080p run).
    buf: [[MaybeUninit<i32>; LEN]; 3],
    len: usize,
}

impl ScoreSums {
    /// Empty sums for a row scored with `gain_limit`.
    #[target_feature(enable = "avx2")]
    pub(super) fn new(gain_limit: f64) -> Self {
        let z = _mm256_setzero_si256();
        ScoreSums {
            table: log2_table()
                .try_into()
                .expect("the log2 table has 65536 entries"),
            gain_limit,
            num_log: z,
            den_log: z,
            num_flat: z,
            den_flat: z,
            num_table: 0,
            den_table: 0,
            buf: [[MaybeUninit::uninit(); LEN]; 3],
            len: 0,
        }
    }

    /// Takes sixteen pixels (two vectors of eight) from their `sigma1_sq`, `sigma2_sq`
    /// (clamped at 0) and `sigma12` lanes, as `Sums::add_sigmas` scores each, asking for
    /// the `sigma12` lanes only when one of them is not flat: a flat pixel's score does not
    /// read it, so a step of sixteen flat pixels (64% of the scale-0 steps on the 1080p
    /// pair) skips its `ref·dis` filters (whole process 0.971 on an Intel Xeon at AVX2;
    /// PERFORMANCE.md, VIF round 9).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn add16(
        &mut self,
        s1: [__m256i; 2],
        s2: [__m256i; 2],
        s12: impl FnOnce() -> [__m256i; 2],
    ) {
        let masks = flat_masks(s1);
        self.add16_masked(masks, s1, s2, s12);
    }

    /// [`ScoreSums::add16`] with the flat masks of `s1` already made ([`flat_masks`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn add16_masked(
        &mut self,
        (flat, other): FlatMasks,
        s1: [__m256i; 2],
        s2: [__m256i; 2],
        s12: impl FnOnce() -> [__m256i; 2],
    ) {
        for (f, s) in flat.into_iter().zip(s2) {
            self.add_flat(f, s);
        }
        if other == [0, 0] {
            return;
        }
        let s12 = s12();
        for i in 0..2 {
            if other[i] != 0 {
                self.pack(other[i], s1[i], s2[i], s12[i]);
            }
        }
    }

    /// Takes sixteen pixels known to be flat, from their `sigma2_sq` lanes (clamped at 0).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn add16_flat(&mut self, s2: [__m256i; 2]) {
        let all = _mm256_set1_epi32(-1);
        for s in s2 {
            self.add_flat(all, s);
        }
    }

    /// The flat lanes of the mask `flat`, scored from their `sigma2_sq` lanes `s2`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn add_flat(&mut self, flat: __m256i, s2: __m256i) {
        let flat_s2 = _mm256_and_si256(flat, s2);
        self.num_flat = _mm256_add_epi64(
            self.num_flat,
            _mm256_add_epi64(
                _mm256_cvtepi32_epi64(_mm256_castsi256_si128(flat_s2)),
                _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(flat_s2)),
            ),
        );
        self.den_flat = _mm256_add_epi32(self.den_flat, flat);
    }

    /// Buffers the lanes set in the mask `other` (pixels that are not flat).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn pack(&mut self, other: usize, s1: __m256i, s2: __m256i, s12: __m256i) {
        // SAFETY: the mask is below 256; each store of eight lanes starts below FLUSH
        // (the buffer is flushed on reaching it), so ends within LEN.
        unsafe {
            let p = _mm256_load_si256(PACK.0[other].as_ptr() as *const __m256i);
            let at = self.len;
            for (dst, v) in self.buf.iter_mut().zip([s1, s2, s12]) {
                let d = &mut dst[at..at + 8];
                _mm256_storeu_si256(
                    d.as_mut_ptr() as *mut __m256i,
                    _mm256_permutevar8x32_epi32(v, p),
                );
            }
        }
        self.len += other.count_ones() as usize;
        if self.len >= FLUSH {
            self.flush();
        }
    }

    /// Scores the buffered pixels four at a time, keeping the (fewer than four) left over
    /// at the front. Every one takes the denominator's term; a pixel without
    /// `sigma12 > 0 && sigma2_sq > 0` has its numerator's two logarithms taken of the
    /// same value, which adds exactly 0.
    #[target_feature(enable = "avx2")]
    fn flush(&mut self) {
        const EPS: f64 = 65536.0 * 1.0e-10;
        let full = self.len / 4 * 4;
        let nsq = _mm_set1_epi32(SIGMA_NSQ);
        let zero = _mm_setzero_si128();
        let gain = _mm256_set1_pd(self.gain_limit);
        // An integral double below 2^52 plus 2^52 holds the integer in its mantissa bits.
        let magic = _mm256_set1_pd(4_503_599_627_370_496.0);
        for at in (0..full).step_by(4) {
            let load = |row: &[MaybeUninit<i32>; LEN]| {
                let r = &row[at..at + 4];
                // SAFETY: `r` holds the sixteen bytes read (unaligned load), all written:
                // `at + 4 <= full <= len`, and the first `len` of a buffer are written.
                unsafe { _mm_loadu_si128(r.as_ptr() as *const __m128i) }
            };
            let [b1, b2, b12] = &self.buf;
            let (s1, s2, s12) = (load(b1), load(b2), load(b12));
            let den = _mm256_cvtepu32_epi64(_mm_add_epi32(s1, nsq));
            let (e_den, i_den) = log2_parts(den);
            self.den_log = _mm256_add_epi64(self.den_log, e_den);

            let active = _mm256_cvtepi32_epi64(_mm_and_si128(
                _mm_cmpgt_epi32(s12, zero),
                _mm_cmpgt_epi32(s2, zero),
            ));
            let (s1d, s2d, s12d) = (
                _mm256_cvtepi32_pd(s1),
                _mm256_cvtepi32_pd(s2),
                _mm256_cvtepi32_pd(s12),
            );
            let g = _mm256_div_pd(s12d, _mm256_add_pd(s1d, _mm256_set1_pd(EPS)));
            // Truncation toward zero; out of range gives i32::MIN, which the clamp makes 0
            // as the scalar saturating cast does (on an active lane it cannot pass 2^31:
            // sigma2_sq does not, and g * sigma12 is positive).
            let sv = _mm256_cvttpd_epi32(_mm256_sub_pd(s2d, _mm256_mul_pd(g, s12d)));
            let sv = _mm_max_epi32(sv, zero);
            let g = _mm256_min_pd(g, gain);
            let numer = _mm256_cvtepu32_epi64(_mm_add_epi32(sv, nsq));
            let signal = _mm256_mul_pd(_mm256_mul_pd(g, g), s1d);
            let signal = _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(signal);
            let signal = _mm256_sub_epi64(
                _mm256_castpd_si256(_mm256_add_pd(signal, magic)),
                _mm256_castpd_si256(magic),
            );
            // Inactive lanes take the logarithm of `numer` twice (their signal may be out
            // of the range the integer trick above holds).
            let with_signal = _mm256_blendv_epi8(numer, _mm256_add_epi64(signal, numer), active);
            let (e_with, i_with) = log2_parts(with_signal);
            let (e_numer, i_numer) = log2_parts(numer);
            self.num_log = _mm256_add_epi64(self.num_log, _mm256_sub_epi64(e_with, e_numer));
            let [d, w, n] = self.table_sums([i_den, i_with, i_numer]);
            self.den_table += d;
            self.num_table += w - n;
        }
        self.den_table -= 2048 * (17 + EXP_BIAS) * full as i64;
        if full > 0 {
            // The (fewer than four) left over, moved as four lanes: a fixed-size move, not
            // a call to `memmove` (`full + 4 <= len + 4 <= LEN`; lanes past `len` are
            // moved as they are, unread).
            for row in &mut self.buf {
                let (head, tail) = row.split_at_mut(full);
                head[..4].copy_from_slice(&tail[..4]);
            }
        }
        self.len -= full;
    }

    /// (num_log, den_log, num_flat, den_flat) of the row, each summed over its lanes, the
    /// pixels still buffered scored first.
    #[target_feature(enable = "avx2")]
    pub(super) fn totals(mut self) -> [i64; 4] {
        // The last (fewer than four) pixels padded with zero sigmas, which add exactly 0:
        // the denominator's `log2(0 + 2^17) - 17` and no numerator term (`sigma12 = 0`).
        let full = self.len.div_ceil(4) * 4;
        for row in &mut self.buf {
            row[self.len..full].fill(MaybeUninit::new(0));
        }
        self.len = full;
        self.flush();
        debug_assert_eq!(self.len, 0);
        let lanes = |v: __m256i| {
            let mut a = [0i64; 4];
            // SAFETY: `a` holds the 32 bytes stored (unaligned store).
            unsafe { _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, v) };
            a.iter().sum::<i64>()
        };
        let mut flat = [0i32; 8];
        // SAFETY: `flat` holds the 32 bytes stored (unaligned store).
        unsafe { _mm256_storeu_si256(flat.as_mut_ptr() as *mut __m256i, self.den_flat) };
        [
            (lanes(self.num_log) << 11) + self.num_table,
            (lanes(self.den_log) << 11) + self.den_table,
            lanes(self.num_flat),
            -flat.iter().map(|&c| c as i64).sum::<i64>(),
        ]
    }

    /// The sums of the table's entries at 32768 plus the low fifteen bits of the four
    /// 64-bit lanes of each index vector.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn table_sums<const K: usize>(&self, index: [__m256i; K]) -> [i64; K] {
        let mut at = [[0u64; 4]; K];
        for (a, v) in at.iter_mut().zip(index) {
            // SAFETY: `a` holds the 32 bytes stored (unaligned store).
            unsafe { _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, v) };
        }
        // Read back from memory (load ports) rather than extracted lane by lane (the vector
        // ports, which the rest of the scoring keeps busy).
        let at = std::hint::black_box(&mut at);
        at.map(|lanes| {
            lanes
                .iter()
                .map(|&i| self.table[(i as usize & 0x7FFF) | 0x8000] as i64)
                .sum()
        })
    }
}

/// The flat lanes of two vectors of `sigma1_sq` (all ones where `sigma1_sq < SIGMA_NSQ`),
/// and the lanes of each eight that are not flat as a bit mask.
pub(super) type FlatMasks = ([__m256i; 2], [usize; 2]);

/// The [`FlatMasks`] of sixteen pixels' `sigma1_sq` lanes `s1`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn flat_masks(s1: [__m256i; 2]) -> FlatMasks {
    let nsq = _mm256_set1_epi32(SIGMA_NSQ);
    let flat = s1.map(|s| _mm256_cmpgt_epi32(nsq, s));
    // The lanes of each eight that are not flat (long runs of flat ones on smooth
    // pictures leave nothing to pack).
    let other = flat.map(|f| _mm256_movemask_ps(_mm256_castsi256_ps(f)) as usize ^ 0xFF);
    (flat, other)
}

/// What the exponent field of a double holds beyond `k`, the shift that leaves a value's
/// top sixteen significant bits: its bias 1023 and the fifteen bits below the leading one.
const EXP_BIAS: i64 = 1023 + 15;

/// `log2(x) * 2048` of the 64-bit lanes `x` (`2^17 <= x < 2^52`), as the scalar
/// `log2_u32` / `log2_u64` give it, split as (`k + EXP_BIAS` in lanes, the table index less
/// 32768 in the low fifteen bits of the lanes, masked where it is read): `x` as a double is exact below 2^52, its exponent field is `floor(log2 x) +
/// 1023` and its mantissa's top fifteen bits are those below the leading one of `x >> k`.
#[inline]
#[target_feature(enable = "avx2")]
fn log2_parts(x: __m256i) -> (__m256i, __m256i) {
    let magic = _mm256_set1_epi64x(0x4330_0000_0000_0000); // the bits of 2^52
    let d = _mm256_castpd_si256(_mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(x, magic)),
        _mm256_castsi256_pd(magic),
    ));
    (_mm256_srli_epi64::<52>(d), _mm256_srli_epi64::<37>(d))
}
