//! Band buffers: one DWT level of a picture, and the decoupled and weighted bands.

/// The four subbands of one DWT level, row-major with a shared stride.
#[derive(Debug, Clone, Default)]
pub(super) struct Bands<T> {
    /// Low-pass both ways (the next level's input).
    pub a: Vec<T>,
    /// Detail bands in libvmaf's orientation order: horizontal (high-pass vertical),
    /// vertical (high-pass horizontal), diagonal.
    pub hvd: [Vec<T>; 3],
}

impl<T: Copy + Default> Bands<T> {
    /// Zeroed bands of `len` samples each.
    pub(super) fn zeroed(len: usize) -> Self {
        Bands {
            a: vec![T::default(); len],
            hvd: std::array::from_fn(|_| vec![T::default(); len]),
        }
    }
}

impl<T> Bands<T> {
    /// The four band rows (a, v, h, d) of `n` values from sample `at`: the order the DWT
    /// kernels write them in (`hvd` holds h, v, d).
    pub(super) fn rows_mut(&mut self, at: usize, n: usize) -> [&mut [T]; 4] {
        let [h, v, d] = &mut self.hvd;
        [
            &mut self.a[at..at + n],
            &mut v[at..at + n],
            &mut h[at..at + n],
            &mut d[at..at + n],
        ]
    }
}

/// Three zeroed orientation bands (h, v, d) of `len` samples each.
pub(super) fn zeroed_hvd<T: Copy + Default>(len: usize) -> [Vec<T>; 3] {
    std::array::from_fn(|_| vec![T::default(); len])
}
