//! A buffered input file that knows its byte offset, so every error can name it.
//!
//! The bytes come from a file (seekable where it is a regular file) or from a stream: the
//! standard input, or the output pipe of a decoder process (see [`super::ffmpeg`]). A
//! frame's bytes in a regular file can be mapped in place instead ([`Source::map_next`],
//! [`super::mapped`]).

use std::fs::File;
use std::io::{BufReader, ErrorKind, IoSliceMut, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

use super::mapped::{self, FrameMap, MapFailure};

/// Read buffer size; rows are read through it, frames never whole. Small, because what a
/// frame header's read fills beyond the header is copied out of it into the frame (the rest
/// of the frame is read straight into its planes).
const BUF_SIZE: usize = 1 << 14;

/// Read buffer size where frames are mapped: the buffer then holds headers only (a frame
/// header's read fills it, and what it holds beyond the header is passed over).
const MAPPED_BUF_SIZE: usize = 512;

/// Where the bytes come from.
pub(crate) enum Input {
    /// An open file (regular file, named pipe or device).
    File(File),
    /// A stream that cannot seek: standard input, a decoder's output.
    Stream(Box<dyn Read + Send>),
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::File(file) => f.debug_tuple("File").field(file).finish(),
            Input::Stream(_) => f.write_str("Stream"),
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Input::File(f) => f.read(buf),
            Input::Stream(s) => s.read(buf),
        }
    }

    fn read_vectored(&mut self, bufs: &mut [IoSliceMut<'_>]) -> std::io::Result<usize> {
        match self {
            Input::File(f) => f.read_vectored(bufs),
            Input::Stream(s) => s.read_vectored(bufs),
        }
    }
}

impl Seek for Input {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        match self {
            Input::File(f) => f.seek(to),
            Input::Stream(_) => Err(std::io::Error::new(
                ErrorKind::Unsupported,
                "a stream cannot seek",
            )),
        }
    }
}

/// An open input file, its path as errors print it, and the offset of the next byte.
#[derive(Debug)]
pub(crate) struct Source {
    path: PathBuf,
    name: String,
    reader: BufReader<Input>,
    pos: u64,
    /// The file's length where it is a regular file (seekable); `None` for pipes.
    len: Option<u64>,
    /// Whether frames may be mapped in place: a regular file, where maps are allowed and
    /// none was refused yet.
    mappable: bool,
    /// Held while frames of this source may be mapped: their maps, dropped on scoring
    /// threads, are unmapped by this source's next map or when it closes.
    _reading: Option<mapped::Reading>,
}

