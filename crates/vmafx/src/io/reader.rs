//! [`VideoReader`]: frames from a y4m or raw yuv file, one at a time.

use std::path::Path;

use crate::error::{Error, Result, Status};
use crate::frame::Frame;
use crate::frame::Geometry;

use super::ffmpeg::{DecodeInfo, DecodeWatch, Decoder, EndCheck};
use super::layout::FileLayout;
use super::limits::Limits;
use super::recycle::PlaneRecycler;
use super::source::Source;
use super::y4m::{self, Y4mHeader};
use super::yuv::RawParams;

/// What kind of file a reader reads, with what describes its frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputKind {
    /// A y4m file and its stream header.
    Y4m(Y4mHeader),
    /// A raw yuv file and the parameters it was opened with.
    Raw(RawParams),
}

/// Where a reader stands.
#[derive(Debug, Clone)]
enum State {
    Reading,
    /// The file ended cleanly; every later call returns `None`.
    Ended,
    /// A read failed; every later call returns this error again.
    Failed(Error),
}

/// Reads frames from a y4m or raw yuv file, streaming: one frame in memory at a time.
///
/// Frames are numbered from 0 in file order, as libvmaf's logs number them, and errors name
/// the file (their subject), the frame and the byte offset. A y4m file holding only its
/// header has zero frames: the first [`next_frame`](Self::next_frame) returns `Ok(None)`;
/// whether no frames is an error is the caller's call. An empty file (0 bytes) is refused
/// at open, y4m or raw. After an error, the reader returns that error again.
#[derive(Debug)]
pub struct VideoReader {
    src: Source,
    kind: InputKind,
    layout: FileLayout,
    row: Vec<u8>,
    recycler: PlaneRecycler,
    next_index: u64,
    frames_read: u64,
    state: State,
    /// How a decoded input was decoded; `None` for files read natively.
    decoded: Option<DecodeInfo>,
    /// What a decoded input checks at the end of the decoder's output.
    end_check: Option<EndCheck>,
}

impl VideoReader {
    /// Opens `path` with the default [`Limits`]: see [`open_with_limits`](Self::open_with_limits).
    pub fn open(path: impl AsRef<Path>, raw: Option<RawParams>) -> Result<Self> {
        Self::open_with_limits(path, raw, Limits::default())
    }

