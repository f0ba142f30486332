/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Status codes, shared enumerations and the export macro. */

#ifndef VMAFX_TYPES_H
#define VMAFX_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks a function of the library's ABI. */
#ifndef VMAFX_EXPORT
#if defined(_MSC_VER)
#define VMAFX_EXPORT __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define VMAFX_EXPORT __attribute__((visibility("default")))
#else
#define VMAFX_EXPORT
#endif
#endif

/** What every fallible call returns: 0 success, above 0 an answer, below 0 a failure. */
typedef int32_t VmafxStatus;

/** The status codes; the same on every platform. */
enum VmafxStatusCode {
    /** Success. */
    VMAFX_OK = 0,
    /** Not yet: an answer, not a failure (a fence poll, a score not final). */
    VMAFX_PENDING = 1,
    /** An argument or state is invalid; the error names it. */
    VMAFX_E_INVALID = -1,
    /** Out of memory. */
    VMAFX_E_NOMEM = -2,
    /** A backend, kind, format or option this build does not support; named. */
    VMAFX_E_NOTSUP = -3,
    /** No such feature, model, index or device. */
    VMAFX_E_NOTFOUND = -4,
    /** Transiently unavailable: an unsignalled acquire fence, an empty pool. */
    VMAFX_E_BUSY = -5,
    /** The backend runtime failed. */
    VMAFX_E_DEVICE = -6,
    /** A file or stream failed. */
    VMAFX_E_IO = -7,
    /** A value lies outside its range. */
    VMAFX_E_RANGE = -8,
    /** A library bug (a caught panic); the error names the function. */
    VMAFX_E_INTERNAL = -9,
    /** A fence was not signalled in the time allowed; the error names it. */
    VMAFX_E_TIMEOUT = -10,
    /** A struct_size below the struct's first version; the error names the struct. */
    VMAFX_E_ABI = -11,
    /**
     * A report differs from its record or a re-run; the error names the first field (ABI 0.1.5).
     */
    VMAFX_E_MISMATCH = -12,
};

/** Log verbosity (libvmaf's values). */
typedef enum VmafxLogLevel {
    VMAFX_LOG_LEVEL_NONE = 0,
    VMAFX_LOG_LEVEL_ERROR = 1,
    VMAFX_LOG_LEVEL_WARNING = 2,
    VMAFX_LOG_LEVEL_INFO = 3,
    VMAFX_LOG_LEVEL_DEBUG = 4,
} VmafxLogLevel;

/** Compute backends (libvmaf's values; 5 is reserved). */
typedef enum VmafxBackend {
    VMAFX_BACKEND_CPU = 0,
    VMAFX_BACKEND_CUDA = 1,
    VMAFX_BACKEND_SYCL = 2,
    VMAFX_BACKEND_METAL = 3,
    VMAFX_BACKEND_HIP = 4,
} VmafxBackend;

/** Feature options: string keys and values (libvmaf's feature dictionary). */
typedef struct VmafxOptions VmafxOptions;

/** Receives one log line (`level` a VmafxLogLevel); may run on any thread at once, so it must be thread-safe, and must not call back into the context. */
typedef void (*VmafxLogCallback)(uint32_t level, const char *message, void *user);

