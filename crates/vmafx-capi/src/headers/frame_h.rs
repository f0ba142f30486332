//! frame.h: memory and fence kinds, fences, imports, host frames, pools.

use vmafx::fence::FenceKind;
use vmafx::frame::import::IMPORT_ALLOW_COPY;
use vmafx::frame::MemoryKind;

use crate::abi::{
    VmafxColor, VmafxConvertDesc, VmafxFence, VmafxFrameDesc, VmafxFrameImport, VmafxFramePlanes,
    VmafxHostPlanes, VmafxImportPlane, FENCE_GL_SYNC, FENCE_VULKAN_SEMAPHORE, MEMORY_GL_TEXTURE,
    MEMORY_VULKAN, VULKAN_DEDICATED, VULKAN_HANDLE_TYPES, VULKAN_TILINGS,
};
use crate::header_items::{Header, Item};
use crate::{converter, fence, field, frame, func, import, pool};

fn memory_values() -> Vec<(String, i64, String)> {
    let mut v: Vec<_> = (0..8)
        .filter_map(MemoryKind::from_u32)
        .map(|k| {
            let d = match k {
                MemoryKind::None => "Not set; refused.",
                MemoryKind::Host => "Host memory: `handle` is the plane's allocation, `offset` the bytes to its first sample. Imported by the CPU without a copy.",
                _ => "Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build.",
            };
            (k.name().to_string(), k as i64, d.to_string())
        })
        .collect();
    v.push((
        "VMAFX_MEMORY_GL_TEXTURE".into(),
        MEMORY_GL_TEXTURE as i64,
        "An OpenGL texture per plane (ABI 0.1.4); refused by this build.".into(),
    ));
    v.push((
        "VMAFX_MEMORY_VULKAN".into(),
        MEMORY_VULKAN as i64,
        "Memory a Vulkan producer exported, described with the `vulkan_*` fields (ABI 0.1.11); refused by this build.".into(),
    ));
    v
}

fn fence_values() -> Vec<(String, i64, String)> {
    let mut v: Vec<_> = (0..8)
        .filter_map(FenceKind::from_u32)
        .map(|k| {
            let d = match k {
                FenceKind::None => "No fence: what it would order is done.",
                FenceKind::Host => {
                    "A host fence of the library (vmafx_fence_create()); `handle` names it."
                }
                _ => "Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build.",
            };
            (k.name().to_string(), k as i64, d.to_string())
        })
        .collect();
    v.push((
        "VMAFX_FENCE_GL_SYNC".into(),
        FENCE_GL_SYNC as i64,
        "An OpenGL sync object (ABI 0.1.4); refused by this build.".into(),
    ));
    v.push((
        "VMAFX_FENCE_VULKAN_SEMAPHORE".into(),
        FENCE_VULKAN_SEMAPHORE as i64,
        "A Vulkan timeline semaphore exported as `fd`, signalled at `value` (ABI 0.1.11); refused by this build.".into(),
    ));
    v
}

/// The Vulkan enumerations of ABI 0.1.11: declared so a producer's descriptor compiles;
/// VULKAN memory is refused by this build. The values are Vulkan's own.
fn vulkan_enums() -> Vec<Item> {
    let named = |v: &[(&str, i64)]| -> Vec<(String, i64, String)> {
        v.iter()
            .map(|(n, x)| (n.to_string(), *x, String::new()))
            .collect()
    };
    vec![
        Item::Enum {
            name: "VmafxVulkanHandleType",
            doc: "How VULKAN memory was exported (the VkExternalMemoryHandleTypeFlagBits bit). ABI 0.1.11.",
            typedef: true,
            values: named(&VULKAN_HANDLE_TYPES),
        },
        Item::Enum {
            name: "VmafxVulkanTiling",
            doc: "Tiling of a VULKAN image (the VkImageTiling value). ABI 0.1.11.",
            typedef: true,
            values: named(&VULKAN_TILINGS),
        },
        Item::Define {
            name: "VMAFX_VULKAN_DEDICATED",
            value: format!("(UINT32_C(1) << {}U)", VULKAN_DEDICATED.trailing_zeros()),
            doc: "VmafxVulkanFlags: the memory is a dedicated allocation of its image. ABI 0.1.11.",
        },
    ]
}

