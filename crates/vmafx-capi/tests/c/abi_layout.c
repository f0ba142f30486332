/* The layout VMAFx's ABI fixes (LP64): sizes, offsets and values of every public struct,
 * enum and flag, checked against vmafx's generated headers. The values are those of VMAFx's
 * definition core/api/vmafx.toml at 6dacbedb (ABI 0.1.2), with the fields appended by 0.1.3
 * (VmafxContextConfig.import_retry_wait_ns) and 0.1.4 (VmafxFrameImport.release / user,
 * VMAFX_MEMORY_GL_TEXTURE, VMAFX_FENCE_GL_SYNC), and the frame path of ABI 0.1.11: the pixel
 * formats 19-37 as core/api/vmafx.toml at 21575071 gives them (added there in 0.1.5 / 0.1.6);
 * the colour enums, VmafxResampleFilter, VmafxColor and VmafxConvertDesc as frame.h at e0f59be2
 * declares them (0.1.6), with the RGB import's matrices and transfers appended as VMAFx's
 * merged RGB statement check numbers them (BT601 4, BT2020_CL 5; SRGB 3, HLG 4, LINEAR 5; the
 * format lane's own numbering at 21575071 was superseded), VMAFX_MEMORY_VULKAN and
 * VMAFX_FENCE_VULKAN_SEMAPHORE (9), and VmafxFrameImport as 0.1.11 lays it out (344 bytes): after `user` the fields acquire_more[2],
 * vulkan_handle_type, vulkan_tiling, vulkan_flags, vulkan_pci[4] (0.1.5 of the Vulkan lane; its
 * test reads a 0.1.4 descriptor as ending at acquire_more), then rgb_matrix, rgb_range,
 * rgb_transfer, rgb_out_range. The Vulkan enumerators are Vulkan's own values. The window
 * types and flags are those of VMAFx's score.h of ABI 0.1.8 (at d1d5ae2b). */
#include <stddef.h>

#include "check.h"
#include <vmafx/libvmaf_bridge.h>

#define OFF(s, f, v) CHECK(offsetof(s, f) == (v))

