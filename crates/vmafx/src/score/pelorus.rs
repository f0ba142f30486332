//! The Pelorus interop blob a pre-processor attaches to a frame (VMAFx's ADR-1113 / ADR-1118
//! side data) and the perceptual salience VMAFx derives from it.
//!
//! The blob is the payload of an unregistered-user-data SEI: a 16-byte UUID, then a flat
//! little-endian image: a 48-byte header (magic `PELOR1\0\0`, `abi_major` 1, `total_size`,
//! `section_mask`, `section_count`, `header_size`, the cell grid), a directory of 16-byte
//! entries (section id, offset, size, minor) and the sections at 8-aligned offsets. Offsets
//! are relative to the magic; per-cell maps may follow `total_size` (producers append them
//! after packing), so they are bounded by the bytes received.
//!
//! [`parse`] reads only the sections the salience needs (banding, variance, complexity),
//! never allocates, and refuses a malformed blob with an error naming the field
//! (`data.total_size`, `data.dir[1].offset`, `data.banding.cell_data_size`, ...). [`salience`]
//! is VMAFx's formula: the banding risk (mean of the per-cell map, else the frame scalars),
//! lifted on flat frames by the variance, lowered on complex ones, clamped to [0, 1].

use crate::error::{Error, Result, Status};

/// The UUID prefixing a Pelorus blob: e1d7c4a2-6b93-4f08-9a55-0f3c2db17e64.
pub const UUID: [u8; 16] = [
    0xe1, 0xd7, 0xc4, 0xa2, 0x6b, 0x93, 0x4f, 0x08, 0x9a, 0x55, 0x0f, 0x3c, 0x2d, 0xb1, 0x7e, 0x64,
];
/// The magic opening the image after the UUID.
pub const MAGIC: [u8; 8] = *b"PELOR1\0\0";
/// The layout major version this reader understands.
pub const ABI_MAJOR: u16 = 1;
/// Bytes of the header the reader knows.
pub const HEADER_SIZE: usize = 48;
/// Bytes of one directory entry.
pub const DIR_ENTRY_SIZE: usize = 16;
/// Section id of the banding summary.
pub const SEC_BANDING: u32 = 1 << 0;
/// Section id of the variance summary.
pub const SEC_VARIANCE: u32 = 1 << 1;
/// Section id of the frame complexity (ABI 1.3).
pub const SEC_COMPLEXITY: u32 = 1 << 7;

/// The banding section's fields the salience reads.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Banding {
    /// Frame-level banding risk, 0 to 1.
    pub global_banding_risk: f32,
    /// Fraction of the frame in flat regions.
    pub flat_area_fraction: f32,
    /// Mean of the per-cell risk map (bytes / 255), when the grid and the map are present.
    pub cell_mean: Option<f64>,
}

/// The variance section's fields the salience reads.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Variance {
    /// Frame-level spatial activity, 0 to 1.
    pub global_variance: f32,
    /// Mean of the per-cell variance map (each clamped to [0, 1]), when present.
    pub cell_mean: Option<f64>,
}

/// What a Pelorus blob says about its frame, as far as the salience needs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    /// The banding section, if the blob has one.
    pub banding: Option<Banding>,
    /// The variance section, if the blob has one.
    pub variance: Option<Variance>,
    /// The complexity section's `complexity`, if the blob has one.
    pub complexity: Option<f32>,
}

/// The image after the UUID: the bytes received, and the header fields that frame them.
struct Image<'a> {
    bytes: &'a [u8],
    n_cells: u64,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(b, at))
}

fn invalid(field: &str, message: String) -> Error {
    Error::invalid(format!("data.{field}"), message)
}

/// Parses a UUID-prefixed Pelorus blob. A buffer without the Pelorus UUID is `NotFound`
/// naming `data` (not a Pelorus blob); another layout major is `Abi` naming
/// `data.abi_major`; any other inconsistency is `Invalid` naming the field.
pub fn parse(blob: &[u8]) -> Result<Summary> {
    if blob.len() < UUID.len() || blob[..UUID.len()] != UUID {
        return Err(Error::not_found(
            "data",
            format!(
                "{} bytes without the Pelorus side-data UUID: not a Pelorus blob",
                blob.len()
            ),
        ));
    }
    let bytes = &blob[UUID.len()..];
    if bytes.len() < HEADER_SIZE {
        return Err(invalid(
            "header",
            format!(
                "{} bytes after the UUID, fewer than the {HEADER_SIZE}-byte header",
                bytes.len()
            ),
        ));
    }
    if bytes[..8] != MAGIC {
        return Err(invalid("magic", "not PELOR1 after the UUID".into()));
    }
    let major = u16_at(bytes, 8);
    if major != ABI_MAJOR {
        return Err(Error::new(
            Status::Abi,
            "data.abi_major",
            format!("Pelorus layout {major}; this reader reads layout {ABI_MAJOR}"),
        ));
    }
    let len = bytes.len() as u64;
    let total_size = u64::from(u32_at(bytes, 12));
    let mask = u32_at(bytes, 16);
    let count = usize::from(u16_at(bytes, 20));
    let header_size = usize::from(u16_at(bytes, 22));
    if header_size < HEADER_SIZE || header_size % 8 != 0 {
        return Err(invalid(
            "header_size",
            format!("{header_size}: not a multiple of 8 of at least {HEADER_SIZE}"),
        ));
    }
    let dir_end = (header_size + count * DIR_ENTRY_SIZE) as u64;
    if total_size > len {
        return Err(invalid(
            "total_size",
            format!("{total_size} bytes, more than the {len} received after the UUID"),
        ));
    }
    if dir_end > total_size {
        return Err(invalid(
            "section_count",
            format!(
                "{count} directory entries end at byte {dir_end}, past total_size {total_size}"
            ),
        ));
    }
    let grid = u64::from(u16_at(bytes, 34)) * u64::from(u16_at(bytes, 36));
    let image = Image {
        bytes,
        n_cells: grid,
    };
    let mut seen = 0u32;
    let mut summary = Summary::default();
    for i in 0..count {
        let at = header_size + i * DIR_ENTRY_SIZE;
        let (id, offset, size) = (
            u32_at(bytes, at),
            u64::from(u32_at(bytes, at + 4)),
            u64::from(u32_at(bytes, at + 8)),
        );
        if id.count_ones() != 1 {
            return Err(invalid(
                &format!("dir[{i}].section_id"),
                format!("{id:#x} is not one section bit"),
            ));
        }
        if seen & id != 0 {
            return Err(invalid(
                &format!("dir[{i}].section_id"),
                format!("section {id:#x} listed twice"),
            ));
        }
        seen |= id;
        if offset % 8 != 0 || offset < dir_end {
            return Err(invalid(
                &format!("dir[{i}].offset"),
                format!("{offset}: not 8-aligned past the directory (which ends at {dir_end})"),
            ));
        }
        if offset + size > len {
            return Err(invalid(
                &format!("dir[{i}].size"),
                format!("section {id:#x} of {size} bytes at {offset} ends past the {len} received"),
            ));
        }
        let body = &bytes[offset as usize..(offset + size) as usize];
        match id {
            SEC_BANDING => summary.banding = Some(image.banding(body)?),
            SEC_VARIANCE => summary.variance = Some(image.variance(body)?),
            SEC_COMPLEXITY => summary.complexity = Some(f32_at(&known::<16>(body), 0)),
            _ => {}
        }
    }
    if seen != mask {
        return Err(invalid(
            "section_mask",
            format!("{mask:#x}, but the directory lists sections {seen:#x}"),
        ));
    }
    Ok(summary)
}