/// The colour enumerations (ABI 0.1.6, with the RGB import's values appended in 0.1.11)
/// and the scaling filter of a converter.
fn colour_enums() -> Vec<Item> {
    let named = |prefix: &str, v: &[(&str, &str)]| -> Vec<(String, i64, String)> {
        v.iter()
            .enumerate()
            .map(|(i, (n, d))| (format!("{prefix}{n}"), i as i64, d.to_string()))
            .collect()
    };
    vec![
        Item::Enum {
            name: "VmafxColorRange",
            doc: "Code-value range of a signal (ABI 0.1.6).",
            typedef: true,
            values: named(
                "VMAFX_COLOR_RANGE_",
                &[
                    ("UNKNOWN", "Not stated: an RGB import refuses it; a converter takes the other side's, else limited."),
                    ("LIMITED", "Studio swing: 16 to 235 (luma, R'G'B'), 16 to 240 (chroma), times 2^(bpc - 8)."),
                    ("FULL", "Full swing: 0 to 2^bpc - 1."),
                ],
            ),
        },
        Item::Enum {
            name: "VmafxColorPrimaries",
            doc: "Colour primaries (ABI 0.1.6).",
            typedef: true,
            values: named(
                "VMAFX_COLOR_PRIMARIES_",
                &[
                    ("UNKNOWN", "Not stated."),
                    ("BT709", "ITU-R BT.709."),
                    ("BT2020", "ITU-R BT.2020."),
                    ("SMPTE432", "SMPTE ST 432-1 (D65)."),
                ],
            ),
        },
        Item::Enum {
            name: "VmafxColorTransfer",
            doc: "Transfer characteristic (ABI 0.1.6; SRGB, HLG and LINEAR 0.1.11). An RGB import checks it and does not apply it.",
            typedef: true,
            values: named(
                "VMAFX_COLOR_TRC_",
                &[
                    ("UNKNOWN", "Not stated; an RGB import refuses it."),
                    ("BT709", "ITU-R BT.709 (also BT.601 and BT.2020 SDR)."),
                    ("SMPTE2084", "SMPTE ST 2084 (PQ)."),
                    ("SRGB", "IEC 61966-2-1."),
                    ("HLG", "ARIB STD-B67 (HLG)."),
                    ("LINEAR", "Linear light: declared; an RGB import refuses it (encode the samples first)."),
                ],
            ),
        },
        Item::Enum {
            name: "VmafxColorMatrix",
            doc: "Y'CbCr matrix coefficients (ABI 0.1.6; BT601 and BT2020_CL 0.1.11).",
            typedef: true,
            values: named(
                "VMAFX_COLOR_MATRIX_",
                &[
                    ("UNKNOWN", "Not stated; an RGB import refuses it: the matrix is never guessed."),
                    ("BT709", "ITU-R BT.709."),
                    ("BT2020_NCL", "ITU-R BT.2020 non-constant luminance."),
                    ("ICTCP", "ICtCp: declared, refused."),
                    ("BT601", "ITU-R BT.601."),
                    ("BT2020_CL", "ITU-R BT.2020 constant luminance: declared, refused."),
                ],
            ),
        },
        Item::Enum {
            name: "VmafxResampleFilter",
            doc: "Scaling filter of a frame converter (ABI 0.1.6). This build has no scaler: the filter is checked, and a converter to another size is refused.",
            typedef: true,
            values: named(
                "VMAFX_RESAMPLE_",
                &[
                    ("DEFAULT", "The converter's default."),
                    ("BILINEAR", "Bilinear."),
                    ("BICUBIC", "Bicubic."),
                    ("LANCZOS", "Lanczos."),
                ],
            ),
        },
    ]
}

