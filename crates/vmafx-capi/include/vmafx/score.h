/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Frame scores and pooled scores. */

#ifndef VMAFX_SCORE_H
#define VMAFX_SCORE_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>
#include <vmafx/context.h>
#include <vmafx/model.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafxScore VmafxScore;
typedef struct VmafxPooledScore VmafxPooledScore;

/** One score and the extractor that produced it. */
struct VmafxScore {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** VmafxBackend of the producing extractor (the context's). */
    uint32_t backend;
    /** Frame index. */
    uint64_t index;
    /** Score. */
    double value;
    /** Feature name as requested; the model's name for a model score. */
    const char *feature;
    /**
     * Registered extractor that declares the feature, or NULL (model scores, option-decorated
     * names).
     */
    const char *extractor;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_SCORE_INIT {.struct_size = sizeof(VmafxScore)}

/** A score pooled over frames `first` to `last`. */
struct VmafxPooledScore {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Pooling method (a VmafxPool). */
    uint32_t pool;
    /** First frame pooled. */
    uint64_t first;
    /** Last frame pooled. */
    uint64_t last;
    /** Pooled score. */
    double value;
    /** Feature or model name. */
    const char *feature;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_POOLED_SCORE_INIT {.struct_size = sizeof(VmafxPooledScore)}

typedef struct VmafxModelSetScore VmafxModelSetScore;

/** The bootstrap score of a model set at one frame or pooled over frames. */
struct VmafxModelSetScore {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Pooling method (a VmafxPool); VMAFX_POOL_NONE for a per-frame score. */
    uint32_t pool;
    /** First frame (the frame of a per-frame score). */
    uint64_t first;
    /** Last frame (inclusive). */
    uint64_t last;
    /** Mean of the member models' scores. */
    double bagging;
    /** Standard deviation of the members' scores. */
    double stddev;
    /** Lower bound of the 95% confidence interval. */
    double ci95_lo;
    /** Upper bound of the 95% confidence interval. */
    double ci95_hi;
    /** Name of the model set; lives as long as the set. */
    const char *name;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_MODEL_SET_SCORE_INIT {.struct_size = sizeof(VmafxModelSetScore)}

/**
 * Score of `feature` (collector key or printed alias) at frame `index` with its producer;
 * VMAFX_PENDING while the frame is not final (before vmafx_flush()). VMAFX_E_RANGE naming `index`
 * at or past the frames scored.
 */
VMAFX_EXPORT VmafxStatus vmafx_feature_score(VmafxContext *context, const char *feature,
                                             uint64_t index, VmafxScore *out, VmafxError **error);

/**
 * Score of `model` (used by the context) at frame `index`; VMAFX_PENDING before vmafx_flush().
 * VMAFX_E_RANGE naming `index` at or past the frames scored.
 */
VMAFX_EXPORT VmafxStatus vmafx_score_frame(VmafxContext *context, const VmafxModel *model,
                                           uint64_t index, VmafxScore *out, VmafxError **error);

/**
 * `model`'s score pooled with `pool` over frames `first` to `last` (subsampled frames skipped), as
 * libvmaf's vmaf_score_pooled(). VMAFX_E_RANGE naming `first` above `last`, or `last` at or past
 * the frames scored (any `last` when none was), checked before any work.
 */
VMAFX_EXPORT VmafxStatus vmafx_score_pooled(VmafxContext *context, const VmafxModel *model,
                                            uint32_t pool, uint64_t first, uint64_t last,
                                            VmafxPooledScore *out, VmafxError **error);

/**
 * `feature` pooled with `pool` over frames `first` to `last`; out-of-range `first` and `last` as
 * vmafx_score_pooled().
 */
VMAFX_EXPORT VmafxStatus vmafx_feature_score_pooled(VmafxContext *context, const char *feature,
                                                    uint32_t pool, uint64_t first, uint64_t last,
                                                    VmafxPooledScore *out, VmafxError **error);

/**
 * Bootstrap score of `set` (used by the context) at frame `index`; VMAFX_PENDING before
 * vmafx_flush(). VMAFX_E_RANGE naming `index` at or past the frames scored.
 */
VMAFX_EXPORT VmafxStatus vmafx_score_frame_model_set(VmafxContext *context, const VmafxModelSet *set,
                                                     uint64_t index, VmafxModelSetScore *out,
                                                     VmafxError **error);

/**
 * Bootstrap score of `set` with each of its four values pooled with `pool` over frames `first` to
 * `last` (subsampled frames skipped); out-of-range `first` and `last` as vmafx_score_pooled().
 */
VMAFX_EXPORT VmafxStatus vmafx_score_pooled_model_set(VmafxContext *context, const VmafxModelSet *set,
                                                      uint32_t pool, uint64_t first, uint64_t last,
                                                      VmafxModelSetScore *out, VmafxError **error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_SCORE_H */
