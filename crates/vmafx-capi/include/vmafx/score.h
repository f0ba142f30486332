/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Frame scores, pooled scores and windows. */

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
VMAFX_EXPORT VmafxStatus vmafx_score_frame_model_set(VmafxContext *context,
                                                     const VmafxModelSet *set, uint64_t index,
                                                     VmafxModelSetScore *out, VmafxError **error);

/**
 * Bootstrap score of `set` with each of its four values pooled with `pool` over frames `first` to
 * `last` (subsampled frames skipped); out-of-range `first` and `last` as vmafx_score_pooled().
 */
VMAFX_EXPORT VmafxStatus vmafx_score_pooled_model_set(VmafxContext *context,
                                                      const VmafxModelSet *set, uint32_t pool,
                                                      uint64_t first, uint64_t last,
                                                      VmafxModelSetScore *out, VmafxError **error);

/** What a window pools (ABI 0.1.8). */
typedef enum VmafxWindowTarget {
    /** Not set; refused by vmafx_window_submit(). */
    VMAFX_WINDOW_TARGET_NONE = 0,
    /** The scores of `model`, as vmafx_score_pooled() pools them. */
    VMAFX_WINDOW_TARGET_MODEL = 1,
    /** The bootstrap scores of `model_set`, as vmafx_score_pooled_model_set() pools them. */
    VMAFX_WINDOW_TARGET_MODEL_SET = 2,
    /** The scores of `feature`, as vmafx_feature_score_pooled() pools them. */
    VMAFX_WINDOW_TARGET_FEATURE = 3,
} VmafxWindowTarget;

/* VmafxPoolMask: bit `1 << p` for each VmafxPool `p` (ABI 0.1.8). */

/** VMAFX_POOL_MIN. */
#define VMAFX_POOL_MASK_MIN (UINT32_C(1) << 1U)

/** VMAFX_POOL_MAX. */
#define VMAFX_POOL_MASK_MAX (UINT32_C(1) << 2U)

/** VMAFX_POOL_MEAN. */
#define VMAFX_POOL_MASK_MEAN (UINT32_C(1) << 3U)

/** VMAFX_POOL_HARMONIC_MEAN. */
#define VMAFX_POOL_MASK_HARMONIC_MEAN (UINT32_C(1) << 4U)

/** VMAFX_POOL_MEDIAN. */
#define VMAFX_POOL_MASK_MEDIAN (UINT32_C(1) << 5U)

/** VMAFX_POOL_PERC5. */
#define VMAFX_POOL_MASK_PERC5 (UINT32_C(1) << 6U)

/** VMAFX_POOL_PERC10. */
#define VMAFX_POOL_MASK_PERC10 (UINT32_C(1) << 7U)

/** VMAFX_POOL_PERC20. */
#define VMAFX_POOL_MASK_PERC20 (UINT32_C(1) << 8U)

/**
 * VmafxWindowFlags: the stream ended inside the window (a result pooled fewer frames than asked
 * for; a span is the last, cut off by vmafx_window_clock_finish()).
 */
#define VMAFX_WINDOW_PARTIAL (UINT32_C(1) << 0U)

/**
 * An asynchronous pooled score over a range of frames (vmafx_window_submit()); owns its result
 * until released (ABI 0.1.8).
 */
typedef struct VmafxWindow VmafxWindow;

/**
 * Cuts a stream into windows of `n_stats` seconds or `n_stats_frames` frames; holds no context (ABI
 * 0.1.8).
 */
typedef struct VmafxWindowClock VmafxWindowClock;

typedef struct VmafxWindowRequest VmafxWindowRequest;
typedef struct VmafxWindowResult VmafxWindowResult;
typedef struct VmafxWindowClockConfig VmafxWindowClockConfig;
typedef struct VmafxWindowSpan VmafxWindowSpan;

/** Called once when a window completes, on the context's callback thread, in completion order; `result` is valid during the call. It may poll, wait on and release windows (its own included) and must call nothing else on the window's context (ABI 0.1.8). */
typedef void (*VmafxWindowCallback)(VmafxWindow *window, const VmafxWindowResult *result,
                                    void *user);