fn structs() -> Vec<Item> {
    type F = VmafxFence;
    type P = VmafxImportPlane;
    type I = VmafxFrameImport;
    type D = VmafxFrameDesc;
    type H = VmafxHostPlanes;
    type Q = VmafxFramePlanes;
    type C = VmafxColor;
    type V = VmafxConvertDesc;
    let size = "Size of the struct as the caller compiled it; set by the _INIT macro.";
    vec![
        Item::Struct {
            name: "VmafxFence",
            doc: "A fence between a producer and the library; embedded by value in VmafxFrameImport, so it never grows. A fence the library returns is the caller's to release once with vmafx_fence_destroy(). Initialise with VMAFX_FENCE_INIT.",
            fields: vec![
                field!(F, struct_size, "uint32_t", size),
                field!(F, kind, "uint32_t", "A VmafxFenceKind; the other fields are read as it says."),
                field!(F, handle, "uintptr_t", "The host fence, event or shared object; 0 for NONE."),
                field!(F, value, "uint64_t", "Value a timeline fence reaches when signalled; 0 otherwise."),
                field!(F, fd, "int32_t", "sync_file descriptor (SYNC_FILE)."),
                field!(F, reserved, "uint32_t", "Zero."),
            ],
            rust_size: std::mem::size_of::<F>(),
            init: "VMAFX_FENCE_INIT",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxImportPlane",
            doc: "Where one plane of an imported frame lives; embedded in VmafxFrameImport, never grows. Fields a memory kind does not use are ignored.",
            fields: vec![
                field!(P, handle, "uintptr_t", "Address (HOST) or device handle."),
                field!(P, fd, "int32_t", "dma-buf descriptor (DMABUF)."),
                field!(P, plane_index, "uint32_t", "Plane of a multi-plane object."),
                field!(P, offset, "uint64_t", "Bytes from `handle` to the plane's first sample."),
                field!(P, pitch, "uint64_t", "Bytes from one row to the next; at least a row's bytes."),
                field!(P, modifier, "uint64_t", "Format modifier; 0 linear. Host memory is linear only."),
                field!(P, size, "uint64_t", "Bytes of the memory object; 0 not given. When set, every row must lie inside it."),
            ],
            rust_size: std::mem::size_of::<P>(),
            init: "",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxFrameImport",
            doc: "A frame the producer holds in memory a device reads. Initialise with VMAFX_FRAME_IMPORT_INIT: a zeroed descriptor requires zero copy.",
            fields: vec![
                field!(I, struct_size, "uint32_t", size),
                field!(I, memory, "uint32_t", "A VmafxMemoryKind: what each plane's handle is."),
                field!(I, pix_fmt, "uint32_t", "A VmafxPixelFormat; the semi-planar, packed and MSB layouts are converted to planar (a gather and a shift), the planar ones bound as they are; RGB, RGBA and BGRA are converted to Y'CbCr 4:4:4 with the `rgb_*` statement (8 to 16 bits, full- or limited-range R'G'B')."),
                field!(I, bpc, "uint32_t", "Bits per component: the one depth of a semi-planar or packed layout (see VmafxPixelFormat), 9 to 16 for YUV444P_MSB, 8 to 16 for the planar formats."),
                field!(I, w, "uint32_t", "Luma width."),
                field!(I, h, "uint32_t", "Luma height."),
                field!(I, n_planes, "uint32_t", "Planes given: 1 for YUV400P and the packed layouts, 2 for the semi-planar layouts (luma, interleaved chroma), else 3."),
                field!(I, plane[3], "VmafxImportPlane", "The planes; entries past `n_planes` are ignored."),
                field!(I, acquire, "VmafxFence", "Signalled when the planes are written; borrowed for the call. NONE: written. An unsignalled fence the CPU cannot wait on is VMAFX_E_BUSY."),
                field!(I, flags, "uint32_t", "VMAFX_IMPORT_* bits; 0 zero copy only."),
                field!(I, release, "VmafxFrameReleaseCallback", "Called once, where the last reference goes, after the release fence is signalled; NULL none (ABI 0.1.4)."),
                field!(I, user, "void *", "Passed to `release` (ABI 0.1.4)."),
                field!(I, acquire_more[2], "VmafxFence", "Further acquire fences of a frame written under several timelines; NONE: none. The CPU device waits on one acquire fence only and refuses any set here, naming it (ABI 0.1.11)."),
                field!(I, vulkan_handle_type, "uint32_t", "A VmafxVulkanHandleType: how VULKAN memory was exported; ignored for other memory (ABI 0.1.11)."),
                field!(I, vulkan_tiling, "uint32_t", "A VmafxVulkanTiling of VULKAN memory (ABI 0.1.11)."),
                field!(I, vulkan_flags, "uint32_t", "VMAFX_VULKAN_* bits of VULKAN memory (ABI 0.1.11)."),
                field!(I, vulkan_pci[4], "uint32_t", "PCI domain, bus, device and function of the GPU that holds VULKAN memory (ABI 0.1.11)."),
                field!(I, rgb_matrix, "uint32_t", "RGB layouts only: the VmafxColorMatrix of the Y'CbCr made; ignored for every other layout (ABI 0.1.11)."),
                field!(I, rgb_range, "uint32_t", "RGB layouts only: the VmafxColorRange of the R'G'B' samples (ABI 0.1.11)."),
                field!(I, rgb_transfer, "uint32_t", "RGB layouts only: the VmafxColorTransfer of the R'G'B' samples (ABI 0.1.11)."),
                field!(I, rgb_out_range, "uint32_t", "RGB layouts only: the VmafxColorRange of the Y'CbCr frame made (ABI 0.1.11)."),
            ],
            rust_size: std::mem::size_of::<I>(),
            init: "VMAFX_FRAME_IMPORT_INIT",
            init_extra: ", .acquire = VMAFX_FENCE_INIT",
        },
        Item::Struct {
            name: "VmafxFrameDesc",
            doc: "Geometry of a host frame. Initialise with VMAFX_FRAME_DESC_INIT.",
            fields: vec![
                field!(D, struct_size, "uint32_t", size),
                field!(D, pix_fmt, "uint32_t", "A planar VmafxPixelFormat."),
                field!(D, bpc, "uint32_t", "Bits per component, 8 to 16; above 8 a sample is a uint16_t."),
                field!(D, w, "uint32_t", "Luma width."),
                field!(D, h, "uint32_t", "Luma height."),
            ],
            rust_size: std::mem::size_of::<D>(),
            init: "VMAFX_FRAME_DESC_INIT",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxHostPlanes",
            doc: "The caller's host planes a wrapped frame borrows. Initialise with VMAFX_HOST_PLANES_INIT.",
            fields: vec![
                field!(H, struct_size, "uint32_t", size),
                field!(H, data[3], "void *", "First sample of each plane; NULL for planes the format lacks."),
                field!(H, stride[3], "uint64_t", "Bytes from one row to the next."),
                field!(H, release, "VmafxFrameReleaseCallback", "Called once when the library stops reading the planes; NULL none."),
                field!(H, user, "void *", "Passed to `release`."),
            ],
            rust_size: std::mem::size_of::<H>(),
            init: "VMAFX_HOST_PLANES_INIT",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxFramePlanes",
            doc: "Where the samples of a frame are; the pointers live as long as the frame. Chroma sizes are rounded down as libvmaf's.",
            fields: vec![
                field!(Q, struct_size, "uint32_t", size),
                field!(Q, pix_fmt, "uint32_t", "A planar VmafxPixelFormat."),
                field!(Q, bpc, "uint32_t", "Bits per component."),
                field!(Q, n_planes, "uint32_t", "Planes in use: 1 YUV400P, else 3."),
                field!(Q, w[3], "uint32_t", "Width of each plane in samples."),
                field!(Q, h[3], "uint32_t", "Height of each plane in rows."),
                field!(Q, stride[3], "uint64_t", "Bytes from one row to the next."),
                field!(Q, data[3], "void *", "First sample of each plane; NULL past `n_planes`."),
            ],
            rust_size: std::mem::size_of::<Q>(),
            init: "VMAFX_FRAME_PLANES_INIT",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxColor",
            doc: "The colour of a frame; embedded by value, never grows (ABI 0.1.6).",
            fields: vec![
                field!(C, range, "uint32_t", "A VmafxColorRange."),
                field!(C, primaries, "uint32_t", "A VmafxColorPrimaries."),
                field!(C, trc, "uint32_t", "A VmafxColorTransfer."),
                field!(C, matrix, "uint32_t", "A VmafxColorMatrix."),
            ],
            rust_size: std::mem::size_of::<C>(),
            init: "",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxConvertDesc",
            doc: "What a frame converter reads and writes. Initialise with VMAFX_CONVERT_DESC_INIT (ABI 0.1.6).",
            fields: vec![
                field!(V, struct_size, "uint32_t", size),
                field!(V, src_pix_fmt, "uint32_t", "The planar VmafxPixelFormat read (a producer layout is made planar by vmafx_frame_import)."),
                field!(V, src_bpc, "uint32_t", "Bits per component read, 8 to 16."),
                field!(V, src_w, "uint32_t", "Luma width read."),
                field!(V, src_h, "uint32_t", "Luma height read."),
                field!(V, src_color, "VmafxColor", "Colour read; an UNKNOWN member is the written one's (the range: limited when neither is stated)."),
                field!(V, dst_pix_fmt, "uint32_t", "The VmafxPixelFormat written; this build: the one read."),
                field!(V, dst_bpc, "uint32_t", "Bits per component written, 8 to 16."),
                field!(V, dst_w, "uint32_t", "Luma width written; 0 the source's (this build has no scaler)."),
                field!(V, dst_h, "uint32_t", "Luma height written; 0 the source's."),
                field!(V, dst_color, "VmafxColor", "Colour written: this build converts the range; other primaries, transfer or matrix are VMAFX_E_NOTSUP naming the member."),
                field!(V, filter, "uint32_t", "A VmafxResampleFilter."),
            ],
            rust_size: std::mem::size_of::<V>(),
            init: "VMAFX_CONVERT_DESC_INIT",
            init_extra: "",
        },
    ]
}

