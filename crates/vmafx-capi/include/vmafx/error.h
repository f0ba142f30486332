/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Errors that name what failed. */

#ifndef VMAFX_ERROR_H
#define VMAFX_ERROR_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What the subject of an error names. */
typedef enum VmafxSubjectKind {
    VMAFX_SUBJECT_NONE = 0,
    VMAFX_SUBJECT_PARAMETER = 1,
    VMAFX_SUBJECT_CONTEXT = 2,
    VMAFX_SUBJECT_OPTION = 3,
    VMAFX_SUBJECT_FEATURE = 4,
    VMAFX_SUBJECT_EXTRACTOR = 5,
    VMAFX_SUBJECT_MODEL = 6,
    VMAFX_SUBJECT_FRAME = 7,
    VMAFX_SUBJECT_PLANE = 8,
    VMAFX_SUBJECT_DEVICE = 9,
    VMAFX_SUBJECT_BACKEND = 10,
    VMAFX_SUBJECT_PATH = 11,
    VMAFX_SUBJECT_FENCE = 12,
} VmafxSubjectKind;

/**
 * A failure: its status, message, subject and the function that failed. Release with
 * vmafx_error_free().
 */
typedef struct VmafxError VmafxError;

/** The name of a status (`VMAFX_E_BUSY`), or `VMAFX_UNKNOWN_STATUS`. */
VMAFX_EXPORT const char *vmafx_status_name(VmafxStatus status);

/** The status of an error; VMAFX_E_INVALID for NULL. */
VMAFX_EXPORT VmafxStatus vmafx_error_status(const VmafxError *error);

/** The message; an empty string for NULL. */
VMAFX_EXPORT const char *vmafx_error_message(const VmafxError *error);

/** What failed (`desc.plane[0].pitch`, `fence`, `backend`); empty when nothing is named. */
VMAFX_EXPORT const char *vmafx_error_subject(const VmafxError *error);

/** A negative errno from the engine; 0 (the engine reports none). */
VMAFX_EXPORT int32_t vmafx_error_errno(const VmafxError *error);

/** Releases an error; NULL is a no-op. */
VMAFX_EXPORT void vmafx_error_free(VmafxError *error);

/** What the subject names (a VmafxSubjectKind); VMAFX_SUBJECT_NONE for NULL. */
VMAFX_EXPORT uint32_t vmafx_error_subject_kind(const VmafxError *error);

/** The library function that failed; an empty string for NULL. */
VMAFX_EXPORT const char *vmafx_error_function(const VmafxError *error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_ERROR_H */