impl Source {
    /// Opens `path` for reading; a missing or unreadable file is an `Io` error naming it.
    pub(crate) fn open(path: &Path) -> Result<Self> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| {
            let why = match e.kind() {
                ErrorKind::NotFound => "no such file".to_string(),
                ErrorKind::PermissionDenied => "permission denied".to_string(),
                _ => e.to_string(),
            };
            Error::io(&name, format!("cannot open: {why}"))
        })?;
        let meta = file
            .metadata()
            .map_err(|e| Error::io(&name, format!("cannot read file metadata: {e}")))?;
        if meta.is_dir() {
            return Err(Error::io(&name, "cannot read: is a directory"));
        }
        let len = meta.is_file().then_some(meta.len());
        let mappable = len.is_some() && mapped::allowed();
        let size = if mappable { MAPPED_BUF_SIZE } else { BUF_SIZE };
        Ok(Source {
            path: path.to_path_buf(),
            name,
            reader: BufReader::with_capacity(size, Input::File(file)),
            pos: 0,
            len,
            mappable,
            _reading: mappable.then(mapped::Reading::start),
        })
    }

    /// A source over a stream that cannot seek, named `path` in errors.
    pub(crate) fn stream(path: &Path, stream: Box<dyn Read + Send>) -> Self {
        Source {
            path: path.to_path_buf(),
            name: path.display().to_string(),
            reader: BufReader::with_capacity(BUF_SIZE, Input::Stream(stream)),
            pos: 0,
            len: None,
            mappable: false,
            _reading: None,
        }
    }

    /// The path as given.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The path as errors name it.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Offset of the next byte to be read.
    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// The file's length, where known.
    pub(crate) fn len(&self) -> Option<u64> {
        self.len
    }

    /// Whether frames may be mapped in place ([`Self::map_next`]).
    pub(crate) fn is_mappable(&self) -> bool {
        self.mappable
    }

    /// Reads frames with `read(2)` from here on, never mapped (tests of both routes over
    /// one file).
    #[cfg(test)]
    pub(crate) fn never_map(&mut self) {
        self.mappable = false;
    }

    /// The next `n` bytes mapped in place, the position moved past them: `None` (nothing
    /// taken) where they cannot be mapped (not a mappable file, fewer than `n` bytes left
    /// by the file's length, a map the system refused: read them instead);
    /// `Some(Err(..))` where the file was cut short since it was opened. `what` says
    /// what was being read. The pages of the first `populate` bytes are mapped in at once,
    /// the others where they are first read.
    pub(crate) fn map_next(
        &mut self,
        n: usize,
        populate: usize,
        what: &str,
    ) -> Option<Result<FrameMap>> {
        let left = self.len?.checked_sub(self.pos)?;
        if !self.mappable || (n as u64) > left {
            return None;
        }
        let Input::File(file) = self.reader.get_ref() else {
            return None;
        };
        let map = match FrameMap::new(file, self.pos, n, populate) {
            Ok(m) => m,
            Err(MapFailure::Refused) => {
                self.mappable = false;
                return None;
            }
            Err(MapFailure::Cut) => {
                return Some(Err(Error::io(
                    &self.name,
                    format!(
                        "{what} at byte {}: the file was cut short while being read (it is \
                         shorter than when it was opened)",
                        self.pos
                    ),
                )))
            }
        };
        let step = i64::try_from(n).expect("a mapped length fits in i64");
        if let Err(e) = self.reader.seek_relative(step) {
            return Some(Err(Error::io(
                &self.name,
                format!("{what}: seek failed at byte {}: {e}", self.pos),
            )));
        }
        self.pos += n as u64;
        Some(Ok(map))
    }

    /// Fills `buf` as far as the file allows; returns how many bytes it read (less than
    /// `buf.len()` only at the end of the file). `what` says what was being read.
    pub(crate) fn read_full(&mut self, buf: &mut [u8], what: &str) -> Result<usize> {
        let mut got = 0;
        while got < buf.len() {
            match self.reader.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => {
                    got += n;
                    self.pos += n as u64;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Error::io(
                        &self.name,
                        format!("{what}: read failed at byte {}: {e}", self.pos),
                    ))
                }
            }
        }
        Ok(got)
    }

    /// Fills the buffers of `bufs` one after the other as [`Self::read_full`] fills one, by
    /// vectored reads straight into them once the read buffer is drained (no copy through
    /// it); returns how many bytes it read (less than their total only at the end of the
    /// file).
    pub(crate) fn read_full_vectored(
        &mut self,
        bufs: &mut [&mut [u8]],
        what: &str,
    ) -> Result<usize> {
        /// At most this many buffers a call (POSIX's IOV_MAX on Linux).
        const MAX_BUFS: usize = 1024;
        let total: usize = bufs.iter().map(|b| b.len()).sum();
        let mut slices: Vec<IoSliceMut<'_>> = bufs.iter_mut().map(|b| IoSliceMut::new(b)).collect();
        let mut rest = &mut slices[..];
        let mut got = 0;
        while got < total {
            let n = rest.len().min(MAX_BUFS);
            let read = if self.reader.buffer().is_empty() {
                self.reader.get_mut().read_vectored(&mut rest[..n])
            } else {
                self.reader.read_vectored(&mut rest[..n])
            };
            match read {
                Ok(0) => break,
                Ok(n) => {
                    got += n;
                    self.pos += n as u64;
                    IoSliceMut::advance_slices(&mut rest, n);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Error::io(
                        &self.name,
                        format!("{what}: read failed at byte {}: {e}", self.pos),
                    ))
                }
            }
        }
        Ok(got)
    }

    /// Reads up to and including the next `\n`, reading at most `max` bytes. Returns the
    /// bytes read (with the newline if one was found within `max`).
    pub(crate) fn read_line(&mut self, max: usize, what: &str) -> Result<Vec<u8>> {
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        while line.len() < max {
            if self.read_full(&mut byte, what)? == 0 {
                break;
            }
            line.push(byte[0]);
            if byte[0] == b'\n' {
                break;
            }
        }
        Ok(line)
    }

    /// Looks at the next bytes without consuming them (at most the buffer's size).
    pub(crate) fn peek(&mut self, n: usize, what: &str) -> Result<Vec<u8>> {
        use std::io::BufRead;
        loop {
            match self.reader.fill_buf() {
                Ok(b) => return Ok(b[..b.len().min(n)].to_vec()),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Error::io(
                        &self.name,
                        format!("{what}: read failed at byte {}: {e}", self.pos),
                    ))
                }
            }
        }
    }

    /// Moves `n` bytes forward without reading them where the file is seekable; returns how
    /// many bytes were passed over (less than `n` only at the end of the file).
    pub(crate) fn skip(&mut self, n: u64, what: &str) -> Result<u64> {
        if let Some(len) = self.len {
            let step = n.min(len.saturating_sub(self.pos));
            let offset = i64::try_from(step).map_err(|_| {
                Error::io(&self.name, format!("{what}: skip of {n} bytes too large"))
            })?;
            self.reader.seek_relative(offset).map_err(|e| {
                Error::io(
                    &self.name,
                    format!("{what}: seek failed at byte {}: {e}", self.pos),
                )
            })?;
            self.pos += step;
            return Ok(step);
        }
        let mut scratch = vec![0u8; BUF_SIZE];
        let mut done = 0u64;
        while done < n {
            let want = (n - done).min(BUF_SIZE as u64) as usize;
            let got = self.read_full(&mut scratch[..want], what)?;
            done += got as u64;
            if got < want {
                break;
            }
        }
        Ok(done)
    }
}

/// Bytes as printable text for a message: ASCII kept, the rest escaped.
pub(crate) fn quote(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}
