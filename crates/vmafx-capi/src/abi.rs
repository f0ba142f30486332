//! The C structs, with VMAFx's field order and types (ABI 0.1.4).
//!
//! Every struct that can grow starts with `struct_size`. [`MinSize`] gives the size each
//! had when it was introduced: a caller's struct below that is `VMAFX_E_ABI` naming it,
//! a smaller one above it is read (or written) up to its size, the rest taken as zero.

use std::ffi::{c_char, c_void};

/// `VmafxFrameReleaseCallback`: called once when the library stops reading the planes.
pub type VmafxFrameReleaseCallback = Option<unsafe extern "C" fn(user: *mut c_void)>;

/// `VmafxFence`: a synchronisation point; embedded by value, never grows.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxFence {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxFenceKind`.
    pub kind: u32,
    /// The library's host fence object, or an event / shared handle.
    pub handle: usize,
    /// Value a timeline fence reaches when signalled.
    pub value: u64,
    /// sync_file descriptor (SYNC_FILE).
    pub fd: i32,
    /// Zero.
    pub reserved: u32,
}

/// `VmafxImportPlane`: where one imported plane lives; embedded, never grows.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxImportPlane {
    /// Address or handle, as the memory kind says.
    pub handle: usize,
    /// dma-buf descriptor.
    pub fd: i32,
    /// Plane of a multi-plane object.
    pub plane_index: u32,
    /// Bytes to the first sample.
    pub offset: u64,
    /// Bytes from one row to the next.
    pub pitch: u64,
    /// Format modifier; 0 linear.
    pub modifier: u64,
    /// Bytes of the memory object; 0 not given.
    pub size: u64,
}

/// `VmafxFrameImport`: a frame the producer holds.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxFrameImport {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxMemoryKind`.
    pub memory: u32,
    /// A `VmafxPixelFormat`.
    pub pix_fmt: u32,
    /// Bits per component.
    pub bpc: u32,
    /// Luma width.
    pub w: u32,
    /// Luma height.
    pub h: u32,
    /// Planes in use.
    pub n_planes: u32,
    /// The planes.
    pub plane: [VmafxImportPlane; 3],
    /// Signalled when the planes are written.
    pub acquire: VmafxFence,
    /// `VmafxImportFlags`.
    pub flags: u32,
    /// Called once after the release fence is signalled (ABI 0.1.4).
    pub release: VmafxFrameReleaseCallback,
    /// Passed to `release` (ABI 0.1.4).
    pub user: *mut c_void,
    /// Further acquire fences of a frame written under several timelines (ABI 0.1.11).
    pub acquire_more: [VmafxFence; 2],
    /// `VmafxVulkanHandleType` of VULKAN memory (ABI 0.1.11).
    pub vulkan_handle_type: u32,
    /// `VmafxVulkanTiling` of VULKAN memory (ABI 0.1.11).
    pub vulkan_tiling: u32,
    /// `VmafxVulkanFlags` (ABI 0.1.11).
    pub vulkan_flags: u32,
    /// PCI domain, bus, device, function of the producer's GPU (ABI 0.1.11).
    pub vulkan_pci: [u32; 4],
    /// `VmafxColorMatrix` of an RGB layout (ABI 0.1.11).
    pub rgb_matrix: u32,
    /// `VmafxColorRange` of the R'G'B' samples (ABI 0.1.11).
    pub rgb_range: u32,
    /// `VmafxColorTransfer` of the R'G'B' samples (ABI 0.1.11).
    pub rgb_transfer: u32,
    /// `VmafxColorRange` of the Y'CbCr frame made (ABI 0.1.11).
    pub rgb_out_range: u32,
}

/// Bytes of a `VmafxFrameImport` as ABI 0.1.4 laid it out (through `user`): a caller
/// compiled against it is read with every later field zero.
pub const FRAME_IMPORT_SIZE_0_1_4: usize = std::mem::offset_of!(VmafxFrameImport, acquire_more);

/// `VmafxFrameDesc`: geometry of a frame.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxFrameDesc {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxPixelFormat`.
    pub pix_fmt: u32,
    /// Bits per component.
    pub bpc: u32,
    /// Luma width.
    pub w: u32,
    /// Luma height.
    pub h: u32,
}

/// `VmafxColor`: the colour of a frame (ABI 0.1.6); embedded by value, never grows.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxColor {
    /// A `VmafxColorRange`.
    pub range: u32,
    /// A `VmafxColorPrimaries`.
    pub primaries: u32,
    /// A `VmafxColorTransfer`.
    pub trc: u32,
    /// A `VmafxColorMatrix`.
    pub matrix: u32,
}

/// `VmafxConvertDesc`: what a frame converter reads and writes (ABI 0.1.6).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxConvertDesc {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxPixelFormat` read.
    pub src_pix_fmt: u32,
    /// Bits per component read.
    pub src_bpc: u32,
    /// Luma width read.
    pub src_w: u32,
    /// Luma height read.
    pub src_h: u32,
    /// Colour read.
    pub src_color: VmafxColor,
    /// A `VmafxPixelFormat` written.
    pub dst_pix_fmt: u32,
    /// Bits per component written.
    pub dst_bpc: u32,
    /// Luma width written; 0 the source's.
    pub dst_w: u32,
    /// Luma height written; 0 the source's.
    pub dst_h: u32,
    /// Colour written.
    pub dst_color: VmafxColor,
    /// A `VmafxResampleFilter`.
    pub filter: u32,
}

