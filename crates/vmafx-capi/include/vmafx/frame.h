/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Frames: host frames, imports of producer memory, fences, pools. */

#ifndef VMAFX_FRAME_H
#define VMAFX_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>
#include <vmafx/device.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a VmafxImportPlane handle refers to. Every kind is declared; this build imports HOST. */
typedef enum VmafxMemoryKind {
    /** Not set; refused. */
    VMAFX_MEMORY_NONE = 0,
    /**
     * Host memory: `handle` is the plane's allocation, `offset` the bytes to its first sample.
     * Imported by the CPU without a copy.
     */
    VMAFX_MEMORY_HOST = 1,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_MEMORY_DEVICE_POINTER = 2,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_MEMORY_DEVICE_ARRAY = 3,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_MEMORY_DMABUF = 4,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_MEMORY_METAL_SURFACE = 5,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_MEMORY_METAL_TEXTURE = 6,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_MEMORY_WIN32_SHARED = 7,
    /** An OpenGL texture per plane (ABI 0.1.4); refused by this build. */
    VMAFX_MEMORY_GL_TEXTURE = 8,
    /**
     * Memory a Vulkan producer exported, described with the `vulkan_*` fields (ABI 0.1.11); refused
     * by this build.
     */
    VMAFX_MEMORY_VULKAN = 9,
} VmafxMemoryKind;

/** What a VmafxFence is. Every kind is declared; this build implements NONE and HOST. */
typedef enum VmafxFenceKind {
    /** No fence: what it would order is done. */
    VMAFX_FENCE_NONE = 0,
    /** A host fence of the library (vmafx_fence_create()); `handle` names it. */
    VMAFX_FENCE_HOST = 1,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_FENCE_CUDA_EVENT = 2,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_FENCE_HIP_EVENT = 3,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_FENCE_SYCL_EVENT = 4,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_FENCE_SYNC_FILE = 5,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_FENCE_METAL_SHARED_EVENT = 6,
    /** Declared for a backend lane; refused (VMAFX_E_NOTSUP) by this build. */
    VMAFX_FENCE_WIN32_SHARED = 7,
    /** An OpenGL sync object (ABI 0.1.4); refused by this build. */
    VMAFX_FENCE_GL_SYNC = 8,
    /**
     * A Vulkan timeline semaphore exported as `fd`, signalled at `value` (ABI 0.1.11); refused by
     * this build.
     */
    VMAFX_FENCE_VULKAN_SEMAPHORE = 9,
} VmafxFenceKind;

/**
 * Import flag: a layout the device cannot bind may be copied on the device (never a host copy of
 * device memory). Without it, zero copy is required.
 */
#define VMAFX_IMPORT_ALLOW_COPY (UINT32_C(1) << 0U)

/** The pixels of one picture; reference-counted, submitted to any number of contexts. */
typedef struct VmafxFrame VmafxFrame;

/**
 * Frames of one geometry allocated once and reused; a frame returns where its last reference goes.
 */
typedef struct VmafxFramePool VmafxFramePool;

/** Converts host frames of one geometry and colour into another (ABI 0.1.6). */
typedef struct VmafxFrameConverter VmafxFrameConverter;

typedef struct VmafxFence VmafxFence;
typedef struct VmafxImportPlane VmafxImportPlane;
typedef struct VmafxFrameImport VmafxFrameImport;
typedef struct VmafxFrameDesc VmafxFrameDesc;
typedef struct VmafxHostPlanes VmafxHostPlanes;
typedef struct VmafxFramePlanes VmafxFramePlanes;
typedef struct VmafxColor VmafxColor;
typedef struct VmafxConvertDesc VmafxConvertDesc;

/** Called once, on any thread, when the library has stopped reading a frame's planes. */
typedef void (*VmafxFrameReleaseCallback)(void *user);

/** How VULKAN memory was exported (the VkExternalMemoryHandleTypeFlagBits bit). ABI 0.1.11. */
typedef enum VmafxVulkanHandleType {
    VMAFX_VULKAN_HANDLE_OPAQUE_FD = 1,
    VMAFX_VULKAN_HANDLE_OPAQUE_WIN32 = 2,
    VMAFX_VULKAN_HANDLE_OPAQUE_WIN32_KMT = 4,
    VMAFX_VULKAN_HANDLE_DMA_BUF = 512,
} VmafxVulkanHandleType;

