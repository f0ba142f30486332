//! Reader tests: the conformance corpus, synthetic files of every layout, and every error.

mod corpus;
mod errors;
mod synthetic;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::frame::Frame;

/// A temporary folder, removed with its files when dropped.
pub(super) struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// A new, empty folder under the system's temp dir, unique to this process and call.
    pub(super) fn new(tag: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("vmafx-io-{}-{n}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch { dir }
    }

    /// Writes `bytes` to `name` in the folder; returns its path.
    pub(super) fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    /// A path in the folder that does not exist.
    pub(super) fn missing(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A y4m file: `header` (without magic or newline) then each payload after `FRAME\n`.
pub(super) fn y4m_file(header: &str, payloads: &[Vec<u8>]) -> Vec<u8> {
    let mut v = format!("YUV4MPEG2 {header}\n").into_bytes();
    for p in payloads {
        v.extend_from_slice(b"FRAME\n");
        v.extend_from_slice(p);
    }
    v
}

/// `None` where `a` and `b` hold the same geometry and samples; otherwise where they differ.
pub(super) fn first_difference(a: &Frame, b: &Frame) -> Option<String> {
    if !a.same_geometry(b) {
        return Some(format!("geometry {a:?} vs {b:?}"));
    }
    for (i, (pa, pb)) in a.planes().iter().zip(b.planes()).enumerate() {
        if (pa.width, pa.height) != (pb.width, pb.height) {
            return Some(format!(
                "plane {i}: {}x{} vs {}x{}",
                pa.width, pa.height, pb.width, pb.height
            ));
        }
        for y in 0..pa.height {
            for x in 0..pa.width {
                let (va, vb) = (pa.get(x, y), pb.get(x, y));
                if va != vb {
                    return Some(format!("plane {i} at ({x}, {y}): {va} vs {vb}"));
                }
            }
        }
    }
    None
}

/// The file name of `p`, as error messages are checked for it.
pub(super) fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}
