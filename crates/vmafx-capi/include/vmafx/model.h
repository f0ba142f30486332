/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Models and model sets: built-in versions and JSON files, hashes, feature overrides. */

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
 * SHA-256 of the model bytes as loaded, 64 lowercase hex digits (equal to `sha256sum` of the file);
 * lives as long as the model. NULL for NULL.
 */
VMAFX_EXPORT const char *vmafx_model_hash(const VmafxModel *model);

/**
 * Merges `options` (copied) into the options the model passes to `extractor`. Only while the caller
 * holds the only reference: a model a context uses is immutable (VMAFX_E_BUSY naming `model`);
 * VMAFX_E_NOTFOUND names an extractor the model has no feature of.
 */
VMAFX_EXPORT VmafxStatus vmafx_model_override_feature(VmafxModel *model, const char *extractor,
                                                      const VmafxOptions *options,
                                                      VmafxError **error);

/**
 * The built-in version after `previous`, the first for NULL, NULL after the last or for an unknown
 * `previous`. Built-in model sets are listed too.
 */
VMAFX_EXPORT const char *vmafx_model_builtin_next(const char *previous);

/** Version of the default model (`vmaf_v1.0.16_3d0h`). */
VMAFX_EXPORT const char *vmafx_model_default_version(void);

/** A bootstrap model set: a lead model and its member models. Reference-counted. */
typedef struct VmafxModelSet VmafxModelSet;

/**
 * Loads the built-in model set `version` (`vmaf_b_v0.6.3`); `config` may be NULL. VMAFX_E_NOTFOUND
 * names an unknown version, VMAFX_E_INVALID one that is not a set.
 */
VMAFX_EXPORT VmafxStatus vmafx_model_set_load(const VmafxModelConfig *config, const char *version,
                                              VmafxModelSet **out, VmafxError **error);

/** Loads a JSON model set file (UTF-8 path); failures as vmafx_model_load_file(). */
VMAFX_EXPORT VmafxStatus vmafx_model_set_load_file(const VmafxModelConfig *config, const char *path,
                                                   VmafxModelSet **out, VmafxError **error);

/**
 * vmafx_model_override_feature() for the lead and every member; VMAFX_E_BUSY naming `set` once the
 * set or its lead is shared.
 */
VMAFX_EXPORT VmafxStatus vmafx_model_set_override_feature(VmafxModelSet *set, const char *extractor,
                                                          const VmafxOptions *options,
                                                          VmafxError **error);

/** Takes one more reference; returns `set` (NULL for NULL). */
VMAFX_EXPORT VmafxModelSet *vmafx_model_set_ref(VmafxModelSet *set);

/** Drops one reference; the last releases the set and its models. NULL is a no-op. */
VMAFX_EXPORT void vmafx_model_set_unref(VmafxModelSet *set);

/**
 * The set's lead model (its model "0"), borrowed: valid as long as the set; take a reference with
 * vmafx_model_ref() to keep it longer. NULL for NULL.
 */
VMAFX_EXPORT VmafxModel *vmafx_model_set_lead(const VmafxModelSet *set);

/** Number of member models, without the lead; 0 for NULL. */
VMAFX_EXPORT uint32_t vmafx_model_set_size(const VmafxModelSet *set);

/** SHA-256 of the set's bytes as loaded, as vmafx_model_hash(); NULL for NULL. */
VMAFX_EXPORT const char *vmafx_model_set_hash(const VmafxModelSet *set);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_MODEL_H */
