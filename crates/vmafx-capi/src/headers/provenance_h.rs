//! provenance.h: the provenance record of a context (ABI 0.1.5).

use crate::header_items::{Header, Item};
use crate::provenance::{
    self, VmafxAnnotation, VmafxFeatureProvenance, VmafxModelProvenance, VmafxProvenance,
    FEATURE_SOURCES, PROVENANCE_JSON_CANONICAL,
};
use crate::{field, func};

const SIZE: &str = "Size of this struct as the caller compiled it; set by the _INIT macro.";

/// provenance.h.
pub fn provenance_h() -> Header {
    type P = VmafxProvenance;
    type M = VmafxModelProvenance;
    type F = VmafxFeatureProvenance;
    type A = VmafxAnnotation;
    Header {
        path: "include/vmafx/provenance.h",
        guard: "VMAFX_PROVENANCE_H",
        brief: "Provenance records: how the scores of a context are made (ABI 0.1.5).",
        includes: vec!["<stddef.h>", "<stdint.h>", "<vmafx/types.h>", "<vmafx/error.h>", "<vmafx/context.h>"],
        items: vec![
            Item::Enum {
                name: "VmafxFeatureSource",
                doc: "Where the scores of a feature come from.",
                typedef: true,
                values: FEATURE_SOURCES.iter().map(|(n, v, d)| (n.to_string(), *v as i64, d.to_string())).collect(),
            },
            Item::Define {
                name: "VMAFX_PROVENANCE_JSON_CANONICAL",
                value: format!("(UINT32_C(1) << {}U)", PROVENANCE_JSON_CANONICAL.trailing_zeros()),
                doc: "vmafx_context_provenance_json() flag: the bytes the digest covers (no `digest`, no `elapsed_ns`).",
            },
            Item::Raw("typedef struct VmafxProvenance VmafxProvenance;\ntypedef struct VmafxModelProvenance VmafxModelProvenance;\ntypedef struct VmafxFeatureProvenance VmafxFeatureProvenance;\ntypedef struct VmafxAnnotation VmafxAnnotation;".into()),
            Item::Struct {
                name: "VmafxProvenance",
                doc: "How the scores of a context are made. Strings live as long as the context.",
                fields: vec![
                    field!(P, struct_size, "uint32_t", SIZE),
                    field!(P, abi_major, "uint32_t", "ABI major version of the library."),
                    field!(P, abi_minor, "uint32_t", "ABI minor version."),
                    field!(P, abi_patch, "uint32_t", "ABI patch version."),
                    field!(P, active_backend, "uint32_t", "The VmafxBackend the context scores on."),
                    field!(P, n_extractors, "uint32_t", "Registered feature extractors."),
                    field!(P, version, "const char *", "Build version (`vmafx 0.x.y`)."),
                    field!(P, commit, "const char *", "Commit of the build (VMAFX_COMMIT at build time), else `unknown`."),
                    field!(P, build_id, "const char *", "`sha256:` of the canonical build description (compiler, flags, fp policy, backends, rust_twins)."),
                    field!(P, compiler, "const char *", "The compiler (`rustc 1.x.y`)."),
                    field!(P, build_flags, "const char *", "Profile, optimisation level and debug assertions of the build."),
                    field!(P, fp_policy, "const char *", "Floating-point rules of the build."),
                    field!(P, backends, "const char *", "Backends built in, comma-separated (`cpu`)."),
                    field!(P, rust_twins, "uint32_t", "1 when `<name>_rust` twins of the extractors are registered, else 0."),
                    field!(P, simd, "const char *", "CPU instruction-set level the extractors dispatch to (`avx2`, `scalar`, ...)."),
                    field!(P, device_index, "int32_t", "Index of the device within its backend; 0 for the CPU."),
                    field!(P, device_name, "const char *", "Name of the device (`cpu`)."),
                    field!(P, device_runtime, "const char *", "Runtime of the device; the host architecture for the CPU (`x86_64`)."),
                    field!(P, n_threads, "uint32_t", "Worker threads."),
                    field!(P, n_subsample, "uint32_t", "Frame subsampling (1: every frame)."),
                    field!(P, cpumask, "uint64_t", "CPU bits the configuration disabled."),
                    field!(P, gpumask, "uint64_t", "GPU bits the configuration disabled."),
                    field!(P, frame_width, "uint32_t", "Luma width of the frames; 0 before the first."),
                    field!(P, frame_height, "uint32_t", "Luma height of the frames; 0 before the first."),
                    field!(P, pix_fmt, "uint32_t", "The VmafxPixelFormat of the frames."),
                    field!(P, bpc, "uint32_t", "Bits per component of the frames."),
                    field!(P, n_frames, "uint64_t", "Frames submitted."),
                    field!(P, n_models, "uint32_t", "Models used; see vmafx_context_model_provenance()."),
                    field!(P, n_features, "uint32_t", "Features with scores; see vmafx_context_feature_provenance()."),
                    field!(P, n_annotations, "uint32_t", "Annotations; see vmafx_context_annotation()."),
                    field!(P, encode_record, "const char *", "Digest of the distorted input's encode record, or empty."),
                    field!(P, scores_digest, "const char *", "`sha256:` over every per-frame score so far: a line `<feature> <index> <16 hex digits of the bits>` per score, features in byte order of their names, frames in index order."),
                    field!(P, elapsed_ns, "uint64_t", "Nanoseconds from the first frame to the flush (to now before it); not covered by `digest`."),
                    field!(P, digest, "const char *", "`sha256:` of the record's canonical JSON without `digest` and `elapsed_ns`."),
                ],
                rust_size: std::mem::size_of::<P>(),
                init: "VMAFX_PROVENANCE_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxModelProvenance",
                doc: "One model of a context. Strings live as long as the context.",
                fields: vec![
                    field!(M, struct_size, "uint32_t", SIZE),
                    field!(M, name, "const char *", "Name of the model's scores."),
                    field!(M, version, "const char *", "Built-in version, or the file the model was loaded from."),
                    field!(M, sha256, "const char *", "SHA-256 of the bytes loaded, 64 lower-case hex digits."),
                    field!(M, flags, "uint64_t", "Load flags (VMAFX_MODEL_* bits)."),
                    field!(M, overrides, "const char *", "Overrides applied, `<extractor>.<key>=<value>` joined by `:` in order; empty when none."),
                ],
                rust_size: std::mem::size_of::<M>(),
                init: "VMAFX_MODEL_PROVENANCE_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxFeatureProvenance",
                doc: "How the scores of one feature are made. Strings live as long as the context.",
                fields: vec![
                    field!(F, struct_size, "uint32_t", SIZE),
                    field!(F, feature, "const char *", "Feature name as the scores carry it."),
                    field!(F, extractor, "const char *", "Extractor that wrote the scores; the model's name for a model score; empty for an imported one."),
                    field!(F, implementation, "const char *", "`c` for the reference extractor of its name; empty when no extractor wrote the scores."),
                    field!(F, backend, "uint32_t", "The VmafxBackend it ran on."),
                    field!(F, device, "const char *", "Device that ran it (`cpu`)."),
                    field!(F, runtime, "const char *", "Runtime of that device."),
                    field!(F, options, "const char *", "Options of the extractor, `key=value` joined by `:` in key order; empty when none."),
                    field!(F, exactness, "const char *", "`cpu-reference` for the CPU extractor; empty when no extractor wrote the scores."),
                    field!(F, source, "uint32_t", "A VmafxFeatureSource."),
                ],
                rust_size: std::mem::size_of::<F>(),
                init: "VMAFX_FEATURE_PROVENANCE_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxAnnotation",
                doc: "One annotation of a context. Strings live as long as the context.",
                fields: vec![
                    field!(A, struct_size, "uint32_t", SIZE),
                    field!(A, key, "const char *", "Key: 1 to 64 characters of a-z, 0-9 and _."),
                    field!(A, value, "const char *", "Value as given."),
                ],
                rust_size: std::mem::size_of::<A>(),
                init: "VMAFX_ANNOTATION_INIT",
                init_extra: "",
            },
            func!(provenance::vmafx_context_provenance),
            func!(provenance::vmafx_context_model_provenance),
            func!(provenance::vmafx_context_feature_provenance),
            func!(provenance::vmafx_feature_provenance),
            func!(provenance::vmafx_context_annotate),
            func!(provenance::vmafx_context_annotation),
            func!(provenance::vmafx_context_set_encode_record),
            func!(provenance::vmafx_context_provenance_json),
        ],
    }
}
