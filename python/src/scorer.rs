//! `vmafx.Scorer`: frames pushed as numpy planes, scored as they come.

use numpy::{PyArrayDyn, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use std::sync::Arc;

use vmafx::frame::{plane_sizes, ForeignPlane, Plane, PlaneStorage};
use vmafx::{Frame, FrameBuilder, MemoryKind, PixelFormat};

use crate::convert::{engine_err, scores_of, settings_from, ModelArg};
use crate::result::ScoreResult;

/// Scores frames pushed one pair at a time as numpy arrays.
///
/// `push(reference, distorted)` takes each picture as a tuple of three 2-D arrays
/// `(Y, U, V)` (4:2:0, 4:2:2 or 4:4:4, told apart by the chroma shape) or one 2-D array
/// (luma only, 4:0:0). Samples are `uint8` (8-bit) or `uint16` (`bitdepth` 9 to 16, given
/// to the Scorer). Rows must hold contiguous samples (the last axis' stride is the item
/// size; a view such as `a[:, ::2]` is refused); rows may be padded. Planes whose memory
/// can never change (read-only arrays over `bytes`, as `numpy.frombuffer(data, ...)` and
/// its reshapes give) are scored in place, held until the engine is done with them;
/// writable arrays are copied once (a row copy into the engine's frame), so they may be
/// reused as soon as `push` returns. `planes_in_place` counts the planes not copied.
/// `finish()` returns the Result. The GIL is released while frames are scored.
#[pyclass(module = "vmafx")]
pub struct Scorer {
    /// The engine's scorer (None once finished); a mutex makes the class shareable across
    /// threads.
    scorer: std::sync::Mutex<Option<vmafx::Scorer>>,
    bitdepth: Option<u32>,
    next_index: u64,
    geometry: Option<(PixelFormat, u32, u32, u32)>,
    started: std::time::Instant,
    /// Planes bound without a copy so far.
    planes_in_place: u64,
    /// The settings as text, for what the Result belongs to.
    settings: String,
}

/// A 2-D plane: which dtype it holds.
enum PlaneArray<'py> {
    U8(PyReadonlyArray2<'py, u8>),
    U16(PyReadonlyArray2<'py, u16>),
}

/// A plane argument: its samples and the Python object holding them.
struct PlaneIn<'py> {
    data: PlaneArray<'py>,
    ob: Bound<'py, PyAny>,
}

fn plane_of<'py>(ob: &Bound<'py, PyAny>, what: &str) -> PyResult<PlaneIn<'py>> {
    let arr = ob.downcast::<PyUntypedArray>().map_err(|_| {
        PyValueError::new_err(format!(
            "{what}: expected a numpy array, got {}",
            ob.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    if arr.ndim() != 2 {
        return Err(PyValueError::new_err(format!(
            "{what}: expected a 2-D plane (rows, columns), got shape {:?}",
            arr.shape()
        )));
    }
    let dtype = arr.dtype().str()?.to_string();
    let (plane, item) = if let Ok(a) = ob.extract::<PyReadonlyArray2<'py, u8>>() {
        (PlaneArray::U8(a), 1)
    } else if let Ok(a) = ob.extract::<PyReadonlyArray2<'py, u16>>() {
        (PlaneArray::U16(a), 2)
    } else {
        return Err(PyValueError::new_err(format!(
            "{what}: dtype {dtype} is not supported; planes are uint8 or uint16"
        )));
    };
    let strides = ob
        .downcast::<PyArrayDyn<u8>>()
        .map(|a| a.strides().to_vec());
    let strides = match strides {
        Ok(s) => s,
        Err(_) => ob.getattr("strides")?.extract::<Vec<isize>>()?,
    };
    if strides[1] != item || strides[0] < item * arr.shape()[1] as isize {
        return Err(PyValueError::new_err(format!(
            "{what}: strides {strides:?} do not hold rows of contiguous samples (need a \
             column stride of {item} bytes and a row stride of at least a row); pass \
             numpy.ascontiguousarray(...)"
        )));
    }
    Ok(PlaneIn {
        data: plane,
        ob: ob.clone(),
    })
}

fn shape(p: &PlaneIn<'_>) -> (u32, u32) {
    let s = match &p.data {
        PlaneArray::U8(a) => a.as_array().dim(),
        PlaneArray::U16(a) => a.as_array().dim(),
    };
    (s.1 as u32, s.0 as u32)
}

/// The planes of one picture argument (`what` names it in errors).
fn planes_of<'py>(ob: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<PlaneIn<'py>>> {
    let items: Vec<Bound<'py, PyAny>> = if let Ok(t) = ob.downcast::<PyTuple>() {
        t.iter().collect()
    } else if let Ok(l) = ob.downcast::<PyList>() {
        l.iter().collect()
    } else {
        return Ok(vec![plane_of(ob, what)?]);
    };
    if items.len() != 3 && items.len() != 1 {
        return Err(PyValueError::new_err(format!(
            "{what}: expected (Y, U, V) planes or one luma plane, got {} items",
            items.len()
        )));
    }
    let names = ["Y", "U", "V"];
    items
        .iter()
        .enumerate()
        .map(|(i, p)| plane_of(p, &format!("{what}[{i}] ({} plane)", names[i])))
        .collect()
}

