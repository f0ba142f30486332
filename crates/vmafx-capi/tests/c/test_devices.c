/* Devices (ADR-1929 items 1, 7, 12) and the error API. */
#include "check.h"

static bool is_cpu(const VmafxDeviceInfo *i)
{
    return i->backend == VMAFX_BACKEND_CPU && i->index == 0 && i->flags == 0u && i->name &&
           strcmp(i->name, "cpu") == 0 && i->memory_kinds == (1u << VMAFX_MEMORY_HOST) &&
           i->fence_kinds == ((1u << VMAFX_FENCE_NONE) | (1u << VMAFX_FENCE_HOST)) &&
           i->total_memory == 0u;
}

int main(void)
{
    VmafxError *err = NULL;
    uint32_t count = 7;
    CHECK(vmafx_device_count(VMAFX_BACKEND_CPU, &count, NULL) == VMAFX_OK && count == 1u);
    FAILS(vmafx_device_count(VMAFX_BACKEND_CUDA, &count, &err), VMAFX_E_NOTSUP, &err, "backend",
          VMAFX_SUBJECT_BACKEND);
    CHECK(count == 0u);
    FAILS(vmafx_device_count(5u, &count, &err), VMAFX_E_INVALID, &err, "backend",
          VMAFX_SUBJECT_BACKEND);
    FAILS(vmafx_device_count(VMAFX_BACKEND_CPU, NULL, &err), VMAFX_E_INVALID, &err, "count",
          VMAFX_SUBJECT_PARAMETER);

    VmafxDeviceInfo info = VMAFX_DEVICE_INFO_INIT;
    CHECK(vmafx_device_info(VMAFX_BACKEND_CPU, 0, &info, NULL) == VMAFX_OK && is_cpu(&info));
    FAILS(vmafx_device_info(VMAFX_BACKEND_CPU, 1, &info, &err), VMAFX_E_NOTFOUND, &err, "index",
          VMAFX_SUBJECT_DEVICE);
    FAILS(vmafx_device_info(VMAFX_BACKEND_HIP, 0, &info, &err), VMAFX_E_NOTSUP, &err, "backend",
          VMAFX_SUBJECT_BACKEND);
    /* Item 12: an older, smaller VmafxDeviceInfo gets the prefix it knows, nothing past it. */
    VmafxDeviceInfo old = VMAFX_DEVICE_INFO_INIT;
    old.struct_size = (uint32_t)offsetof(VmafxDeviceInfo, memory_kinds);
    CHECK(vmafx_device_info(VMAFX_BACKEND_CPU, 0, &old, NULL) == VMAFX_OK);
    CHECK(old.struct_size == offsetof(VmafxDeviceInfo, memory_kinds) && old.memory_kinds == 0u &&
          old.name == NULL && old.backend == VMAFX_BACKEND_CPU);
    old.struct_size = 4u;
    FAILS(vmafx_device_info(VMAFX_BACKEND_CPU, 0, &old, &err), VMAFX_E_ABI, &err, "out",
          VMAFX_SUBJECT_PARAMETER);
    old.struct_size = 0u;
    CHECK(vmafx_device_info(VMAFX_BACKEND_CPU, 0, &old, NULL) == VMAFX_E_ABI);
    CHECK(vmafx_device_info(VMAFX_BACKEND_CPU, 0, NULL, NULL) == VMAFX_E_INVALID);

    VmafxDevice *dev = NULL;
    VmafxDeviceDesc desc = VMAFX_DEVICE_DESC_INIT;
    desc.flags = VMAFX_DEVICE_PROFILING;
    FAILS(vmafx_device_create(&desc, &dev, &err), VMAFX_E_NOTSUP, &err, "desc.flags",
          VMAFX_SUBJECT_PARAMETER);
    desc.flags = 1u << 7;
    FAILS(vmafx_device_create(&desc, &dev, &err), VMAFX_E_INVALID, &err, "desc.flags",
          VMAFX_SUBJECT_PARAMETER);
    desc.flags = 0u;
    desc.external[1] = (uintptr_t)&desc;
    FAILS(vmafx_device_create(&desc, &dev, &err), VMAFX_E_INVALID, &err, "desc.external",
          VMAFX_SUBJECT_PARAMETER);
    desc.external[1] = 0u;
    desc.backend = VMAFX_BACKEND_METAL;
    FAILS(vmafx_device_create(&desc, &dev, &err), VMAFX_E_NOTSUP, &err, "backend",
          VMAFX_SUBJECT_BACKEND);
    desc.struct_size = 4u;
    FAILS(vmafx_device_create(&desc, &dev, &err), VMAFX_E_ABI, &err, "desc",
          VMAFX_SUBJECT_PARAMETER);
    CHECK(dev == NULL);

    /* A 0.1.1 descriptor (no flags, no external) works. */
    VmafxDeviceDesc small = VMAFX_DEVICE_DESC_INIT;
    small.struct_size = (uint32_t)offsetof(VmafxDeviceDesc, flags);
    small.flags = VMAFX_DEVICE_PROFILING; /* past its size: not read */
    CHECK(vmafx_device_create(&small, &dev, NULL) == VMAFX_OK && dev != NULL);
    CHECK(vmafx_device_ref(dev) == dev);
    vmafx_device_unref(dev);
    VmafxDeviceInfo d = VMAFX_DEVICE_INFO_INIT;
    CHECK(vmafx_device_describe(dev, &d, NULL) == VMAFX_OK && is_cpu(&d));
    CHECK(vmafx_device_backend(dev) == VMAFX_BACKEND_CPU && vmafx_device_backend(NULL) == 0u);
    const char *text = "unset";
    FAILS(vmafx_device_profile(dev, &text, &err), VMAFX_E_NOTSUP, &err, "device",
          VMAFX_SUBJECT_DEVICE);
    CHECK(text == NULL);
    vmafx_device_unref(dev);
    vmafx_device_unref(NULL);
    CHECK(vmafx_device_ref(NULL) == NULL);
    CHECK(vmafx_device_create(NULL, NULL, NULL) == VMAFX_E_INVALID);
    CHECK(vmafx_device_describe(NULL, &d, NULL) == VMAFX_E_INVALID);

    /* The error API on NULL. */
    CHECK(vmafx_error_status(NULL) == VMAFX_E_INVALID && vmafx_error_subject_kind(NULL) == 0u);
    CHECK(vmafx_error_message(NULL)[0] == '\0' && vmafx_error_subject(NULL)[0] == '\0');
    CHECK(vmafx_error_function(NULL)[0] == '\0' && vmafx_error_errno(NULL) == 0);
    vmafx_error_free(NULL);
    CHECK(vmafx_device_count(9u, &count, &err) == VMAFX_E_INVALID &&
          strcmp(vmafx_error_function(err), "vmafx_device_count") == 0);
    vmafx_error_free(err);
    return check_finish("test_devices");
}