/** A window to pool. Initialise with VMAFX_WINDOW_REQUEST_INIT (ABI 0.1.8). */
struct VmafxWindowRequest {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** A VmafxWindowTarget; the matching one of `model`, `model_set` and `feature` is set. */
    uint32_t target;
    /** VMAFX_POOL_MASK_* bits, at least one. */
    uint32_t pool_mask;
    /** First frame (inclusive). */
    uint64_t first;
    /** Last frame (inclusive). */
    uint64_t last;
    /** The model of a MODEL window (used by the context); the window holds a reference. */
    const VmafxModel *model;
    /** The model set of a MODEL_SET window; the window holds a reference. */
    const VmafxModelSet *model_set;
    /** The feature of a FEATURE window, as vmafx_feature_score_pooled() names it (copied). */
    const char *feature;
    /**
     * Called once when the window completes; NULL: use vmafx_window_poll() or vmafx_window_wait().
     */
    VmafxWindowCallback on_complete;
    /** Passed to `on_complete`. */
    void *user;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_WINDOW_REQUEST_INIT {.struct_size = sizeof(VmafxWindowRequest)}

/**
 * The scores of a completed window: each value is the synchronous pooled call's over frames `first`
 * to `first + n_frames - 1`, bit for bit. Initialise with VMAFX_WINDOW_RESULT_INIT (ABI 0.1.8).
 */
struct VmafxWindowResult {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /**
     * VMAFX_OK, or why the window has no values (VMAFX_E_RANGE: no frame of it in the stream;
     * VMAFX_E_NOTFOUND: a score never came; VMAFX_E_INVALID: the context was destroyed first).
     */
    VmafxStatus status;
    /** VMAFX_WINDOW_PARTIAL when the stream ended before `last`. */
    uint32_t flags;
    /** The VmafxWindowTarget pooled. */
    uint32_t target;
    /** The requested methods; `value[p]` is set for each bit `1 << p`. */
    uint32_t pool_mask;
    /** First frame, as requested. */
    uint64_t first;
    /** Last frame, as requested. */
    uint64_t last;
    /** Frames pooled over: `last - first + 1`, fewer for a partial window. */
    uint64_t n_frames;
    /** Those the context scored (every `n_subsample`-th index). */
    uint64_t n_scored;
    /**
     * Indexed by VmafxPool: the pooled score of each requested method (a model set's bagging
     * score); 0 elsewhere.
     */
    double value[9];
    /** MODEL_SET windows: the pooled standard deviation per method; 0 otherwise. */
    double stddev[9];
    /** MODEL_SET windows: the pooled lower 95% bound per method; 0 otherwise. */
    double ci95_lo[9];
    /** MODEL_SET windows: the pooled upper 95% bound per method; 0 otherwise. */
    double ci95_hi[9];
    /** The model's, set's or feature's name; lives as long as the window. */
    const char *name;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_WINDOW_RESULT_INIT {.struct_size = sizeof(VmafxWindowResult)}

/**
 * Window length of a VmafxWindowClock: exactly one of the two is set. Initialise with
 * VMAFX_WINDOW_CLOCK_CONFIG_INIT (ABI 0.1.8).
 */
struct VmafxWindowClockConfig {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /**
     * Window length in seconds, finite and above 0, rounded to whole nanoseconds; 0: by frame
     * count. Window `k` holds the frames whose time lies in `[t0 + k * n_stats, t0 + (k + 1) *
     * n_stats)`, `t0` the first frame's.
     */
    double n_stats;
    /**
     * Window length in frames; 0: by time. Window `k` holds the frames whose index lies in `[i0 + k
     * * n, i0 + (k + 1) * n)`, `i0` the first frame's.
     */
    uint64_t n_stats_frames;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_WINDOW_CLOCK_CONFIG_INIT {.struct_size = sizeof(VmafxWindowClockConfig)}

/**
 * One window of a stream as a VmafxWindowClock cut it. Initialise with VMAFX_WINDOW_SPAN_INIT (ABI
 * 0.1.8).
 */
struct VmafxWindowSpan {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** VMAFX_WINDOW_PARTIAL for the last window when the stream ended inside it. */
    uint32_t flags;
    /** Window number `k`; windows without a frame are skipped, so numbers can jump. */
    uint64_t window;
    /** Index of the window's first frame. */
    uint64_t first;
    /** Index of the window's last frame. */
    uint64_t last;
    /** Frames the clock saw in the window. */
    uint64_t n_frames;
    /** By time: `t0 + k * n_stats`; by frame count: the first frame's time. */
    int64_t start_ns;
    /** By time: `t0 + (k + 1) * n_stats` (exclusive); by frame count: the last frame's time. */
    int64_t end_ns;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_WINDOW_SPAN_INIT {.struct_size = sizeof(VmafxWindowSpan)}

/**
 * Asks for `request.target` pooled with every method of `request.pool_mask` over frames `first` to
 * `last` and returns at once. The window completes when every scored frame of its range is final
 * (motion2 of a frame, so every VMAF model, once the next frame is scored), or at vmafx_flush()
 * over the frames the stream had (VMAFX_WINDOW_PARTIAL when it ended before `last`). The context's
 * completion thread, started by its first window, finds completion when woken by a scored frame or
 * a call. At most 1024 windows of a context are open; one more is VMAFX_E_BUSY naming `context`.
 */
VMAFX_EXPORT VmafxStatus vmafx_window_submit(VmafxContext *context,
                                             const VmafxWindowRequest *request, VmafxWindow **out,
                                             VmafxError **error);

/**
 * VMAFX_OK and the result once the window completed, VMAFX_PENDING (no error, `out` untouched)
 * before. Thread-safe.
 */
VMAFX_EXPORT VmafxStatus vmafx_window_poll(const VmafxWindow *window, VmafxWindowResult *out,
                                           VmafxError **error);

/**
 * vmafx_window_poll() after waiting up to `timeout_ns` (UINT64_MAX: no limit) for the window to
 * complete. Thread-safe.
 */
VMAFX_EXPORT VmafxStatus vmafx_window_wait(const VmafxWindow *window, uint64_t timeout_ns,
                                           VmafxWindowResult *out, VmafxError **error);

/**
 * Releases the caller's window, completed or not. An open window is cancelled: its callback never
 * runs. A callback of it running on the callback thread is waited for, unless this is called from
 * that callback. NULL is a no-op.
 */
VMAFX_EXPORT void vmafx_window_release(VmafxWindow *window);

/**
 * A clock cutting windows of `config.n_stats` seconds or `config.n_stats_frames` frames. Both set
 * or neither is VMAFX_E_INVALID naming `config.n_stats`; a bad length names its field.
 */
VMAFX_EXPORT VmafxStatus vmafx_window_clock_create(const VmafxWindowClockConfig *config,
                                                   VmafxWindowClock **out, VmafxError **error);

/**
 * Frame `index` at `pts_ns`: when it lies past the open window, VMAFX_OK and that window's span
 * (the frame opens the next); else VMAFX_PENDING. Indices increase strictly and times never
 * decrease, else VMAFX_E_INVALID naming `index` or `pts_ns` (the clock unchanged).
 */
VMAFX_EXPORT VmafxStatus vmafx_window_clock_frame(VmafxWindowClock *clock, uint64_t index,
                                                  int64_t pts_ns, VmafxWindowSpan *out,
                                                  VmafxError **error);

/**
 * End of stream: VMAFX_OK and the open window's span, flagged VMAFX_WINDOW_PARTIAL unless it is a
 * full window by frame count; VMAFX_PENDING when none is open. The clock takes no frame afterwards.
 */
VMAFX_EXPORT VmafxStatus vmafx_window_clock_finish(VmafxWindowClock *clock, VmafxWindowSpan *out,
                                                   VmafxError **error);

/** Frees the clock. NULL is a no-op. */
VMAFX_EXPORT void vmafx_window_clock_destroy(VmafxWindowClock *clock);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_SCORE_H */
