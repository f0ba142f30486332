//! dnn.h: tiny models (run by vmafx-dnn with the `dnn` feature, refused without it; see
//! `crate::dnn`).

use crate::dnn::{self, VmafxDnnConfig, VmafxDnnInput, VmafxDnnOutput};
use crate::header_items::{Header, Item};
use crate::{field, func};

fn values(prefix: &str, names: &[(&str, &str)]) -> Vec<(String, i64, String)> {
    names
        .iter()
        .enumerate()
        .map(|(i, (n, d))| (format!("{prefix}{n}"), i as i64, d.to_string()))
        .collect()
}

/// dnn.h.
pub fn dnn_h() -> Header {
    type C = VmafxDnnConfig;
    type I = VmafxDnnInput;
    type O = VmafxDnnOutput;
    let devices = [
        ("AUTO", "The best execution provider the runtime offers."),
        ("CPU", "The CPU."),
        ("CUDA", "A CUDA GPU."),
        ("OPENVINO", "The OpenVINO provider, its default device."),
        ("ROCM", "A ROCm GPU."),
        ("COREML", "The Core ML provider, its default unit."),
        ("COREML_ANE", "Core ML on the neural engine."),
        ("COREML_GPU", "Core ML on the GPU."),
        ("COREML_CPU", "Core ML on the CPU."),
        ("OPENVINO_NPU", "OpenVINO on the NPU."),
    ];
    // VMAFx's order: ... OPENVINO_NPU 9, OPENVINO_CPU 10, OPENVINO_GPU 11.
    let mut device_values = values("VMAFX_DNN_DEVICE_", &devices[..10]);
    device_values.push((
        "VMAFX_DNN_DEVICE_OPENVINO_CPU".into(),
        10,
        "OpenVINO on the CPU.".into(),
    ));
    device_values.push((
        "VMAFX_DNN_DEVICE_OPENVINO_GPU".into(),
        11,
        "OpenVINO on the GPU.".into(),
    ));
    assert_eq!(device_values.len() as u32, dnn::DEVICE_MAX + 1);
    let resize = values(
        "VMAFX_DNN_RESIZE_",
        &[
            ("DISABLED", "No resize: a frame of another size is refused."),
            ("BILINEAR", "Bilinear."),
            ("NEAREST", "Nearest neighbour."),
            ("BICUBIC", "Bicubic."),
        ],
    );
    assert_eq!(resize.len() as u32, dnn::RESIZE_MAX + 1);
    Header {
        path: "include/vmafx/dnn.h",
        guard: "VMAFX_DNN_H",
        brief: "Tiny-AI models (VMAFx's dnn.h), run by a pure-Rust ONNX runtime in a vmafx built with its `dnn` feature. Without it vmafx_dnn_available() is 0 and the calls that load or run a model fail VMAFX_E_NOTSUP naming `dnn` after checking their arguments.",
        includes: vec!["<stddef.h>", "<stdint.h>", "<vmafx/types.h>", "<vmafx/error.h>", "<vmafx/context.h>"],
        items: vec![
            Item::Enum { name: "VmafxDnnDevice", doc: "Inference device of a tiny-AI session (ABI 0.1.6).", typedef: true, values: device_values },
            Item::Enum { name: "VmafxDnnResize", doc: "How a tiny model's input is resized to the model's fixed shape (ABI 0.1.6).", typedef: true, values: resize },
            Item::Define { name: "VMAFX_DNN_FP16_IO", value: format!("(UINT32_C(1) << {}U)", dnn::FP16_IO.trailing_zeros()), doc: "VmafxDnnFlags: exchange tensors with the runtime in half precision." },
            Item::Opaque { name: "VmafxDnnSession", doc: "An ONNX session of a tiny model run directly (ABI 0.1.6)." },
            Item::Raw("typedef struct VmafxDnnConfig VmafxDnnConfig;\ntypedef struct VmafxDnnInput VmafxDnnInput;\ntypedef struct VmafxDnnOutput VmafxDnnOutput;".into()),
            Item::Struct {
                name: "VmafxDnnConfig",
                doc: "How to open a tiny-AI session. Initialise with VMAFX_DNN_CONFIG_INIT (ABI 0.1.6).",
                fields: vec![
                    field!(C, struct_size, "uint32_t", "Size of this struct as the caller compiled it; set by the _INIT macro."),
                    field!(C, device, "uint32_t", "Inference device: a VmafxDnnDevice."),
                    field!(C, device_index, "int32_t", "Device index within the provider; 0 is the first."),
                    field!(C, threads, "int32_t", "Intra-op threads; 0 lets the runtime choose."),
                    field!(C, flags, "uint32_t", "Session flags: VMAFX_DNN_* bits."),
                ],
                rust_size: std::mem::size_of::<C>(),
                init: "VMAFX_DNN_CONFIG_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxDnnInput",
                doc: "One named float32 input tensor of vmafx_dnn_session_run(), row-major; never grows (ABI 0.1.6).",
                fields: vec![
                    field!(I, name, "const char *", "Input name; NULL takes the session's inputs in order."),
                    field!(I, data, "const void *", "The tensor's float32 values."),
                    field!(I, shape, "const void *", "`rank` int64 extents."),
                    field!(I, rank, "size_t", "Number of dimensions."),
                ],
                rust_size: std::mem::size_of::<I>(),
                init: "",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxDnnOutput",
                doc: "One named float32 output tensor of vmafx_dnn_session_run(); never grows (ABI 0.1.6).",
                fields: vec![
                    field!(O, name, "const char *", "Output name; NULL takes the session's outputs in order."),
                    field!(O, data, "void *", "Float32 storage the call fills."),
                    field!(O, capacity, "size_t", "Floats `data` holds."),
                    field!(O, written, "size_t", "Floats written (set by the call)."),
                ],
                rust_size: std::mem::size_of::<O>(),
                init: "",
                init_extra: "",
            },
            func!(dnn::vmafx_dnn_available),
            func!(dnn::vmafx_context_use_tiny_model),
            func!(dnn::vmafx_context_set_codec_context),
            func!(dnn::vmafx_context_is_codec_aware),
            func!(dnn::vmafx_context_set_tiny_resize),
            func!(dnn::vmafx_dnn_session_open),
            func!(dnn::vmafx_dnn_session_run_luma8),
            func!(dnn::vmafx_dnn_session_run_plane16),
            func!(dnn::vmafx_dnn_session_run),
            func!(dnn::vmafx_dnn_session_close),
            func!(dnn::vmafx_dnn_session_runtime_device),
            func!(dnn::vmafx_dnn_verify_signature),
        ],
    }
}
