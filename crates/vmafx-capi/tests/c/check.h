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

static inline int check_finish(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
