//! vif's AVX2 kernel table: the vertical entries of `avx2_vertical`, the horizontal one
//! of `avx2_horizontal`, the down-sampling of `avx2_down`, the split passes of
//! `avx2_split`, and here the deferred pass and the fused vertical-and-down passes. Every
//! kernel computes in exactly the integer arithmetic of the scalar code (64-bit sums where
//! it sums in 64 bits), with the scalar code finishing the columns left over.

use super::super::kernels::Kernels;
use super::avx2_down::{down_horizontal, down_vertical, down_vertical_u8};
use super::avx2_horizontal::horizontal;
use super::avx2_vertical::{vertical_u16, vertical_u8, Refill};
use crate::cpu::CpuLevel;
use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::{StatScratch, Sums, VerticalShift};
use crate::feature::vif::subsample::{vertical_down_with, DownScratch};

/// The AVX2 kernel table. The dispatch hands it out only when the processor has AVX2.
pub(in crate::feature::vif) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    vertical_u8,
    vertical_u16,
    horizontal,
    deferred_u8: deferred::<u8>,
    deferred_u16: deferred::<u16>,
    horizontal_keep: super::avx2_split::horizontal_keep,
    horizontal_dis: super::avx2_split::horizontal_dis,
    down_vertical_u8,
    down_vertical_u16: down_vertical::<u16>,
    down_horizontal,
    vertical_down_u8,
    vertical_down_u16,
};

/// The deferred pass (see `xy_plan`): writes the skipped blocks that the steps the
/// horizontal pass left read, then scores those steps.
#[allow(clippy::too_many_arguments)]
fn deferred<T: Refill>(
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    (y, width, scale): (usize, usize, usize),
    shift: VerticalShift,
    gain_limit: f64,
    s: &mut StatScratch,
    sums: &mut Sums,
) {
    if !s.xy.has_deferred() {
        return;
    }
    let steps = s.xy.take_deferred();
    let blocks = width / 16;
    for &j in &steps {
        let t = j / 16;
        for b in t.saturating_sub(1)..(t + 2).min(blocks) {
            if s.xy.fill(b) {
                // SAFETY: this table is only handed out when the processor has AVX2; a
                // skipped block lies within the vertical pass's `width / 16 * 16` columns.
                unsafe { T::refill(reference, distorted, (y, width, scale, shift), b, s) };
            }
        }
    }
    super::avx2_madd::score_steps(s, &steps, scale, gain_limit, sums);
    s.xy.give_back(steps);
}

/// The fused pass of this table over 8-bit samples: its two kernels one after the other.
#[allow(clippy::too_many_arguments)]
fn vertical_down_u8(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    let k = (KERNELS.vertical_u8, KERNELS.down_vertical_u8);
    vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
}

/// The fused pass of this table over 16-bit words.
#[allow(clippy::too_many_arguments)]
fn vertical_down_u16(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    let k = (KERNELS.vertical_u16, KERNELS.down_vertical_u16);
    vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
}