/// The format of planes with these shapes, or why none fits.
fn format_of(shapes: &[(u32, u32)], what: &str) -> PyResult<PixelFormat> {
    let (w, h) = shapes[0];
    if shapes.len() == 1 {
        return Ok(PixelFormat::Yuv400p);
    }
    for f in [
        PixelFormat::Yuv420p,
        PixelFormat::Yuv422p,
        PixelFormat::Yuv444p,
    ] {
        if plane_sizes(f, w, h) == shapes {
            return Ok(f);
        }
    }
    Err(PyValueError::new_err(format!(
        "{what}: plane shapes (width x height) {shapes:?} are none of 4:2:0, 4:2:2, 4:4:4 \
         for a {w}x{h} luma (chroma planes must be equal and {}x{}, {}x{h} or {w}x{h})",
        w / 2,
        h / 2,
        w / 2
    )))
}

/// Whether the memory behind `ob` can never change while it lives: a read-only numpy
/// array whose bases are read-only arrays down to a `bytes` object (what
/// `numpy.frombuffer(some_bytes, ...)` and its views give). numpy refuses to make an array
/// over a read-only buffer writable, and `bytes` are immutable.
fn immutable(ob: &Bound<'_, PyAny>) -> PyResult<bool> {
    let mut cur = ob.clone();
    for _ in 0..64 {
        if cur.is_instance_of::<PyBytes>() {
            return Ok(true);
        }
        if cur.downcast::<PyUntypedArray>().is_err() {
            return Ok(false);
        }
        let writeable: bool = cur.getattr("flags")?.getattr("writeable")?.extract()?;
        let base = cur.getattr("base")?;
        // An array owning its memory can be made writable again by its owner.
        if writeable || base.is_none() {
            return Ok(false);
        }
        cur = base;
    }
    Ok(false)
}

