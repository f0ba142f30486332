//! vmafx.h, version.h, types.h, error.h, device.h and the private hooks header.

use vmafx::device::{Backend, DEVICE_PROFILING};
use vmafx::frame::PixelFormat;
use vmafx::Status;

use crate::abi::{SubjectKind, VmafxDeviceDesc, VmafxDeviceInfo, ABI_VERSION};
use crate::header_items::{Header, Item};
use crate::{device, error_api, field, func, version};

const STD: [&str; 2] = ["<stddef.h>", "<stdint.h>"];

fn std_and(more: &[&'static str]) -> Vec<&'static str> {
    STD.iter().chain(more).copied().collect()
}

/// The umbrella header.
pub fn vmafx_h() -> Header {
    Header {
        path: "include/vmafx/vmafx.h",
        guard: "VMAFX_VMAFX_H",
        brief: "The vmafx C API: includes every public header.",
        includes: vec![
            "<vmafx/types.h>",
            "<vmafx/version.h>",
            "<vmafx/error.h>",
            "<vmafx/device.h>",
            "<vmafx/frame.h>",
            "<vmafx/model.h>",
            "<vmafx/context.h>",
            "<vmafx/score.h>",
            "<vmafx/provenance.h>",
            "<vmafx/report.h>",
            "<vmafx/mcp.h>",
            "<vmafx/dnn.h>",
        ],
        items: vec![],
    }
}

/// libvmaf_bridge.h: optional (the umbrella header does not include it).
pub fn bridge_h() -> Header {
    Header {
        path: "include/vmafx/libvmaf_bridge.h",
        guard: "VMAFX_LIBVMAF_BRIDGE_H",
        brief: "The libvmaf handle bound to a context (VMAFx's migration bridge). vmafx scores without libvmaf, so no context is bound to one and both calls answer NULL.",
        includes: vec!["<stddef.h>", "<stdint.h>", "<vmafx/vmafx.h>"],
        items: vec![
            Item::Raw("/** libvmaf's context handle, opaque here (the same declaration as libvmaf/libvmaf.h's, so both headers may be included). */\ntypedef struct VmafContext VmafContext;".into()),
            func!(crate::bridge::vmafx_context_from_libvmaf),
            func!(crate::bridge::vmafx_context_libvmaf_handle),
        ],
    }
}

/// version.h.
pub fn version_h() -> Header {
    let (ma, mi, pa) = ABI_VERSION;
    Header {
        path: "include/vmafx/version.h",
        guard: "VMAFX_VERSION_H",
        brief: "ABI version of these headers and of the loaded library.",
        includes: std_and(&["<vmafx/types.h>"]),
        items: vec![
            Item::Define {
                name: "VMAFX_ABI_VERSION_MAJOR",
                value: ma.to_string(),
                doc: "ABI major version these headers describe.",
            },
            Item::Define {
                name: "VMAFX_ABI_VERSION_MINOR",
                value: mi.to_string(),
                doc: "ABI minor version.",
            },
            Item::Define {
                name: "VMAFX_ABI_VERSION_PATCH",
                value: pa.to_string(),
                doc: "ABI patch version.",
            },
            func!(version::vmafx_version_string),
            func!(version::vmafx_abi_version),
        ],
    }
}

fn status_values() -> Vec<(String, i64, String)> {
    let docs = [
        (Status::Ok, "Success."),
        (
            Status::Pending,
            "Not yet: an answer, not a failure (a fence poll, a score not final).",
        ),
        (
            Status::Invalid,
            "An argument or state is invalid; the error names it.",
        ),
        (Status::NoMem, "Out of memory."),
        (
            Status::NotSup,
            "A backend, kind, format or option this build does not support; named.",
        ),
        (Status::NotFound, "No such feature, model, index or device."),
        (
            Status::Busy,
            "Transiently unavailable: an unsignalled acquire fence, an empty pool.",
        ),
        (Status::Device, "The backend runtime failed."),
        (Status::Io, "A file or stream failed."),
        (Status::Range, "A value lies outside its range."),
        (
            Status::Internal,
            "A library bug (a caught panic); the error names the function.",
        ),
        (
            Status::Timeout,
            "A fence was not signalled in the time allowed; the error names it.",
        ),
        (
            Status::Abi,
            "A struct_size below the struct's first version; the error names the struct.",
        ),
        (
            Status::Mismatch,
            "A report differs from its record or a re-run; the error names the first field (ABI 0.1.5).",
        ),
    ];
    docs.iter()
        .map(|(s, d)| (s.name().to_string(), s.code() as i64, d.to_string()))
        .collect()
}

fn pixel_values() -> Vec<(String, i64, String)> {
    let mut v = vec![(
        "VMAFX_PIXEL_FORMAT_UNKNOWN".to_string(),
        0,
        "Not set; refused.".to_string(),
    )];
    for &f in PixelFormat::all() {
        let (target, _) = f.import_target(0);
        let made = match f.fixed_bpc() {
            Some(b) => format!("{} at {b} bits", target.name().to_uppercase()),
            None => format!("{} at `bpc` bits", target.name().to_uppercase()),
        };
        let d = match f {
            _ if f.is_planar() => format!("Planar {} (chroma rounded down, as libvmaf).", f.name()),
            PixelFormat::Rgb | PixelFormat::Rgba | PixelFormat::Bgra => format!(
                "Packed R'G'B' ({}), converted with the `rgb_*` statement to {made} (ABI 0.1.11); 8 to 16 bits (9 to 15 in 16-bit words, the sample in the low bits), full- or limited-range R'G'B': within one code value of swscale (full range, 8 bits), of the exact matrix up to 14 bits, two at 15 and three at 16.",
                f.name()
            ),
            _ => format!(
                "{}; vmafx_frame_import() only, making {made}.",
                layout_doc(f)
            ),
        };
        v.push((
            format!("VMAFX_PIXEL_FORMAT_{}", f.name().to_uppercase()),
            f as i64,
            d,
        ));
    }
    v
}

/// How an import-only layout holds its samples, in words.
fn layout_doc(f: PixelFormat) -> &'static str {
    use PixelFormat::*;
    match f {
        Nv12 | Nv16 | Nv24 => "Semi-planar: a luma plane and one plane of interleaved Cb/Cr bytes",
        P010 | P210 | P410 => "Semi-planar with 16-bit little-endian samples whose 10 bits are the most significant (shifted down by 6)",
        P016 | P216 | P416 => "Semi-planar with 16-bit little-endian samples",
        Y210 => "Packed 4:2:2: 16-bit words Y0 Cb Y1 Cr, the 10 bits most significant",
        Y212 => "Packed 4:2:2: 16-bit words Y0 Cb Y1 Cr, the 12 bits most significant",
        Y410 => "Packed 4:4:4: a 32-bit word per pixel, Cb bits 0-9, Y 10-19, Cr 20-29 (XV30); the top bits are not read",
        Yuyv422 => "Packed 4:2:2: bytes Y0 Cb Y1 Cr (YUY2)",
        Uyvy422 => "Packed 4:2:2: bytes Cb Y0 Cr Y1",
        Vuyx => "Packed 4:4:4: bytes Cr Cb Y X per pixel; X is not read",
        Ayuv => "Packed 4:4:4: bytes A Y Cb Cr per pixel; A is not read",
        Xv36 => "Packed 4:4:4: 16-bit words Cb Y Cr X per pixel, the 12 bits most significant",
        Yuv444pMsb => "Planar 4:4:4 in 16-bit words whose `bpc` (9 to 16) most significant bits hold the sample",
        V210 => "Packed 4:2:2: six 10-bit pixels in four 32-bit words, Cb Y Cr Y ...; rows padded as the producer likes",
        _ => "A planar layout",
    }
}

/// types.h.
pub fn types_h() -> Header {
    let export = "#ifndef VMAFX_EXPORT\n#if defined(_MSC_VER)\n#define VMAFX_EXPORT __declspec(dllimport)\n#elif defined(__GNUC__) || defined(__clang__)\n#define VMAFX_EXPORT __attribute__((visibility(\"default\")))\n#else\n#define VMAFX_EXPORT\n#endif\n#endif";
    Header {
        path: "include/vmafx/types.h",
        guard: "VMAFX_TYPES_H",
        brief: "Status codes, shared enumerations and the export macro.",
        includes: STD.to_vec(),
        items: vec![
            Item::Raw(format!("/** Marks a function of the library's ABI. */\n{export}")),
            Item::Raw("/** What every fallible call returns: 0 success, above 0 an answer, below 0 a failure. */\ntypedef int32_t VmafxStatus;".into()),
            Item::Enum { name: "VmafxStatusCode", doc: "The status codes; the same on every platform.", typedef: false, values: status_values() },
            Item::Enum {
                name: "VmafxLogLevel",
                doc: "Log verbosity (libvmaf's values).",
                typedef: true,
                values: ["NONE", "ERROR", "WARNING", "INFO", "DEBUG"].iter().enumerate().map(|(i, n)| (format!("VMAFX_LOG_LEVEL_{n}"), i as i64, String::new())).collect(),
            },
            Item::Enum {
                name: "VmafxBackend",
                doc: "Compute backends (libvmaf's values; 5 is reserved).",
                typedef: true,
                values: Backend::ALL.iter().map(|b| (format!("VMAFX_BACKEND_{}", b.name().to_uppercase()), *b as i64, String::new())).collect(),
            },
            Item::Opaque { name: "VmafxOptions", doc: "Feature options: string keys and values (libvmaf's feature dictionary)." },
            Item::Raw("/** Receives one log line (`level` a VmafxLogLevel); may run on any thread at once, so it must be thread-safe, and must not call back into the context. */\ntypedef void (*VmafxLogCallback)(uint32_t level, const char *message, void *user);".into()),
            Item::Enum { name: "VmafxPixelFormat", doc: "Pixel layouts (libvmaf's planar values; 16 and up are import-only).", typedef: true, values: pixel_values() },
            Item::Enum {
                name: "VmafxPool",
                doc: "How a pooled score combines its frames (0 to 4 are libvmaf's enum VmafPoolingMethod values).",
                typedef: true,
                values: crate::score::POOL_METHODS.iter().map(|(n, v, d)| (n.to_string(), *v as i64, d.to_string())).collect(),
            },
        ],
    }
}

/// error.h.
pub fn error_h() -> Header {
    Header {
        path: "include/vmafx/error.h",
        guard: "VMAFX_ERROR_H",
        brief: "Errors that name what failed.",
        includes: std_and(&["<vmafx/types.h>"]),
        items: vec![
            Item::Enum {
                name: "VmafxSubjectKind",
                doc: "What the subject of an error names.",
                typedef: true,
                values: SubjectKind::ALL.iter().map(|(k, n)| (n.to_string(), *k as i64, String::new())).collect(),
            },
            Item::Opaque { name: "VmafxError", doc: "A failure: its status, message, subject and the function that failed. Release with vmafx_error_free()." },
            func!(error_api::vmafx_status_name),
            func!(error_api::vmafx_error_status),
            func!(error_api::vmafx_error_message),
            func!(error_api::vmafx_error_subject),
            func!(error_api::vmafx_error_errno),
            func!(error_api::vmafx_error_free),
            func!(error_api::vmafx_error_subject_kind),
            func!(error_api::vmafx_error_function),
        ],
    }
}

/// device.h.
pub fn device_h() -> Header {
    type D = VmafxDeviceDesc;
    type I = VmafxDeviceInfo;
    Header {
        path: "include/vmafx/device.h",
        guard: "VMAFX_DEVICE_H",
        brief: "Devices: counting, describing and creating them.",
        includes: std_and(&["<vmafx/types.h>", "<vmafx/error.h>"]),
        items: vec![
            Item::Define { name: "VMAFX_DEVICE_PROFILING", value: format!("(UINT32_C(1) << {}U)", DEVICE_PROFILING.trailing_zeros()), doc: "Device flag: time every kernel. The CPU has no profiler and refuses it." },
            Item::Opaque { name: "VmafxDevice", doc: "A compute device; reference-counted (frames and contexts hold references)." },
            Item::Raw("typedef struct VmafxDeviceDesc VmafxDeviceDesc;\ntypedef struct VmafxDeviceInfo VmafxDeviceInfo;".into()),
            Item::Struct {
                name: "VmafxDeviceDesc",
                doc: "Which device to create. Initialise with VMAFX_DEVICE_DESC_INIT.",
                fields: vec![
                    field!(D, struct_size, "uint32_t", "Size of the struct as the caller compiled it."),
                    field!(D, backend, "uint32_t", "A VmafxBackend; a backend this build lacks is VMAFX_E_NOTSUP."),
                    field!(D, index, "int32_t", "Device index within the backend; -1 any."),
                    field!(D, flags, "uint32_t", "VMAFX_DEVICE_* flags (ABI 0.1.2)."),
                    field!(D, external[2], "uintptr_t", "The caller's runtime objects; 0 none. The CPU takes none (ABI 0.1.2)."),
                ],
                rust_size: std::mem::size_of::<D>(),
                init: "VMAFX_DEVICE_DESC_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxDeviceInfo",
                doc: "What a device is and what it imports; grows at the end. Strings live for the process. Initialise with VMAFX_DEVICE_INFO_INIT.",
                fields: vec![
                    field!(I, struct_size, "uint32_t", "Size of the struct as the caller compiled it; the library writes no further."),
                    field!(I, backend, "uint32_t", "A VmafxBackend."),
                    field!(I, index, "int32_t", "Index within the backend; -1 for a device made from external objects."),
                    field!(I, flags, "uint32_t", "Flags the device was created with; 0 for an enumerated device."),
                    field!(I, memory_kinds, "uint32_t", "Bit 1 << k for each VmafxMemoryKind k the device imports."),
                    field!(I, fence_kinds, "uint32_t", "Bit 1 << k for each VmafxFenceKind k it waits on and signals."),
                    field!(I, total_memory, "uint64_t", "Bytes of device memory; 0 when not reported (the CPU)."),
                    field!(I, name, "const char *", "The device's name (`cpu`)."),
                    field!(I, pci[4], "uint32_t", "PCI domain, bus, device and function of the device's GPU, so a Vulkan producer can pick the same GPU; every member UINT32_MAX where there is none (the CPU). ABI 0.1.11."),
                ],
                rust_size: std::mem::size_of::<I>(),
                init: "VMAFX_DEVICE_INFO_INIT",
                init_extra: "",
            },
            func!(device::vmafx_device_create),
            func!(device::vmafx_device_ref),
            func!(device::vmafx_device_unref),
            func!(device::vmafx_device_backend),
            func!(crate::producer::vmafx_backend_name),
            func!(device::vmafx_device_count),
            func!(device::vmafx_device_info),
            func!(device::vmafx_device_describe),
            func!(device::vmafx_device_profile),
        ],
    }
}