/** Pixel layouts (libvmaf's planar values; 16 and up are import-only). */
typedef enum VmafxPixelFormat {
    /** Not set; refused. */
    VMAFX_PIXEL_FORMAT_UNKNOWN = 0,
    /** Planar yuv420p (chroma rounded down, as libvmaf). */
    VMAFX_PIXEL_FORMAT_YUV420P = 1,
    /** Planar yuv422p (chroma rounded down, as libvmaf). */
    VMAFX_PIXEL_FORMAT_YUV422P = 2,
    /** Planar yuv444p (chroma rounded down, as libvmaf). */
    VMAFX_PIXEL_FORMAT_YUV444P = 3,
    /** Planar yuv400p (chroma rounded down, as libvmaf). */
    VMAFX_PIXEL_FORMAT_YUV400P = 4,
    /**
     * Semi-planar: a luma plane and one plane of interleaved Cb/Cr bytes; vmafx_frame_import()
     * only, making YUV420P at 8 bits.
     */
    VMAFX_PIXEL_FORMAT_NV12 = 16,
    /**
     * Semi-planar with 16-bit little-endian samples whose 10 bits are the most significant (shifted
     * down by 6); vmafx_frame_import() only, making YUV420P at 10 bits.
     */
    VMAFX_PIXEL_FORMAT_P010 = 17,
    /**
     * Semi-planar with 16-bit little-endian samples; vmafx_frame_import() only, making YUV420P at
     * 16 bits.
     */
    VMAFX_PIXEL_FORMAT_P016 = 18,
    /**
     * Semi-planar: a luma plane and one plane of interleaved Cb/Cr bytes; vmafx_frame_import()
     * only, making YUV422P at 8 bits.
     */
    VMAFX_PIXEL_FORMAT_NV16 = 19,
    /**
     * Semi-planar with 16-bit little-endian samples whose 10 bits are the most significant (shifted
     * down by 6); vmafx_frame_import() only, making YUV422P at 10 bits.
     */
    VMAFX_PIXEL_FORMAT_P210 = 20,
    /**
     * Semi-planar with 16-bit little-endian samples; vmafx_frame_import() only, making YUV422P at
     * 16 bits.
     */
    VMAFX_PIXEL_FORMAT_P216 = 21,
    /**
     * Semi-planar: a luma plane and one plane of interleaved Cb/Cr bytes; vmafx_frame_import()
     * only, making YUV444P at 8 bits.
     */
    VMAFX_PIXEL_FORMAT_NV24 = 22,
    /**
     * Semi-planar with 16-bit little-endian samples whose 10 bits are the most significant (shifted
     * down by 6); vmafx_frame_import() only, making YUV444P at 10 bits.
     */
    VMAFX_PIXEL_FORMAT_P410 = 23,
    /**
     * Semi-planar with 16-bit little-endian samples; vmafx_frame_import() only, making YUV444P at
     * 16 bits.
     */
    VMAFX_PIXEL_FORMAT_P416 = 24,
    /**
     * Packed 4:2:2: 16-bit words Y0 Cb Y1 Cr, the 10 bits most significant; vmafx_frame_import()
     * only, making YUV422P at 10 bits.
     */
    VMAFX_PIXEL_FORMAT_Y210 = 25,
    /**
     * Packed 4:4:4: a 32-bit word per pixel, Cb bits 0-9, Y 10-19, Cr 20-29 (XV30); the top bits
     * are not read; vmafx_frame_import() only, making YUV444P at 10 bits.
     */
    VMAFX_PIXEL_FORMAT_Y410 = 26,
    /**
     * Packed 4:2:2: bytes Y0 Cb Y1 Cr (YUY2); vmafx_frame_import() only, making YUV422P at 8 bits.
     */
    VMAFX_PIXEL_FORMAT_YUYV422 = 27,
    /**
     * Packed 4:2:2: 16-bit words Y0 Cb Y1 Cr, the 12 bits most significant; vmafx_frame_import()
     * only, making YUV422P at 12 bits.
     */
    VMAFX_PIXEL_FORMAT_Y212 = 28,
    /**
     * Packed 4:4:4: bytes Cr Cb Y X per pixel; X is not read; vmafx_frame_import() only, making
     * YUV444P at 8 bits.
     */
    VMAFX_PIXEL_FORMAT_VUYX = 29,
    /**
     * Packed 4:4:4: 16-bit words Cb Y Cr X per pixel, the 12 bits most significant;
     * vmafx_frame_import() only, making YUV444P at 12 bits.
     */
    VMAFX_PIXEL_FORMAT_XV36 = 30,
    /**
     * Planar 4:4:4 in 16-bit words whose `bpc` (9 to 16) most significant bits hold the sample;
     * vmafx_frame_import() only, making YUV444P at `bpc` bits.
     */
    VMAFX_PIXEL_FORMAT_YUV444P_MSB = 31,
    /**
     * Packed 4:4:4: bytes A Y Cb Cr per pixel; A is not read; vmafx_frame_import() only, making
     * YUV444P at 8 bits.
     */
    VMAFX_PIXEL_FORMAT_AYUV = 32,
    /** Packed 4:2:2: bytes Cb Y0 Cr Y1; vmafx_frame_import() only, making YUV422P at 8 bits. */
    VMAFX_PIXEL_FORMAT_UYVY422 = 33,
    /**
     * Packed 4:2:2: six 10-bit pixels in four 32-bit words, Cb Y Cr Y ...; rows padded as the
     * producer likes; vmafx_frame_import() only, making YUV422P at 10 bits.
     */
    VMAFX_PIXEL_FORMAT_V210 = 34,
    /**
     * Packed R'G'B' (rgb), converted with the `rgb_*` statement to YUV444P at `bpc` bits (ABI
     * 0.1.11); 8 to 16 bits (9 to 15 in 16-bit words, the sample in the low bits), full- or
     * limited-range R'G'B': within one code value of swscale (full range, 8 bits), of the exact
     * matrix up to 14 bits, two at 15 and three at 16.
     */
    VMAFX_PIXEL_FORMAT_RGB = 35,
    /**
     * Packed R'G'B' (rgba), converted with the `rgb_*` statement to YUV444P at `bpc` bits (ABI
     * 0.1.11); 8 to 16 bits (9 to 15 in 16-bit words, the sample in the low bits), full- or
     * limited-range R'G'B': within one code value of swscale (full range, 8 bits), of the exact
     * matrix up to 14 bits, two at 15 and three at 16.
     */
    VMAFX_PIXEL_FORMAT_RGBA = 36,
    /**
     * Packed R'G'B' (bgra), converted with the `rgb_*` statement to YUV444P at `bpc` bits (ABI
     * 0.1.11); 8 to 16 bits (9 to 15 in 16-bit words, the sample in the low bits), full- or
     * limited-range R'G'B': within one code value of swscale (full range, 8 bits), of the exact
     * matrix up to 14 bits, two at 15 and three at 16.
     */
    VMAFX_PIXEL_FORMAT_BGRA = 37,
} VmafxPixelFormat;

/** How a pooled score combines its frames (0 to 4 are libvmaf's enum VmafPoolingMethod values). */
typedef enum VmafxPool {
    /** No pooling: one frame's score (refused by the pooled calls). */
    VMAFX_POOL_NONE = 0,
    /** The smallest score. */
    VMAFX_POOL_MIN = 1,
    /** The largest score. */
    VMAFX_POOL_MAX = 2,
    /** The arithmetic mean. */
    VMAFX_POOL_MEAN = 3,
    /** The harmonic mean of score + 1, less one. */
    VMAFX_POOL_HARMONIC_MEAN = 4,
    /** The median (the 50th percentile). */
    VMAFX_POOL_MEDIAN = 5,
    /** The 5th percentile, interpolated linearly between the two nearest ranks. */
    VMAFX_POOL_PERC5 = 6,
    /** The 10th percentile, as VMAFX_POOL_PERC5. */
    VMAFX_POOL_PERC10 = 7,
    /** The 20th percentile, as VMAFX_POOL_PERC5. */
    VMAFX_POOL_PERC20 = 8,
} VmafxPool;

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_TYPES_H */
