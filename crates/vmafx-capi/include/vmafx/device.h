/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Devices: counting, describing and creating them. */

#ifndef VMAFX_DEVICE_H
#define VMAFX_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Device flag: time every kernel. The CPU has no profiler and refuses it. */
#define VMAFX_DEVICE_PROFILING (UINT32_C(1) << 0U)

/** A compute device; reference-counted (frames and contexts hold references). */
typedef struct VmafxDevice VmafxDevice;

typedef struct VmafxDeviceDesc VmafxDeviceDesc;
typedef struct VmafxDeviceInfo VmafxDeviceInfo;

/** Which device to create. Initialise with VMAFX_DEVICE_DESC_INIT. */
struct VmafxDeviceDesc {
    /** Size of the struct as the caller compiled it. */
    uint32_t struct_size;
    /** A VmafxBackend; a backend this build lacks is VMAFX_E_NOTSUP. */
    uint32_t backend;
    /** Device index within the backend; -1 any. */
    int32_t index;
    /** VMAFX_DEVICE_* flags (ABI 0.1.2). */
    uint32_t flags;
    /** The caller's runtime objects; 0 none. The CPU takes none (ABI 0.1.2). */
    uintptr_t external[2];
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_DEVICE_DESC_INIT {.struct_size = sizeof(VmafxDeviceDesc)}

/**
 * What a device is and what it imports; grows at the end. Strings live for the process. Initialise
 * with VMAFX_DEVICE_INFO_INIT.
 */
struct VmafxDeviceInfo {
    /** Size of the struct as the caller compiled it; the library writes no further. */
    uint32_t struct_size;
    /** A VmafxBackend. */
    uint32_t backend;
    /** Index within the backend; -1 for a device made from external objects. */
    int32_t index;
    /** Flags the device was created with; 0 for an enumerated device. */
    uint32_t flags;
    /** Bit 1 << k for each VmafxMemoryKind k the device imports. */
    uint32_t memory_kinds;
    /** Bit 1 << k for each VmafxFenceKind k it waits on and signals. */
    uint32_t fence_kinds;
    /** Bytes of device memory; 0 when not reported (the CPU). */
    uint64_t total_memory;
    /** The device's name (`cpu`). */
    const char *name;
    /**
     * PCI domain, bus, device and function of the device's GPU, so a Vulkan producer can pick the
     * same GPU; every member UINT32_MAX where there is none (the CPU). ABI 0.1.11.
     */
    uint32_t pci[4];
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_DEVICE_INFO_INIT {.struct_size = sizeof(VmafxDeviceInfo)}

/** Creates a device; `desc` NULL is the CPU. The caller holds one reference. */
VMAFX_EXPORT VmafxStatus vmafx_device_create(const VmafxDeviceDesc *desc, VmafxDevice **out,
                                             VmafxError **error);

/** One more reference; returns `device` (NULL for NULL). */
VMAFX_EXPORT VmafxDevice *vmafx_device_ref(VmafxDevice *device);

/** Drops one reference; NULL is a no-op. */
VMAFX_EXPORT void vmafx_device_unref(VmafxDevice *device);

/** The device's VmafxBackend; the CPU for NULL. */
VMAFX_EXPORT uint32_t vmafx_device_backend(const VmafxDevice *device);

/**
 * Lower-case name of a VmafxBackend (`cpu`, `cuda`, `sycl`, `metal`, `hip`), `unknown` for any
 * other value; valid for the process lifetime. ABI 0.1.11.
 */
VMAFX_EXPORT const char *vmafx_backend_name(uint32_t backend);

/**
 * Devices of `backend` this build creates; a backend it lacks is VMAFX_E_NOTSUP, never a silent 0.
 */
VMAFX_EXPORT VmafxStatus vmafx_device_count(uint32_t backend, uint32_t *count, VmafxError **error);

/** Describes device `index` of `backend` without creating it. */
VMAFX_EXPORT VmafxStatus vmafx_device_info(uint32_t backend, int32_t index, VmafxDeviceInfo *out,
                                           VmafxError **error);

/** Describes a created device, its flags included. */
VMAFX_EXPORT VmafxStatus vmafx_device_describe(const VmafxDevice *device, VmafxDeviceInfo *out,
                                               VmafxError **error);

/** Kernel timings of a profiling device; VMAFX_E_NOTSUP naming the device otherwise (the CPU). */
VMAFX_EXPORT VmafxStatus vmafx_device_profile(VmafxDevice *device, const char **out,
                                              VmafxError **error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_DEVICE_H */
