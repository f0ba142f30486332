/* libvmaf 3.2.0 C API, as implemented by vmafx's drop-in (crates/vmafx-libvmaf). */

#ifndef VMAFX_LIBVMAF_VERSION_H
#define VMAFX_LIBVMAF_VERSION_H

#define VMAF_API_VERSION_MAJOR 3
#define VMAF_API_VERSION_MINOR 2
#define VMAF_API_VERSION_PATCH 0

#endif /* VMAFX_LIBVMAF_VERSION_H */
