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

/* Writes the `n` low bytes of `v` at `b`, little-endian. */
static inline void le(uint8_t *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static inline void le_float(uint8_t *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    le(b, u, 4);
}

/* A Pelorus interop blob in `b` (256 bytes): the UUID, the 48-byte header with a
 * `cols` x `rows` grid, a directory, a banding section (`risk`, `flat`, and when the grid
 * has cells the per-cell map `cells` appended after total_size) and, when `complexity` is
 * not negative, a complexity section. Returns the blob's size. */
static inline size_t pelorus_blob(uint8_t *b, uint16_t cols, uint16_t rows, float risk,
                                  float flat, const uint8_t *cells, float complexity)
{
    static const uint8_t uuid[16] = {0xe1, 0xd7, 0xc4, 0xa2, 0x6b, 0x93, 0x4f, 0x08,
                                     0x9a, 0x55, 0x0f, 0x3c, 0x2d, 0xb1, 0x7e, 0x64};
    memset(b, 0, 256);
    memcpy(b, uuid, sizeof uuid);
    uint8_t *img = b + sizeof uuid;
    const unsigned n_sec = complexity >= 0 ? 2 : 1;
    const unsigned banding_at = 48 + 16 * n_sec, complexity_at = banding_at + 24;
    const unsigned total = complexity_at + (n_sec == 2 ? 16 : 0);
    const size_t n_cells = (size_t)cols * rows;
    memcpy(img, "PELOR1\0\0", 8);
    le(img + 8, 1, 2); /* abi_major */
    le(img + 10, 3, 2);
    le(img + 12, total, 4);
    le(img + 16, n_sec == 2 ? 0x81 : 0x01, 4);
    le(img + 20, n_sec, 2);
    le(img + 22, 48, 2);
    le(img + 34, cols, 2);
    le(img + 36, rows, 2);
    le(img + 48, 0x01, 4); /* dir[0]: banding */
    le(img + 52, banding_at, 4);
    le(img + 56, 24, 4);
    le_float(img + banding_at, risk);
    le_float(img + banding_at + 4, flat);
    if (n_cells) {
        le(img + banding_at + 8, total, 4);
        le(img + banding_at + 12, n_cells, 4);
        memcpy(img + total, cells, n_cells);
    }
    if (n_sec == 2) {
        le(img + 64, 0x80, 4); /* dir[1]: complexity */
        le(img + 68, complexity_at, 4);
        le(img + 72, 16, 4);
        le_float(img + complexity_at, complexity);
    }
    return sizeof uuid + total + n_cells;
}

static inline int check_finish(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
