//! CAMBI's optional heatmaps: per scale, one raw file of 16-bit little-endian samples,
//! frames stacked, each c-value scaled so that the largest possible one maps to 65535.

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::pooling::NUM_SCALES;
use crate::error::{Error, Result};

/// The open heatmap files of one extractor.
#[derive(Debug)]
pub(super) struct Heatmaps {
    files: Vec<(PathBuf, File)>,
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::io(path.display().to_string(), format!("cambi heatmap: {e}"))
}

impl Heatmaps {
    /// Creates `dir` (mode 0770 where that applies) and one file per scale, named with the
    /// sizes libvmaf gives them: the encoding size halved (rounding up) per scale.
    pub(super) fn create(dir: &str, width: usize, height: usize) -> Result<Self> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o770);
        builder
            .create(dir)
            .map_err(|e| io_error(Path::new(dir), e))?;
        let (mut w, mut h) = (width, height);
        let mut files = Vec::with_capacity(NUM_SCALES);
        for scale in 0..NUM_SCALES {
            let path = Path::new(dir).join(format!("cambi_heatmap_scale_{scale}_{w}x{h}_16b.gray"));
            let file = File::create(&path).map_err(|e| io_error(&path, e))?;
            files.push((path, file));
            w = w.div_ceil(2);
            h = h.div_ceil(2);
        }
        Ok(Heatmaps { files })
    }

    /// Writes the c-values of `scale` (`width` x `height`) for `frame`, scaled by the largest
    /// c-value a window of `window` samples can give with weight `max_weight`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn write(
        &mut self,
        scale: usize,
        frame: u64,
        c_values: &[f32],
        width: usize,
        height: usize,
        window: usize,
        max_weight: i32,
    ) -> Result<()> {
        let max_c = (max_weight as i64 * window as i64 * window as i64 / 4).max(1);
        let scaling = 65535.0 / max_c as f64;
        let mut bytes = Vec::with_capacity(width * height * 2);
        for &c in &c_values[..width * height] {
            bytes.extend_from_slice(&((scaling * c as f64) as u16).to_le_bytes());
        }
        let (path, file) = &mut self.files[scale];
        let offset = frame * (width * height * 2) as u64;
        file.seek(SeekFrom::Start(offset))
            .and_then(|_| file.write_all(&bytes))
            .map_err(|e| io_error(path, e))
    }
}
