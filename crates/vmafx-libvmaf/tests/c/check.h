/* A minimal assertion helper for the C tests of the libvmaf drop-in. */
#ifndef VMAFX_LIBVMAF_TEST_CHECK_H
#define VMAFX_LIBVMAF_TEST_CHECK_H

#include <stdio.h>

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

/* `call` returns `want` (0 or a negative errno). */
#define EXPECT(call, want)                                                                \
    do {                                                                                  \
        const int got_ = (call);                                                          \
        check_count++;                                                                    \
        if (got_ != (want)) {                                                             \
            check_failures++;                                                             \
            fprintf(stderr, "%s:%d: %s returned %d, want %d\n", __FILE__, __LINE__, #call, \
                    got_, (want));                                                        \
        }                                                                                 \
    } while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
