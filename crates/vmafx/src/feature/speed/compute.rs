//! One SpEED computation (libvmaf's SpeedState): plane geometry after prescaling and
//! decimation, the float working planes, and the score of a ref/dis pair of float planes.

use super::dispatch::{Kernels, KERNELS};
use super::estimate::{self, Area, BlockStats, CovOrder, BLOCK};
use super::filter;
use super::scale::{self, Method, Size};
use crate::error::{Error, Result};
use crate::frame::{Frame, Samples};

/// Decimation steps of 2 (SpEED works at 1/16 of the prescaled plane).
const NUM_SCALES: u32 = 4;

/// SpEED's options as the computation reads them.
#[derive(Debug, Clone)]
pub(super) struct Params {
    /// Gaussian kernel scale.
    pub kernelscale: f64,
    /// Prescale factor.
    pub prescale: f64,
    /// Prescale method.
    pub method: Method,
    /// Neural noise standard deviation.
    pub sigma_nn: f64,
    /// Neural noise floor (fraction of sigma_nn).
    pub nn_floor: f64,
    /// Variance weighting mode (0..=6).
    pub weight_var_mode: i64,
}

fn almost_one(x: f64) -> bool {
    (x - 1.0).abs() < 1.0e-3
}

/// A SpEED instance for planes of one size.
#[derive(Debug)]
pub(super) struct Speed {
    p: Params,
    orig: Size,
    scaled: Size,
    area: Area,
    /// Row stride of the working planes, in samples.
    pub stride: usize,
    /// Rows of the working planes.
    pub rows: usize,
    antialias: Vec<f32>,
    smooth: Vec<f32>,
    /// The decimated plane (`rows / 16` rows).
    cur: Vec<f32>,
    /// The prescaler's copy of a plane when prescaling, else one row of scratch.
    tmp: Vec<f32>,
    ref_stats: BlockStats,
    dis_stats: BlockStats,
    /// How covariance sums are accumulated.
    pub cov_order: CovOrder,
    /// The kernel table chosen at construction.
    pub kernels: Kernels,
    /// The rows of an input plane the computation reads (all of them when prescaling).
    pub rows_read: Vec<bool>,
}

impl Speed {
    /// Sets up for `w` x `h` planes; refuses a plane that leaves no 5x5 block after
    /// prescaling and decimation by 16, and an invalid kernel scale. `what` names the
    /// plane in errors.
    pub(super) fn new(p: Params, w: usize, h: usize, extractor: &str, what: &str) -> Result<Self> {
        let sc = |n: usize| (n as f64 * p.prescale + 0.5) as usize;
        let scaled = Size { w: sc(w), h: sc(h) };
        let (ow, oh) = (scaled.w >> NUM_SCALES, scaled.h >> NUM_SCALES);
        let (tw, th) = (ow / BLOCK * BLOCK, oh / BLOCK * BLOCK);
        if tw == 0 || th == 0 {
            return Err(Error::invalid(
                extractor,
                format!(
                    "SpEED: image too small: {what} {w}x{h} at speed_prescale {} is {}x{}, \
                     >> {NUM_SCALES} gives {ow}x{oh}, below one {BLOCK}x{BLOCK} block \
                     (operating width or height is 0; needs >= 80 samples each way after prescaling)",
                    p.prescale, scaled.w, scaled.h
                ),
            ));
        }
        if !filter::valid_kernelscale(p.kernelscale as f32) {
            return Err(Error::invalid(
                format!("{extractor}:speed_kernelscale"),
                format!("invalid speed_kernelscale {}", p.kernelscale),
            ));
        }
        let (aw, ah) = (w.max(scaled.w), h.max(scaled.h));
        let stride = aw.div_ceil(8) * 8;
        let ks = p.kernelscale as f32;
        Ok(Speed {
            orig: Size { w, h },
            scaled,
            area: Area { tw, th, stride },
            stride,
            rows: ah,
            antialias: filter::antialias_filter(ks),
            smooth: filter::scale4_filter(ks),
            cur: vec![0.0; stride * (ah >> NUM_SCALES)],
            tmp: vec![
                0.0;
                if almost_one(p.prescale) {
                    stride
                } else {
                    stride * ah
                }
            ],
            ref_stats: BlockStats::default(),
            dis_stats: BlockStats::default(),
            cov_order: CovOrder::Avx512,
            kernels: KERNELS.current(),
            rows_read: if almost_one(p.prescale) {
                filter::rows_read(filter::filter_size(1, ks), h)
            } else {
                vec![true; h]
            },
            p,
        })
    }