/** Tiling of a VULKAN image (the VkImageTiling value). ABI 0.1.11. */
typedef enum VmafxVulkanTiling {
    VMAFX_VULKAN_TILING_OPTIMAL = 0,
    VMAFX_VULKAN_TILING_LINEAR = 1,
    VMAFX_VULKAN_TILING_DRM_FORMAT_MODIFIER = 1000158000,
} VmafxVulkanTiling;

/** VmafxVulkanFlags: the memory is a dedicated allocation of its image. ABI 0.1.11. */
#define VMAFX_VULKAN_DEDICATED (UINT32_C(1) << 0U)

/** Code-value range of a signal (ABI 0.1.6). */
typedef enum VmafxColorRange {
    /** Not stated: an RGB import refuses it; a converter takes the other side's, else limited. */
    VMAFX_COLOR_RANGE_UNKNOWN = 0,
    /** Studio swing: 16 to 235 (luma, R'G'B'), 16 to 240 (chroma), times 2^(bpc - 8). */
    VMAFX_COLOR_RANGE_LIMITED = 1,
    /** Full swing: 0 to 2^bpc - 1. */
    VMAFX_COLOR_RANGE_FULL = 2,
} VmafxColorRange;

/** Colour primaries (ABI 0.1.6). */
typedef enum VmafxColorPrimaries {
    /** Not stated. */
    VMAFX_COLOR_PRIMARIES_UNKNOWN = 0,
    /** ITU-R BT.709. */
    VMAFX_COLOR_PRIMARIES_BT709 = 1,
    /** ITU-R BT.2020. */
    VMAFX_COLOR_PRIMARIES_BT2020 = 2,
    /** SMPTE ST 432-1 (D65). */
    VMAFX_COLOR_PRIMARIES_SMPTE432 = 3,
} VmafxColorPrimaries;

/**
 * Transfer characteristic (ABI 0.1.6; SRGB, HLG and LINEAR 0.1.11). An RGB import checks it and
 * does not apply it.
 */
typedef enum VmafxColorTransfer {
    /** Not stated; an RGB import refuses it. */
    VMAFX_COLOR_TRC_UNKNOWN = 0,
    /** ITU-R BT.709 (also BT.601 and BT.2020 SDR). */
    VMAFX_COLOR_TRC_BT709 = 1,
    /** SMPTE ST 2084 (PQ). */
    VMAFX_COLOR_TRC_SMPTE2084 = 2,
    /** IEC 61966-2-1. */
    VMAFX_COLOR_TRC_SRGB = 3,
    /** ARIB STD-B67 (HLG). */
    VMAFX_COLOR_TRC_HLG = 4,
    /** Linear light: declared; an RGB import refuses it (encode the samples first). */
    VMAFX_COLOR_TRC_LINEAR = 5,
} VmafxColorTransfer;

/** Y'CbCr matrix coefficients (ABI 0.1.6; BT601 and BT2020_CL 0.1.11). */
typedef enum VmafxColorMatrix {
    /** Not stated; an RGB import refuses it: the matrix is never guessed. */
    VMAFX_COLOR_MATRIX_UNKNOWN = 0,
    /** ITU-R BT.709. */
    VMAFX_COLOR_MATRIX_BT709 = 1,
    /** ITU-R BT.2020 non-constant luminance. */
    VMAFX_COLOR_MATRIX_BT2020_NCL = 2,
    /** ICtCp: declared, refused. */
    VMAFX_COLOR_MATRIX_ICTCP = 3,
    /** ITU-R BT.601. */
    VMAFX_COLOR_MATRIX_BT601 = 4,
    /** ITU-R BT.2020 constant luminance: declared, refused. */
    VMAFX_COLOR_MATRIX_BT2020_CL = 5,
} VmafxColorMatrix;

/**
 * Scaling filter of a frame converter (ABI 0.1.6). This build has no scaler: the filter is checked,
 * and a converter to another size is refused.
 */
typedef enum VmafxResampleFilter {
    /** The converter's default. */
    VMAFX_RESAMPLE_DEFAULT = 0,
    /** Bilinear. */
    VMAFX_RESAMPLE_BILINEAR = 1,
    /** Bicubic. */
    VMAFX_RESAMPLE_BICUBIC = 2,
    /** Lanczos. */
    VMAFX_RESAMPLE_LANCZOS = 3,
} VmafxResampleFilter;

/**
 * A fence between a producer and the library; embedded by value in VmafxFrameImport, so it never
 * grows. A fence the library returns is the caller's to release once with vmafx_fence_destroy().
 * Initialise with VMAFX_FENCE_INIT.
 */
