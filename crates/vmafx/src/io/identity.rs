//! What identifies an input file across copies and machines: its size in bytes, a SHA-256
//! digest of its first bytes (the y4m header and first frame, a raw file's first frame, or
//! a compressed file's first MiB, which holds its container header and first pictures) and
//! its frame count where known. A copy under another name or path has the same identity;
//! another video of the same name has another.
//!
//! Partial runs record the identity of both inputs so that merges can refuse parts of
//! another video ([`crate::score::origin`]).

use std::fmt::Write as _;
use std::io::Read;

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

use super::reader::{InputKind, VideoReader};

/// Bytes digested of a compressed file (decoded through ffmpeg).
const COMPRESSED_PREFIX: u64 = 1 << 20;

/// An input file's identity: see the module notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputIdentity {
    /// The file's size in bytes.
    pub bytes: u64,
    /// SHA-256 of its first `prefix` bytes, as 64 lowercase hex digits.
    pub sha256: String,
    /// How many bytes were digested.
    pub prefix: u64,
    /// Frames in the file where known before reading them ([`VideoReader::frame_count`]).
    pub frames: Option<u64>,
}

impl VideoReader {
    /// The identity of the file this reader reads; `None` for the standard input, a pipe
    /// or a device, which have no size and cannot be read twice. Reads the digested bytes
    /// through a second handle: the reader's position is kept.
    pub fn identity(&self) -> Result<Option<InputIdentity>> {
        let path = self.path();
        let name = path.display().to_string();
        if path.as_os_str() == "-" {
            return Ok(None);
        }
        let meta =
            std::fs::metadata(path).map_err(|e| Error::io(&name, format!("cannot stat: {e}")))?;
        if !meta.is_file() {
            return Ok(None);
        }
        let bytes = meta.len();
        let prefix = match (self.decoded(), self.kind()) {
            (Some(_), _) => COMPRESSED_PREFIX,
            (None, InputKind::Y4m(h)) => h.len + b"FRAME\n".len() as u64 + self.frame_bytes(),
            (None, InputKind::Raw(_)) => self.frame_bytes(),
        }
        .min(bytes);
        let file =
            std::fs::File::open(path).map_err(|e| Error::io(&name, format!("cannot open: {e}")))?;
        let mut hasher = Sha256::new();
        let mut take = file.take(prefix);
        let mut buf = vec![0u8; 1 << 16];
        let mut read = 0u64;
        loop {
            let n = take
                .read(&mut buf)
                .map_err(|e| Error::io(&name, format!("cannot read: {e}")))?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            read += n as u64;
        }
        let mut sha256 = String::with_capacity(64);
        for b in hasher.finalize() {
            let _ = write!(sha256, "{b:02x}");
        }
        Ok(Some(InputIdentity {
            bytes,
            sha256,
            prefix: read,
            frames: self.frame_count(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn y4m(frames: u32, value: u8) -> Vec<u8> {
        let mut v = b"YUV4MPEG2 W4 H2 F25:1 C420jpeg\n".to_vec();
        for _ in 0..frames {
            v.extend(b"FRAME\n");
            v.extend([value; 12]);
        }
        v
    }

    #[test]
    fn a_copy_keeps_the_identity_and_another_video_has_another() {
        let dir = std::env::temp_dir().join(format!("vmafx-identity-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let p = dir.join(name);
            std::fs::write(&p, bytes).unwrap();
            VideoReader::open(&p, None)
                .unwrap()
                .identity()
                .unwrap()
                .unwrap()
        };
        let a = write("a.y4m", &y4m(3, 16));
        assert_eq!(a, write("copy.y4m", &y4m(3, 16)), "a copy");
        assert_eq!(
            (a.bytes, a.frames, a.prefix),
            (3 * 18 + 31, Some(3), 31 + 18)
        );
        assert_eq!(a.sha256.len(), 64);
        assert_ne!(
            a.sha256,
            write("b.y4m", &y4m(3, 17)).sha256,
            "other pictures"
        );
        let longer = write("longer.y4m", &y4m(4, 16));
        assert_eq!(longer.sha256, a.sha256, "same first frame");
        assert_ne!(
            (longer.bytes, longer.frames),
            (a.bytes, a.frames),
            "but not the size"
        );
    }
}
