/* The import layouts of ABI 0.1.11 through the C face: a packed 4:2:2 frame (YUYV422) and a
 * 10-bit packed 4:4:4 frame (Y410 / XV30) read back planar, sample for sample; the descriptor
 * of 0.1.11 (344 bytes) and one a 0.1.4 caller compiled (232 bytes, read with the later fields
 * zero); the fields and kinds of 0.1.11 this build declares and refuses by name. */
#include <stdlib.h>

#include "check.h"
#include <vmafx/frame_import_hooks.h>

enum { W = 12, H = 4 };

static uint8_t yuyv[H][2 * W + 8];
static uint32_t y410[H][W];

static VmafxFrameImport packed(uint32_t pix_fmt, uint32_t bpc, const void *data, uint64_t pitch)
{
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = pix_fmt;
    imp.bpc = bpc;
    imp.w = W;
    imp.h = H;
    imp.n_planes = 1;
    imp.plane[0].handle = (uintptr_t)data;
    imp.plane[0].pitch = pitch;
    return imp;
}

static uint16_t sample(const VmafxFramePlanes *pl, int p, unsigned x, unsigned y)
{
    const uint8_t *row = (const uint8_t *)pl->data[p] + y * pl->stride[p];
    if (pl->bpc > 8) {
        uint16_t v;
        memcpy(&v, row + 2 * x, 2);
        return v;
    }
    return row[x];
}

static bool refused(const VmafxFrameImport *imp, VmafxStatus status, const char *subject,
                    uint32_t kind)
{
    VmafxFrame *frame = NULL;
    VmafxError *err = NULL;
    VmafxStatus got = vmafx_frame_import(NULL, imp, &frame, &err);
    return frame == NULL && got == status && named(&err, status, subject, kind);
}

static void yuyv_reads_back_planar(void)
{
    for (unsigned y = 0; y < H; y++) {
        for (unsigned k = 0; k < W / 2; k++) {
            yuyv[y][4 * k + 0] = (uint8_t)(16 + y * W + 2 * k);
            yuyv[y][4 * k + 1] = (uint8_t)(100 + y * 8 + k);
            yuyv[y][4 * k + 2] = (uint8_t)(16 + y * W + 2 * k + 1);
            yuyv[y][4 * k + 3] = (uint8_t)(180 + y * 8 + k);
        }
    }
    vmafx_test_reset_counters();
    VmafxFrameImport imp = packed(VMAFX_PIXEL_FORMAT_YUYV422, 8, yuyv, sizeof(yuyv[0]));
    VmafxFrame *frame = NULL;
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK && frame);
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    CHECK(vmafx_frame_planes(frame, &pl, NULL) == VMAFX_OK);
    CHECK(pl.pix_fmt == VMAFX_PIXEL_FORMAT_YUV422P && pl.bpc == 8 && pl.n_planes == 3);
    CHECK(pl.w[1] == W / 2 && pl.h[1] == H);
    bool same = true;
    for (unsigned y = 0; y < H; y++) {
        for (unsigned x = 0; x < W; x++)
            same = same && sample(&pl, 0, x, y) == 16 + y * W + x;
        for (unsigned k = 0; k < W / 2; k++)
            same = same && sample(&pl, 1, k, y) == 100 + y * 8 + k &&
                   sample(&pl, 2, k, y) == 180 + y * 8 + k;
    }
    CHECK(same);
    CHECK(vmafx_test_conversions() == 1u && vmafx_test_host_copies() == 0u);
    vmafx_frame_unref(frame);
}

static void y410_reads_back_planar_from_a_0_1_4_descriptor(void)
{
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++)
            y410[y][x] = (uint32_t)(x + 1) | (uint32_t)(64 + y * W + x) << 10 |
                         (uint32_t)(1000 - x) << 20 | 3u << 30;
    VmafxFrameImport imp = packed(VMAFX_PIXEL_FORMAT_Y410, 10, y410, sizeof(y410[0]));
    /* A 0.1.4 caller's struct ends before acquire_more: what lies past it is never read. */
    imp.struct_size = (uint32_t)offsetof(VmafxFrameImport, acquire_more);
    imp.acquire_more[0].kind = 99u;
    imp.rgb_matrix = 77u;
    VmafxFrame *frame = NULL;
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK && frame);
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    CHECK(frame && vmafx_frame_planes(frame, &pl, NULL) == VMAFX_OK);
    CHECK(pl.pix_fmt == VMAFX_PIXEL_FORMAT_YUV444P && pl.bpc == 10);
    bool same = true;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++)
            same = same && sample(&pl, 0, x, y) == 64 + y * W + x &&
                   sample(&pl, 1, x, y) == x + 1 && sample(&pl, 2, x, y) == 1000 - x;
    CHECK(same);
    vmafx_frame_unref(frame);
    /* The full 0.1.11 descriptor reads acquire_more: an unknown kind is named. */
    imp.struct_size = sizeof(VmafxFrameImport);
    CHECK(sizeof(VmafxFrameImport) == 344);
    CHECK(refused(&imp, VMAFX_E_INVALID, "desc.acquire_more[0]", VMAFX_SUBJECT_FENCE));
}

