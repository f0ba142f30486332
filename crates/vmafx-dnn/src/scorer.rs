//! A tiny model as a per-frame scorer of the engine's context: it reads the luma planes of
//! each pair, resized to the model's fixed input where it has one, and its first output's
//! mean is the frame's score, collected under the model's name like any other feature.
//!
//! The model's inputs say what it scores: one `[1, 1, H, W]` input is fed the distorted
//! luma (a no-reference model), two are fed the reference then the distorted luma (full
//! reference). A codec-aware model (its sidecar has an `encoder_vocab`) takes one more
//! input, last: the codec block of [`crate::codec::CodecContext`]. Samples are scaled to
//! 0..1 (divided by `2^bpc - 1`).

use std::path::Path;

use vmafx::context::FrameScorer;
use vmafx::{Error, Frame, MemoryKind, Result};

use crate::codec::CodecContext;
use crate::resize::{resize, Resize};
use crate::session::{Session, SessionOptions};

/// A tiny model run on every frame pair.
#[derive(Debug)]
pub struct TinyModelScorer {
    session: Session,
    name: String,
    /// Image inputs (1 or 2) before the codec block.
    planes: usize,
    resize: Resize,
    codec: CodecContext,
}

impl TinyModelScorer {
    /// Opens the model at `path` (the checks of [`Session::open`]) as a scorer. Its feature
    /// name is the sidecar's `name`, else the file's stem. A model whose inputs are not one
    /// or two `[1, 1, H, W]` planes (plus the codec block when codec-aware) is `NotSup`.
    pub fn open(path: &Path, options: &SessionOptions) -> Result<TinyModelScorer> {
        let session = Session::open(path, options)?;
        let name = session
            .sidecar()
            .and_then(|s| s.name.clone())
            .filter(|n| !n.is_empty())
            .or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "tiny_model".to_string());
        let codec_aware = session.sidecar().is_some_and(|s| s.codec_aware());
        let planes = session.inputs().len() - usize::from(codec_aware);
        let plane_ok = |dims: &[Option<usize>]| matches!(dims, [n, c, _, _] if n.is_none_or(|v| v == 1) && c.is_none_or(|v| v == 1));
        if !(1..=2).contains(&planes)
            || !session.inputs()[..planes].iter().all(|p| plane_ok(&p.dims))
        {
            return Err(Error::not_supported(
                session.path(),
                "a frame scorer takes one or two [1, 1, H, W] luma inputs (no-reference or \
                 full-reference), then the codec block when codec-aware",
            ));
        }
        Ok(TinyModelScorer {
            session,
            name,
            planes,
            resize: Resize::Disabled,
            codec: CodecContext::default(),
        })
    }

    /// How frames are resized to the model's fixed input (default: refused unless equal).
    pub fn set_resize(&mut self, mode: Resize) {
        self.resize = mode;
    }

    /// The codec context a codec-aware model reads. `NotFound` naming the codec when the
    /// model's vocabulary does not know it (the `unknown` bucket would be fed otherwise).
    pub fn set_codec(&mut self, codec: CodecContext) -> Result<()> {
        if let Some(s) = self.session.sidecar().filter(|s| s.codec_aware()) {
            let (_, known) = codec.block(&s.encoder_vocab);
            if !known {
                return Err(Error::not_found(
                    codec.codec.clone().unwrap_or_default(),
                    format!(
                        "not in the encoder vocabulary of {} ({})",
                        self.session.path(),
                        s.encoder_vocab.join(", ")
                    ),
                ));
            }
        }
        self.codec = codec;
        Ok(())
    }

    /// Whether the model reads the codec context.
    pub fn codec_aware(&self) -> bool {
        self.session.sidecar().is_some_and(|s| s.codec_aware())
    }

    /// The session underneath.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The luma of `frame` as floats in 0..1, sized to the model's input.
    fn luma(&self, frame: &Frame, dims: &[Option<usize>]) -> Result<(Vec<f32>, usize, usize)> {
        if frame.memory() != MemoryKind::Host {
            return Err(Error::not_supported(
                self.session.path(),
                "tiny models read host frames only",
            ));
        }
        let plane = frame.plane(0);
        let (w, h) = (frame.width() as usize, frame.height() as usize);
        let scale = 1.0 / ((1u32 << frame.bpc()) - 1) as f32;
        let mut v = Vec::with_capacity(w * h);
        for y in 0..h as u32 {
            for x in 0..w as u32 {
                v.push(plane.get(x, y) as f32 * scale);
            }
        }
        let (mw, mh) = (dims[3].unwrap_or(w), dims[2].unwrap_or(h));
        if (mw, mh) == (w, h) {
            return Ok((v, w, h));
        }
        if self.resize == Resize::Disabled {
            return Err(Error::invalid(
                self.session.path(),
                format!("the model takes {mw}x{mh} frames; these are {w}x{h} (set a resize mode)"),
            ));
        }
        Ok((resize(&v, w, h, mw, mh, self.resize), mw, mh))
    }
}

impl FrameScorer for TinyModelScorer {
    fn name(&self) -> &str {
        &self.name
    }

    fn score(&mut self, reference: &Frame, distorted: &Frame, _index: u64) -> Result<f64> {
        let frames: Vec<&Frame> = if self.planes == 2 {
            vec![reference, distorted]
        } else {
            vec![distorted]
        };
        let mut owned: Vec<(Vec<usize>, Vec<f32>)> = Vec::new();
        for (f, port) in frames.iter().zip(self.session.inputs()) {
            let (v, w, h) = self.luma(f, &port.dims)?;
            owned.push((vec![1, 1, h, w], v));
        }
        if let Some(s) = self.session.sidecar().filter(|s| s.codec_aware()) {
            let (block, _) = self.codec.block(&s.encoder_vocab);
            owned.push((vec![1, block.len()], block));
        }
        let inputs: Vec<(Option<&str>, &[usize], &[f32])> = owned
            .iter()
            .map(|(s, v)| (None, s.as_slice(), v.as_slice()))
            .collect();
        let out = self.session.run(&inputs)?;
        let first = &out[0];
        if first.data.is_empty() {
            return Err(Error::invalid(
                self.session.path(),
                format!("output `{}` is empty", first.name),
            ));
        }
        let mean = first.data.iter().map(|&v| v as f64).sum::<f64>() / first.data.len() as f64;
        if !mean.is_finite() {
            return Err(Error::invalid(
                self.session.path(),
                format!("output `{}` is not finite", first.name),
            ));
        }
        Ok(mean)
    }
}
