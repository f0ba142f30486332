//! Input: y4m and raw yuv files read into [`crate::Frame`]s, one frame at a time, and any
//! other video decoded by the `ffmpeg` program into a y4m pipe ([`ffmpeg`]);
//! [`VideoReader::open_input`] picks the route ([`open`]).
//!
//! [`VideoReader::open`] picks y4m by the `.y4m` name or the `YUV4MPEG2 ` magic, and
//! otherwise reads raw yuv as [`RawParams`] describe it. [`Limits`] bound sizes before
//! anything is allocated. Files store chroma of the rounded-up size; frames keep libvmaf's
//! rounded-down size and the top-left region of each plane. A regular file's frames
//! are planes over read-only maps of their bytes where the system allows, not copies
//! (`mapped`; `VMAFX_NO_MMAP=1` reads with `read(2)` instead).
//!
//! Every failure is an [`crate::Error`] whose subject is the file's path and whose message
//! names the frame (numbered from 0) and the byte offset where they apply. Statuses:
//! `Io` where the system failed to open or read the file; `Invalid` where its content is
//! wrong (empty file, bad magic, bad or missing tags, unknown colour space, interlacing,
//! zero or oversized dimensions in a header, a missing or garbled FRAME header, a
//! truncated frame, a raw file that is not a whole number of frames); `Range` for raw
//! parameters out of range; `NoMem` for a frame above [`Limits::max_frame_bytes`];
//! `NotSup` for a known but unsupported y4m colour space (4:1:1).

pub mod ffmpeg;
pub mod identity;
mod layout;
mod limits;
mod mapped;
pub mod open;
mod reader;
mod recycle;
mod source;
pub mod y4m;
mod yuv;

pub use ffmpeg::{DecodeInfo, DecodeLoss, DecodeWatch, Probe};
pub use identity::InputIdentity;
pub use limits::Limits;
pub use open::{OpenOptions, Route};
pub use reader::{InputKind, VideoReader};
pub use y4m::Y4mHeader;
pub use yuv::{pixel_format_from_name, RawParams};

#[cfg(test)]
mod tests;
