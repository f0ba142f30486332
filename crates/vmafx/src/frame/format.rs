//! Pixel formats and memory kinds, with VMAFx's C ABI values.

/// Pixel formats. The planar ones carry libvmaf's values; NV12, P010 and P016 are
/// import-only (a producer's semi-planar layout, converted to planar at import).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum PixelFormat {
    /// Planar 4:2:0.
    Yuv420p = 1,
    /// Planar 4:2:2.
    Yuv422p = 2,
    /// Planar 4:4:4.
    Yuv444p = 3,
    /// Luma only.
    Yuv400p = 4,
    /// Semi-planar 4:2:0, 8 bits (import only).
    Nv12 = 16,
    /// Semi-planar 4:2:0, 10 bits in the high bits of 16-bit words (import only).
    P010 = 17,
    /// Semi-planar 4:2:0, 16 bits (import only).
    P016 = 18,
}

impl PixelFormat {
    /// The format for a C ABI value.
    pub fn from_u32(v: u32) -> Option<Self> {
        Some(match v {
            1 => Self::Yuv420p,
            2 => Self::Yuv422p,
            3 => Self::Yuv444p,
            4 => Self::Yuv400p,
            16 => Self::Nv12,
            17 => Self::P010,
            18 => Self::P016,
            _ => return None,
        })
    }

    /// Whether host frames may be made in this format (the import-only ones may not).
    pub fn is_planar(self) -> bool {
        matches!(
            self,
            Self::Yuv420p | Self::Yuv422p | Self::Yuv444p | Self::Yuv400p
        )
    }

    /// Number of planes a planar frame of this format has (semi-planar formats become
    /// three-plane 4:2:0 frames).
    pub fn plane_count(self) -> usize {
        match self {
            Self::Yuv400p => 1,
            _ => 3,
        }
    }

    /// Horizontal and vertical chroma subsampling shifts.
    pub fn chroma_shift(self) -> (u32, u32) {
        match self {
            Self::Yuv420p | Self::Nv12 | Self::P010 | Self::P016 => (1, 1),
            Self::Yuv422p => (1, 0),
            Self::Yuv444p | Self::Yuv400p => (0, 0),
        }
    }

    /// A short name (`yuv420p`, ...), as libvmaf's tools print it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Yuv420p => "yuv420p",
            Self::Yuv422p => "yuv422p",
            Self::Yuv444p => "yuv444p",
            Self::Yuv400p => "yuv400p",
            Self::Nv12 => "nv12",
            Self::P010 => "p010",
            Self::P016 => "p016",
        }
    }
}

impl std::fmt::Display for PixelFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a frame's samples live, with VMAFx's C ABI values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum MemoryKind {
    /// No memory (an empty descriptor).
    None = 0,
    /// Host memory.
    Host = 1,
    /// A device pointer (CUDA, HIP, SYCL USM).
    DevicePointer = 2,
    /// A device array or texture.
    DeviceArray = 3,
    /// A Linux dma-buf.
    Dmabuf = 4,
    /// An IOSurface-backed Metal surface.
    MetalSurface = 5,
    /// A Metal texture.
    MetalTexture = 6,
    /// A Windows shared handle.
    Win32Shared = 7,
}

impl MemoryKind {
    /// The kind for a C ABI value.
    pub fn from_u32(v: u32) -> Option<Self> {
        Some(match v {
            0 => Self::None,
            1 => Self::Host,
            2 => Self::DevicePointer,
            3 => Self::DeviceArray,
            4 => Self::Dmabuf,
            5 => Self::MetalSurface,
            6 => Self::MetalTexture,
            7 => Self::Win32Shared,
            _ => return None,
        })
    }

    /// The C ABI name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "VMAFX_MEMORY_NONE",
            Self::Host => "VMAFX_MEMORY_HOST",
            Self::DevicePointer => "VMAFX_MEMORY_DEVICE_POINTER",
            Self::DeviceArray => "VMAFX_MEMORY_DEVICE_ARRAY",
            Self::Dmabuf => "VMAFX_MEMORY_DMABUF",
            Self::MetalSurface => "VMAFX_MEMORY_METAL_SURFACE",
            Self::MetalTexture => "VMAFX_MEMORY_METAL_TEXTURE",
            Self::Win32Shared => "VMAFX_MEMORY_WIN32_SHARED",
        }
    }
}