/// The plane bound in place, without a copy, when its memory is immutable (see
/// [`immutable`]) and aligned; `None` to copy it instead.
fn borrowed(p: &PlaneIn<'_>) -> PyResult<Option<Plane>> {
    if !immutable(&p.ob)? {
        return Ok(None);
    }
    let (ptr, strides, rows, cols, item) = match &p.data {
        PlaneArray::U8(a) => {
            let v = a.as_array();
            (v.as_ptr(), v.strides().to_vec(), v.nrows(), v.ncols(), 1)
        }
        PlaneArray::U16(a) => {
            let v = a.as_array();
            (
                v.as_ptr().cast::<u8>(),
                v.strides().to_vec(),
                v.nrows(),
                v.ncols(),
                2,
            )
        }
    };
    let stride = strides[0];
    if rows == 0 || cols == 0 || stride < cols as isize || !(ptr as usize).is_multiple_of(item) {
        return Ok(None);
    }
    let stride = stride as usize;
    let len_bytes = ((rows - 1) * stride + cols) * item;
    let guard: Arc<dyn Send + Sync> = Arc::new(p.ob.clone().unbind());
    // SAFETY: `ptr` is the first sample of a numpy array of `rows` x `cols` samples whose
    // column stride is one sample (checked in `plane_of`) and row stride `stride` >= `cols`
    // samples, so it is valid for reads of the `len_bytes` bytes its rows span; it is
    // aligned to the sample size (checked above). The guard owns a reference to the array,
    // which keeps its base chain and the `bytes` object at its root alive as long as the
    // plane (or a clone) lives; `immutable` established that nothing can write there.
    let plane = unsafe { ForeignPlane::new(ptr, len_bytes, item == 2, guard) };
    Ok(Some(Plane {
        width: cols as u32,
        height: rows as u32,
        stride,
        storage: PlaneStorage::Foreign(plane),
    }))
}

