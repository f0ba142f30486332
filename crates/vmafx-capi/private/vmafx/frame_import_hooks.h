/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/**
 * Test-only switches and counters of the device-frame path; hidden symbols of the static library,
 * for white-box tests.
 */

#ifndef VMAFX_FRAME_IMPORT_HOOKS_H
#define VMAFX_FRAME_IMPORT_HOOKS_H

#include <stdbool.h>
#include <stdint.h>
#include <vmafx/vmafx.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Switch: an import treats an unsignalled acquire fence as signalled. */
#define VMAFX_TEST_SKIP_ACQUIRE_WAIT (1u << 0)

/** Switch: a submit signals release fences as it returns, before the engine drops its counts. */
#define VMAFX_TEST_EARLY_RELEASE (1u << 1)

/** Switch: host imports copy planar planes instead of binding them. */
#define VMAFX_TEST_FORCE_HOST_COPY (1u << 2)

/** Sleep between two looks at a host fence, and the virtual clock's step. */
#define VMAFX_FENCE_POLL_NS 50000u

/** No residency override. */
#define VMAFX_TEST_RESIDENCY_OFF UINT32_MAX

/** Fence waits read a virtual clock that each poll advances, instead of sleeping. */
void vmafx_test_set_virtual_clock(bool on);

bool vmafx_test_clock_is_virtual(void);

uint64_t vmafx_test_clock_now_ns(void);

void vmafx_test_clock_advance(uint64_t ns);

/** The host wait the import rule allowed itself before its retry, last time (0 before). */
void vmafx_test_note_retry_wait(uint64_t ns);

uint64_t vmafx_test_last_retry_wait_ns(void);

/** Plants the defects of the VMAFX_TEST_* bits (0: none). */
void vmafx_test_set_switches(uint32_t mask);

bool vmafx_test_switch(uint32_t bit);

/** Counters: host copies of imported pixels, planarisations, import attempts. */
void vmafx_count_host_copy(uint64_t bytes);

void vmafx_count_conversion(void);

void vmafx_count_import_attempt(void);

uint64_t vmafx_test_host_copies(void);

uint64_t vmafx_test_host_copy_bytes(void);

uint64_t vmafx_test_conversions(void);

uint64_t vmafx_test_import_attempts(void);

void vmafx_test_reset_counters(void);

/** The next `count` imports fail with `status` before reading their descriptor. */
void vmafx_test_fail_imports(VmafxStatus status, uint32_t count);

/** Takes one planted failure: its status, or VMAFX_OK. */
VmafxStatus vmafx_test_take_import_failure(void);

/** Imported frames claim `backend` as residency (VMAFX_TEST_RESIDENCY_OFF: their device's). */
void vmafx_test_set_import_residency(uint32_t backend);

uint32_t vmafx_test_import_residency(void);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_FRAME_IMPORT_HOOKS_H */
