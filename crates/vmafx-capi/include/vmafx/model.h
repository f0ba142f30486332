/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/**
 * Models: built-in versions and JSON files (model sets, overrides and hashes are not provided yet).
 */

#ifndef VMAFX_MODEL_H
#define VMAFX_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Model load flag: do not clip the score to the model's range. */
#define VMAFX_MODEL_DISABLE_CLIP (UINT64_C(1) << 0U)

/** Model load flag: apply the model's score transform. */
#define VMAFX_MODEL_ENABLE_TRANSFORM (UINT64_C(1) << 1U)

/** Model load flag: do not apply the score transform (VMAFX_E_NOTSUP in this build). */
#define VMAFX_MODEL_DISABLE_TRANSFORM (UINT64_C(1) << 2U)

/** A loaded model. Reference-counted; a context that uses it holds a reference. */
typedef struct VmafxModel VmafxModel;

typedef struct VmafxModelConfig VmafxModelConfig;

/** How to load a model. Initialise with VMAFX_MODEL_CONFIG_INIT. */
struct VmafxModelConfig {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Name of the model's scores (copied); NULL: `vmaf`. */
    const char *name;
    /** VMAFX_MODEL_* bits; 0 keeps the model file's defaults. */
    uint64_t flags;
    /** A VmafxLogLevel: the messages `log_callback` receives. */
    uint32_t log_level;
    /**
     * Receives, at VMAFX_LOG_LEVEL_ERROR, a load failure reported without an error out-parameter (a
     * model belongs to no context); NULL: stderr.
     */
    VmafxLogCallback log_callback;
    /** Passed to `log_callback`. */
    void *log_user;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_MODEL_CONFIG_INIT {.struct_size = sizeof(VmafxModelConfig)}

/**
 * Loads the built-in model `version` (see vmafx_model_builtin_next()); `config` may be NULL.
 * VMAFX_E_NOTFOUND names an unknown version, VMAFX_E_INVALID a model set, VMAFX_E_INVALID
 * `config.log_level` a level that is not a VmafxLogLevel.
 */
VMAFX_EXPORT VmafxStatus vmafx_model_load(const VmafxModelConfig *config, const char *version,
                                          VmafxModel **out, VmafxError **error);

/**
 * Loads a JSON model file (UTF-8 path). VMAFX_E_IO names a file that cannot be read,
 * VMAFX_E_INVALID one that is not a single model.
 */
VMAFX_EXPORT VmafxStatus vmafx_model_load_file(const VmafxModelConfig *config, const char *path,
                                               VmafxModel **out, VmafxError **error);

/** Takes one more reference; returns `model` (NULL for NULL). */
VMAFX_EXPORT VmafxModel *vmafx_model_ref(VmafxModel *model);

/** Drops one reference; the last one releases the model. NULL is a no-op. */
VMAFX_EXPORT void vmafx_model_unref(VmafxModel *model);

/** Name the model's scores are recorded under; NULL for NULL. */
VMAFX_EXPORT const char *vmafx_model_name(const VmafxModel *model);

/** Number of features the model reads; 0 for NULL. */
VMAFX_EXPORT uint32_t vmafx_model_feature_count(const VmafxModel *model);

/** Name of feature `index`, or NULL past the last one. */
VMAFX_EXPORT const char *vmafx_model_feature_name(const VmafxModel *model, uint32_t index);

/**
 * The built-in version after `previous`, the first for NULL, NULL after the last or for an unknown
 * `previous`. Built-in model sets are listed too.
 */
VMAFX_EXPORT const char *vmafx_model_builtin_next(const char *previous);

/** Version of the default model (`vmaf_v1.0.16_3d0h`). */
VMAFX_EXPORT const char *vmafx_model_default_version(void);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_MODEL_H */
