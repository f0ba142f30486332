//! Frames of regular files bound in place: each frame's bytes mapped read-only, no copy.
//!
//! Where a y4m or raw yuv input is a regular file (Unix), a frame's samples are planes
//! over a read-only map of its bytes ([`crate::frame::ForeignPlane`]) instead of bytes
//! copied out of the page cache into planes of our own: reading a 1080p frame costs a
//! few system calls rather than a 3 MB copy. Streams and pipes, and a frame whose 16-bit
//! samples lie at an odd offset, are read with `read(2)` as before.
//!
//! Each frame has a map of its own, made when it is read and unmapped where its last
//! count drops, so resident memory follows the frames in flight exactly as with frames
//! read into buffers (a map of the whole file would keep every page it ever touched).
//! [`FrameMap::new`] maps the pages of the frame's first plane in at once
//! (`MADV_POPULATE_READ`, Linux 5.14; on older kernels they fault in where first read):
//! the luma, which every feature reads. The chroma's pages fault in only where a feature
//! reads them, so scoring luma features alone (the VMAF models) never pays for mapping
//! them in and out (about 1.5% of a 1080p 4:2:0 run's processor time).
//!
//! What a map cannot promise: a file cut short by another program while it is scored. A
//! cut noticed when a frame is mapped in is an `Io` error naming the frame; a cut under a
//! frame already handed out kills the process with `SIGBUS`. `VMAFX_NO_MMAP=1` in the
//! environment reads every file with `read(2)`.

use std::fs::File;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// The environment variable that turns maps off: any value but empty or `0`.
pub(crate) const NO_MMAP_ENV: &str = "VMAFX_NO_MMAP";

/// Whether files may be mapped: on Unix, unless [`NO_MMAP_ENV`] says no.
pub(crate) fn allowed() -> bool {
    cfg!(unix) && std::env::var_os(NO_MMAP_ENV).is_none_or(|v| v.is_empty() || v == "0")
}

/// Why a frame could not be mapped.
#[derive(Debug)]
pub(crate) enum MapFailure {
    /// The system refused the map (address space, limits): read the frame instead.
    Refused,
    /// The bytes are not in the file any more: it was cut short since it was opened.
    Cut,
}

/// The bytes of one frame, mapped read-only; unmapped when dropped.
#[derive(Debug)]
pub(crate) struct FrameMap {
    /// The map's first byte (a page boundary at or before the frame's first byte).
    base: *mut u8,
    /// Bytes mapped from `base`.
    mapped: usize,
    /// Offset of the frame's first byte from `base`.
    lead: usize,
}

// SAFETY: the map is read-only and owned by this value (unmapped in its drop only); reads
// from several threads are reads of shared immutable memory.
unsafe impl Send for FrameMap {}
// SAFETY: as above: nothing writes through `base`.
unsafe impl Sync for FrameMap {}

/// The system's page size (4096 where it cannot be asked).
#[cfg(unix)]
fn page_size() -> usize {
    // SAFETY: sysconf takes no pointer and has no precondition.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 {
        n as usize
    } else {
        4096
    }
}

