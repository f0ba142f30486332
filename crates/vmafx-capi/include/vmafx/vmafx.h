/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** The vmafx C API: includes every public header. */

#ifndef VMAFX_VMAFX_H
#define VMAFX_VMAFX_H

#include <vmafx/types.h>
#include <vmafx/version.h>
#include <vmafx/error.h>
#include <vmafx/device.h>
#include <vmafx/frame.h>
#include <vmafx/model.h>
#include <vmafx/context.h>
#include <vmafx/score.h>
#include <vmafx/provenance.h>
#include <vmafx/report.h>
#include <vmafx/mcp.h>
#include <vmafx/dnn.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_VMAFX_H */
