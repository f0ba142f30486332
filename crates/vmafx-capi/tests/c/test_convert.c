/* Frame converters (ABI 0.1.6) through the C face: depth and range conversions of host
 * frames sample for sample, a frame an RGB import made converted further, what this build
 * does not convert refused naming the field, and a frame of another geometry refused
 * naming `src`. */
#include <stdlib.h>

#include "check.h"

enum { W = 10, H = 6 };

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

/* An 8-bit 4:2:0 host frame whose samples run through every byte value. */
static VmafxFrame *host420(void)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    VmafxFrame *f = NULL;
    if (vmafx_frame_create_host(NULL, &d, &f, NULL) != VMAFX_OK)
        abort();
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    if (vmafx_frame_planes(f, &pl, NULL) != VMAFX_OK)
        abort();
    for (unsigned p = 0; p < pl.n_planes; p++)
        for (unsigned y = 0; y < pl.h[p]; y++)
            for (unsigned x = 0; x < pl.w[p]; x++)
                ((uint8_t *)pl.data[p])[y * pl.stride[p] + x] = (uint8_t)((y * 37 + x * 11 + p * 5) * 3);
    return f;
}

static VmafxConvertDesc desc(uint32_t src_bpc, uint32_t dst_bpc)
{
    VmafxConvertDesc d = VMAFX_CONVERT_DESC_INIT;
    d.src_pix_fmt = d.dst_pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.src_bpc = src_bpc;
    d.dst_bpc = dst_bpc;
    d.src_w = W;
    d.src_h = H;
    return d;
}

static VmafxFrame *converted(const VmafxConvertDesc *d, VmafxFrame *src)
{
    VmafxFrameConverter *c = NULL;
    VmafxFrame *out = NULL;
    CHECK(vmafx_frame_converter_create(d, &c, NULL) == VMAFX_OK && c);
    CHECK(c && vmafx_frame_convert(c, src, &out, NULL) == VMAFX_OK && out);
    CHECK(vmafx_frame_converter_destroy(c, NULL) == VMAFX_OK);
    return out;
}

static void limited_depth_changes_are_shifts(void)
{
    VmafxFrame *src = host420();
    VmafxConvertDesc d = desc(8, 10);
    VmafxFrame *ten = converted(&d, src);
    VmafxFramePlanes a = VMAFX_FRAME_PLANES_INIT, b = VMAFX_FRAME_PLANES_INIT;
    CHECK(vmafx_frame_planes(src, &a, NULL) == VMAFX_OK);
    CHECK(ten && vmafx_frame_planes(ten, &b, NULL) == VMAFX_OK);
    CHECK(b.pix_fmt == VMAFX_PIXEL_FORMAT_YUV420P && b.bpc == 10 && b.w[0] == W && b.h[1] == H / 2);
    unsigned wrong = 0;
    for (int p = 0; p < 3; p++)
        for (unsigned y = 0; y < a.h[p]; y++)
            for (unsigned x = 0; x < a.w[p]; x++)
                wrong += sample(&b, p, x, y) != (uint16_t)(sample(&a, p, x, y) << 2);
    CHECK(wrong == 0);
    /* And back to the same 8-bit samples. */
    VmafxConvertDesc back = desc(10, 8);
    VmafxFrame *eight = converted(&back, ten);
    VmafxFramePlanes c = VMAFX_FRAME_PLANES_INIT;
    CHECK(eight && vmafx_frame_planes(eight, &c, NULL) == VMAFX_OK && c.bpc == 8);
    for (int p = 0; p < 3; p++)
        for (unsigned y = 0; y < a.h[p]; y++)
            wrong += memcmp((const uint8_t *)a.data[p] + y * a.stride[p],
                            (const uint8_t *)c.data[p] + y * c.stride[p], a.w[p]) != 0;
    CHECK(wrong == 0);
    vmafx_frame_unref(eight);
    vmafx_frame_unref(ten);
    vmafx_frame_unref(src);
}

static void full_range_to_limited(void)
{
    VmafxFrame *src = host420();
    VmafxConvertDesc d = desc(8, 8);
    d.src_color.range = VMAFX_COLOR_RANGE_FULL;
    d.dst_color.range = VMAFX_COLOR_RANGE_LIMITED;
    VmafxFrame *out = converted(&d, src);
    VmafxFramePlanes a = VMAFX_FRAME_PLANES_INIT, b = VMAFX_FRAME_PLANES_INIT;
    CHECK(vmafx_frame_planes(src, &a, NULL) == VMAFX_OK);
    CHECK(out && vmafx_frame_planes(out, &b, NULL) == VMAFX_OK);
    unsigned wrong = 0;
    for (int p = 0; p < 3; p++) {
        for (unsigned y = 0; y < a.h[p]; y++) {
            for (unsigned x = 0; x < a.w[p]; x++) {
                /* luma 16 + 219 v / 255, chroma 128 + 224 (v - 128) / 255, rounded half up. */
                const int v = sample(&a, p, x, y);
                const int num = p == 0 ? 219 * v : 224 * (v - 128);
                const int q = (2 * num + 255 + 2 * 255 * 1000) / (2 * 255) - 1000;
                const int want = (p == 0 ? 16 : 128) + q;
                wrong += sample(&b, p, x, y) != want;
            }
        }
    }
    CHECK(wrong == 0);
    vmafx_frame_unref(out);
    vmafx_frame_unref(src);
}