impl FrameMap {
    /// Maps `len` bytes of `file` from byte `offset` and maps the pages of the first
    /// `populate` of them in.
    pub(crate) fn new(
        file: &File,
        offset: u64,
        len: usize,
        populate: usize,
    ) -> Result<FrameMap, MapFailure> {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            if len == 0 {
                return Err(MapFailure::Refused);
            }
            unmap_retired();
            // The pages not mapped in at once are not checked by that: the file must
            // still hold every byte of the map.
            let end = offset.checked_add(len as u64).ok_or(MapFailure::Refused)?;
            if file.metadata().is_ok_and(|m| m.len() < end) {
                return Err(MapFailure::Cut);
            }
            let page = page_size() as u64;
            let start = offset / page * page;
            let lead = (offset - start) as usize;
            let mapped = lead.checked_add(len).ok_or(MapFailure::Refused)?;
            let at = libc::off_t::try_from(start).map_err(|_| MapFailure::Refused)?;
            // SAFETY: a fresh read-only shared map of an open descriptor at a page-aligned
            // offset; the kernel picks the address, and the result is checked before use.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    mapped,
                    libc::PROT_READ,
                    libc::MAP_SHARED,
                    file.as_raw_fd(),
                    at,
                )
            };
            if base == libc::MAP_FAILED {
                return Err(MapFailure::Refused);
            }
            let map = FrameMap {
                base: base.cast(),
                mapped,
                lead,
            };
            if !map.populate(lead.saturating_add(populate).min(mapped)) {
                return Err(MapFailure::Cut);
            }
            Ok(map)
        }
        #[cfg(not(unix))]
        {
            let _ = (file, offset, len, populate);
            Err(MapFailure::Refused)
        }
    }

    /// Maps the pages of the first `bytes` of the map in at once. `false` where the system
    /// says they cannot be read (the file is shorter than the map); `true` otherwise, also
    /// where the kernel has no such call (the pages then fault in where read).
    fn populate(&self, bytes: usize) -> bool {
        #[cfg(target_os = "linux")]
        {
            /// `MADV_POPULATE_READ` (Linux 5.14), which the libc crate does not name yet.
            const MADV_POPULATE_READ: libc::c_int = 22;
            // SAFETY: the whole map `new` made; the call writes nothing.
            let r = unsafe { libc::madvise(self.base.cast(), bytes, MADV_POPULATE_READ) };
            if r != 0 {
                let e = std::io::Error::last_os_error().raw_os_error();
                return e != Some(libc::EFAULT);
            }
        }
        true
    }

    /// The address of byte `offset` of the frame.
    pub(crate) fn at(&self, offset: usize) -> *const u8 {
        debug_assert!(self.lead + offset <= self.mapped);
        self.base.wrapping_add(self.lead + offset)
    }
}

impl Drop for FrameMap {
    fn drop(&mut self) {
        // Unmapping costs the thread that does it the kernel's page-table work and the
        // other processors' TLB flushes: a map dropped by a scoring thread while a source
        // is open is left to the reading thread, which unmaps it at its next frame.
        let retire = READERS.load(Ordering::Acquire) > 0;
        if retire {
            let mut retired = RETIRED.lock().unwrap_or_else(PoisonError::into_inner);
            retired.push((self.base as usize, self.mapped));
            if retired.len() < RETIRED_LIMIT {
                return;
            }
            drop(retired);
            unmap_retired();
        } else {
            unmap(self.base as usize, self.mapped);
        }
    }
}

/// Maps dropped while a source was open, not yet unmapped: (address, length).
static RETIRED: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// Retired maps at which the dropping thread unmaps them all itself.
const RETIRED_LIMIT: usize = 16;

/// Open sources that may map frames (see [`Reading`]).
static READERS: AtomicUsize = AtomicUsize::new(0);

/// Held by each open source that maps frames; while any is held, dropped maps wait for
/// [`unmap_retired`] (called by [`FrameMap::new`] and when the last one goes).
#[derive(Debug)]
pub(crate) struct Reading(());

impl Reading {
    /// Counts one more open source.
    pub(crate) fn start() -> Reading {
        READERS.fetch_add(1, Ordering::AcqRel);
        Reading(())
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        READERS.fetch_sub(1, Ordering::AcqRel);
        unmap_retired();
    }
}

/// Unmaps every retired map.
pub(crate) fn unmap_retired() {
    let maps = std::mem::take(&mut *RETIRED.lock().unwrap_or_else(PoisonError::into_inner));
    for (base, len) in maps {
        unmap(base, len);
    }
}

/// Unmaps `len` bytes from `base`, a map [`FrameMap::new`] made and nothing reads any more.
fn unmap(base: usize, len: usize) {
    #[cfg(unix)]
    // SAFETY: `base` and `len` are a map `new` made, handed here once by its `FrameMap`'s
    // drop; nothing borrows it any more (every plane over it held an `Arc` of that value).
    unsafe {
        libc::munmap(base as *mut libc::c_void, len);
    }
    #[cfg(not(unix))]
    let _ = (base, len);
}
