/* libvmaf_score: VMAF of two 8-bit 4:2:0 y4m files through libvmaf's own C API, as a program
 * written for Netflix's libvmaf calls it; linked to vmafx's drop-in it scores with vmafx:
 *
 *     libvmaf_score REFERENCE.y4m DISTORTED.y4m
 *     vmaf_v0.6.1: 73.343961
 *
 * Build it against an installed drop-in (docs/C.md):
 *     cc libvmaf_score.c $(pkg-config --cflags --libs libvmaf) -Wl,-rpath,/opt/vmafx/lib */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

/* Reads the header of the y4m file `f`: its picture size; only 8-bit 4:2:0 is taken. */
static int y4m_header(FILE *f, const char *path, unsigned *w, unsigned *h)
{
    char line[512];
    if (!f || !fgets(line, sizeof line, f) || strncmp(line, "YUV4MPEG2 ", 10) != 0) {
        fprintf(stderr, "%s: not a y4m file\n", path);
        return -1;
    }
    *w = *h = 0;
    for (char *t = strtok(line + 10, " \n"); t; t = strtok(NULL, " \n")) {
        if (t[0] == 'W')
            *w = (unsigned)strtoul(t + 1, NULL, 10);
        else if (t[0] == 'H')
            *h = (unsigned)strtoul(t + 1, NULL, 10);
        else if ((t[0] == 'C' && strncmp(t, "C420", 4) != 0) || (t[0] == 'I' && t[1] != 'p')) {
            fprintf(stderr, "%s: %s: this example reads 8-bit 4:2:0 progressive y4m only\n", path,
                    t);
            return -1;
        }
    }
    return *w && *h ? 0 : -1;
}

/* The next picture of `f` into a new libvmaf picture: 1 read, 0 at the end, -1 an error. */
static int y4m_picture(FILE *f, unsigned w, unsigned h, VmafPicture *pic)
{
    char line[128];
    if (!fgets(line, sizeof line, f))
        return 0;
    if (strncmp(line, "FRAME", 5) != 0 || vmaf_picture_alloc(pic, VMAF_PIX_FMT_YUV420P, 8, w, h))
        return -1;
    for (unsigned p = 0; p < 3; p++)
        for (unsigned row = 0; row < pic->h[p]; row++)
            if (fread((char *)pic->data[p] + row * pic->stride[p], 1, pic->w[p], f) != pic->w[p]) {
                vmaf_picture_unref(pic);
                return -1;
            }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s REFERENCE.y4m DISTORTED.y4m\n", argv[0]);
        return 2;
    }
    FILE *ref = fopen(argv[1], "rb"), *dis = fopen(argv[2], "rb");
    unsigned w, h, dw, dh;
    if (y4m_header(ref, argv[1], &w, &h) || y4m_header(dis, argv[2], &dw, &dh))
        return 1;
    if (w != dw || h != dh) {
        fprintf(stderr, "the inputs differ in size\n");
        return 1;
    }

    VmafContext *vmaf = NULL;
    VmafModel *model = NULL;
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR};
    VmafModelConfig model_cfg = {.name = "vmaf"};
    if (vmaf_init(&vmaf, cfg) || vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1") ||
        vmaf_use_features_from_model(vmaf, model)) {
        fprintf(stderr, "cannot set up libvmaf with vmaf_v0.6.1\n");
        return 1;
    }
    unsigned n = 0;
    for (;;) {
        VmafPicture r, d;
        const int got_r = y4m_picture(ref, w, h, &r);
        const int got_d = got_r == 1 ? y4m_picture(dis, w, h, &d) : 0;
        if (got_r == 1 && got_d != 1)
            vmaf_picture_unref(&r);
        if (got_r < 0 || got_d < 0) {
            fprintf(stderr, "frame %u: cannot read it\n", n);
            return 1;
        }
        if (got_r == 0 || got_d == 0)
            break;
        if (vmaf_read_pictures(vmaf, &r, &d, n)) { /* takes both pictures */
            fprintf(stderr, "frame %u: libvmaf refused it\n", n);
            return 1;
        }
        n++;
    }
    double score = 0;
    if (n == 0 || vmaf_read_pictures(vmaf, NULL, NULL, 0) ||
        vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &score, 0, n - 1)) {
        fprintf(stderr, "no score\n");
        return 1;
    }
    printf("vmaf_v0.6.1: %.6f\n", score);
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
    fclose(ref);
    fclose(dis);
    return 0;
}
