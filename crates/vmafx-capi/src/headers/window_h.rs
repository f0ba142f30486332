//! The window part of score.h: window scores and the window clock (ABI 0.1.8).

use crate::header_items::Item;
use crate::window::{self, VmafxWindowRequest, VmafxWindowResult, WINDOW_TARGETS};
use crate::window_clock::{self, VmafxWindowClockConfig, VmafxWindowSpan};
use crate::{field, func};

const SIZE: &str = "Size of this struct as the caller compiled it; set by the _INIT macro.";

fn mask(name: &'static str, bit: u32, doc: &'static str) -> Item {
    Item::Define {
        name,
        value: format!("(UINT32_C(1) << {bit}U)"),
        doc,
    }
}

/// The declarations, in score.h's order after the pooled scores.
pub fn window_items() -> Vec<Item> {
    type R = VmafxWindowRequest;
    type W = VmafxWindowResult;
    type C = VmafxWindowClockConfig;
    type S = VmafxWindowSpan;
    vec![
        Item::Enum {
            name: "VmafxWindowTarget",
            doc: "What a window pools (ABI 0.1.8).",
            typedef: true,
            values: WINDOW_TARGETS.iter().map(|(n, v, d)| (n.to_string(), *v as i64, d.to_string())).collect(),
        },
        Item::Raw("/* VmafxPoolMask: bit `1 << p` for each VmafxPool `p` (ABI 0.1.8). */".into()),
        mask("VMAFX_POOL_MASK_MIN", 1, "VMAFX_POOL_MIN."),
        mask("VMAFX_POOL_MASK_MAX", 2, "VMAFX_POOL_MAX."),
        mask("VMAFX_POOL_MASK_MEAN", 3, "VMAFX_POOL_MEAN."),
        mask("VMAFX_POOL_MASK_HARMONIC_MEAN", 4, "VMAFX_POOL_HARMONIC_MEAN."),
        mask("VMAFX_POOL_MASK_MEDIAN", 5, "VMAFX_POOL_MEDIAN."),
        mask("VMAFX_POOL_MASK_PERC5", 6, "VMAFX_POOL_PERC5."),
        mask("VMAFX_POOL_MASK_PERC10", 7, "VMAFX_POOL_PERC10."),
        mask("VMAFX_POOL_MASK_PERC20", 8, "VMAFX_POOL_PERC20."),
        mask("VMAFX_WINDOW_PARTIAL", 0, "VmafxWindowFlags: the stream ended inside the window (a result pooled fewer frames than asked for; a span is the last, cut off by vmafx_window_clock_finish())."),
        Item::Opaque { name: "VmafxWindow", doc: "An asynchronous pooled score over a range of frames (vmafx_window_submit()); owns its result until released (ABI 0.1.8)." },
        Item::Opaque { name: "VmafxWindowClock", doc: "Cuts a stream into windows of `n_stats` seconds or `n_stats_frames` frames; holds no context (ABI 0.1.8)." },
        Item::Raw("typedef struct VmafxWindowRequest VmafxWindowRequest;\ntypedef struct VmafxWindowResult VmafxWindowResult;\ntypedef struct VmafxWindowClockConfig VmafxWindowClockConfig;\ntypedef struct VmafxWindowSpan VmafxWindowSpan;".into()),
        Item::Raw("/** Called once when a window completes, on the context's callback thread, in completion order; `result` is valid during the call. It may poll, wait on and release windows (its own included) and must call nothing else on the window's context (ABI 0.1.8). */\ntypedef void (*VmafxWindowCallback)(VmafxWindow *window, const VmafxWindowResult *result,\n                                    void *user);".into()),
        Item::Struct {
            name: "VmafxWindowRequest",
            doc: "A window to pool. Initialise with VMAFX_WINDOW_REQUEST_INIT (ABI 0.1.8).",
            fields: vec![
                field!(R, struct_size, "uint32_t", SIZE),
                field!(R, target, "uint32_t", "A VmafxWindowTarget; the matching one of `model`, `model_set` and `feature` is set."),
                field!(R, pool_mask, "uint32_t", "VMAFX_POOL_MASK_* bits, at least one."),
                field!(R, first, "uint64_t", "First frame (inclusive)."),
                field!(R, last, "uint64_t", "Last frame (inclusive)."),
                field!(R, model, "const VmafxModel *", "The model of a MODEL window (used by the context); the window holds a reference."),
                field!(R, model_set, "const VmafxModelSet *", "The model set of a MODEL_SET window; the window holds a reference."),
                field!(R, feature, "const char *", "The feature of a FEATURE window, as vmafx_feature_score_pooled() names it (copied)."),
                field!(R, on_complete, "VmafxWindowCallback", "Called once when the window completes; NULL: use vmafx_window_poll() or vmafx_window_wait()."),
                field!(R, user, "void *", "Passed to `on_complete`."),
            ],
            rust_size: std::mem::size_of::<R>(),
            init: "VMAFX_WINDOW_REQUEST_INIT",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxWindowResult",
            doc: "The scores of a completed window: each value is the synchronous pooled call's over frames `first` to `first + n_frames - 1`, bit for bit. Initialise with VMAFX_WINDOW_RESULT_INIT (ABI 0.1.8).",
            fields: vec![
                field!(W, struct_size, "uint32_t", SIZE),
                field!(W, status, "VmafxStatus", "VMAFX_OK, or why the window has no values (VMAFX_E_RANGE: no frame of it in the stream; VMAFX_E_NOTFOUND: a score never came; VMAFX_E_INVALID: the context was destroyed first)."),
                field!(W, flags, "uint32_t", "VMAFX_WINDOW_PARTIAL when the stream ended before `last`."),
                field!(W, target, "uint32_t", "The VmafxWindowTarget pooled."),
                field!(W, pool_mask, "uint32_t", "The requested methods; `value[p]` is set for each bit `1 << p`."),
                field!(W, first, "uint64_t", "First frame, as requested."),
                field!(W, last, "uint64_t", "Last frame, as requested."),
                field!(W, n_frames, "uint64_t", "Frames pooled over: `last - first + 1`, fewer for a partial window."),
                field!(W, n_scored, "uint64_t", "Those the context scored (every `n_subsample`-th index)."),
                field!(W, value[9], "double", "Indexed by VmafxPool: the pooled score of each requested method (a model set's bagging score); 0 elsewhere."),
                field!(W, stddev[9], "double", "MODEL_SET windows: the pooled standard deviation per method; 0 otherwise."),
                field!(W, ci95_lo[9], "double", "MODEL_SET windows: the pooled lower 95% bound per method; 0 otherwise."),
                field!(W, ci95_hi[9], "double", "MODEL_SET windows: the pooled upper 95% bound per method; 0 otherwise."),
                field!(W, name, "const char *", "The model's, set's or feature's name; lives as long as the window."),
            ],
            rust_size: std::mem::size_of::<W>(),
            init: "VMAFX_WINDOW_RESULT_INIT",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxWindowClockConfig",
            doc: "Window length of a VmafxWindowClock: exactly one of the two is set. Initialise with VMAFX_WINDOW_CLOCK_CONFIG_INIT (ABI 0.1.8).",
            fields: vec![
                field!(C, struct_size, "uint32_t", SIZE),
                field!(C, n_stats, "double", "Window length in seconds, finite and above 0, rounded to whole nanoseconds; 0: by frame count. Window `k` holds the frames whose time lies in `[t0 + k * n_stats, t0 + (k + 1) * n_stats)`, `t0` the first frame's."),
                field!(C, n_stats_frames, "uint64_t", "Window length in frames; 0: by time. Window `k` holds the frames whose index lies in `[i0 + k * n, i0 + (k + 1) * n)`, `i0` the first frame's."),
            ],
            rust_size: std::mem::size_of::<C>(),
            init: "VMAFX_WINDOW_CLOCK_CONFIG_INIT",
            init_extra: "",
        },
        Item::Struct {
            name: "VmafxWindowSpan",
            doc: "One window of a stream as a VmafxWindowClock cut it. Initialise with VMAFX_WINDOW_SPAN_INIT (ABI 0.1.8).",
            fields: vec![
                field!(S, struct_size, "uint32_t", SIZE),
                field!(S, flags, "uint32_t", "VMAFX_WINDOW_PARTIAL for the last window when the stream ended inside it."),
                field!(S, window, "uint64_t", "Window number `k`; windows without a frame are skipped, so numbers can jump."),
                field!(S, first, "uint64_t", "Index of the window's first frame."),
                field!(S, last, "uint64_t", "Index of the window's last frame."),
                field!(S, n_frames, "uint64_t", "Frames the clock saw in the window."),
                field!(S, start_ns, "int64_t", "By time: `t0 + k * n_stats`; by frame count: the first frame's time."),
                field!(S, end_ns, "int64_t", "By time: `t0 + (k + 1) * n_stats` (exclusive); by frame count: the last frame's time."),
            ],
            rust_size: std::mem::size_of::<S>(),
            init: "VMAFX_WINDOW_SPAN_INIT",
            init_extra: "",
        },
        func!(window::vmafx_window_submit),
        func!(window::vmafx_window_poll),
        func!(window::vmafx_window_wait),
        func!(window::vmafx_window_release),
        func!(window_clock::vmafx_window_clock_create),
        func!(window_clock::vmafx_window_clock_frame),
        func!(window_clock::vmafx_window_clock_finish),
        func!(window_clock::vmafx_window_clock_destroy),
    ]
}