int main(void)
{
    CHECK(sizeof(VmafxStatus) == 4);
    CHECK(VMAFX_OK == 0 && VMAFX_PENDING == 1 && VMAFX_E_INVALID == -1 && VMAFX_E_NOMEM == -2);
    CHECK(VMAFX_E_NOTSUP == -3 && VMAFX_E_NOTFOUND == -4 && VMAFX_E_BUSY == -5);
    CHECK(VMAFX_E_DEVICE == -6 && VMAFX_E_IO == -7 && VMAFX_E_RANGE == -8);
    CHECK(VMAFX_E_INTERNAL == -9 && VMAFX_E_TIMEOUT == -10 && VMAFX_E_ABI == -11);
    CHECK(VMAFX_LOG_LEVEL_NONE == 0 && VMAFX_LOG_LEVEL_DEBUG == 4);
    CHECK(VMAFX_BACKEND_CPU == 0 && VMAFX_BACKEND_CUDA == 1 && VMAFX_BACKEND_SYCL == 2);
    CHECK(VMAFX_BACKEND_METAL == 3 && VMAFX_BACKEND_HIP == 4);
    CHECK(VMAFX_PIXEL_FORMAT_UNKNOWN == 0 && VMAFX_PIXEL_FORMAT_YUV420P == 1);
    CHECK(VMAFX_PIXEL_FORMAT_YUV422P == 2 && VMAFX_PIXEL_FORMAT_YUV444P == 3);
    CHECK(VMAFX_PIXEL_FORMAT_YUV400P == 4 && VMAFX_PIXEL_FORMAT_NV12 == 16);
    CHECK(VMAFX_PIXEL_FORMAT_P010 == 17 && VMAFX_PIXEL_FORMAT_P016 == 18);
    CHECK(VMAFX_PIXEL_FORMAT_NV16 == 19 && VMAFX_PIXEL_FORMAT_P210 == 20 && VMAFX_PIXEL_FORMAT_P216 == 21);
    CHECK(VMAFX_PIXEL_FORMAT_NV24 == 22 && VMAFX_PIXEL_FORMAT_P410 == 23 && VMAFX_PIXEL_FORMAT_P416 == 24);
    CHECK(VMAFX_PIXEL_FORMAT_Y210 == 25 && VMAFX_PIXEL_FORMAT_Y410 == 26 && VMAFX_PIXEL_FORMAT_YUYV422 == 27);
    CHECK(VMAFX_PIXEL_FORMAT_Y212 == 28 && VMAFX_PIXEL_FORMAT_VUYX == 29 && VMAFX_PIXEL_FORMAT_XV36 == 30);
    CHECK(VMAFX_PIXEL_FORMAT_YUV444P_MSB == 31 && VMAFX_PIXEL_FORMAT_AYUV == 32);
    CHECK(VMAFX_PIXEL_FORMAT_UYVY422 == 33 && VMAFX_PIXEL_FORMAT_V210 == 34);
    CHECK(VMAFX_PIXEL_FORMAT_RGB == 35 && VMAFX_PIXEL_FORMAT_RGBA == 36 && VMAFX_PIXEL_FORMAT_BGRA == 37);
    CHECK(VMAFX_COLOR_RANGE_UNKNOWN == 0 && VMAFX_COLOR_RANGE_LIMITED == 1 && VMAFX_COLOR_RANGE_FULL == 2);
    CHECK(VMAFX_COLOR_PRIMARIES_UNKNOWN == 0 && VMAFX_COLOR_PRIMARIES_BT709 == 1);
    CHECK(VMAFX_COLOR_PRIMARIES_BT2020 == 2 && VMAFX_COLOR_PRIMARIES_SMPTE432 == 3);
    CHECK(VMAFX_COLOR_TRC_UNKNOWN == 0 && VMAFX_COLOR_TRC_BT709 == 1 && VMAFX_COLOR_TRC_SMPTE2084 == 2);
    CHECK(VMAFX_COLOR_TRC_SRGB == 3 && VMAFX_COLOR_TRC_HLG == 4 && VMAFX_COLOR_TRC_LINEAR == 5);
    CHECK(VMAFX_COLOR_MATRIX_UNKNOWN == 0 && VMAFX_COLOR_MATRIX_BT709 == 1);
    CHECK(VMAFX_COLOR_MATRIX_BT2020_NCL == 2 && VMAFX_COLOR_MATRIX_ICTCP == 3);
    CHECK(VMAFX_COLOR_MATRIX_BT601 == 4 && VMAFX_COLOR_MATRIX_BT2020_CL == 5);
    CHECK(VMAFX_RESAMPLE_DEFAULT == 0 && VMAFX_RESAMPLE_BILINEAR == 1);
    CHECK(VMAFX_RESAMPLE_BICUBIC == 2 && VMAFX_RESAMPLE_LANCZOS == 3);
    CHECK(VMAFX_MEMORY_VULKAN == 9 && VMAFX_FENCE_VULKAN_SEMAPHORE == 9);
    CHECK(VMAFX_VULKAN_HANDLE_OPAQUE_FD == 1 && VMAFX_VULKAN_HANDLE_DMA_BUF == 0x200);
    CHECK(VMAFX_VULKAN_TILING_OPTIMAL == 0 && VMAFX_VULKAN_TILING_LINEAR == 1);
    CHECK(VMAFX_VULKAN_TILING_DRM_FORMAT_MODIFIER == 1000158000 && VMAFX_VULKAN_DEDICATED == 1u);
    CHECK(VMAFX_SUBJECT_NONE == 0 && VMAFX_SUBJECT_PARAMETER == 1 && VMAFX_SUBJECT_CONTEXT == 2);
    CHECK(VMAFX_SUBJECT_OPTION == 3 && VMAFX_SUBJECT_FEATURE == 4 && VMAFX_SUBJECT_EXTRACTOR == 5);
    CHECK(VMAFX_SUBJECT_MODEL == 6 && VMAFX_SUBJECT_FRAME == 7 && VMAFX_SUBJECT_PLANE == 8);
    CHECK(VMAFX_SUBJECT_DEVICE == 9 && VMAFX_SUBJECT_BACKEND == 10 && VMAFX_SUBJECT_PATH == 11);
    CHECK(VMAFX_SUBJECT_FENCE == 12);
    CHECK(VMAFX_MEMORY_NONE == 0 && VMAFX_MEMORY_HOST == 1 && VMAFX_MEMORY_DEVICE_POINTER == 2);
    CHECK(VMAFX_MEMORY_DEVICE_ARRAY == 3 && VMAFX_MEMORY_DMABUF == 4);
    CHECK(VMAFX_MEMORY_METAL_SURFACE == 5 && VMAFX_MEMORY_METAL_TEXTURE == 6);
    CHECK(VMAFX_MEMORY_WIN32_SHARED == 7 && VMAFX_MEMORY_GL_TEXTURE == 8);
    CHECK(VMAFX_FENCE_NONE == 0 && VMAFX_FENCE_HOST == 1 && VMAFX_FENCE_CUDA_EVENT == 2);
    CHECK(VMAFX_FENCE_HIP_EVENT == 3 && VMAFX_FENCE_SYCL_EVENT == 4 && VMAFX_FENCE_SYNC_FILE == 5);
    CHECK(VMAFX_FENCE_METAL_SHARED_EVENT == 6 && VMAFX_FENCE_WIN32_SHARED == 7);
    CHECK(VMAFX_FENCE_GL_SYNC == 8);
    CHECK(VMAFX_IMPORT_ALLOW_COPY == 1u && VMAFX_DEVICE_PROFILING == 1u);
    CHECK(VMAFX_MODEL_DISABLE_CLIP == 1u && VMAFX_MODEL_ENABLE_TRANSFORM == 2u &&
          VMAFX_MODEL_DISABLE_TRANSFORM == 4u);
    CHECK(VMAFX_POOL_NONE == 0 && VMAFX_POOL_MIN == 1 && VMAFX_POOL_MAX == 2);
    CHECK(VMAFX_POOL_MEAN == 3 && VMAFX_POOL_HARMONIC_MEAN == 4 && VMAFX_POOL_MEDIAN == 5);
    CHECK(VMAFX_POOL_PERC5 == 6 && VMAFX_POOL_PERC10 == 7 && VMAFX_POOL_PERC20 == 8);
    VmafxPool pool_type = VMAFX_POOL_PERC20;
    CHECK(pool_type == 8);
    CHECK(VMAFX_ABI_VERSION_MAJOR == 0 && VMAFX_ABI_VERSION_MINOR == 1 && VMAFX_ABI_VERSION_PATCH == 11);

    CHECK(sizeof(VmafxFence) == 32);
    OFF(VmafxFence, struct_size, 0); OFF(VmafxFence, kind, 4); OFF(VmafxFence, handle, 8);
    OFF(VmafxFence, value, 16); OFF(VmafxFence, fd, 24); OFF(VmafxFence, reserved, 28);

    CHECK(sizeof(VmafxImportPlane) == 48);
    OFF(VmafxImportPlane, handle, 0); OFF(VmafxImportPlane, fd, 8);
    OFF(VmafxImportPlane, plane_index, 12); OFF(VmafxImportPlane, offset, 16);
    OFF(VmafxImportPlane, pitch, 24); OFF(VmafxImportPlane, modifier, 32);
    OFF(VmafxImportPlane, size, 40);

    CHECK(sizeof(VmafxFrameImport) == 344);
    OFF(VmafxFrameImport, struct_size, 0); OFF(VmafxFrameImport, memory, 4);
    OFF(VmafxFrameImport, pix_fmt, 8); OFF(VmafxFrameImport, bpc, 12);
    OFF(VmafxFrameImport, w, 16); OFF(VmafxFrameImport, h, 20);
    OFF(VmafxFrameImport, n_planes, 24); OFF(VmafxFrameImport, plane, 32);
    OFF(VmafxFrameImport, acquire, 176); OFF(VmafxFrameImport, flags, 208);
    OFF(VmafxFrameImport, release, 216); OFF(VmafxFrameImport, user, 224);
    OFF(VmafxFrameImport, acquire_more, 232); OFF(VmafxFrameImport, vulkan_handle_type, 296);
    OFF(VmafxFrameImport, vulkan_tiling, 300); OFF(VmafxFrameImport, vulkan_flags, 304);
    OFF(VmafxFrameImport, vulkan_pci, 308); OFF(VmafxFrameImport, rgb_matrix, 324);
    OFF(VmafxFrameImport, rgb_range, 328); OFF(VmafxFrameImport, rgb_transfer, 332);
    OFF(VmafxFrameImport, rgb_out_range, 336);

    CHECK(sizeof(VmafxFrameDesc) == 20);
    OFF(VmafxFrameDesc, pix_fmt, 4); OFF(VmafxFrameDesc, bpc, 8);
    OFF(VmafxFrameDesc, w, 12); OFF(VmafxFrameDesc, h, 16);

    CHECK(sizeof(VmafxColor) == 16);
    OFF(VmafxColor, range, 0); OFF(VmafxColor, primaries, 4);
    OFF(VmafxColor, trc, 8); OFF(VmafxColor, matrix, 12);

    CHECK(sizeof(VmafxConvertDesc) == 72);
    OFF(VmafxConvertDesc, src_pix_fmt, 4); OFF(VmafxConvertDesc, src_bpc, 8);
    OFF(VmafxConvertDesc, src_w, 12); OFF(VmafxConvertDesc, src_h, 16);
    OFF(VmafxConvertDesc, src_color, 20); OFF(VmafxConvertDesc, dst_pix_fmt, 36);
    OFF(VmafxConvertDesc, dst_bpc, 40); OFF(VmafxConvertDesc, dst_w, 44);
    OFF(VmafxConvertDesc, dst_h, 48); OFF(VmafxConvertDesc, dst_color, 52);
    OFF(VmafxConvertDesc, filter, 68);

    CHECK(sizeof(VmafxHostPlanes) == 72);
    OFF(VmafxHostPlanes, data, 8); OFF(VmafxHostPlanes, stride, 32);
    OFF(VmafxHostPlanes, release, 56); OFF(VmafxHostPlanes, user, 64);

    CHECK(sizeof(VmafxFramePlanes) == 88);
    OFF(VmafxFramePlanes, pix_fmt, 4); OFF(VmafxFramePlanes, bpc, 8);
    OFF(VmafxFramePlanes, n_planes, 12); OFF(VmafxFramePlanes, w, 16);
    OFF(VmafxFramePlanes, h, 28); OFF(VmafxFramePlanes, stride, 40);
    OFF(VmafxFramePlanes, data, 64);

    CHECK(sizeof(VmafxDeviceDesc) == 32);
    OFF(VmafxDeviceDesc, backend, 4); OFF(VmafxDeviceDesc, index, 8);
    OFF(VmafxDeviceDesc, flags, 12); OFF(VmafxDeviceDesc, external, 16);

    CHECK(sizeof(VmafxDeviceInfo) == 56);
    OFF(VmafxDeviceInfo, backend, 4); OFF(VmafxDeviceInfo, index, 8);
    OFF(VmafxDeviceInfo, flags, 12); OFF(VmafxDeviceInfo, memory_kinds, 16);
    OFF(VmafxDeviceInfo, fence_kinds, 20); OFF(VmafxDeviceInfo, total_memory, 24);
    OFF(VmafxDeviceInfo, name, 32); OFF(VmafxDeviceInfo, pci, 40);

    CHECK(sizeof(VmafxContextConfig) == 56);
    OFF(VmafxContextConfig, log_level, 4); OFF(VmafxContextConfig, n_threads, 8);
    OFF(VmafxContextConfig, n_subsample, 12); OFF(VmafxContextConfig, cpumask, 16);
    OFF(VmafxContextConfig, gpumask, 24); OFF(VmafxContextConfig, log_callback, 32);
    OFF(VmafxContextConfig, log_user, 40); OFF(VmafxContextConfig, import_retry_wait_ns, 48);

    CHECK(sizeof(VmafxModelConfig) == 48);
    OFF(VmafxModelConfig, name, 8); OFF(VmafxModelConfig, flags, 16);
    OFF(VmafxModelConfig, log_level, 24); OFF(VmafxModelConfig, log_callback, 32);
    OFF(VmafxModelConfig, log_user, 40);

    CHECK(sizeof(VmafxScore) == 40);
    OFF(VmafxScore, backend, 4); OFF(VmafxScore, index, 8); OFF(VmafxScore, value, 16);
    OFF(VmafxScore, feature, 24); OFF(VmafxScore, extractor, 32);

    /* VMAFx's order: struct_size, pool, first, last, value, feature. */
    CHECK(sizeof(VmafxPooledScore) == 40);
    OFF(VmafxPooledScore, pool, 4); OFF(VmafxPooledScore, first, 8);
    OFF(VmafxPooledScore, last, 16); OFF(VmafxPooledScore, value, 24);
    OFF(VmafxPooledScore, feature, 32);

    CHECK(sizeof(VmafxExtractorInfo) == 16);
    OFF(VmafxExtractorInfo, backend, 4); OFF(VmafxExtractorInfo, name, 8);
    CHECK(sizeof(VmafxFeatureResolution) == 24);
    OFF(VmafxFeatureResolution, backend, 4); OFF(VmafxFeatureResolution, extractor, 8);
    OFF(VmafxFeatureResolution, unsupported_option, 16);

    CHECK(sizeof(VmafxModelSetScore) == 64);
    OFF(VmafxModelSetScore, pool, 4); OFF(VmafxModelSetScore, first, 8);
    OFF(VmafxModelSetScore, last, 16); OFF(VmafxModelSetScore, bagging, 24);
    OFF(VmafxModelSetScore, stddev, 32); OFF(VmafxModelSetScore, ci95_lo, 40);
    OFF(VmafxModelSetScore, ci95_hi, 48); OFF(VmafxModelSetScore, name, 56);

    /* Windows and the window clock, as VMAFx's score.h of ABI 0.1.8 lays them out. */
    CHECK(VMAFX_WINDOW_TARGET_NONE == 0 && VMAFX_WINDOW_TARGET_MODEL == 1);
    CHECK(VMAFX_WINDOW_TARGET_MODEL_SET == 2 && VMAFX_WINDOW_TARGET_FEATURE == 3);
    CHECK(VMAFX_POOL_MASK_MIN == 1u << 1 && VMAFX_POOL_MASK_MAX == 1u << 2);
    CHECK(VMAFX_POOL_MASK_MEAN == 1u << 3 && VMAFX_POOL_MASK_HARMONIC_MEAN == 1u << 4);
    CHECK(VMAFX_POOL_MASK_MEDIAN == 1u << 5 && VMAFX_POOL_MASK_PERC5 == 1u << 6);
    CHECK(VMAFX_POOL_MASK_PERC10 == 1u << 7 && VMAFX_POOL_MASK_PERC20 == 1u << 8);
    CHECK(VMAFX_WINDOW_PARTIAL == 1u);
    CHECK(sizeof(VmafxWindowRequest) == 72);
    OFF(VmafxWindowRequest, target, 4); OFF(VmafxWindowRequest, pool_mask, 8);
    OFF(VmafxWindowRequest, first, 16); OFF(VmafxWindowRequest, last, 24);
    OFF(VmafxWindowRequest, model, 32); OFF(VmafxWindowRequest, model_set, 40);
    OFF(VmafxWindowRequest, feature, 48); OFF(VmafxWindowRequest, on_complete, 56);
    OFF(VmafxWindowRequest, user, 64);
    CHECK(sizeof(VmafxWindowResult) == 352);
    OFF(VmafxWindowResult, status, 4); OFF(VmafxWindowResult, flags, 8);
    OFF(VmafxWindowResult, target, 12); OFF(VmafxWindowResult, pool_mask, 16);
    OFF(VmafxWindowResult, first, 24); OFF(VmafxWindowResult, last, 32);
    OFF(VmafxWindowResult, n_frames, 40); OFF(VmafxWindowResult, n_scored, 48);
    OFF(VmafxWindowResult, value, 56); OFF(VmafxWindowResult, stddev, 128);
    OFF(VmafxWindowResult, ci95_lo, 200); OFF(VmafxWindowResult, ci95_hi, 272);
    OFF(VmafxWindowResult, name, 344);
    CHECK(sizeof(VmafxWindowClockConfig) == 24);
    OFF(VmafxWindowClockConfig, n_stats, 8); OFF(VmafxWindowClockConfig, n_stats_frames, 16);
    CHECK(sizeof(VmafxWindowSpan) == 56);
    OFF(VmafxWindowSpan, flags, 4); OFF(VmafxWindowSpan, window, 8);
    OFF(VmafxWindowSpan, first, 16); OFF(VmafxWindowSpan, last, 24);
    OFF(VmafxWindowSpan, n_frames, 32); OFF(VmafxWindowSpan, start_ns, 40);
    OFF(VmafxWindowSpan, end_ns, 48);
    VmafxWindowResult wres = VMAFX_WINDOW_RESULT_INIT;
    CHECK(wres.struct_size == sizeof(VmafxWindowResult) && wres.name == NULL);

    /* libvmaf_bridge.h: no vmafx context is bound to a libvmaf handle. */
    CHECK(vmafx_context_libvmaf_handle(NULL) == NULL && vmafx_context_from_libvmaf(NULL) == NULL);

    /* The initialisers set struct_size and zero the rest (zero copy is the zero value). */
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    CHECK(imp.struct_size == sizeof(VmafxFrameImport) && imp.flags == 0u && imp.memory == 0u);
    CHECK(imp.acquire.struct_size == sizeof(VmafxFence) && imp.acquire.kind == VMAFX_FENCE_NONE);
    VmafxDeviceInfo info = VMAFX_DEVICE_INFO_INIT;
    CHECK(info.struct_size == sizeof(VmafxDeviceInfo) && info.name == NULL);

    /* mcp.h (ABI 0.1.6), as VMAFx's mcp.h lays it out. */
    CHECK(VMAFX_MCP_TRANSPORT_SSE == 0 && VMAFX_MCP_TRANSPORT_UDS == 1 &&
          VMAFX_MCP_TRANSPORT_STDIO == 2);
    CHECK(sizeof(VmafxMcpConfig) == 24);
    OFF(VmafxMcpConfig, queue_depth, 4); OFF(VmafxMcpConfig, max_drain_per_frame, 8);
    OFF(VmafxMcpConfig, user_agent, 16);
    CHECK(sizeof(VmafxMcpSseConfig) == 16);
    OFF(VmafxMcpSseConfig, port, 4); OFF(VmafxMcpSseConfig, path, 8);
    CHECK(sizeof(VmafxMcpUdsConfig) == 16);
    OFF(VmafxMcpUdsConfig, path, 8);
    CHECK(sizeof(VmafxMcpStdioConfig) == 12);
    OFF(VmafxMcpStdioConfig, fd_in, 4); OFF(VmafxMcpStdioConfig, fd_out, 8);

    /* dnn.h (ABI 0.1.6), as VMAFx's dnn.h lays it out. */
    CHECK(VMAFX_DNN_DEVICE_AUTO == 0 && VMAFX_DNN_DEVICE_CPU == 1 && VMAFX_DNN_DEVICE_CUDA == 2);
    CHECK(VMAFX_DNN_DEVICE_COREML_CPU == 8 && VMAFX_DNN_DEVICE_OPENVINO_NPU == 9);
    CHECK(VMAFX_DNN_DEVICE_OPENVINO_CPU == 10 && VMAFX_DNN_DEVICE_OPENVINO_GPU == 11);
    CHECK(VMAFX_DNN_RESIZE_DISABLED == 0 && VMAFX_DNN_RESIZE_BICUBIC == 3);
    CHECK(VMAFX_DNN_FP16_IO == 1u);
    CHECK(sizeof(VmafxDnnConfig) == 20);
    OFF(VmafxDnnConfig, device, 4); OFF(VmafxDnnConfig, device_index, 8);
    OFF(VmafxDnnConfig, threads, 12); OFF(VmafxDnnConfig, flags, 16);
    CHECK(sizeof(VmafxDnnInput) == 32 && sizeof(VmafxDnnOutput) == 32);
    OFF(VmafxDnnInput, data, 8); OFF(VmafxDnnInput, shape, 16); OFF(VmafxDnnInput, rank, 24);
    OFF(VmafxDnnOutput, data, 8); OFF(VmafxDnnOutput, capacity, 16);
    OFF(VmafxDnnOutput, written, 24);

    uint32_t major = 9, minor = 9, patch = 9;
    vmafx_abi_version(&major, &minor, &patch);
    CHECK(major == VMAFX_ABI_VERSION_MAJOR && minor == VMAFX_ABI_VERSION_MINOR &&
          patch == VMAFX_ABI_VERSION_PATCH);
    vmafx_abi_version(NULL, NULL, NULL);
    CHECK(strncmp(vmafx_version_string(), "vmafx ", 6) == 0);
    CHECK(strcmp(vmafx_status_name(VMAFX_E_TIMEOUT), "VMAFX_E_TIMEOUT") == 0);
    CHECK(strcmp(vmafx_status_name(-99), "VMAFX_UNKNOWN_STATUS") == 0);
    return check_finish("abi_layout");
}
