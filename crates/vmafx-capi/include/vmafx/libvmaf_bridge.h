/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/**
 * The libvmaf handle bound to a context (VMAFx's migration bridge). vmafx scores without libvmaf,
 * so no context is bound to one and both calls answer NULL.
 */

#ifndef VMAFX_LIBVMAF_BRIDGE_H
#define VMAFX_LIBVMAF_BRIDGE_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/vmafx.h>

#ifdef __cplusplus
extern "C" {
#endif

/** libvmaf's context handle, opaque here (the same declaration as libvmaf/libvmaf.h's, so both headers may be included). */
typedef struct VmafContext VmafContext;

/**
 * The context a libvmaf handle is bound to: NULL (no libvmaf handle is bound to a vmafx context).
 */
VMAFX_EXPORT VmafxContext *vmafx_context_from_libvmaf(VmafContext *vmaf);

/**
 * The libvmaf handle bound to `context`: NULL for NULL and for every context (vmafx has no libvmaf
 * handle to return).
 */
VMAFX_EXPORT VmafContext *vmafx_context_libvmaf_handle(VmafxContext *context);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_BRIDGE_H */
