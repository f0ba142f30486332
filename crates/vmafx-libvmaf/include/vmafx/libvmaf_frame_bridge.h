/* VMAFx ABI 0.1.11's bridge between libvmaf's pictures, models and collections and
 * libvmafx's frames, models and sets, as implemented by
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

/* The libvmafx model of a libvmaf model: made on the first call from the model as it then is,
 * owned by the libvmaf handle (take a reference with vmafx_model_ref to outlive it); feature
 * overloads on the libvmaf handle are refused (-EBUSY) from then on. NULL for NULL. */
VmafxModel *vmafx_model_from_libvmaf(VmafModel *model);

/* The libvmaf handle a model came from, while it lives; NULL for a model loaded by libvmafx. */
VmafModel *vmafx_model_libvmaf_handle(VmafxModel *model);

/* As vmafx_model_from_libvmaf, for a collection and a model set. */
VmafxModelSet *vmafx_model_set_from_libvmaf(VmafModelCollection *collection);

/* As vmafx_model_libvmaf_handle, for a model set. */
VmafModelCollection *vmafx_model_set_libvmaf_handle(VmafxModelSet *set);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_FRAME_BRIDGE_H */
