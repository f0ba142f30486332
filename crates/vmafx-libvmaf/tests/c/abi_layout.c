/* The drop-in's structs and enums have libvmaf 3.2's layout and values, so programs
 * compiled against Netflix's headers (FFmpeg writes VmafPicture fields directly) run on it. */
#include <stddef.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/version.h>

#include "check.h"

int main(void)
{
    CHECK(offsetof(VmafPicture, pix_fmt) == 0);
    CHECK(offsetof(VmafPicture, bpc) == 4);
    CHECK(offsetof(VmafPicture, w) == 8);
    CHECK(offsetof(VmafPicture, h) == 20);
    CHECK(offsetof(VmafPicture, stride) == 32);
    CHECK(offsetof(VmafPicture, data) == 56);
    CHECK(offsetof(VmafPicture, ref) == 80);
    CHECK(offsetof(VmafPicture, priv) == 88);
    CHECK(sizeof(VmafPicture) == 96);

    CHECK(offsetof(VmafConfiguration, log_level) == 0);
    CHECK(offsetof(VmafConfiguration, n_threads) == 4);
    CHECK(offsetof(VmafConfiguration, n_subsample) == 8);
    CHECK(offsetof(VmafConfiguration, cpumask) == 16);
    CHECK(offsetof(VmafConfiguration, gpumask) == 24);
    CHECK(sizeof(VmafConfiguration) == 32);

    CHECK(offsetof(VmafModelConfig, name) == 0);
    CHECK(offsetof(VmafModelConfig, flags) == 8);
    CHECK(sizeof(VmafModelConfig) == 16);

    CHECK(offsetof(VmafModelCollectionScore, type) == 0);
    CHECK(offsetof(VmafModelCollectionScore, bootstrap.bagging_score) == 8);
    CHECK(offsetof(VmafModelCollectionScore, bootstrap.stddev) == 16);
    CHECK(offsetof(VmafModelCollectionScore, bootstrap.ci.p95.lo) == 24);
    CHECK(offsetof(VmafModelCollectionScore, bootstrap.ci.p95.hi) == 32);
    CHECK(sizeof(VmafModelCollectionScore) == 40);

    CHECK(offsetof(VmafPictureConfiguration, pic_params.w) == 0);
    CHECK(offsetof(VmafPictureConfiguration, pic_params.pix_fmt) == 12);
    CHECK(offsetof(VmafPictureConfiguration, pic_cnt) == 16);
    CHECK(sizeof(VmafPictureConfiguration) == 20);

    CHECK(VMAF_PIX_FMT_YUV420P == 1 && VMAF_PIX_FMT_YUV400P == 4);
    CHECK(VMAF_LOG_LEVEL_DEBUG == 4);
    CHECK(VMAF_OUTPUT_FORMAT_XML == 1 && VMAF_OUTPUT_FORMAT_JSON == 2);
    CHECK(VMAF_OUTPUT_FORMAT_CSV == 3 && VMAF_OUTPUT_FORMAT_SUB == 4);
    CHECK(VMAF_POOL_METHOD_MIN == 1 && VMAF_POOL_METHOD_HARMONIC_MEAN == 4);
    CHECK(VMAF_POOL_METHOD_NB == 5);
    CHECK(VMAF_MODEL_FLAG_DISABLE_CLIP == 1 && VMAF_MODEL_FLAG_ENABLE_TRANSFORM == 2);
    CHECK(VMAF_MODEL_FLAG_DISABLE_TRANSFORM == 4);
    CHECK(VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP == 1);
    CHECK(VMAF_API_VERSION_MAJOR == 3 && VMAF_API_VERSION_MINOR == 2);
    CHECK(strcmp(vmaf_version(), "3.2.0") == 0);
    return check_report("abi_layout");
}
