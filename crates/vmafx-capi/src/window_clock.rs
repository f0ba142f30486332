//! The window clock of the C ABI (VMAFx's score.h, ABI 0.1.8): `vmafx_window_clock_*`
//! over the engine's [`vmafx::score::WindowClock`].

use crate::c_export;
use vmafx::score::{WindowClock, WindowLength, WindowSpan};
use vmafx::Status;

use crate::abi::{MinSize, SubjectKind};
use crate::error::{fail, null, CResult, WithKind};
use crate::sized;
use crate::window::WINDOW_PARTIAL;

/// `VmafxWindowClockConfig`: the window length, in seconds or in frames.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxWindowClockConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Window length in seconds (0: by frame count).
    pub n_stats: f64,
    /// Window length in frames (0: by time).
    pub n_stats_frames: u64,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and floats (valid
// all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxWindowClockConfig {
    /// ABI 0.1.8: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxWindowClockConfig>();
}

/// `VmafxWindowSpan`: one window as the clock cut it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxWindowSpan {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// `VMAFX_WINDOW_PARTIAL` for a last window the stream ended inside.
    pub flags: u32,
    /// Window number.
    pub window: u64,
    /// Index of the window's first frame.
    pub first: u64,
    /// Index of the window's last frame.
    pub last: u64,
    /// Frames the clock saw in the window.
    pub n_frames: u64,
    /// The window's start (by time) or its first frame's time (by frames).
    pub start_ns: i64,
    /// The window's end (by time, exclusive) or its last frame's time (by frames).
    pub end_ns: i64,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers (valid all-zero); its
// MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxWindowSpan {
    /// ABI 0.1.8: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxWindowSpan>();
}

/// `VmafxWindowClock`: a clock handle.
pub struct VmafxWindowClock {
    clock: WindowClock,
}

fn span_of(s: &WindowSpan) -> VmafxWindowSpan {
    VmafxWindowSpan {
        struct_size: 0,
        flags: if s.partial { WINDOW_PARTIAL } else { 0 },
        window: s.window,
        first: s.first,
        last: s.last,
        n_frames: s.n_frames,
        start_ns: s.start_ns,
        end_ns: s.end_ns,
    }
}

fn length_of(c: &VmafxWindowClockConfig) -> CResult<WindowLength> {
    let length = match (c.n_stats != 0.0, c.n_stats_frames != 0) {
        (true, false) => WindowLength::seconds(c.n_stats),
        (false, true) => WindowLength::frames(c.n_stats_frames),
        (both, _) => {
            let msg = if both {
                "both n_stats and n_stats_frames are set; set exactly one"
            } else {
                "neither n_stats nor n_stats_frames is set; set exactly one"
            };
            return Err(fail(Status::Invalid, "config.n_stats", msg)).kind(SubjectKind::Parameter);
        }
    };
    length
        .map_err(|e| vmafx::Error::new(e.status(), format!("config.{}", e.subject()), e.message()))
        .kind(SubjectKind::Parameter)
}

/// Writes `span` to the caller's `out` (checked first).
///
/// # Safety
/// `out` NULL or valid for its `struct_size`.
unsafe fn put_span(out: *mut VmafxWindowSpan, span: Option<WindowSpan>) -> CResult {
    match span {
        Some(s) => {
            // SAFETY: forwarded contract; written only after the check.
            unsafe { sized::write(out, sized::out_size(out, "out")?, &span_of(&s)) };
            Ok(Status::Ok)
        }
        None => Ok(Status::Pending),
    }
}

c_export! {
    /// Creates a clock of `config.n_stats` seconds or `config.n_stats_frames` frames.
    ///
    /// # Safety
    /// `config` NULL or valid for its `struct_size`; `out`, `error` NULL or writable.
    #[c = "A clock cutting windows of `config.n_stats` seconds or `config.n_stats_frames` frames. Both set or neither is VMAFX_E_INVALID naming `config.n_stats`; a bad length names its field."]
    pub unsafe fn vmafx_window_clock_create(
        config: *const VmafxWindowClockConfig,
        out: *mut *mut VmafxWindowClock;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `config` is NULL or readable for its struct_size (this function's contract).
        let (config, _) = unsafe { sized::read(config, "config") }?;
        let clock = WindowClock::new(length_of(&config)?);
        // SAFETY: non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(Box::into_raw(Box::new(VmafxWindowClock { clock }))) };
        Ok(Status::Ok)
    }
}

/// The clock behind `ptr`.
///
/// # Safety
/// `ptr` NULL or a live clock.
unsafe fn get<'a>(ptr: *mut VmafxWindowClock) -> CResult<&'a mut VmafxWindowClock> {
    // SAFETY: NULL or live, used by one thread at a time (the caller's contract).
    unsafe { ptr.as_mut() }
        .ok_or_else(|| null("clock"))
        .kind(SubjectKind::Parameter)
}

c_export! {
    /// Tells the clock of frame `index` at `pts_ns`: `VMAFX_OK` and the span of the window it
    /// ended, or `VMAFX_PENDING`.
    ///
    /// # Safety
    /// `clock` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Frame `index` at `pts_ns`: when it lies past the open window, VMAFX_OK and that window's span (the frame opens the next); else VMAFX_PENDING. Indices increase strictly and times never decrease, else VMAFX_E_INVALID naming `index` or `pts_ns` (the clock unchanged)."]
    pub unsafe fn vmafx_window_clock_frame(
        clock: *mut VmafxWindowClock,
        index: u64,
        pts_ns: i64,
        out: *mut VmafxWindowSpan;
        error
    ) -> VmafxStatus {
        // SAFETY: `clock` is NULL or live (this function's contract).
        let c = unsafe { get(clock) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe { sized::out_size(out, "out") }?;
        let span = c.clock.frame(index, pts_ns).kind(SubjectKind::Parameter)?;
        // SAFETY: as above.
        unsafe { put_span(out, span) }
    }
}

c_export! {
    /// Ends the stream: `VMAFX_OK` and the open window's span, or `VMAFX_PENDING`.
    ///
    /// # Safety
    /// As [`vmafx_window_clock_frame`].
    #[c = "End of stream: VMAFX_OK and the open window's span, flagged VMAFX_WINDOW_PARTIAL unless it is a full window by frame count; VMAFX_PENDING when none is open. The clock takes no frame afterwards."]
    pub unsafe fn vmafx_window_clock_finish(
        clock: *mut VmafxWindowClock,
        out: *mut VmafxWindowSpan;
        error
    ) -> VmafxStatus {
        // SAFETY: `clock` is NULL or live (this function's contract).
        let c = unsafe { get(clock) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe { sized::out_size(out, "out") }?;
        let span = c.clock.finish();
        // SAFETY: as above.
        unsafe { put_span(out, span) }
    }
}

c_export! {
    /// Frees the clock; NULL is a no-op.
    ///
    /// # Safety
    /// `clock` NULL or a live clock, destroyed once.
    #[c = "Frees the clock. NULL is a no-op."]
    pub unsafe fn vmafx_window_clock_destroy(clock: *mut VmafxWindowClock) {
        if !clock.is_null() {
            // SAFETY: made by `Box::into_raw` in vmafx_window_clock_create, destroyed once
            // (this function's contract).
            drop(unsafe { Box::from_raw(clock) });
        }
    }
}

crate::c_named!(VmafxWindowClock, VmafxWindowClockConfig, VmafxWindowSpan);