/// `VmafxHostPlanes`: caller-owned planes a host frame borrows.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxHostPlanes {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// First sample of each plane.
    pub data: [*mut c_void; 3],
    /// Bytes from one row to the next.
    pub stride: [u64; 3],
    /// Called once when the library no longer reads the planes.
    pub release: VmafxFrameReleaseCallback,
    /// Passed to `release`.
    pub user: *mut c_void,
}

/// `VmafxFramePlanes`: where the samples of a frame are.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxFramePlanes {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxPixelFormat`.
    pub pix_fmt: u32,
    /// Bits per component.
    pub bpc: u32,
    /// Planes in use.
    pub n_planes: u32,
    /// Width of each plane in samples.
    pub w: [u32; 3],
    /// Height of each plane in rows.
    pub h: [u32; 3],
    /// Bytes from one row to the next.
    pub stride: [u64; 3],
    /// First sample of each plane.
    pub data: [*mut c_void; 3],
}

/// `VmafxDeviceDesc`: which device to create.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxDeviceDesc {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxBackend`.
    pub backend: u32,
    /// Device index; -1 any.
    pub index: i32,
    /// `VmafxDeviceFlags` (ABI 0.1.2).
    pub flags: u32,
    /// The caller's runtime objects (ABI 0.1.2).
    pub external: [usize; 2],
}

/// `VmafxDeviceInfo`: what a device is and what it imports.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxDeviceInfo {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxBackend`.
    pub backend: u32,
    /// Device index.
    pub index: i32,
    /// Creation flags.
    pub flags: u32,
    /// Bit `1 << k` per imported `VmafxMemoryKind`.
    pub memory_kinds: u32,
    /// Bit `1 << k` per honoured `VmafxFenceKind`.
    pub fence_kinds: u32,
    /// Bytes of device memory; 0 not reported.
    pub total_memory: u64,
    /// Name of the device; lives for the process.
    pub name: *const c_char,
    /// PCI domain, bus, device and function of the device's GPU; all `u32::MAX` where it
    /// has none (the CPU). ABI 0.1.11.
    pub pci: [u32; 4],
}

/// The size a sized struct had when it was introduced.
///
/// # Safety
/// The crate's `sized` module copies the caller's bytes into such a struct and reads and writes it
/// as raw bytes, so an implementor must be `#[repr(C)]`, start with a `u32` `struct_size`,
/// be valid when all-zero (integers, raw pointers, optional function pointers only), and
/// have `4 <= MIN_SIZE <= size_of::<Self>()`.
pub unsafe trait MinSize: Copy {
    /// Smallest `struct_size` accepted.
    const MIN_SIZE: usize;
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxFence {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxFence>();
}
// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxFrameImport {
    /// ABI 0.1.2-0.1.3: through `flags`, padded.
    const MIN_SIZE: usize = std::mem::offset_of!(VmafxFrameImport, release);
}
// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxFrameDesc {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxFrameDesc>();
}
// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxHostPlanes {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxHostPlanes>();
}
// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxFramePlanes {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxFramePlanes>();
}
// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxDeviceDesc {
    /// ABI 0.1.1: backend and index.
    const MIN_SIZE: usize = std::mem::offset_of!(VmafxDeviceDesc, flags);
}
// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxDeviceInfo {
    /// Backend and index.
    const MIN_SIZE: usize = std::mem::offset_of!(VmafxDeviceInfo, flags);
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers only (valid all-zero);
// its MIN_SIZE is itself.
unsafe impl MinSize for VmafxConvertDesc {
    /// ABI 0.1.6: the whole struct.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxConvertDesc>();
}

/// ABI version this library implements.
pub const ABI_VERSION: (u32, u32, u32) = (0, 1, 11);

/// `VMAFX_MEMORY_GL_TEXTURE` (ABI 0.1.4): declared, refused by this build.
pub const MEMORY_GL_TEXTURE: u32 = 8;
/// `VMAFX_FENCE_GL_SYNC` (ABI 0.1.4): declared, refused by this build.
pub const FENCE_GL_SYNC: u32 = 8;
/// `VMAFX_MEMORY_VULKAN` (ABI 0.1.11): declared, refused by this build.
pub const MEMORY_VULKAN: u32 = 9;
/// `VMAFX_FENCE_VULKAN_SEMAPHORE` (ABI 0.1.11): declared, refused by this build.
pub const FENCE_VULKAN_SEMAPHORE: u32 = 9;