    /// Opens `path` as y4m where its name ends in `.y4m` (any case) or it starts with the
    /// y4m magic; `raw` is then ignored, the header ruling, as libvmaf's tools do.
    /// Otherwise it is raw yuv and `raw` must describe it.
    pub fn open_with_limits(
        path: impl AsRef<Path>,
        raw: Option<RawParams>,
        limits: Limits,
    ) -> Result<Self> {
        let path = path.as_ref();
        let mut src = Source::open(path)?;
        let head = src.peek(y4m::MAGIC.len() + 1, "file start")?;
        if head.is_empty() {
            return Err(Error::invalid(src.name(), "byte 0: the file is empty"));
        }
        let by_name = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("y4m"));
        if by_name || y4m::has_magic(&head) {
            return Self::y4m_from(src, &limits);
        }
        let Some(raw) = raw else {
            return Err(Error::invalid(
                src.name(),
                "byte 0: not a y4m file (no YUV4MPEG2 magic, no .y4m name), and no raw yuv \
                 parameters (width, height, pixel format, bit depth) were given",
            ));
        };
        Self::raw_from(src, raw, &limits)
    }

    /// Opens `path` as y4m whatever its name.
    pub fn open_y4m(path: impl AsRef<Path>, limits: Limits) -> Result<Self> {
        Self::y4m_from(Source::open(path.as_ref())?, &limits)
    }

    /// Opens `path` as raw yuv described by `raw`, whatever its name or content.
    pub fn open_raw(path: impl AsRef<Path>, raw: RawParams, limits: Limits) -> Result<Self> {
        let src = Source::open(path.as_ref())?;
        if src.len() == Some(0) {
            return Err(Error::invalid(src.name(), "byte 0: the file is empty"));
        }
        Self::raw_from(src, raw, &limits)
    }

    fn y4m_from(mut src: Source, limits: &Limits) -> Result<Self> {
        let header = y4m::read_header(&mut src, limits)?;
        let layout = FileLayout::new(header.geometry(), header.dropped_planes);
        limits.check_frame_bytes(layout.frame_bytes(), src.name(), "y4m header (byte 0)")?;
        Ok(Self::with(src, InputKind::Y4m(header), layout))
    }

    fn raw_from(src: Source, raw: RawParams, limits: &Limits) -> Result<Self> {
        raw.check(src.name(), limits)?;
        let layout = FileLayout::new(raw.geometry(), 0);
        limits.check_frame_bytes(layout.frame_bytes(), src.name(), "raw yuv parameters")?;
        Ok(Self::with(src, InputKind::Raw(raw), layout))
    }

    fn with(src: Source, kind: InputKind, layout: FileLayout) -> Self {
        VideoReader {
            src,
            kind,
            layout,
            row: Vec::new(),
            recycler: PlaneRecycler::default(),
            next_index: 0,
            frames_read: 0,
            state: State::Reading,
            decoded: None,
            end_check: None,
        }
    }

    /// Reads y4m from the standard input (named `-` in errors); raw yuv where it carries no
    /// y4m magic and `raw` describes it.
    pub fn open_stdin(raw: Option<RawParams>, limits: Limits) -> Result<Self> {
        let mut src = Source::stream(Path::new("-"), Box::new(std::io::stdin()));
        let head = src.peek(y4m::MAGIC.len() + 1, "stream start")?;
        if head.is_empty() {
            return Err(Error::invalid("-", "byte 0: the standard input is empty"));
        }
        match raw {
            Some(raw) if !y4m::has_magic(&head) => Self::raw_from(src, raw, &limits),
            _ => Self::y4m_from(src, &limits),
        }
    }

    /// Reads the y4m stream a running decoder writes, within `limits`; `accept` (the open
    /// options' `accept_decode_errors`) lets the decoder's reported errors pass.
    pub(crate) fn from_decoder(
        path: &Path,
        decoder: Decoder,
        info: DecodeInfo,
        (accept, limits): (bool, &Limits),
    ) -> Result<Self> {
        let check = EndCheck {
            messages: decoder.messages(),
            expected: info.probe.as_ref().and_then(|p| p.frames),
            accept,
            watch: DecodeWatch::default(),
        };
        let src = Source::stream(path, Box::new(decoder));
        let mut r = Self::y4m_from(src, limits)?;
        r.decoded = Some(info);
        r.end_check = Some(check);
        Ok(r)
    }

    /// For a decoded input opened with `accept_decode_errors`: where the decoder's
    /// reported errors are recorded once its output ends. `None` for files read natively.
    pub fn decode_watch(&self) -> Option<DecodeWatch> {
        self.end_check.as_ref().map(|c| c.watch.clone())
    }

    /// The same reader reading its file with `read(2)` into planes of its own from here
    /// on, not through a map (tests of both routes over one file).
    #[cfg(test)]
    pub(crate) fn copying(mut self) -> Self {
        self.src.never_map();
        self
    }

    /// Whether frames are bound in place, mapped from the file (see the notes of `io`).
    pub fn is_mapped(&self) -> bool {
        self.src.is_mappable()
    }

    /// How the input was decoded through ffmpeg, for one that was.
    pub fn decoded(&self) -> Option<&DecodeInfo> {
        self.decoded.as_ref()
    }

    /// Frames in the whole input, where known before reading them: from the file's size
    /// for y4m (where it is a whole number of frames with bare `FRAME` headers) and raw
    /// yuv, from ffprobe for decoded input; `None` for streams.
    pub fn frame_count(&self) -> Option<u64> {
        if let Some(d) = &self.decoded {
            return d.probe.as_ref().and_then(|p| p.frames);
        }
        let len = self.src.len()?;
        let frame = self.layout.frame_bytes().max(1);
        let (payload, step) = match &self.kind {
            InputKind::Y4m(h) => (len.saturating_sub(h.len), frame + 6),
            InputKind::Raw(_) => (len, frame),
        };
        // A size that is no whole number of frames (FRAME parameters, a cut file): unknown.
        payload.is_multiple_of(step).then_some(payload / step)
    }

    /// The frame rate (numerator, denominator), where the input says it.
    pub fn frame_rate(&self) -> Option<(u32, u32)> {
        let probed = self
            .decoded
            .as_ref()
            .and_then(|d| d.probe.as_ref())
            .and_then(|p| p.frame_rate);
        match &self.kind {
            InputKind::Y4m(h) => h.frame_rate.or(probed),
            InputKind::Raw(_) => None,
        }
    }

    /// Format, depth and size of every frame.
    pub fn geometry(&self) -> Geometry {
        self.layout.geometry
    }

    /// The kind of file, with its y4m header or raw parameters.
    pub fn kind(&self) -> &InputKind {
        &self.kind
    }

    /// The path the reader was opened with.
    pub fn path(&self) -> &Path {
        self.src.path()
    }

    /// Bytes of one frame's samples in the file (chroma of the rounded-up size).
    pub fn frame_bytes(&self) -> u64 {
        self.layout.frame_bytes()
    }

    /// Frames returned by [`next_frame`](Self::next_frame) so far (skipped ones not counted).
    pub fn frames_read(&self) -> u64 {
        self.frames_read
    }

    /// Index in the file of the next frame: frames read plus frames skipped.
    pub fn position(&self) -> u64 {
        self.next_index
    }

    /// The next frame, or `None` at the end of the file.
    /// A read that fails (a decoder that died, a device error) names the frame being read
    /// and how many whole frames came before it.
    pub fn next_frame(&mut self) -> Result<Option<Frame>> {
        self.guarded(|r| {
            let (index, read) = (r.next_index, r.frames_read);
            let at_frame = |e: Error| match (e.status(), read) {
                (Status::Io, 0) => e.context(format!("frame {index}, before any whole frame")),
                (Status::Io, n) => e.context(format!(
                    "frame {index}, after {n} whole frames (the last read was frame {})",
                    index - 1
                )),
                _ => e,
            };
            let Some(start) = r.frame_start().map_err(at_frame)? else {
                return Ok(None);
            };
            let note = r.short_note();
            let at = (r.next_index, start);
            let frame = r
                .layout
                .read_frame(&mut r.src, &mut r.row, &r.recycler, at, &note)
                .map_err(at_frame)?;
            r.next_index += 1;
            r.frames_read += 1;
            Ok(Some(frame))
        })
    }

    /// The remaining frames as an iterator; it ends after the first error it yields.
    pub fn frames(&mut self) -> impl Iterator<Item = Result<Frame>> + '_ {
        std::iter::from_fn(move || {
            if matches!(self.state, State::Failed(_)) {
                return None;
            }
            self.next_frame().transpose()
        })
    }

    /// Passes over up to `n` frames without decoding them (seeking where the file allows);
    /// returns how many were skipped, fewer than `n` only where the file ended. A frame cut
    /// short is an error here too.
    pub fn skip(&mut self, n: u64) -> Result<u64> {
        let mut done = 0;
        while done < n {
            let skipped = self.guarded(|r| {
                let Some(start) = r.frame_start()? else {
                    return Ok(None);
                };
                let data_start = r.src.pos();
                let want = r.layout.frame_bytes();
                if r.src.skip(want, "frame data")? < want {
                    let at = (r.next_index, start);
                    return Err(r.layout.truncated(&r.src, at, data_start, &r.short_note()));
                }
                r.next_index += 1;
                Ok(Some(()))
            })?;
            if skipped.is_none() {
                break;
            }
            done += 1;
        }
        Ok(done)
    }

    /// Runs one step unless the reader has ended or failed, recording either outcome.
    fn guarded<T>(
        &mut self,
        step: impl FnOnce(&mut Self) -> Result<Option<T>>,
    ) -> Result<Option<T>> {
        match &self.state {
            State::Ended => return Ok(None),
            State::Failed(e) => return Err(e.clone()),
            State::Reading => {}
        }
        let out = step(self);
        match &out {
            Ok(None) => self.state = State::Ended,
            Err(e) => self.state = State::Failed(e.clone()),
            Ok(Some(_)) => {}
        }
        out
    }

    /// Reads up to the next frame's samples: its FRAME header for y4m. Returns the frame's
    /// first byte, or `None` where the file ends cleanly here.
    fn frame_start(&mut self) -> Result<Option<u64>> {
        let start = self.src.pos();
        let more = match self.kind {
            InputKind::Y4m(_) => y4m::read_frame_header(&mut self.src, self.next_index)?,
            InputKind::Raw(_) => !self.src.peek(1, "frame data")?.is_empty(),
        };
        if let (false, Some(check)) = (more, &self.end_check) {
            // The decoder ended cleanly: did it report errors on the way?
            check.at_end(self.next_index).map_err(|loss| {
                Error::invalid(
                    self.src.name(),
                    format!(
                        "{}; a file the decoder cannot read whole is refused (vmafx \
                         --accept-decode-errors, or accept_decode_errors in the options, \
                         scores the frames decoded)",
                        loss.describe()
                    ),
                )
            })?;
        }
        Ok(more.then_some(start))
    }

    /// What a short frame means, appended to the truncation error.
    fn short_note(&self) -> String {
        match (&self.kind, self.src.len()) {
            (InputKind::Raw(_), Some(len)) => format!(
                " (the file's {len} bytes are not a whole number of {}-byte frames)",
                self.layout.frame_bytes()
            ),
            _ => String::new(),
        }
    }
}
