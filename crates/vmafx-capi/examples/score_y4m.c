/* score_y4m: VMAF of two 8-bit 4:2:0 y4m files through libvmafx, printed as libvmaf's `vmaf`
 * tool prints it:
 *
 *     score_y4m REFERENCE.y4m DISTORTED.y4m
 *     vmaf_v0.6.1: 73.343961
 *
 * The steps every libvmafx program takes: load a model, make a context that uses it, submit
 * each pair of frames (host frames filled from the files here), flush, read the pooled score.
 * Build it (docs/C.md): cc score_y4m.c $(pkg-config --cflags --libs vmafx) -o score_y4m */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vmafx/vmafx.h>

/* One y4m input: its file and picture size. */
typedef struct Y4m {
    FILE *file;
    unsigned w, h;
} Y4m;

/* Opens `path` and reads its header; only 8-bit 4:2:0 progressive input is taken. */
static int y4m_open(Y4m *y, const char *path)
{
    char line[512];
    y->file = fopen(path, "rb");
    if (!y->file || !fgets(line, sizeof line, y->file) || strncmp(line, "YUV4MPEG2 ", 10) != 0) {
        fprintf(stderr, "%s: not a y4m file\n", path);
        return -1;
    }
    y->w = y->h = 0;
    for (char *t = strtok(line + 10, " \n"); t; t = strtok(NULL, " \n")) {
        if (t[0] == 'W')
            y->w = (unsigned)strtoul(t + 1, NULL, 10);
        else if (t[0] == 'H')
            y->h = (unsigned)strtoul(t + 1, NULL, 10);
        else if ((t[0] == 'C' && strncmp(t, "C420", 4) != 0) || (t[0] == 'I' && t[1] != 'p')) {
            fprintf(stderr, "%s: %s: this example reads 8-bit 4:2:0 progressive y4m only\n", path,
                    t);
            return -1;
        }
    }
    if (y->w == 0 || y->h == 0) {
        fprintf(stderr, "%s: no picture size in the header\n", path);
        return -1;
    }
    return 0;
}

/* The next picture of `y` in a new host frame: 1 read, 0 at the end of the file, -1 an error. */
static int y4m_read(Y4m *y, VmafxFrame **out)
{
    char line[128];
    if (!fgets(line, sizeof line, y->file))
        return 0;
    if (strncmp(line, "FRAME", 5) != 0)
        return -1;
    VmafxFrameDesc desc = VMAFX_FRAME_DESC_INIT;
    desc.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    desc.bpc = 8;
    desc.w = y->w;
    desc.h = y->h;
    VmafxError *error = NULL;
    if (vmafx_frame_create_host(NULL, &desc, out, &error) != VMAFX_OK) {
        fprintf(stderr, "%s\n", vmafx_error_message(error));
        vmafx_error_free(error);
        return -1;
    }
    VmafxFramePlanes planes = VMAFX_FRAME_PLANES_INIT;
    vmafx_frame_planes(*out, &planes, NULL);
    for (uint32_t p = 0; p < planes.n_planes; p++)
        for (uint32_t row = 0; row < planes.h[p]; row++) {
            uint8_t *dst = (uint8_t *)planes.data[p] + row * planes.stride[p];
            if (fread(dst, 1, planes.w[p], y->file) != planes.w[p]) {
                vmafx_frame_unref(*out);
                *out = NULL;
                return -1;
            }
        }
    return 1;
}

/* Prints the error of a failed call and frees it. */
static int fail(const char *what, VmafxError *error)
{
    fprintf(stderr, "%s: %s\n", what, error ? vmafx_error_message(error) : "failed");
    vmafx_error_free(error);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s REFERENCE.y4m DISTORTED.y4m\n", argv[0]);
        return 2;
    }
    Y4m ref = {0}, dis = {0};
    if (y4m_open(&ref, argv[1]) || y4m_open(&dis, argv[2]))
        return 1;
    if (ref.w != dis.w || ref.h != dis.h) {
        fprintf(stderr, "the inputs differ in size: %ux%u and %ux%u\n", ref.w, ref.h, dis.w,
                dis.h);
        return 1;
    }

    VmafxError *error = NULL;
    VmafxModel *model = NULL;
    VmafxContext *context = NULL;
    const char *version = "vmaf_v0.6.1"; /* libvmaf's `vmaf` tool's default model */
    if (vmafx_model_load(NULL, version, &model, &error) != VMAFX_OK)
        return fail(version, error);
    if (vmafx_context_create(NULL, &context, &error) != VMAFX_OK ||
        vmafx_context_use_model(context, model, &error) != VMAFX_OK)
        return fail("context", error);

    uint64_t n = 0;
    for (;;) {
        VmafxFrame *r = NULL, *d = NULL;
        const int got_r = y4m_read(&ref, &r), got_d = got_r == 1 ? y4m_read(&dis, &d) : 0;
        if (got_r < 0 || got_d < 0) {
            fprintf(stderr, "frame %llu: cannot read it\n", (unsigned long long)n);
            return 1;
        }
        if (got_r == 0 || got_d == 0) {
            vmafx_frame_unref(r); /* the inputs may differ in length: score the pairs both have */
            break;
        }
        /* vmafx_submit takes the caller's reference of both frames, failure or not. */
        if (vmafx_submit(context, r, d, n, &error) != VMAFX_OK)
            return fail("submit", error);
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "no frame to score\n");
        return 1;
    }
    if (vmafx_flush(context, &error) != VMAFX_OK)
        return fail("flush", error);

    VmafxPooledScore pooled = VMAFX_POOLED_SCORE_INIT;
    if (vmafx_score_pooled(context, model, VMAFX_POOL_MEAN, 0, n - 1, &pooled, &error) != VMAFX_OK)
        return fail("pooled score", error);
    printf("%s: %.6f\n", version, pooled.value);

    vmafx_model_unref(model);
    vmafx_context_destroy(context, NULL);
    fclose(ref.file);
    fclose(dis.file);
    return 0;
}