/// The first `N` bytes of a section (a shorter section, from an older producer, reads as
/// zeros past its end; a longer one's tail is a newer producer's and is ignored).
fn known<const N: usize>(body: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let n = body.len().min(N);
    out[..n].copy_from_slice(&body[..n]);
    out
}

impl Image<'_> {
    /// The bytes of a per-cell map of `elem` bytes per cell at `offset`/`size` (section
    /// field names `what`), or `None` when the grid is empty or the map absent (0 offset
    /// or size).
    fn map(&self, what: &str, offset: u32, size: u32, elem: u64) -> Result<Option<&[u8]>> {
        if self.n_cells == 0 || offset == 0 || size == 0 {
            return Ok(None);
        }
        let (offset, size) = (u64::from(offset), u64::from(size));
        let len = self.bytes.len() as u64;
        if offset + size > len {
            return Err(invalid(
                &format!("{what}_size"),
                format!("the map of {size} bytes at {offset} ends past the {len} received"),
            ));
        }
        let need = self.n_cells * elem;
        if size < need {
            return Err(invalid(
                &format!("{what}_size"),
                format!(
                    "{size} bytes, fewer than {need} for the grid's {} cells",
                    self.n_cells
                ),
            ));
        }
        Ok(Some(&self.bytes[offset as usize..(offset + need) as usize]))
    }

    fn banding(&self, body: &[u8]) -> Result<Banding> {
        let b = known::<24>(body);
        let map = self.map("banding.cell_data", u32_at(&b, 8), u32_at(&b, 12), 1)?;
        let cell_mean = map.map(|cells| {
            let sum: u64 = cells.iter().map(|&c| u64::from(c)).sum();
            sum as f64 / (self.n_cells as f64 * 255.0)
        });
        Ok(Banding {
            global_banding_risk: f32_at(&b, 0),
            flat_area_fraction: f32_at(&b, 4),
            cell_mean,
        })
    }

    fn variance(&self, body: &[u8]) -> Result<Variance> {
        let b = known::<28>(body);
        let map = self.map("variance.var_cell", u32_at(&b, 12), u32_at(&b, 16), 4)?;
        let cell_mean = map.map(|cells| {
            let sum = cells
                .chunks_exact(4)
                .fold(0.0f64, |acc, c| acc + f64::from(unit(f32_at(c, 0))));
            sum / self.n_cells as f64
        });
        Ok(Variance {
            global_variance: f32_at(&b, 0),
            cell_mean,
        })
    }
}

/// `v` clamped to [0, 1], NaN read as 0.
fn unit(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

/// VMAFx's frame salience, in [0, 1], from a blob's summary: 0 without a banding section.
pub fn salience(s: &Summary) -> f64 {
    let Some(b) = s.banding else {
        return 0.0;
    };
    let banding = b.cell_mean.unwrap_or_else(|| {
        let risk = f64::from(unit(b.global_banding_risk));
        let flat = f64::from(unit(b.flat_area_fraction));
        0.75 * risk + 0.25 * (risk * flat)
    });
    let mut out = banding;
    if let Some(v) = s.variance {
        let activity = v
            .cell_mean
            .unwrap_or_else(|| f64::from(unit(v.global_variance)));
        let flatness = 1.0 - activity;
        out *= 0.75 + 0.5 * flatness;
    }
    if let Some(c) = s.complexity {
        let factor = 1.0 - 0.5 * f64::from(unit(c));
        out *= factor.clamp(0.25, 1.0);
    }
    if out.is_nan() {
        return 0.0;
    }
    out.clamp(0.0, 1.0)
}

#[cfg(test)]
#[path = "pelorus_tests.rs"]
mod tests;
