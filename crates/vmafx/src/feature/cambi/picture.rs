//! The picture CAMBI works on at every step: 10-bit samples or a 0/1 mask.

/// A 10-bit (or 0/1 mask) picture, rows packed from the start of `data`, which may hold
/// more (a reused buffer keeps its largest length, so that shrinking and growing it again
/// never clears it).
#[derive(Debug, Clone)]
pub(crate) struct Picture {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) data: Vec<u16>,
}

impl Picture {
    pub(super) fn new(width: usize, height: usize) -> Self {
        Picture {
            width,
            height,
            data: vec![0; width * height],
        }
    }

    /// Makes this a `width` x `height` picture; its samples are left as they were (the
    /// callers write every one).
    pub(super) fn resize(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        if self.data.len() < width * height {
            self.data.resize(width * height, 0);
        }
    }

    /// The samples, rows packed.
    #[cfg(test)]
    pub(super) fn pixels(&self) -> &[u16] {
        &self.data[..self.width * self.height]
    }

    pub(super) fn row(&self, y: usize) -> &[u16] {
        &self.data[y * self.width..(y + 1) * self.width]
    }

    pub(super) fn row_mut(&mut self, y: usize) -> &mut [u16] {
        &mut self.data[y * self.width..(y + 1) * self.width]
    }
}