/// The planes as an engine frame: immutable ones bound in place, the others copied once.
/// Returns the frame and how many planes were bound without a copy.
fn frame_of(planes: &[PlaneIn<'_>], format: PixelFormat, bpc: u32) -> PyResult<(Frame, usize)> {
    let (w, h) = shape(&planes[0]);
    let mut out = Vec::with_capacity(planes.len());
    let mut in_place = 0;
    for p in planes {
        if let Some(plane) = borrowed(p)? {
            out.push(plane);
            in_place += 1;
            continue;
        }
        let (pw, ph) = shape(p);
        let mut plane = Plane::zeroed(pw, ph, bpc > 8);
        let stride = plane.stride;
        match (&p.data, &mut plane.storage) {
            (PlaneArray::U8(a), PlaneStorage::U8(v)) => {
                for (y, row) in a.as_array().rows().into_iter().enumerate() {
                    for (d, s) in v[y * stride..].iter_mut().zip(row) {
                        *d = *s;
                    }
                }
            }
            (PlaneArray::U16(a), PlaneStorage::U16(v)) => {
                for (y, row) in a.as_array().rows().into_iter().enumerate() {
                    for (d, s) in v[y * stride..].iter_mut().zip(row) {
                        *d = *s;
                    }
                }
            }
            _ => {
                return Err(PyValueError::new_err(
                    "planes: every plane of a picture must have one dtype",
                ))
            }
        }
        out.push(plane);
    }
    let frame = FrameBuilder::from_planes(format, bpc, w, h, MemoryKind::Host, out)
        .map_err(engine_err)?
        .build();
    Ok((frame, in_place))
}

#[pymethods]
impl Scorer {
    /// A Scorer for `model` (a name, spec or list; None for features only) and
    /// `features`; `bitdepth` is required for uint16 planes.
    #[new]
    #[pyo3(signature = (model=ModelArg::Default, features=None, threads=0, subsample=1, bitdepth=None),
        text_signature = "(model='vmaf_v0.6.1', features=None, threads=0, subsample=1, bitdepth=None)")]
    fn new(
        model: ModelArg,
        features: Option<Vec<Bound<'_, PyAny>>>,
        threads: i64,
        subsample: u32,
        bitdepth: Option<u32>,
    ) -> PyResult<Self> {
        if let Some(b) = bitdepth {
            if !(8..=16).contains(&b) {
                return Err(PyValueError::new_err(format!(
                    "bitdepth: {b} is not in 8..16"
                )));
            }
        }
        let settings = settings_from(&model, features.as_deref(), threads, subsample)?;
        let scorer = settings.scorer(None)?;
        Ok(Scorer {
            settings: settings.text(None),
            scorer: std::sync::Mutex::new(Some(scorer)),
            bitdepth,
            next_index: 0,
            geometry: None,
            started: std::time::Instant::now(),
            planes_in_place: 0,
        })
    }

    /// Scores the next pair: `reference` and `distorted` pictures as (Y, U, V) planes or
    /// one luma plane, uint8 or uint16.
    fn push(
        &mut self,
        py: Python<'_>,
        reference: &Bound<'_, PyAny>,
        distorted: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let mut frames = Vec::new();
        let mut geometry = None;
        for (ob, what) in [(reference, "reference"), (distorted, "distorted")] {
            let planes = planes_of(ob, what)?;
            let shapes: Vec<_> = planes.iter().map(shape).collect();
            let format = format_of(&shapes, what)?;
            let wide = matches!(planes[0].data, PlaneArray::U16(_));
            if planes
                .iter()
                .any(|p| matches!(p.data, PlaneArray::U16(_)) != wide)
            {
                return Err(PyValueError::new_err(format!(
                    "{what}: planes mix uint8 and uint16; every plane of a picture has one dtype"
                )));
            }
            let bpc = match (wide, self.bitdepth) {
                (false, None | Some(8)) => 8,
                (false, Some(b)) => {
                    return Err(PyValueError::new_err(format!(
                        "{what}: uint8 planes, but the Scorer was made with bitdepth={b}"
                    )))
                }
                (true, Some(b)) if b > 8 => b,
                (true, _) => {
                    return Err(PyValueError::new_err(format!(
                        "{what}: uint16 planes need the Scorer's bitdepth (9 to 16)"
                    )))
                }
            };
            let g = (format, bpc, shapes[0].0, shapes[0].1);
            if let Some(prev) = geometry.or(self.geometry) {
                if prev != g {
                    return Err(PyValueError::new_err(format!(
                        "{what}: picture is {} {}-bit {}x{}, but this run scores {} {}-bit {}x{}",
                        g.0, g.1, g.2, g.3, prev.0, prev.1, prev.2, prev.3
                    )));
                }
            }
            geometry = Some(g);
            let (frame, in_place) = frame_of(&planes, format, bpc)?;
            self.planes_in_place += in_place as u64;
            frames.push(frame);
        }
        let (Some(d), Some(r)) = (frames.pop(), frames.pop()) else {
            unreachable!("two pictures were converted");
        };
        let mut guard = self.scorer.lock().unwrap_or_else(|p| p.into_inner());
        let scorer = guard
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("push: the Scorer was already finished"))?;
        py.allow_threads(|| scorer.push(r, d)).map_err(engine_err)?;
        drop(guard);
        self.geometry = geometry;
        self.next_index += 1;
        Ok(())
    }

    /// Planes pushed so far that were scored in place, without a copy.
    #[getter]
    fn planes_in_place(&self) -> u64 {
        self.planes_in_place
    }

    /// Frames pushed so far.
    #[getter]
    fn frames_pushed(&self) -> u64 {
        self.next_index
    }

    /// Ends the input and returns the Result (the Scorer takes no more frames). Raises
    /// ValueError where no pair was pushed: there is nothing to score.
    fn finish(&mut self, py: Python<'_>) -> PyResult<ScoreResult> {
        if self.next_index == 0 {
            return Err(PyValueError::new_err(
                "finish: no frame was pushed, so there is nothing to score (push(reference, \
                 distorted) at least one pair first)",
            ));
        }
        let scorer = self
            .scorer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .ok_or_else(|| PyValueError::new_err("finish: the Scorer was already finished"))?;
        let report = py.allow_threads(|| scorer.finish()).map_err(engine_err)?;
        // Frames pushed have no file: the Result records its settings and that it ran to
        // the end of what was pushed.
        let origin = vmafx::score::PartOrigin {
            settings: self.settings.clone(),
            reference: None,
            distorted: None,
            video_frames: None,
            to_end: true,
        };
        Ok(
            ScoreResult::new(scores_of(&report), self.started.elapsed(), Some(origin))
                .with_run_of(&report),
        )
    }
}