/// `VmafxVulkanHandleType` names and values (ABI 0.1.11; Vulkan's handle type bits).
pub const VULKAN_HANDLE_TYPES: [(&str, i64); 4] = [
    ("VMAFX_VULKAN_HANDLE_OPAQUE_FD", 0x1),
    ("VMAFX_VULKAN_HANDLE_OPAQUE_WIN32", 0x2),
    ("VMAFX_VULKAN_HANDLE_OPAQUE_WIN32_KMT", 0x4),
    ("VMAFX_VULKAN_HANDLE_DMA_BUF", 0x200),
];
/// `VmafxVulkanTiling` names and values (ABI 0.1.11; equal to `VkImageTiling`).
pub const VULKAN_TILINGS: [(&str, i64); 3] = [
    ("VMAFX_VULKAN_TILING_OPTIMAL", 0),
    ("VMAFX_VULKAN_TILING_LINEAR", 1),
    ("VMAFX_VULKAN_TILING_DRM_FORMAT_MODIFIER", 1_000_158_000),
];
/// `VMAFX_VULKAN_DEDICATED` (ABI 0.1.11).
pub const VULKAN_DEDICATED: u32 = 1 << 0;

/// The C name of a memory kind the engine does not know (a backend lane's, declared by
/// this crate), if `value` is one.
pub fn extra_memory_name(value: u32) -> Option<&'static str> {
    match value {
        MEMORY_GL_TEXTURE => Some("VMAFX_MEMORY_GL_TEXTURE"),
        MEMORY_VULKAN => Some("VMAFX_MEMORY_VULKAN"),
        _ => None,
    }
}

/// The C name of a fence kind the engine does not know, if `value` is one.
pub fn extra_fence_name(value: u32) -> Option<&'static str> {
    match value {
        FENCE_GL_SYNC => Some("VMAFX_FENCE_GL_SYNC"),
        FENCE_VULKAN_SEMAPHORE => Some("VMAFX_FENCE_VULKAN_SEMAPHORE"),
        _ => None,
    }
}

/// `VmafxSubjectKind` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum SubjectKind {
    /// No subject.
    None = 0,
    /// A parameter or struct field.
    Parameter = 1,
    /// The context.
    Context = 2,
    /// An option key.
    Option = 3,
    /// A feature name.
    Feature = 4,
    /// A feature extractor.
    Extractor = 5,
    /// A model.
    Model = 6,
    /// A frame or frame index.
    Frame = 7,
    /// A plane of a frame.
    Plane = 8,
    /// A device.
    Device = 9,
    /// A backend.
    Backend = 10,
    /// A file path.
    Path = 11,
    /// A fence.
    Fence = 12,
}

impl SubjectKind {
    /// Every kind, in value order, with its C name.
    pub const ALL: [(SubjectKind, &'static str); 13] = [
        (SubjectKind::None, "VMAFX_SUBJECT_NONE"),
        (SubjectKind::Parameter, "VMAFX_SUBJECT_PARAMETER"),
        (SubjectKind::Context, "VMAFX_SUBJECT_CONTEXT"),
        (SubjectKind::Option, "VMAFX_SUBJECT_OPTION"),
        (SubjectKind::Feature, "VMAFX_SUBJECT_FEATURE"),
        (SubjectKind::Extractor, "VMAFX_SUBJECT_EXTRACTOR"),
        (SubjectKind::Model, "VMAFX_SUBJECT_MODEL"),
        (SubjectKind::Frame, "VMAFX_SUBJECT_FRAME"),
        (SubjectKind::Plane, "VMAFX_SUBJECT_PLANE"),
        (SubjectKind::Device, "VMAFX_SUBJECT_DEVICE"),
        (SubjectKind::Backend, "VMAFX_SUBJECT_BACKEND"),
        (SubjectKind::Path, "VMAFX_SUBJECT_PATH"),
        (SubjectKind::Fence, "VMAFX_SUBJECT_FENCE"),
    ];
}

/// `VmafxLogCallback`: receives one log line; thread-safe, must not call back.
pub type VmafxLogCallback =
    Option<unsafe extern "C" fn(level: u32, message: *const c_char, user: *mut c_void)>;

/// `VmafxContextConfig`: how a context runs.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxContextConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxLogLevel`.
    pub log_level: u32,
    /// Worker threads; 0 extracts on the calling thread.
    pub n_threads: u32,
    /// Score every n-th frame; 0 and 1 every frame.
    pub n_subsample: u32,
    /// CPU instruction-set bits to disable.
    pub cpumask: u64,
    /// GPU dispatch bits to disable.
    pub gpumask: u64,
    /// Receives the context's log lines (ABI 0.1.1).
    pub log_callback: VmafxLogCallback,
    /// Passed to `log_callback` (ABI 0.1.1).
    pub log_user: *mut c_void,
    /// Longest host wait before the import rule's one retry; 0 is 10 s (ABI 0.1.3).
    pub import_retry_wait_ns: u64,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxContextConfig {
    /// ABI 0.1.0: through `gpumask`.
    const MIN_SIZE: usize = std::mem::offset_of!(VmafxContextConfig, log_callback);
}

crate::c_named!(
    VmafxColor,
    VmafxContextConfig,
    VmafxConvertDesc,
    VmafxDeviceDesc,
    VmafxDeviceInfo,
    VmafxFence,
    VmafxFrameDesc,
    VmafxFrameImport,
    VmafxFramePlanes,
    VmafxHostPlanes
);
