/* libvmaf 3.2.0 C API, as implemented by vmafx's drop-in (crates/vmafx-libvmaf). */

#ifndef VMAFX_LIBVMAF_PICTURE_H
#define VMAFX_LIBVMAF_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

/* The reference count behind an allocated picture (opaque). */
typedef struct VmafRef VmafRef;

/* A planar picture. Callers write samples through data[] and stride[] (bytes per row);
 * samples deeper than 8 bits take two bytes each. */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* Allocates the planes of a w x h picture of pix_fmt with bpc bits per sample. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt, unsigned bpc,
                       unsigned w, unsigned h);

/* Drops the caller's reference and clears *pic. */
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_PICTURE_H */
