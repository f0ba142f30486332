/* VMAFx ABI 0.1.11's bridge between libvmaf pictures and libvmafx frames, as implemented by
 * vmafx's libvmaf drop-in (crates/vmafx-libvmaf; the functions live in libvmaf.so.3, which
 * also exports libvmafx's API). Each call takes a new reference and leaves the caller's. */

#ifndef VMAFX_LIBVMAF_FRAME_BRIDGE_H
#define VMAFX_LIBVMAF_FRAME_BRIDGE_H

#include <libvmaf/libvmaf.h>
#include <vmafx/vmafx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A new frame viewing the planes of `picture` (allocated by libvmaf), without a copy. */
VmafxStatus vmafx_frame_from_picture(VmafPicture *picture, VmafxFrame **out,
                                     VmafxError **error);

/* `picture` becomes a view of `frame`'s planes holding a new reference to the frame;
 * vmaf_picture_unref or vmaf_read_pictures releases it. Host frames only. */
VmafxStatus vmafx_frame_to_picture(VmafxFrame *frame, VmafPicture *picture, VmafxError **error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_FRAME_BRIDGE_H */
