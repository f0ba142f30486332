//! Sixteen bytes widened to sixteen words without an instruction that crosses 128-bit lanes.
//!
//! `vpmovzxbw ymm, m128` crosses lanes: on AMD's Zen 3 it is two micro-operations with a
//! throughput of 1.5 cycles by LLVM's model of that core (`llvm-mca -mcpu=znver3`), where
//! an in-lane shuffle takes 0.5. A load that broadcasts the sixteen bytes to both lanes (one
//! load micro-operation on Intel's and AMD's cores) and one in-lane `vpshufb` give the same
//! words in the same order, at no cost on the Intel Xeon this was measured on
//! (docs/PERFORMANCE.md, Round 15).

use std::arch::x86_64::*;

/// The `vpshufb` control that widens sixteen bytes broadcast to both lanes: bytes `0..8` to
/// the low lane's words, bytes `8..16` to the high lane's.
#[inline]
#[target_feature(enable = "avx2")]
fn widen_control() -> __m256i {
    const Z: i8 = -128;
    _mm256_setr_epi8(
        0, Z, 1, Z, 2, Z, 3, Z, 4, Z, 5, Z, 6, Z, 7, Z, 8, Z, 9, Z, 10, Z, 11, Z, 12, Z, 13, Z, 14,
        Z, 15, Z,
    )
}

/// The sixteen bytes from `p` as sixteen words, in order: `_mm256_cvtepu8_epi16` of them.
///
/// # Safety
/// Sixteen bytes from `p` readable.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn widen_u8x16(p: *const u8) -> __m256i {
    // SAFETY: the caller makes the sixteen bytes read (unaligned) readable.
    let row = unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(p as *const __m128i)) };
    _mm256_shuffle_epi8(row, widen_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widens_as_vpmovzxbw_does() {
        if !is_x86_feature_detected!("avx2") {
            eprintln!("widen: no AVX2 here; skipped");
            return;
        }
        let bytes: Vec<u8> = (0..48u32).map(|i| (i * 37 + 200) as u8).collect();
        for at in 0..32 {
            let (mut got, mut want) = ([0u16; 16], [0u16; 16]);
            // SAFETY: AVX2 was detected; at + 16 <= 48 bytes are readable; each store writes
            // the 32 bytes of a 16-word array.
            unsafe {
                let p = bytes.as_ptr().add(at);
                _mm256_storeu_si256(got.as_mut_ptr().cast(), widen_u8x16(p));
                let w = _mm256_cvtepu8_epi16(_mm_loadu_si128(p.cast()));
                _mm256_storeu_si256(want.as_mut_ptr().cast(), w);
            }
            assert_eq!(got, want, "from byte {at}");
            assert_eq!(got.map(|w| w as u8), bytes[at..at + 16], "from byte {at}");
        }
    }
}