struct VmafxFence {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** A VmafxFenceKind; the other fields are read as it says. */
    uint32_t kind;
    /** The host fence, event or shared object; 0 for NONE. */
    uintptr_t handle;
    /** Value a timeline fence reaches when signalled; 0 otherwise. */
    uint64_t value;
    /** sync_file descriptor (SYNC_FILE). */
    int32_t fd;
    /** Zero. */
    uint32_t reserved;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_FENCE_INIT {.struct_size = sizeof(VmafxFence)}

/**
 * Where one plane of an imported frame lives; embedded in VmafxFrameImport, never grows. Fields a
 * memory kind does not use are ignored.
 */
struct VmafxImportPlane {
    /** Address (HOST) or device handle. */
    uintptr_t handle;
    /** dma-buf descriptor (DMABUF). */
    int32_t fd;
    /** Plane of a multi-plane object. */
    uint32_t plane_index;
    /** Bytes from `handle` to the plane's first sample. */
    uint64_t offset;
    /** Bytes from one row to the next; at least a row's bytes. */
    uint64_t pitch;
    /** Format modifier; 0 linear. Host memory is linear only. */
    uint64_t modifier;
    /** Bytes of the memory object; 0 not given. When set, every row must lie inside it. */
    uint64_t size;
};

/**
 * A frame the producer holds in memory a device reads. Initialise with VMAFX_FRAME_IMPORT_INIT: a
 * zeroed descriptor requires zero copy.
 */
struct VmafxFrameImport {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** A VmafxMemoryKind: what each plane's handle is. */
    uint32_t memory;
    /**
     * A VmafxPixelFormat; the semi-planar, packed and MSB layouts are converted to planar (a gather
     * and a shift), the planar ones bound as they are; RGB, RGBA and BGRA are converted to Y'CbCr
     * 4:4:4 with the `rgb_*` statement (8 to 16 bits, full- or limited-range R'G'B').
     */
    uint32_t pix_fmt;
    /**
     * Bits per component: the one depth of a semi-planar or packed layout (see VmafxPixelFormat), 9
     * to 16 for YUV444P_MSB, 8 to 16 for the planar formats.
     */
    uint32_t bpc;
    /** Luma width. */
    uint32_t w;
    /** Luma height. */
    uint32_t h;
    /**
     * Planes given: 1 for YUV400P and the packed layouts, 2 for the semi-planar layouts (luma,
     * interleaved chroma), else 3.
     */
    uint32_t n_planes;
    /** The planes; entries past `n_planes` are ignored. */
    VmafxImportPlane plane[3];
    /**
     * Signalled when the planes are written; borrowed for the call. NONE: written. An unsignalled
     * fence the CPU cannot wait on is VMAFX_E_BUSY.
     */
    VmafxFence acquire;
    /** VMAFX_IMPORT_* bits; 0 zero copy only. */
    uint32_t flags;
    /**
     * Called once, where the last reference goes, after the release fence is signalled; NULL none
     * (ABI 0.1.4).
     */
    VmafxFrameReleaseCallback release;
    /** Passed to `release` (ABI 0.1.4). */
    void *user;
    /**
     * Further acquire fences of a frame written under several timelines; NONE: none. The CPU device
     * waits on one acquire fence only and refuses any set here, naming it (ABI 0.1.11).
     */
    VmafxFence acquire_more[2];
    /**
     * A VmafxVulkanHandleType: how VULKAN memory was exported; ignored for other memory (ABI
     * 0.1.11).
     */
    uint32_t vulkan_handle_type;
    /** A VmafxVulkanTiling of VULKAN memory (ABI 0.1.11). */
    uint32_t vulkan_tiling;
    /** VMAFX_VULKAN_* bits of VULKAN memory (ABI 0.1.11). */
    uint32_t vulkan_flags;
    /** PCI domain, bus, device and function of the GPU that holds VULKAN memory (ABI 0.1.11). */
    uint32_t vulkan_pci[4];
    /**
     * RGB layouts only: the VmafxColorMatrix of the Y'CbCr made; ignored for every other layout
     * (ABI 0.1.11).
     */
    uint32_t rgb_matrix;
    /** RGB layouts only: the VmafxColorRange of the R'G'B' samples (ABI 0.1.11). */
    uint32_t rgb_range;
    /** RGB layouts only: the VmafxColorTransfer of the R'G'B' samples (ABI 0.1.11). */
    uint32_t rgb_transfer;
    /** RGB layouts only: the VmafxColorRange of the Y'CbCr frame made (ABI 0.1.11). */
    uint32_t rgb_out_range;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_FRAME_IMPORT_INIT {.struct_size = sizeof(VmafxFrameImport), .acquire = VMAFX_FENCE_INIT}

/** Geometry of a host frame. Initialise with VMAFX_FRAME_DESC_INIT. */
struct VmafxFrameDesc {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** A planar VmafxPixelFormat. */
    uint32_t pix_fmt;
    /** Bits per component, 8 to 16; above 8 a sample is a uint16_t. */
    uint32_t bpc;
    /** Luma width. */
    uint32_t w;
    /** Luma height. */
    uint32_t h;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_FRAME_DESC_INIT {.struct_size = sizeof(VmafxFrameDesc)}

/** The caller's host planes a wrapped frame borrows. Initialise with VMAFX_HOST_PLANES_INIT. */
struct VmafxHostPlanes {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** First sample of each plane; NULL for planes the format lacks. */
    void *data[3];
    /** Bytes from one row to the next. */
    uint64_t stride[3];
    /** Called once when the library stops reading the planes; NULL none. */
    VmafxFrameReleaseCallback release;
    /** Passed to `release`. */
    void *user;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_HOST_PLANES_INIT {.struct_size = sizeof(VmafxHostPlanes)}

/**
 * Where the samples of a frame are; the pointers live as long as the frame. Chroma sizes are
 * rounded down as libvmaf's.
 */
struct VmafxFramePlanes {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** A planar VmafxPixelFormat. */
    uint32_t pix_fmt;
    /** Bits per component. */
    uint32_t bpc;
    /** Planes in use: 1 YUV400P, else 3. */
    uint32_t n_planes;
    /** Width of each plane in samples. */
    uint32_t w[3];
    /** Height of each plane in rows. */
    uint32_t h[3];
    /** Bytes from one row to the next. */
    uint64_t stride[3];
    /** First sample of each plane; NULL past `n_planes`. */
    void *data[3];
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_FRAME_PLANES_INIT {.struct_size = sizeof(VmafxFramePlanes)}

/** The colour of a frame; embedded by value, never grows (ABI 0.1.6). */
struct VmafxColor {
    /** A VmafxColorRange. */
    uint32_t range;
    /** A VmafxColorPrimaries. */
    uint32_t primaries;
    /** A VmafxColorTransfer. */
    uint32_t trc;
    /** A VmafxColorMatrix. */
    uint32_t matrix;
};

/** What a frame converter reads and writes. Initialise with VMAFX_CONVERT_DESC_INIT (ABI 0.1.6). */
struct VmafxConvertDesc {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /**
     * The planar VmafxPixelFormat read (a producer layout is made planar by vmafx_frame_import).
     */
    uint32_t src_pix_fmt;
    /** Bits per component read, 8 to 16. */
    uint32_t src_bpc;
    /** Luma width read. */
    uint32_t src_w;
    /** Luma height read. */
    uint32_t src_h;
    /**
     * Colour read; an UNKNOWN member is the written one's (the range: limited when neither is
     * stated).
     */
    VmafxColor src_color;
    /** The VmafxPixelFormat written; this build: the one read. */
    uint32_t dst_pix_fmt;
    /** Bits per component written, 8 to 16. */
    uint32_t dst_bpc;
    /** Luma width written; 0 the source's (this build has no scaler). */
    uint32_t dst_w;
    /** Luma height written; 0 the source's. */
    uint32_t dst_h;
    /**
     * Colour written: this build converts the range; other primaries, transfer or matrix are
     * VMAFX_E_NOTSUP naming the member.
     */
    VmafxColor dst_color;
    /** A VmafxResampleFilter. */
    uint32_t filter;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_CONVERT_DESC_INIT {.struct_size = sizeof(VmafxConvertDesc)}

/**
 * A zeroed host frame (`device` NULL: the CPU); fill it through vmafx_frame_planes() before the
 * first submit. The caller holds one reference.
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_create_host(VmafxDevice *device, const VmafxFrameDesc *desc,
                                                 VmafxFrame **out, VmafxError **error);

/**
 * A host frame over the caller's planes without a copy; they stay valid and unchanged until
 * `planes.release` runs, once. On failure it is not called.
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_wrap_host(VmafxDevice *device, const VmafxFrameDesc *desc,
                                               const VmafxHostPlanes *planes, VmafxFrame **out,
                                               VmafxError **error);

/** Describes the planes of a frame. */
VMAFX_EXPORT VmafxStatus vmafx_frame_planes(const VmafxFrame *frame, VmafxFramePlanes *out,
                                            VmafxError **error);

/** One more reference (one more count of the frame); returns `frame` (NULL for NULL). */
VMAFX_EXPORT VmafxFrame *vmafx_frame_ref(VmafxFrame *frame);

/**
 * Drops one reference; the last one anywhere signals the release fence and returns a pool frame.
 * NULL is a no-op.
 */
VMAFX_EXPORT void vmafx_frame_unref(VmafxFrame *frame);

/**
 * A frame on the producer's memory without a host copy. Refusals name the field
 * (`desc.plane[1].pitch`); a memory kind the device does not bind is VMAFX_E_NOTSUP; an unsignalled
 * acquire fence is VMAFX_E_BUSY. The memory stays valid and unchanged until the release fence is
 * signalled. `*out` is NULL on failure.
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_import(VmafxDevice *device, const VmafxFrameImport *desc,
                                            VmafxFrame **out, VmafxError **error);

/**
 * A HOST fence signalled where the frame's last reference goes, in any context or caller; every
 * call returns a reference the caller destroys (one fence per frame).
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_release_fence(VmafxFrame *frame, uint32_t kind,
                                                   VmafxFence *out, VmafxError **error);

/**
 * Signals the producer's `fence` (borrowed; the library takes a reference) where the frame's last
 * reference goes, behind its last reader in every context and before its release callback. HOST
 * fences on the CPU device, at most 3 per frame (another: VMAFX_E_RANGE naming `fence`); another
 * kind is VMAFX_E_NOTSUP naming `fence.kind`. ABI 0.1.11.
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_signal_on_release(VmafxFrame *frame, const VmafxFence *fence,
                                                       VmafxError **error);

/** A new, unsignalled HOST fence for a producer to signal; the caller destroys it. */
VMAFX_EXPORT VmafxStatus vmafx_fence_create(VmafxDevice *device, uint32_t kind, VmafxFence *out,
                                            VmafxError **error);

/** Signals a HOST fence; signalling twice is harmless. */
VMAFX_EXPORT VmafxStatus vmafx_fence_signal(const VmafxFence *fence, VmafxError **error);

/**
 * Waits on the host: VMAFX_OK, or VMAFX_E_TIMEOUT naming the fence after `timeout_ns` (UINT64_MAX:
 * no limit). A timeout of 0 polls: unsignalled is VMAFX_PENDING, with no error and no log line.
 * NONE is signalled.
 */
VMAFX_EXPORT VmafxStatus vmafx_fence_wait(const VmafxFence *fence, uint64_t timeout_ns,
                                          VmafxError **error);

/** Drops the reference a returned fence carries; once per fence. NONE is a no-op. */
VMAFX_EXPORT VmafxStatus vmafx_fence_destroy(const VmafxFence *fence, VmafxError **error);

/** Allocates `count` (1 to 1024) frames of a planar geometry once. */
VMAFX_EXPORT VmafxStatus vmafx_frame_pool_create(VmafxDevice *device, const VmafxFrameDesc *desc,
                                                 uint32_t count, VmafxFramePool **out,
                                                 VmafxError **error);

/**
 * A free frame with one reference; its planes keep their last content. VMAFX_E_BUSY naming `pool`
 * when all are in use.
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_pool_acquire(VmafxFramePool *pool, VmafxFrame **out,
                                                  VmafxError **error);

/**
 * Drops the caller's pool; frames in use stay valid and the pool goes with the last of them. NULL
 * is a no-op.
 */
VMAFX_EXPORT void vmafx_frame_pool_destroy(VmafxFramePool *pool);

/**
 * A converter for planar host frames of `desc.src_*` (ABI 0.1.6). This build converts the bit depth
 * and the range, each sample exactly and rounded once; another size, chroma layout, primaries,
 * transfer or matrix is VMAFX_E_NOTSUP naming the field, a value that is none VMAFX_E_INVALID
 * naming it.
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_converter_create(const VmafxConvertDesc *desc,
                                                      VmafxFrameConverter **out,
                                                      VmafxError **error);

/**
 * Converts host frame `src` (read only; the converter's geometry, else VMAFX_E_INVALID naming
 * `src`) into a new host frame with one reference the caller holds (ABI 0.1.6).
 */
VMAFX_EXPORT VmafxStatus vmafx_frame_convert(VmafxFrameConverter *converter, const VmafxFrame *src,
                                             VmafxFrame **out, VmafxError **error);

/** Releases a converter; VMAFX_E_INVALID naming `converter` for NULL (ABI 0.1.6). */
VMAFX_EXPORT VmafxStatus vmafx_frame_converter_destroy(VmafxFrameConverter *converter,
                                                       VmafxError **error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_FRAME_H */