    /// A zeroed working plane of this instance's size.
    pub(super) fn plane(&self) -> Vec<f32> {
        vec![0.0; self.stride * self.rows]
    }

    /// Prescales, low-passes, decimates by 16 and removes the local mean, in place.
    fn filter_and_downscale(&mut self, frame: &mut [f32]) {
        let s = self.stride;
        if !almost_one(self.p.prescale) {
            self.tmp.copy_from_slice(frame);
            scale::rescale(self.p.method, &self.tmp, frame, self.orig, self.scaled, s);
        }
        let (w, h) = (self.scaled.w, self.scaled.h);
        let (dw, dh) = (w >> NUM_SCALES, h >> NUM_SCALES);
        filter::convolve_decimate16(
            &self.antialias,
            frame,
            &mut self.cur,
            &mut self.tmp,
            w,
            h,
            s,
        );
        for i in 0..dh {
            frame[i * s..i * s + dw].copy_from_slice(&self.cur[i * s..i * s + dw]);
        }
        filter::convolve(&self.smooth, frame, &mut self.cur, dw, dh, s);
        filter::subtract(frame, &self.cur, dw, dh, s);
    }

    /// The score of a ref/dis pair of working planes (both overwritten), and whether
    /// either plane's covariance was singular. A pair where only one is singular scores 0.
    pub(super) fn score(&mut self, r: &mut [f32], d: &mut [f32]) -> (f32, bool) {
        let snn = self.p.sigma_nn as f32;
        self.filter_and_downscale(r);
        let ok_r = estimate::estimate(
            self.cov_order,
            self.kernels.cov_sum,
            r,
            self.area,
            snn,
            &mut self.ref_stats,
        );
        self.filter_and_downscale(d);
        let ok_d = estimate::estimate(
            self.cov_order,
            self.kernels.cov_sum,
            d,
            self.area,
            snn,
            &mut self.dis_stats,
        );
        let s = if ok_r != ok_d {
            0.0
        } else {
            estimate::score(
                &self.ref_stats,
                &self.dis_stats,
                snn,
                self.p.nn_floor as f32,
                self.p.weight_var_mode,
            )
            .unwrap_or(f32::NAN)
        };
        (s, !(ok_r && ok_d))
    }
}

/// Copies plane `channel` of `frame` into `dst` (row `stride`) as libvmaf's picture_copy
/// does, minus 128: 10, 12 and 16-bit samples divided by 4, 16 and 256; 8-bit as is; other
/// depths the way libvmaf reads them, i.e. the plane's bytes taken as 8-bit samples.
/// Only the rows marked in `rows` are copied.
pub(super) fn copy_plane(
    frame: &Frame,
    channel: usize,
    dst: &mut [f32],
    stride: usize,
    rows: &[bool],
) {
    let pl = frame.plane(channel);
    let (w, h) = (pl.width as usize, pl.height as usize);
    let bpc = frame.bpc();
    for y in (0..h).filter(|&y| rows[y]) {
        let out = &mut dst[y * stride..y * stride + w];
        match pl.samples() {
            Samples::U8(_) => {
                for (o, &v) in out.iter_mut().zip(pl.row_u8(y as u32)) {
                    *o = v as f32 + -128.0;
                }
            }
            Samples::U16(_) => {
                let row = pl.row_u16(y as u32);
                let div = match bpc {
                    10 => Some(4.0f32),
                    12 => Some(16.0),
                    16 => Some(256.0),
                    _ => None,
                };
                match div {
                    Some(div) => {
                        for (o, &v) in out.iter_mut().zip(row) {
                            *o = v as f32 / div + -128.0;
                        }
                    }
                    None => {
                        for (j, o) in out.iter_mut().enumerate() {
                            let b = row[j / 2].to_le_bytes()[j % 2];
                            *o = b as f32 + -128.0;
                        }
                    }
                }
            }
        }
    }
}
