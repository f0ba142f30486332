//! Frame pools: frames of one geometry allocated once and reused (ADR-1929 item 11).
//!
//! A pooled frame is an ordinary [`Frame`] whose release hook hands its planes back to the
//! pool where its last count drops, in whichever context or caller drops it; its release
//! fence is signalled there too. The hook holds the pool's shared state, so dropping the
//! [`FramePool`] handle while frames are out frees nothing they use: the state goes when
//! the last frame has returned. An empty pool is `Busy` (transient), never a wait.

use std::sync::{Arc, Mutex};

use super::{plane_sizes, validate_geometry, Frame, FrameBuilder, MemoryKind, PixelFormat, Plane};
use crate::error::{Error, Result, Status};

/// Most frames one pool holds.
pub const MAX_POOL_FRAMES: u32 = 1024;

#[derive(Debug)]
struct PoolState {
    format: PixelFormat,
    bpc: u32,
    width: u32,
    height: u32,
    count: u32,
    free: Mutex<Vec<Vec<Plane>>>,
}

impl PoolState {
    fn give_back(&self, planes: Vec<Plane>) {
        self.free
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(planes);
    }
}

/// A pool of frames; `Clone` shares it.
#[derive(Debug, Clone)]
pub struct FramePool {
    state: Arc<PoolState>,
}

impl FramePool {
    /// `count` zeroed frames of the given geometry (planar formats only).
    pub fn new(format: PixelFormat, bpc: u32, width: u32, height: u32, count: u32) -> Result<Self> {
        check_count(count)?;
        validate_geometry(format, bpc, width, height)?;
        let sets = (0..count)
            .map(|_| {
                plane_sizes(format, width, height)
                    .into_iter()
                    .map(|(w, h)| Plane::zeroed(w, h, bpc > 8))
                    .collect()
            })
            .collect();
        Self::with_planes(format, bpc, width, height, sets)
    }

    /// A pool over plane sets the caller made (one set per frame), for example planes in
    /// memory a foreign caller writes. Each set is checked as a frame of this geometry.
    pub fn with_planes(
        format: PixelFormat,
        bpc: u32,
        width: u32,
        height: u32,
        sets: Vec<Vec<Plane>>,
    ) -> Result<Self> {
        let count = u32::try_from(sets.len()).unwrap_or(u32::MAX);
        check_count(count)?;
        for set in &sets {
            FrameBuilder::from_planes(format, bpc, width, height, MemoryKind::Host, set.clone())?;
        }
        Ok(FramePool {
            state: Arc::new(PoolState {
                format,
                bpc,
                width,
                height,
                count,
                free: Mutex::new(sets),
            }),
        })
    }

    /// A free frame, with one count the caller holds; its planes keep their last content.
    /// `Busy` naming `pool` when every frame is in use.
    pub fn acquire(&self) -> Result<Frame> {
        let planes = self
            .state
            .free
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop()
            .ok_or_else(|| {
                Error::new(
                    Status::Busy,
                    "pool",
                    format!("all {} frames are in use", self.state.count),
                )
            })?;
        let s = &self.state;
        let back = self.state.clone();
        let builder = FrameBuilder::from_planes(
            s.format,
            s.bpc,
            s.width,
            s.height,
            MemoryKind::Host,
            planes,
        )?;
        Ok(builder
            .on_release(Box::new(move |planes| back.give_back(planes)))
            .build())
    }

    /// Frames the pool holds in all.
    pub fn capacity(&self) -> u32 {
        self.state.count
    }

    /// Frames free now.
    pub fn available(&self) -> usize {
        self.state
            .free
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
    }

    /// The pool's format, depth, width and height.
    pub fn geometry(&self) -> (PixelFormat, u32, u32, u32) {
        let s = &self.state;
        (s.format, s.bpc, s.width, s.height)
    }
}

fn check_count(count: u32) -> Result<()> {
    if count == 0 || count > MAX_POOL_FRAMES {
        return Err(Error::range(
            "count",
            format!("{count} frames is outside 1..={MAX_POOL_FRAMES}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Samples;

    fn first_sample_addr(f: &Frame) -> usize {
        match f.plane(0).samples() {
            Samples::U8(s) => s.as_ptr() as usize,
            Samples::U16(s) => s.as_ptr() as usize,
        }
    }

    #[test]
    fn exhaustion_is_busy_and_a_return_refills() {
        let pool = FramePool::new(PixelFormat::Yuv420p, 10, 16, 8, 2).unwrap();
        let a = pool.acquire().unwrap();
        let b = pool.acquire().unwrap();
        let e = pool.acquire().unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::Busy, "pool"));
        let addr = first_sample_addr(&a);
        let fence = a.release_fence();
        let reader = a.clone();
        drop(a);
        assert!(!fence.is_signalled() && pool.available() == 0);
        drop(reader);
        assert!(fence.is_signalled() && pool.available() == 1);
        let again = pool.acquire().unwrap();
        assert_eq!(first_sample_addr(&again), addr, "the same planes come back");
        drop((b, again));
        assert_eq!(pool.available(), 2);
    }

    #[test]
    fn destroying_the_pool_keeps_frames_in_use() {
        let pool = FramePool::new(PixelFormat::Yuv444p, 8, 4, 4, 1).unwrap();
        let f = pool.acquire().unwrap();
        let fence = f.release_fence();
        drop(pool);
        assert_eq!(f.plane(2).get(3, 3), 0);
        drop(f);
        assert!(fence.is_signalled());
    }

    #[test]
    fn refusals_name_the_parameter() {
        for count in [0, MAX_POOL_FRAMES + 1] {
            let e = FramePool::new(PixelFormat::Yuv420p, 8, 4, 4, count).unwrap_err();
            assert_eq!((e.status(), e.subject()), (Status::Range, "count"));
        }
        let e = FramePool::new(PixelFormat::Nv12, 8, 4, 4, 2).unwrap_err();
        assert_eq!(e.subject(), "pixel format");
    }
}