fn functions() -> Vec<Item> {
    vec![
        func!(frame::vmafx_frame_create_host),
        func!(frame::vmafx_frame_wrap_host),
        func!(frame::vmafx_frame_planes),
        func!(frame::vmafx_frame_ref),
        func!(frame::vmafx_frame_unref),
        func!(import::vmafx_frame_import),
        func!(frame::vmafx_frame_release_fence),
        func!(crate::producer::vmafx_frame_signal_on_release),
        func!(fence::vmafx_fence_create),
        func!(fence::vmafx_fence_signal),
        func!(fence::vmafx_fence_wait),
        func!(fence::vmafx_fence_destroy),
        func!(pool::vmafx_frame_pool_create),
        func!(pool::vmafx_frame_pool_acquire),
        func!(pool::vmafx_frame_pool_destroy),
        func!(converter::vmafx_frame_converter_create),
        func!(converter::vmafx_frame_convert),
        func!(converter::vmafx_frame_converter_destroy),
    ]
}

/// frame.h.
pub fn frame_h() -> Header {
    let mut items = vec![
        Item::Enum { name: "VmafxMemoryKind", doc: "What a VmafxImportPlane handle refers to. Every kind is declared; this build imports HOST.", typedef: true, values: memory_values() },
        Item::Enum { name: "VmafxFenceKind", doc: "What a VmafxFence is. Every kind is declared; this build implements NONE and HOST.", typedef: true, values: fence_values() },
        Item::Define { name: "VMAFX_IMPORT_ALLOW_COPY", value: format!("(UINT32_C(1) << {}U)", IMPORT_ALLOW_COPY.trailing_zeros()), doc: "Import flag: a layout the device cannot bind may be copied on the device (never a host copy of device memory). Without it, zero copy is required." },
        Item::Opaque { name: "VmafxFrame", doc: "The pixels of one picture; reference-counted, submitted to any number of contexts." },
        Item::Opaque { name: "VmafxFramePool", doc: "Frames of one geometry allocated once and reused; a frame returns where its last reference goes." },
        Item::Opaque { name: "VmafxFrameConverter", doc: "Converts host frames of one geometry and colour into another (ABI 0.1.6)." },
        Item::Raw("typedef struct VmafxFence VmafxFence;\ntypedef struct VmafxImportPlane VmafxImportPlane;\ntypedef struct VmafxFrameImport VmafxFrameImport;\ntypedef struct VmafxFrameDesc VmafxFrameDesc;\ntypedef struct VmafxHostPlanes VmafxHostPlanes;\ntypedef struct VmafxFramePlanes VmafxFramePlanes;\ntypedef struct VmafxColor VmafxColor;\ntypedef struct VmafxConvertDesc VmafxConvertDesc;".into()),
        Item::Raw("/** Called once, on any thread, when the library has stopped reading a frame's planes. */\ntypedef void (*VmafxFrameReleaseCallback)(void *user);".into()),
    ];
    items.extend(vulkan_enums());
    items.extend(colour_enums());
    items.extend(structs());
    items.extend(functions());
    Header {
        path: "include/vmafx/frame.h",
        guard: "VMAFX_FRAME_H",
        brief: "Frames: host frames, imports of producer memory, fences, pools.",
        includes: vec![
            "<stddef.h>",
            "<stdint.h>",
            "<vmafx/types.h>",
            "<vmafx/error.h>",
            "<vmafx/device.h>",
        ],
        items,
    }
}
