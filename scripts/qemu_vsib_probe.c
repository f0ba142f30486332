/* Does this x86-64 (or its emulator) gather through vector index register 4?
 *
 * In a VSIB address (the AVX2 gathers) every index field names a vector register; only in a
 * plain SIB does index 4 without REX.X mean "no index". qemu 7.2's user-mode emulator
 * decodes it as "no index": `vpgatherqd %xmm5,(%rax,%ymm4,4),%xmm7` then loads the base
 * element into every lane. scripts/check_cpu_models.sh runs this under qemu's CPU models to
 * know whether it may compare whole logs there. Exit status 0 when both gathers (index
 * ymm4, and ymm6 as the control) load the right elements.
 */
#include <stdint.h>
#include <stdio.h>

#define GATHER(IDX)                                                                    \
    static int gather_##IDX(const int32_t *table, const int64_t *idx, int32_t *out) { \
        __asm__ volatile("vmovdqu (%1), %%" #IDX "\n\t"                                \
                         "vpcmpeqd %%xmm5, %%xmm5, %%xmm5\n\t"                         \
                         "vpxor %%xmm7, %%xmm7, %%xmm7\n\t"                            \
                         "vpgatherqd %%xmm5, (%0,%%" #IDX ",4), %%xmm7\n\t"            \
                         "vmovdqu %%xmm7, (%2)\n\t"                                    \
                         "vzeroupper"                                                  \
                         :                                                             \
                         : "r"(table), "r"(idx), "r"(out)                              \
                         : "xmm4", "xmm5", "xmm6", "xmm7", "memory");                  \
        return out[0] == 11 && out[1] == 13 && out[2] == 15 && out[3] == 17;          \
    }

GATHER(ymm4)
GATHER(ymm6)

int main(void) {
    static const int32_t table[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    static const int64_t idx[4] = {1, 3, 5, 7};
    int32_t a[4] = {0}, b[4] = {0};
    int ok4 = gather_ymm4(table, idx, a);
    int ok6 = gather_ymm6(table, idx, b);
    printf("vpgatherqd of elements 1 3 5 7 through index ymm4: %d %d %d %d (%s), "
           "through ymm6: %d %d %d %d (%s)\n",
           a[0], a[1], a[2], a[3], ok4 ? "right" : "wrong", b[0], b[1], b[2], b[3],
           ok6 ? "right" : "wrong");
    return ok4 && ok6 ? 0 : 1;
}
