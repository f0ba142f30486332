/* One picture in both worlds: a libvmaf picture viewed as a libvmafx frame and back, without
 * a copy, each side holding its own reference (ASan checks the lifetimes). */
#include <errno.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <vmafx/libvmaf_frame_bridge.h>

#include "check.h"
#include "pictures.h"

#define W 64
#define H 48

int main(void)
{
    VmafxFrame *frame = NULL;
    VmafPicture pic, back, zero;
    memset(&zero, 0, sizeof(zero));

    EXPECT(vmafx_frame_from_picture(NULL, &frame, NULL), VMAFX_E_INVALID);
    EXPECT(vmafx_frame_from_picture(&zero, &frame, NULL), VMAFX_E_INVALID);
    CHECK(frame == NULL);
    EXPECT(vmafx_frame_to_picture(NULL, &back, NULL), VMAFX_E_INVALID);

    EXPECT(pattern_picture(&pic, 8, W, H, 0, 0), 0);
    EXPECT(vmafx_frame_from_picture(&pic, &frame, NULL), VMAFX_OK);
    CHECK(frame != NULL);
    EXPECT(vmafx_frame_to_picture(frame, NULL, NULL), VMAFX_E_INVALID);
    EXPECT(vmafx_frame_to_picture(frame, &back, NULL), VMAFX_OK);
    /* The same samples, not a copy. */
    CHECK(back.data[0] == pic.data[0] && back.data[2] == pic.data[2]);
    CHECK(back.w[0] == W && back.h[1] == H / 2 && back.stride[0] == pic.stride[0]);
    const unsigned char first = ((unsigned char *)pic.data[0])[5];
    /* Each holder lets go independently; the samples live until the last one. */
    EXPECT(vmaf_picture_unref(&pic), 0);
    vmafx_frame_unref(frame);
    CHECK(((unsigned char *)back.data[0])[5] == first);

    /* The bridged picture scores like any other. */
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE};
    VmafContext *vmaf = NULL;
    EXPECT(vmaf_init(&vmaf, cfg), 0);
    EXPECT(vmaf_use_feature(vmaf, "psnr", NULL), 0);
    VmafPicture dist;
    EXPECT(pattern_picture(&dist, 8, W, H, 0, 2), 0);
    EXPECT(vmaf_read_pictures(vmaf, &back, &dist, 0), 0);
    EXPECT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
    double psnr = 0;
    EXPECT(vmaf_feature_score_at_index(vmaf, "psnr_y", &psnr, 0), 0);
    CHECK(psnr > 10 && psnr < 100);
    EXPECT(vmaf_close(vmaf), 0);

    /* A libvmaf model seen as a libvmafx model, and back. */
    CHECK(vmafx_model_from_libvmaf(NULL) == NULL);
    CHECK(vmafx_model_libvmaf_handle(NULL) == NULL);
    VmafModelConfig mcfg = {.name = "vmaf"};
    VmafModel *model = NULL;
    EXPECT(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"), 0);
    VmafxModel *xm = vmafx_model_from_libvmaf(model);
    CHECK(xm != NULL && vmafx_model_from_libvmaf(model) == xm);
    CHECK(vmafx_model_libvmaf_handle(xm) == model);
    CHECK(strcmp(vmafx_model_name(xm), "vmaf") == 0);
    CHECK(vmafx_model_feature_count(xm) == 6);
    VmafFeatureDictionary *d = NULL;
    EXPECT(vmaf_feature_dictionary_set(&d, "motion_force_zero", "true"), 0);
    EXPECT(vmaf_model_feature_overload(model, "motion", d), -EBUSY);
    EXPECT(vmaf_feature_dictionary_free(&d), 0);
    VmafxModel *kept = vmafx_model_ref(xm);
    vmaf_model_destroy(model);
    CHECK(vmafx_model_libvmaf_handle(kept) == NULL); /* the handle is gone, the model is not */
    CHECK(strcmp(vmafx_model_name(kept), "vmaf") == 0);
    vmafx_model_unref(kept);

    /* A model loaded by libvmafx has no libvmaf handle. */
    VmafxModel *native = NULL;
    EXPECT(vmafx_model_load(NULL, "vmaf_v0.6.1", &native, NULL), VMAFX_OK);
    CHECK(native && vmafx_model_libvmaf_handle(native) == NULL);
    vmafx_model_unref(native);

    /* Collections and sets. */
    VmafModelCollection *coll = NULL;
    EXPECT(vmaf_model_collection_load(&model, &coll, &mcfg, "vmaf_b_v0.6.3"), 0);
    VmafxModelSet *set = vmafx_model_set_from_libvmaf(coll);
    CHECK(set != NULL && vmafx_model_set_from_libvmaf(coll) == set);
    CHECK(vmafx_model_set_libvmaf_handle(set) == coll);
    CHECK(vmafx_model_set_size(set) > 1);
    CHECK(vmafx_model_set_from_libvmaf(NULL) == NULL && vmafx_model_set_libvmaf_handle(NULL) == NULL);
    vmaf_model_collection_destroy(coll);
    vmaf_model_destroy(model);
    return check_report("test_bridge");
}