/* A frame an RGB import made (Y'CbCr 4:4:4) is a host frame like any other. */
static void an_imported_rgb_frame_converts(void)
{
    static uint8_t rgb[H][3 * W];
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < 3 * W; x++)
            rgb[y][x] = (uint8_t)(x * 9 + y * 31);
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = VMAFX_PIXEL_FORMAT_RGB;
    imp.bpc = 8;
    imp.w = W;
    imp.h = H;
    imp.n_planes = 1;
    imp.plane[0].handle = (uintptr_t)rgb;
    imp.plane[0].pitch = sizeof(rgb[0]);
    imp.rgb_matrix = VMAFX_COLOR_MATRIX_BT601;
    imp.rgb_range = VMAFX_COLOR_RANGE_LIMITED;
    imp.rgb_transfer = VMAFX_COLOR_TRC_BT709;
    imp.rgb_out_range = VMAFX_COLOR_RANGE_LIMITED;
    VmafxFrame *yuv = NULL;
    CHECK(vmafx_frame_import(NULL, &imp, &yuv, NULL) == VMAFX_OK && yuv);
    VmafxConvertDesc d = desc(8, 12);
    d.src_pix_fmt = d.dst_pix_fmt = VMAFX_PIXEL_FORMAT_YUV444P;
    d.src_color.matrix = d.dst_color.matrix = VMAFX_COLOR_MATRIX_BT601;
    VmafxFrame *out = converted(&d, yuv);
    VmafxFramePlanes a = VMAFX_FRAME_PLANES_INIT, b = VMAFX_FRAME_PLANES_INIT;
    CHECK(yuv && vmafx_frame_planes(yuv, &a, NULL) == VMAFX_OK);
    CHECK(out && vmafx_frame_planes(out, &b, NULL) == VMAFX_OK && b.bpc == 12);
    unsigned wrong = 0;
    for (int p = 0; p < 3; p++)
        for (unsigned x = 0; x < W; x++)
            wrong += sample(&b, p, x, H - 1) != (uint16_t)(sample(&a, p, x, H - 1) << 4);
    CHECK(wrong == 0);
    vmafx_frame_unref(out);
    vmafx_frame_unref(yuv);
}

static bool refused(const VmafxConvertDesc *d, VmafxStatus status, const char *subject)
{
    VmafxFrameConverter *c = NULL;
    VmafxError *err = NULL;
    VmafxStatus got = vmafx_frame_converter_create(d, &c, &err);
    return c == NULL && got == status && named(&err, status, subject, VMAFX_SUBJECT_PARAMETER);
}

static void what_is_not_converted_is_refused_by_field(void)
{
    VmafxConvertDesc d = desc(8, 8);
    d.dst_w = 2 * W;
    CHECK(refused(&d, VMAFX_E_NOTSUP, "desc.dst_w"));
    d = desc(8, 8);
    d.dst_pix_fmt = VMAFX_PIXEL_FORMAT_YUV444P;
    CHECK(refused(&d, VMAFX_E_NOTSUP, "desc.dst_pix_fmt"));
    d = desc(8, 8);
    d.src_pix_fmt = VMAFX_PIXEL_FORMAT_NV12;
    CHECK(refused(&d, VMAFX_E_NOTSUP, "desc.src_pix_fmt"));
    d = desc(8, 8);
    d.src_color.primaries = VMAFX_COLOR_PRIMARIES_BT709;
    d.dst_color.primaries = VMAFX_COLOR_PRIMARIES_BT2020;
    CHECK(refused(&d, VMAFX_E_NOTSUP, "desc.dst_color.primaries"));
    d = desc(8, 8);
    d.src_color.trc = VMAFX_COLOR_TRC_BT709;
    d.dst_color.trc = VMAFX_COLOR_TRC_SMPTE2084;
    CHECK(refused(&d, VMAFX_E_NOTSUP, "desc.dst_color.trc"));
    d = desc(8, 8);
    d.src_color.matrix = VMAFX_COLOR_MATRIX_BT601;
    d.dst_color.matrix = VMAFX_COLOR_MATRIX_BT709;
    CHECK(refused(&d, VMAFX_E_NOTSUP, "desc.dst_color.matrix"));
    d = desc(8, 17);
    CHECK(refused(&d, VMAFX_E_INVALID, "desc.dst_bpc"));
    d = desc(8, 8);
    d.filter = VMAFX_RESAMPLE_LANCZOS + 1;
    CHECK(refused(&d, VMAFX_E_INVALID, "desc.filter"));
    d = desc(8, 8);
    d.dst_color.range = 3;
    CHECK(refused(&d, VMAFX_E_INVALID, "desc.dst_color.range"));

    /* A frame of another geometry than the converter's. */
    d = desc(10, 8);
    VmafxFrameConverter *c = NULL;
    CHECK(vmafx_frame_converter_create(&d, &c, NULL) == VMAFX_OK && c);
    VmafxFrame *src = host420();
    VmafxFrame *out = NULL;
    VmafxError *err = NULL;
    CHECK(vmafx_frame_convert(c, src, &out, &err) == VMAFX_E_INVALID && out == NULL);
    CHECK(named(&err, VMAFX_E_INVALID, "src", VMAFX_SUBJECT_PARAMETER));
    vmafx_frame_unref(src);
    CHECK(vmafx_frame_converter_destroy(c, NULL) == VMAFX_OK);
}

int main(void)
{
    limited_depth_changes_are_shifts();
    full_range_to_limited();
    an_imported_rgb_frame_converts();
    what_is_not_converted_is_refused_by_field();
    return check_finish("test_convert");
}
