/* Synthetic pictures for the drop-in's C tests. */
#ifndef VMAFX_LIBVMAF_TEST_PICTURES_H
#define VMAFX_LIBVMAF_TEST_PICTURES_H

#include <stdint.h>

#include <libvmaf/libvmaf.h>

/* Allocates a 4:2:0 picture and fills it with a pattern; `seed` shifts the pattern so a
 * distorted picture differs from its reference. Returns vmaf_picture_alloc's answer. */
static inline int pattern_picture(VmafPicture *pic, unsigned bpc, unsigned w, unsigned h,
                                  unsigned frame, unsigned seed)
{
    const int err = vmaf_picture_alloc(pic, VMAF_PIX_FMT_YUV420P, bpc, w, h);
    if (err)
        return err;
    const unsigned max = (1u << bpc) - 1;
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            uint8_t *row = (uint8_t *)pic->data[p] + (ptrdiff_t)y * pic->stride[p];
            for (unsigned x = 0; x < pic->w[p]; x++) {
                unsigned v = (x * 7 + y * 3 + frame * 5 + p * 11) % 200 + 20;
                if (seed)
                    v += ((x * 13 + y * 29 + seed) % 9) - 4;
                v = bpc > 8 ? v << (bpc - 8) : v;
                if (v > max)
                    v = max;
                if (bpc > 8)
                    ((uint16_t *)row)[x] = (uint16_t)v;
                else
                    row[x] = (uint8_t)v;
            }
        }
    }
    return 0;
}

#endif
