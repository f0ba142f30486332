/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Provenance records: how the scores of a context are made (ABI 0.1.5). */

#ifndef VMAFX_PROVENANCE_H
#define VMAFX_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>
#include <vmafx/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Where the scores of a feature come from. */
typedef enum VmafxFeatureSource {
    /** Not recorded. */
    VMAFX_FEATURE_SOURCE_UNKNOWN = 0,
    /** Written by a registered feature extractor. */
    VMAFX_FEATURE_SOURCE_EXTRACTOR = 1,
    /** Imported with vmafx_context_import_score(). */
    VMAFX_FEATURE_SOURCE_IMPORTED = 2,
    /** Predicted by a model the context uses. */
    VMAFX_FEATURE_SOURCE_MODEL = 3,
} VmafxFeatureSource;

/**
 * vmafx_context_provenance_json() flag: the bytes the digest covers (no `digest`, no `elapsed_ns`).
 */
#define VMAFX_PROVENANCE_JSON_CANONICAL (UINT32_C(1) << 0U)

typedef struct VmafxProvenance VmafxProvenance;
typedef struct VmafxModelProvenance VmafxModelProvenance;
typedef struct VmafxFeatureProvenance VmafxFeatureProvenance;
typedef struct VmafxAnnotation VmafxAnnotation;

