/* Reports (report.h, ABI 0.1.5): the JSON report carries the record and verifies on its
 * own and against a re-run; a changed score or record field is named. Files go to the
 * directory the suite runs in. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static VmafxFrame *frame(unsigned seed)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = 64;
    d.h = 48;
    VmafxFrame *f = NULL;
    if (vmafx_frame_create_host(NULL, &d, &f, NULL) != VMAFX_OK)
        abort();
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    if (vmafx_frame_planes(f, &pl, NULL) != VMAFX_OK)
        abort();
    for (uint32_t p = 0; p < pl.n_planes; p++) {
        uint8_t *row = pl.data[p];
        for (uint32_t y = 0; y < pl.h[p]; y++, row += pl.stride[p])
            for (uint32_t x = 0; x < pl.w[p]; x++)
                row[x] = (uint8_t)(x * 7 + y * 3 + seed * 13);
    }
    return f;
}

static void write_report(const char *path, uint32_t format, const char *sf, unsigned shift)
{
    VmafxContext *ctx = NULL;
    VmafxOptions *o = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_options_set(&o, "enable_mse", "true", NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", o, NULL) == VMAFX_OK);
    CHECK(vmafx_context_annotate(ctx, "input", "gradient", NULL) == VMAFX_OK);
    for (unsigned i = 0; i < 3; i++)
        CHECK(vmafx_submit(ctx, frame(i), frame(i + 5 + shift * (i == 2)), i, NULL) == VMAFX_OK);
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_report_write(ctx, path, format, 0, sf, NULL) == VMAFX_OK);
    vmafx_options_free(o);
    vmafx_context_destroy(ctx, NULL);
}

static VmafxStatus verify(const char *a, const char *b, char *field, size_t n)
{
    VmafxReportFile *ra = NULL, *rb = NULL;
    CHECK(vmafx_report_open(a, &ra, NULL) == VMAFX_OK);
    if (b)
        CHECK(vmafx_report_open(b, &rb, NULL) == VMAFX_OK);
    VmafxError *err = NULL;
    VmafxStatus s = vmafx_report_verify(ra, rb, &err);
    field[0] = '\0';
    if (err)
        snprintf(field, n, "%s", vmafx_error_subject(err));
    vmafx_error_free(err);
    vmafx_report_close(ra);
    vmafx_report_close(rb);
    return s;
}

int main(void)
{
    char field[128];
    write_report("report_a.json", VMAFX_REPORT_FORMAT_JSON, "%.17g", 0);
    write_report("report_b.json", VMAFX_REPORT_FORMAT_JSON, "%.17g", 0);
    write_report("report_c.json", VMAFX_REPORT_FORMAT_JSON, "%.17g", 1);
    VmafxReportFile *r = NULL;
    CHECK(vmafx_report_open("report_a.json", &r, NULL) == VMAFX_OK);
    CHECK(strcmp(vmafx_report_field(r, "score_format"), "%.17g") == 0);
    CHECK(strcmp(vmafx_report_field(r, "backend_used"), "cpu") == 0);
    CHECK(strcmp(vmafx_report_field(r, "provenance.annotations[0].value"), "gradient") == 0);
    CHECK(strcmp(vmafx_report_field(r, "provenance.features[0].feature"), "mse_cb") == 0);
    CHECK(vmafx_report_field(r, "frames[2].metrics.psnr_y") != NULL);
    CHECK(vmafx_report_field(r, "frames[3].metrics.psnr_y") == NULL);
    CHECK(vmafx_report_field(r, "frames") == NULL);
    vmafx_report_close(r);
    CHECK(verify("report_a.json", NULL, field, sizeof field) == VMAFX_OK);
    CHECK(verify("report_a.json", "report_b.json", field, sizeof field) == VMAFX_OK);
    /* Another distorted frame 2: its first score differs, named. */
    CHECK(verify("report_a.json", "report_c.json", field, sizeof field) == VMAFX_E_MISMATCH);
    CHECK(strncmp(field, "frames[2].metrics.", 18) == 0);
    /* %.6f is not lossless: no score digest check, the record's digest still holds. */
    write_report("report_d.json", VMAFX_REPORT_FORMAT_JSON, NULL, 0);
    CHECK(verify("report_d.json", NULL, field, sizeof field) == VMAFX_OK);
    /* XML carries the record before </VMAF>. */
    write_report("report_a.xml", VMAFX_REPORT_FORMAT_XML, NULL, 0);
    FILE *f = fopen("report_a.xml", "rb");
    char text[65536] = {0};
    CHECK(f && fread(text, 1, sizeof text - 1, f) > 0);
    if (f)
        fclose(f);
    CHECK(strstr(text, "<provenance abi_major=") && strstr(text, "</provenance>\n</VMAF>"));
    return check_finish("test_report");
}
