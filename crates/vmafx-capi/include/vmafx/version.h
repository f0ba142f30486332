/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** ABI version of these headers and of the loaded library. */

#ifndef VMAFX_VERSION_H
#define VMAFX_VERSION_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** ABI major version these headers describe. */
#define VMAFX_ABI_VERSION_MAJOR 0

/** ABI minor version. */
#define VMAFX_ABI_VERSION_MINOR 1

/** ABI patch version. */
#define VMAFX_ABI_VERSION_PATCH 11

/** The library's build version; lives for the process. */
VMAFX_EXPORT const char *vmafx_version_string(void);

/** The ABI version of the loaded library; any pointer may be NULL. */
VMAFX_EXPORT void vmafx_abi_version(uint32_t *major, uint32_t *minor, uint32_t *patch);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_VERSION_H */