/** How the scores of a context are made. Strings live as long as the context. */
struct VmafxProvenance {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** ABI major version of the library. */
    uint32_t abi_major;
    /** ABI minor version. */
    uint32_t abi_minor;
    /** ABI patch version. */
    uint32_t abi_patch;
    /** The VmafxBackend the context scores on. */
    uint32_t active_backend;
    /** Registered feature extractors. */
    uint32_t n_extractors;
    /** Build version (`vmafx 0.x.y`). */
    const char *version;
    /** Commit of the build (VMAFX_COMMIT at build time), else `unknown`. */
    const char *commit;
    /**
     * `sha256:` of the canonical build description (compiler, flags, fp policy, backends,
     * rust_twins).
     */
    const char *build_id;
    /** The compiler (`rustc 1.x.y`). */
    const char *compiler;
    /** Profile, optimisation level and debug assertions of the build. */
    const char *build_flags;
    /** Floating-point rules of the build. */
    const char *fp_policy;
    /** Backends built in, comma-separated (`cpu`). */
    const char *backends;
    /** 1 when `<name>_rust` twins of the extractors are registered, else 0. */
    uint32_t rust_twins;
    /** CPU instruction-set level the extractors dispatch to (`avx2`, `scalar`, ...). */
    const char *simd;
    /** Index of the device within its backend; 0 for the CPU. */
    int32_t device_index;
    /** Name of the device (`cpu`). */
    const char *device_name;
    /** Runtime of the device; the host architecture for the CPU (`x86_64`). */
    const char *device_runtime;
    /** Worker threads. */
    uint32_t n_threads;
    /** Frame subsampling (1: every frame). */
    uint32_t n_subsample;
    /** CPU bits the configuration disabled. */
    uint64_t cpumask;
    /** GPU bits the configuration disabled. */
    uint64_t gpumask;
    /** Luma width of the frames; 0 before the first. */
    uint32_t frame_width;
    /** Luma height of the frames; 0 before the first. */
    uint32_t frame_height;
    /** The VmafxPixelFormat of the frames. */
    uint32_t pix_fmt;
    /** Bits per component of the frames. */
    uint32_t bpc;
    /** Frames submitted. */
    uint64_t n_frames;
    /** Models used; see vmafx_context_model_provenance(). */
    uint32_t n_models;
    /** Features with scores; see vmafx_context_feature_provenance(). */
    uint32_t n_features;
    /** Annotations; see vmafx_context_annotation(). */
    uint32_t n_annotations;
    /** Digest of the distorted input's encode record, or empty. */
    const char *encode_record;
    /**
     * `sha256:` over every per-frame score so far: a line `<feature> <index> <16 hex digits of the
     * bits>` per score, features in byte order of their names, frames in index order.
     */
    const char *scores_digest;
    /**
     * Nanoseconds from the first frame to the flush (to now before it); not covered by `digest`.
     */
    uint64_t elapsed_ns;
    /** `sha256:` of the record's canonical JSON without `digest` and `elapsed_ns`. */
    const char *digest;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_PROVENANCE_INIT {.struct_size = sizeof(VmafxProvenance)}

/** One model of a context. Strings live as long as the context. */
struct VmafxModelProvenance {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Name of the model's scores. */
    const char *name;
    /** Built-in version, or the file the model was loaded from. */
    const char *version;
    /** SHA-256 of the bytes loaded, 64 lower-case hex digits. */
    const char *sha256;
    /** Load flags (VMAFX_MODEL_* bits). */
    uint64_t flags;
    /** Overrides applied, `<extractor>.<key>=<value>` joined by `:` in order; empty when none. */
    const char *overrides;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_MODEL_PROVENANCE_INIT {.struct_size = sizeof(VmafxModelProvenance)}

/** How the scores of one feature are made. Strings live as long as the context. */
struct VmafxFeatureProvenance {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Feature name as the scores carry it. */
    const char *feature;
    /**
     * Extractor that wrote the scores; the model's name for a model score; empty for an imported
     * one.
     */
    const char *extractor;
    /** `c` for the reference extractor of its name; empty when no extractor wrote the scores. */
    const char *implementation;
    /** The VmafxBackend it ran on. */
    uint32_t backend;
    /** Device that ran it (`cpu`). */
    const char *device;
    /** Runtime of that device. */
    const char *runtime;
    /** Options of the extractor, `key=value` joined by `:` in key order; empty when none. */
    const char *options;
    /** `cpu-reference` for the CPU extractor; empty when no extractor wrote the scores. */
    const char *exactness;
    /** A VmafxFeatureSource. */
    uint32_t source;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_FEATURE_PROVENANCE_INIT {.struct_size = sizeof(VmafxFeatureProvenance)}

/** One annotation of a context. Strings live as long as the context. */
struct VmafxAnnotation {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Key: 1 to 64 characters of a-z, 0-9 and _. */
    const char *key;
    /** Value as given. */
    const char *value;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_ANNOTATION_INIT {.struct_size = sizeof(VmafxAnnotation)}

/**
 * Fills `out` with the provenance record of the context: the build, the CPU level, the device, the
 * configuration, the frames, the counts of models, features and annotations, the encode record, the
 * digest of the scores and the digest of the record (which leaves out the timing). Strings live as
 * long as the context. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_provenance(const VmafxContext *context, VmafxProvenance *out,
                                                  VmafxError **error);

/**
 * Describes model `index` of the context (its models, then its model sets, in the order used);
 * VMAFX_E_NOTFOUND naming `index` past the last. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_model_provenance(const VmafxContext *context, uint32_t index,
                                                        VmafxModelProvenance *out,
                                                        VmafxError **error);

/**
 * Describes feature `index` of the context, features in byte order of their names; VMAFX_E_NOTFOUND
 * naming `index` past the last. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_feature_provenance(const VmafxContext *context,
                                                          uint32_t index,
                                                          VmafxFeatureProvenance *out,
                                                          VmafxError **error);

/**
 * Describes the feature named `feature` as its scores carry it; VMAFX_E_NOTFOUND naming it when the
 * context has no score of it. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_feature_provenance(const VmafxContext *context, const char *feature,
                                                  VmafxFeatureProvenance *out, VmafxError **error);

/**
 * Adds `key` = `value` (both copied) to the record, for what only the caller knows (inputs, command
 * line); keys may repeat and keep their order. VMAFX_E_INVALID names a `key` that is not 1 to 64
 * characters of a-z, 0-9 and _; VMAFX_E_RANGE names `value` over 4096 bytes, and `key` for the
 * 257th annotation. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_annotate(VmafxContext *context, const char *key,
                                                const char *value, VmafxError **error);

/**
 * Annotation `index` in the order added; VMAFX_E_NOTFOUND naming `index` past the last. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_annotation(const VmafxContext *context, uint32_t index,
                                                  VmafxAnnotation *out, VmafxError **error);

/**
 * Records the digest of the distorted input's encode record: `sha256:` and 64 lower-case hex
 * digits, copied; NULL or empty clears it. VMAFX_E_INVALID names `record` in any other form. ABI
 * 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_set_encode_record(VmafxContext *context, const char *record,
                                                         VmafxError **error);

/**
 * The record as RFC 8785 JSON (keys in byte order, no whitespace; 32-bit integers as numbers,
 * 64-bit integers as strings, enums by lower-case names) with its models, features and annotations;
 * VMAFX_PROVENANCE_JSON_CANONICAL leaves out `digest` and `elapsed_ns` (the bytes the digest
 * covers). `*json` lives until the next call on the context or its destruction. VMAFX_E_INVALID
 * names unknown `flags`. ABI 0.1.5.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_provenance_json(VmafxContext *context, uint32_t flags,
                                                       const char **json, VmafxError **error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_PROVENANCE_H */
