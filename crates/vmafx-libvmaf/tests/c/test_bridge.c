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
    return check_report("test_bridge");
}
