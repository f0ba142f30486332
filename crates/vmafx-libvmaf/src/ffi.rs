//! The C structs of libvmaf's headers, field for field. Enums are plain `c_uint`s here,
//! so an out-of-range value from C is a value to refuse, never undefined behaviour.

use std::ffi::{c_char, c_uint, c_void};

/// `VmafConfiguration`, passed to `vmaf_init` by value.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafConfiguration {
    /// `enum VmafLogLevel`.
    pub log_level: c_uint,
    /// Worker threads (0: extract on the caller's thread).
    pub n_threads: c_uint,
    /// Score every n-th picture (0 and 1: all).
    pub n_subsample: c_uint,
    /// SIMD paths to turn off (libvmaf's cpu flag bits).
    pub cpumask: u64,
    /// GPUs to turn off; unused by this CPU build.
    pub gpumask: u64,
}

/// `VmafPicture`: the planes a caller fills and hands to `vmaf_read_pictures`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafPicture {
    /// `enum VmafPixelFormat`.
    pub pix_fmt: c_uint,
    /// Bits per component.
    pub bpc: c_uint,
    /// Plane widths in samples.
    pub w: [c_uint; 3],
    /// Plane heights in rows.
    pub h: [c_uint; 3],
    /// Row strides in bytes.
    pub stride: [isize; 3],
    /// Plane addresses.
    pub data: [*mut c_void; 3],
    /// The reference count owning the planes (see [`crate::picture`]).
    pub r#ref: *mut c_void,
    /// libvmaf's private slot; unused here.
    pub priv_: *mut c_void,
}

/// `VmafPictureConfiguration`'s `pic_params`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafPictureParams {
    /// Luma width.
    pub w: c_uint,
    /// Luma height.
    pub h: c_uint,
    /// Bits per component.
    pub bpc: c_uint,
    /// `enum VmafPixelFormat`.
    pub pix_fmt: c_uint,
}

/// `VmafPictureConfiguration`, passed to `vmaf_preallocate_pictures` by value.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafPictureConfiguration {
    /// The pictures' geometry.
    pub pic_params: VmafPictureParams,
    /// How many pictures the pool holds.
    pub pic_cnt: c_uint,
}

/// `VmafModelConfig`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafModelConfig {
    /// Output name; NULL means `vmaf`.
    pub name: *const c_char,
    /// `VmafModelFlags` bits.
    pub flags: u64,
}

/// `VMAF_MODEL_FLAG_DISABLE_CLIP`.
pub const MODEL_FLAG_DISABLE_CLIP: u64 = 1;
/// `VMAF_MODEL_FLAG_ENABLE_TRANSFORM`.
pub const MODEL_FLAG_ENABLE_TRANSFORM: u64 = 1 << 1;
/// `VMAF_MODEL_FLAG_DISABLE_TRANSFORM`.
pub const MODEL_FLAG_DISABLE_TRANSFORM: u64 = 1 << 2;

/// The 95% interval of `VmafModelCollectionScore`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VmafCi95 {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// The bootstrap part of `VmafModelCollectionScore`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VmafBootstrapScore {
    /// Mean of the members' scores.
    pub bagging_score: f64,
    /// Their standard deviation.
    pub stddev: f64,
    /// Their 95% interval.
    pub ci_p95: VmafCi95,
}

/// `VmafModelCollectionScore`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VmafModelCollectionScore {
    /// `enum VmafModelCollectionScoreType` (1: bootstrap).
    pub r#type: c_uint,
    /// The bootstrap statistics.
    pub bootstrap: VmafBootstrapScore,
}

/// `VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP`.
pub const COLLECTION_SCORE_BOOTSTRAP: c_uint = 1;
