//! Writing a log so that a failure never leaves a cut file under its final name: the bytes
//! go to a temporary file in the same folder, which is renamed over the final name only
//! once everything is written and synced. Where the path is not a regular file (a device
//! such as `/dev/full`, a named pipe) there is nothing to rename, so it is written in place
//! and a failure is reported all the same.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// Writes `bytes` to `path` atomically where `path` is (or will be) a regular file; an
/// `Io` error naming the path otherwise, with no temporary file left behind.
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path.display().to_string();
    let fail = |what: &str, e: std::io::Error| Error::io(&name, format!("cannot {what}: {e}"));
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.is_dir() {
            return Err(Error::io(&name, "cannot write the log: is a directory"));
        }
        if !meta.is_file() {
            let mut f = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| fail("open it for writing", e))?;
            f.write_all(bytes)
                .and_then(|()| f.flush())
                .map_err(|e| fail("write the log", e))?;
            return Ok(());
        }
    }
    let tmp = temporary_beside(path);
    let written = (|| -> std::io::Result<()> {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_data()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail("write the log", e));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail("put the log in place", e)
    })?;
    // The new name's entry reaches the disk with its folder (best effort: not every
    // platform opens a folder for syncing).
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// A name beside `path` no other writer uses: hidden, with the process id and a counter.
fn temporary_beside(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let base = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "log".into());
    path.with_file_name(format!(".{base}.{}-{n}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("vmafx-atomic-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_log_replaces_the_old_file_whole_and_leaves_no_temporary() {
        let d = scratch("whole");
        let p = d.join("log.json");
        std::fs::write(&p, "old").unwrap();
        write_file_atomically(&p, b"new log").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new log");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_missing_folder_is_an_io_error_naming_the_path() {
        let p = Path::new("/nonexistent-vmafx-dir/log.xml");
        let e = write_file_atomically(p, b"x").unwrap_err();
        assert_eq!(e.status(), crate::error::Status::Io);
        assert!(
            e.to_string().contains("/nonexistent-vmafx-dir/log.xml"),
            "{e}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_device_fails_the_write() {
        let e = write_file_atomically(Path::new("/dev/full"), &[b'x'; 1 << 16]).unwrap_err();
        assert!(e.to_string().contains("/dev/full"), "{e}");
        assert!(e.to_string().to_lowercase().contains("space"), "{e}");
    }
}
