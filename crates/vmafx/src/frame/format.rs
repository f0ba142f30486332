//! Pixel formats and memory kinds, with VMAFx's C ABI values.

/// Pixel formats, with VMAFx's C ABI values. The planar ones carry libvmaf's values; the
/// others (16 and up) are import-only: a producer's semi-planar, packed or MSB-aligned
/// layout, converted to the planar frame at import (see [`PixelFormat::import_target`]).
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
    /// Semi-planar 4:2:0, 8 bits.
    Nv12 = 16,
    /// Semi-planar 4:2:0, 10 bits in the high bits of 16-bit words.
    P010 = 17,
    /// Semi-planar 4:2:0, 16 bits.
    P016 = 18,
    /// Semi-planar 4:2:2, 8 bits.
    Nv16 = 19,
    /// Semi-planar 4:2:2, 10 bits in the high bits of 16-bit words.
    P210 = 20,
    /// Semi-planar 4:2:2, 16 bits.
    P216 = 21,
    /// Semi-planar 4:4:4, 8 bits.
    Nv24 = 22,
    /// Semi-planar 4:4:4, 10 bits in the high bits of 16-bit words.
    P410 = 23,
    /// Semi-planar 4:4:4, 16 bits.
    P416 = 24,
    /// Packed 4:2:2, 16-bit words Y0 Cb Y1 Cr, 10 bits in the high bits.
    Y210 = 25,
    /// Packed 4:4:4, one 32-bit word per pixel: Cb bits 0-9, Y 10-19, Cr 20-29 (XV30).
    Y410 = 26,
    /// Packed 4:2:2, bytes Y0 Cb Y1 Cr (YUY2).
    Yuyv422 = 27,
    /// Packed 4:2:2, 16-bit words Y0 Cb Y1 Cr, 12 bits in the high bits.
    Y212 = 28,
    /// Packed 4:4:4, bytes Cr Cb Y X per pixel.
    Vuyx = 29,
    /// Packed 4:4:4, 16-bit words Cb Y Cr X per pixel, 12 bits in the high bits.
    Xv36 = 30,
    /// Planar 4:4:4 in 16-bit words holding `bpc` bits in the high bits.
    Yuv444pMsb = 31,
    /// Packed 4:4:4, bytes A Y Cb Cr per pixel.
    Ayuv = 32,
    /// Packed 4:2:2, bytes Cb Y0 Cr Y1 (UYVY).
    Uyvy422 = 33,
    /// Packed 4:2:2, six 10-bit pixels in four 32-bit words.
    V210 = 34,
    /// Packed R'G'B', converted to Y'CbCr 4:4:4 with the producer's stated matrix and range.
    Rgb = 35,
    /// Packed R'G'B'A (alpha not read), converted like [`PixelFormat::Rgb`].
    Rgba = 36,
    /// Packed B'G'R'A (alpha not read), converted like [`PixelFormat::Rgb`].
    Bgra = 37,
}

/// Every format, in C ABI order.
const ALL: [PixelFormat; 26] = [
    PixelFormat::Yuv420p,
    PixelFormat::Yuv422p,
    PixelFormat::Yuv444p,
    PixelFormat::Yuv400p,
    PixelFormat::Nv12,
    PixelFormat::P010,
    PixelFormat::P016,
    PixelFormat::Nv16,
    PixelFormat::P210,
    PixelFormat::P216,
    PixelFormat::Nv24,
    PixelFormat::P410,
    PixelFormat::P416,
    PixelFormat::Y210,
    PixelFormat::Y410,
    PixelFormat::Yuyv422,
    PixelFormat::Y212,
    PixelFormat::Vuyx,
    PixelFormat::Xv36,
    PixelFormat::Yuv444pMsb,
    PixelFormat::Ayuv,
    PixelFormat::Uyvy422,
    PixelFormat::V210,
    PixelFormat::Rgb,
    PixelFormat::Rgba,
    PixelFormat::Bgra,
];

impl PixelFormat {
    /// The format for a C ABI value.
    pub fn from_u32(v: u32) -> Option<Self> {
        ALL.iter().copied().find(|f| *f as u32 == v)
    }

    /// Every format this ABI declares, in value order.
    pub fn all() -> &'static [PixelFormat] {
        &ALL
    }

    /// Whether host frames may be made in this format (the import-only ones may not).
    pub fn is_planar(self) -> bool {
        matches!(
            self,
            Self::Yuv420p | Self::Yuv422p | Self::Yuv444p | Self::Yuv400p
        )
    }

    /// The planar format and depth an import of this format at `bpc` makes (planar
    /// formats make themselves). RGB formats name the Y'CbCr 4:4:4 frame they would make.
    pub fn import_target(self, bpc: u32) -> (PixelFormat, u32) {
        use PixelFormat::*;
        match self {
            Nv12 => (Yuv420p, 8),
            P010 => (Yuv420p, 10),
            P016 => (Yuv420p, 16),
            Nv16 | Yuyv422 | Uyvy422 => (Yuv422p, 8),
            P210 | Y210 | V210 => (Yuv422p, 10),
            Y212 => (Yuv422p, 12),
            P216 => (Yuv422p, 16),
            Nv24 | Vuyx | Ayuv => (Yuv444p, 8),
            P410 | Y410 => (Yuv444p, 10),
            Xv36 => (Yuv444p, 12),
            P416 => (Yuv444p, 16),
            Yuv444pMsb | Rgb | Rgba | Bgra => (Yuv444p, bpc),
            planar => (planar, bpc),
        }
    }

    /// The one depth an import-only format has, or `None` where the descriptor picks it
    /// (planar formats, YUV444P_MSB and the RGB formats).
    pub fn fixed_bpc(self) -> Option<u32> {
        match self {
            Self::Yuv444pMsb | Self::Rgb | Self::Rgba | Self::Bgra => None,
            f if f.is_planar() => None,
            f => Some(f.import_target(0).1),
        }
    }

    /// Number of planes a planar frame of this format has (an import-only format: the
    /// planes of the frame it makes).
    pub fn plane_count(self) -> usize {
        match self {
            Self::Yuv400p => 1,
            _ => 3,
        }
    }

    /// Horizontal and vertical chroma subsampling shifts (of the frame an import makes,
    /// for the import-only formats).
    pub fn chroma_shift(self) -> (u32, u32) {
        match self.import_target(8).0 {
            Self::Yuv420p => (1, 1),
            Self::Yuv422p => (1, 0),
            _ => (0, 0),
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
            Self::Nv16 => "nv16",
            Self::P210 => "p210",
            Self::P216 => "p216",
            Self::Nv24 => "nv24",
            Self::P410 => "p410",
            Self::P416 => "p416",
            Self::Y210 => "y210",
            Self::Y410 => "y410",
            Self::Yuyv422 => "yuyv422",
            Self::Y212 => "y212",
            Self::Vuyx => "vuyx",
            Self::Xv36 => "xv36",
            Self::Yuv444pMsb => "yuv444p_msb",
            Self::Ayuv => "ayuv",
            Self::Uyvy422 => "uyvy422",
            Self::V210 => "v210",
            Self::Rgb => "rgb",
            Self::Rgba => "rgba",
            Self::Bgra => "bgra",
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