static void declared_kinds_are_refused_by_name(void)
{
    VmafxFrameImport imp = packed(VMAFX_PIXEL_FORMAT_YUYV422, 8, yuyv, sizeof(yuyv[0]));
    imp.acquire_more[1].struct_size = sizeof(VmafxFence);
    imp.acquire_more[1].kind = VMAFX_FENCE_CUDA_EVENT;
    CHECK(refused(&imp, VMAFX_E_NOTSUP, "desc.acquire_more[1]", VMAFX_SUBJECT_FENCE));
    imp.acquire_more[1].kind = VMAFX_FENCE_VULKAN_SEMAPHORE;
    CHECK(refused(&imp, VMAFX_E_NOTSUP, "desc.acquire_more[1]", VMAFX_SUBJECT_FENCE));
    imp.acquire_more[1].kind = VMAFX_FENCE_NONE;
    imp.acquire.kind = VMAFX_FENCE_VULKAN_SEMAPHORE;
    CHECK(refused(&imp, VMAFX_E_NOTSUP, "desc.acquire.kind", VMAFX_SUBJECT_FENCE));
    imp.acquire.kind = VMAFX_FENCE_NONE;
    imp.memory = VMAFX_MEMORY_VULKAN;
    imp.vulkan_handle_type = VMAFX_VULKAN_HANDLE_OPAQUE_FD;
    imp.vulkan_tiling = VMAFX_VULKAN_TILING_LINEAR;
    CHECK(refused(&imp, VMAFX_E_NOTSUP, "desc.memory", VMAFX_SUBJECT_PARAMETER));
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = VMAFX_PIXEL_FORMAT_RGBA;
    imp.rgb_matrix = VMAFX_COLOR_MATRIX_BT709;
    CHECK(refused(&imp, VMAFX_E_INVALID, "desc.rgb_range", VMAFX_SUBJECT_PARAMETER));
    imp.rgb_range = VMAFX_COLOR_RANGE_FULL;
    imp.rgb_transfer = VMAFX_COLOR_TRC_SRGB;
    imp.rgb_out_range = VMAFX_COLOR_RANGE_LIMITED;
    imp.rgb_matrix = VMAFX_COLOR_MATRIX_ICTCP;
    CHECK(refused(&imp, VMAFX_E_NOTSUP, "desc.rgb_matrix", VMAFX_SUBJECT_PARAMETER));
    imp.rgb_matrix = VMAFX_COLOR_MATRIX_BT709;
    /* The stated RGBA frame imports as Y'CbCr 4:4:4 (the YUYV bytes read as RGBA pixels). */
    imp.w = W / 2;
    VmafxFrame *frame = NULL;
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK && frame);
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    CHECK(frame && vmafx_frame_planes(frame, &pl, NULL) == VMAFX_OK &&
          pl.pix_fmt == VMAFX_PIXEL_FORMAT_YUV444P && pl.bpc == 8 && pl.w[1] == W / 2);
    vmafx_frame_unref(frame);
    imp.w = W;
    imp.pix_fmt = VMAFX_PIXEL_FORMAT_Y210;
    imp.bpc = 12;
    CHECK(refused(&imp, VMAFX_E_INVALID, "desc.bpc", VMAFX_SUBJECT_PARAMETER));
    imp.bpc = 10;
    imp.n_planes = 2;
    CHECK(refused(&imp, VMAFX_E_INVALID, "desc.n_planes", VMAFX_SUBJECT_PARAMETER));
    imp.n_planes = 1;
    imp.plane[0].pitch = 4 * W - 1; /* Y210 rows are 4 bytes a pixel */
    CHECK(refused(&imp, VMAFX_E_INVALID, "desc.plane[0].pitch", VMAFX_SUBJECT_PLANE));
}

static void the_cpu_has_no_pci_location(void)
{
    VmafxDeviceInfo info = VMAFX_DEVICE_INFO_INIT;
    CHECK(vmafx_device_info(VMAFX_BACKEND_CPU, 0, &info, NULL) == VMAFX_OK);
    CHECK(info.pci[0] == UINT32_MAX && info.pci[1] == UINT32_MAX && info.pci[2] == UINT32_MAX &&
          info.pci[3] == UINT32_MAX);
    /* A 0.1.4 caller's struct ends at `name`: nothing is written past it. */
    VmafxDeviceInfo old = VMAFX_DEVICE_INFO_INIT;
    old.struct_size = (uint32_t)offsetof(VmafxDeviceInfo, pci);
    old.pci[0] = 7u;
    CHECK(vmafx_device_info(VMAFX_BACKEND_CPU, 0, &old, NULL) == VMAFX_OK && old.pci[0] == 7u);
}

int main(void)
{
    the_cpu_has_no_pci_location();
    yuyv_reads_back_planar();
    y410_reads_back_planar_from_a_0_1_4_descriptor();
    declared_kinds_are_refused_by_name();
    printf("test_formats: %d checks, %d failed\n", check_count, check_failures);
    return check_failures ? 1 : 0;
}
