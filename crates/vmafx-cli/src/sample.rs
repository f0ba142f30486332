//! `vmafx sample`: a small deterministic pair to score without any other file.
//!
//! The reference is a synthetic scene (gradients and a moving textured disc) with 4:2:0
//! chroma; the distorted copy is the same scene box-blurred and with a fixed pseudo-random
//! noise, so its VMAF is well below 100 and stable across runs and machines.

use std::io::Write;
use std::path::{Path, PathBuf};

fn scene(w: u32, h: u32, t: u32) -> Vec<u8> {
    let mut y = vec![0u8; (w * h) as usize];
    let (cx, cy) = ((w / 4 + t * 3) % w, h / 2);
    let r = (h / 4).max(2);
    for j in 0..h {
        for i in 0..w {
            let base = ((i * 255 / w.max(1)) / 2 + (j * 255 / h.max(1)) / 4) as i32;
            let (dx, dy) = (i as i32 - cx as i32, j as i32 - cy as i32);
            let v = if dx * dx + dy * dy < (r * r) as i32 {
                // A checker texture inside the disc gives VIF and ADM detail to lose.
                if ((i / 3) + (j / 3)) % 2 == 0 {
                    220
                } else {
                    40
                }
            } else {
                base + ((i + t) % 16) as i32
            };
            y[(j * w + i) as usize] = v.clamp(16, 235) as u8;
        }
    }
    y
}

fn distort(src: &[u8], w: u32, h: u32, t: u32) -> Vec<u8> {
    let mut out = vec![0u8; src.len()];
    let mut state = 0x9e37_79b9u32 ^ t;
    for j in 0..h as i32 {
        for i in 0..w as i32 {
            let mut sum = 0u32;
            for (dj, di) in [
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 0),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ] {
                let (x, yy) = (
                    (i + di).clamp(0, w as i32 - 1),
                    (j + dj).clamp(0, h as i32 - 1),
                );
                sum += src[(yy as u32 * w + x as u32) as usize] as u32;
            }
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let noise = (state % 9) as i32 - 4;
            out[(j as u32 * w + i as u32) as usize] =
                ((sum / 9) as i32 + noise).clamp(0, 255) as u8;
        }
    }
    out
}

/// Writes the pair and returns the two paths.
pub fn write_sample(
    dir: &Path,
    w: u32,
    h: u32,
    frames: u32,
) -> std::io::Result<(PathBuf, PathBuf)> {
    if w < 16
        || h < 16
        || w % 2 == 1
        || h % 2 == 1
        || w > 4096
        || h > 4096
        || frames == 0
        || frames > 10_000
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "sample size must be even, 16..=4096 pixels, and 1..=10000 frames",
        ));
    }
    std::fs::create_dir_all(dir)?;
    let rp = dir.join("sample_ref.y4m");
    let dp = dir.join("sample_dis.y4m");
    let mut rf = std::io::BufWriter::new(std::fs::File::create(&rp)?);
    let mut df = std::io::BufWriter::new(std::fs::File::create(&dp)?);
    let header = format!("YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420mpeg2\n");
    rf.write_all(header.as_bytes())?;
    df.write_all(header.as_bytes())?;
    let chroma = vec![128u8; ((w / 2) * (h / 2) * 2) as usize];
    for t in 0..frames {
        let r = scene(w, h, t);
        let d = distort(&r, w, h, t);
        for (f, y) in [(&mut rf, &r), (&mut df, &d)] {
            f.write_all(b"FRAME\n")?;
            f.write_all(y)?;
            f.write_all(&chroma)?;
        }
    }
    rf.flush()?;
    df.flush()?;
    Ok((rp, dp))
}
