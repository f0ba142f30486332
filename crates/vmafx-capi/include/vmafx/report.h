/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Reports with the provenance record, read back and verified (ABI 0.1.5). */

#ifndef VMAFX_REPORT_H
#define VMAFX_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>
#include <vmafx/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Format of a report (values equal libvmaf's enum VmafOutputFormat). */
typedef enum VmafxReportFormat {
    /** XML with a `<provenance>` element. */
    VMAFX_REPORT_FORMAT_XML = 1,
    /** JSON with a `provenance` object. */
    VMAFX_REPORT_FORMAT_JSON = 2,
    /** CSV, columns unchanged; the record only in the sidecar. */
    VMAFX_REPORT_FORMAT_CSV = 3,
    /** Subtitles, lines unchanged; the record only in the sidecar. */
    VMAFX_REPORT_FORMAT_SUB = 4,
} VmafxReportFormat;

/** vmafx_report_write() flag: also write the record to `<path>.provenance.json`. */
#define VMAFX_REPORT_PROVENANCE_SIDECAR (UINT32_C(1) << 0U)

/** A JSON report read back for verification (vmafx_report_open()). */
typedef struct VmafxReportFile VmafxReportFile;

/**
 * Writes the scores of the flushed context to `path` in `format` (a VmafxReportFormat): JSON with
 * the provenance record as a `provenance` object, `score_format` and `backend_used`, its scores
 * written with `score_format` (a printf conversion of one double; NULL: %.6f; %.17g is lossless and
 * lets vmafx_report_verify() check the scores' digest); XML as the libvmaf log with a
 * `<provenance>` element; CSV and SUB unchanged. `flags` VMAFX_REPORT_PROVENANCE_SIDECAR also
 * writes the record to `<path>.provenance.json`. VMAFX_E_INVALID names `format`, `flags` or
 * `score_format`; VMAFX_E_IO names the path. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_report_write(VmafxContext *context, const char *path,
                                            uint32_t format, uint32_t flags,
                                            const char *score_format, VmafxError **error);

/**
 * Reads the JSON report at `path` for verification; `*out` is NULL on failure. VMAFX_E_IO names an
 * unreadable path, VMAFX_E_INVALID names a path whose text is not JSON or has no `provenance`
 * object. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_report_open(const char *path, VmafxReportFile **out,
                                           VmafxError **error);

/** Releases a report; NULL is a no-op. ABI 0.1.5. */
VMAFX_EXPORT void vmafx_report_close(VmafxReportFile *file);

/**
 * The value of the report member at `path` (`provenance.models[0].sha256`,
 * `frames[3].metrics.vmaf`): a string's characters, a number, `true`, `false` or `null` as text;
 * NULL when absent, when it is an object or an array, or for NULL arguments. Lives as long as the
 * report. ABI 0.1.5.
 */
VMAFX_EXPORT const char *vmafx_report_field(const VmafxReportFile *file, const char *path);

/**
 * Checks `recorded`: with `rerun` (a report of the same configuration made again), every
 * configuration field of the record and every score equal bit for bit; then its record's digest,
 * and for a lossless `score_format` (%.17g) its scores' digest. VMAFX_E_MISMATCH names the first
 * field that differs (`provenance.models[0].sha256`, `frames[3].metrics.vmaf`, `provenance.digest`)
 * with both values; the build, the device and the timing may differ. VMAFX_E_INVALID names a NULL
 * `recorded`. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_report_verify(const VmafxReportFile *recorded,
                                             const VmafxReportFile *rerun, VmafxError **error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_REPORT_H */
