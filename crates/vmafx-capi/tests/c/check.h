/* A minimal assertion helper for the C tests of vmafx's ABI. */
#ifndef VMAFX_TEST_CHECK_H
#define VMAFX_TEST_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <vmafx/vmafx.h>

static int check_failures __attribute__((unused));
static int check_count __attribute__((unused));

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        check_count++;                                                                    \
        if (!(cond)) {                                                                    \
            check_failures++;                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);      \
        }                                                                                 \
    } while (0)

/* The error in *err has `status`, names `subject` of `kind`, has a message and a
 * function name; it is freed and *err reset. */
static inline bool named(VmafxError **err, VmafxStatus status, const char *subject, uint32_t kind)
{
    bool ok = *err && vmafx_error_status(*err) == status &&
              strcmp(vmafx_error_subject(*err), subject) == 0 &&
              vmafx_error_subject_kind(*err) == kind && vmafx_error_message(*err)[0] &&
              vmafx_error_function(*err)[0];
    if (!ok && *err) {
        fprintf(stderr, "  got %s subject '%s' kind %u in %s: %s\n",
                vmafx_status_name(vmafx_error_status(*err)), vmafx_error_subject(*err),
                vmafx_error_subject_kind(*err), vmafx_error_function(*err),
                vmafx_error_message(*err));
    }
    vmafx_error_free(*err);
    *err = NULL;
    return ok;
}

/* `got` is `want` and the error names `subject` of `kind`. */
#define FAILS(got, want, err, subject, kind) CHECK((got) == (want) && named(err, want, subject, kind))

/* A new 8-bit host frame of `d` holding a copy of the planar picture `src` (its planes one
 * after another, rows unpadded); NULL when the library refuses `d`. */
static inline VmafxFrame *host_frame_copy(const VmafxFrameDesc *d, const uint8_t *src)
{
    VmafxFrame *f = NULL;
    if (vmafx_frame_create_host(NULL, d, &f, NULL) != VMAFX_OK)
        return NULL;
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    vmafx_frame_planes(f, &pl, NULL);
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pl.h[p]; y++) {
            memcpy((uint8_t *)pl.data[p] + y * pl.stride[p], src, pl.w[p]);
            src += pl.w[p];
        }
    return f;
}

/* The 8-bit sample at (x, y) of plane `p` of the frame seeded with `seed`. */
typedef uint8_t (*PixelPattern)(unsigned p, unsigned x, unsigned y, unsigned seed);

/* A pattern of every plane mixing x, y and the seed. */
static inline uint8_t mixed_pattern(unsigned p, unsigned x, unsigned y, unsigned seed)
{
    (void)p;
    return (uint8_t)((x * 3u + y * 5u + seed * 17u + ((x ^ y) & seed)) & 0xffu);
}

/* A new 8-bit 4:2:0 host frame of `w` x `h` whose samples follow `pattern` with `seed`;
 * NULL when the library refuses it. */
static inline VmafxFrame *seeded_frame(unsigned w, unsigned h, PixelPattern pattern,
                                       unsigned seed)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = w;
    d.h = h;
    VmafxFrame *f = NULL;
    if (vmafx_frame_create_host(NULL, &d, &f, NULL) != VMAFX_OK)
        return NULL;
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    vmafx_frame_planes(f, &pl, NULL);
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pl.h[p]; y++)
            for (unsigned x = 0; x < pl.w[p]; x++)
                ((uint8_t *)pl.data[p])[y * pl.stride[p] + x] = pattern(p, x, y, seed);
    return f;
}

static inline int check_finish(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
