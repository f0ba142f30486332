//! The white-box hooks header, `private/vmafx/frame_import_hooks.h` (built with the
//! `test-hooks` feature only, as are the hooks it declares).

use vmafx::hooks as h;

use super::items::{Header, Item};
use crate::{func, hooks};

/// A hook is hidden from the shared library: no `VMAFX_API` export mark.
fn hidden(item: Item) -> Item {
    match item {
        Item::Func {
            ret,
            name,
            params,
            doc,
            ..
        } => Item::Func {
            ret,
            name,
            params,
            doc,
            export: false,
        },
        other => other,
    }
}

/// The white-box hooks header (static library only).
pub fn hooks_h() -> Header {
    let bit = |b: u32| format!("(1u << {})", b.trailing_zeros());
    let fns = vec![
        func!(hooks::vmafx_test_set_virtual_clock, "void", "bool on", "Fence waits read a virtual clock that each poll advances, instead of sleeping."),
        func!(hooks::vmafx_test_clock_is_virtual, "bool", "void", ""),
        func!(hooks::vmafx_test_clock_now_ns, "uint64_t", "void", ""),
        func!(hooks::vmafx_test_clock_advance, "void", "uint64_t ns", ""),
        func!(hooks::vmafx_test_note_retry_wait, "void", "uint64_t ns", "The host wait the import rule allowed itself before its retry, last time (0 before)."),
        func!(hooks::vmafx_test_last_retry_wait_ns, "uint64_t", "void", ""),
        func!(hooks::vmafx_test_set_switches, "void", "uint32_t mask", "Plants the defects of the VMAFX_TEST_* bits (0: none)."),
        func!(hooks::vmafx_test_switch, "bool", "uint32_t bit", ""),
        func!(hooks::vmafx_count_host_copy, "void", "uint64_t bytes", "Counters: host copies of imported pixels, planarisations, import attempts."),
        func!(hooks::vmafx_count_conversion, "void", "void", ""),
        func!(hooks::vmafx_count_import_attempt, "void", "void", ""),
        func!(hooks::vmafx_test_host_copies, "uint64_t", "void", ""),
        func!(hooks::vmafx_test_host_copy_bytes, "uint64_t", "void", ""),
        func!(hooks::vmafx_test_conversions, "uint64_t", "void", ""),
        func!(hooks::vmafx_test_import_attempts, "uint64_t", "void", ""),
        func!(hooks::vmafx_test_reset_counters, "void", "void", ""),
        func!(hooks::vmafx_test_fail_imports, "void", "VmafxStatus status, uint32_t count", "The next `count` imports fail with `status` before reading their descriptor."),
        func!(hooks::vmafx_test_take_import_failure, "VmafxStatus", "void", "Takes one planted failure: its status, or VMAFX_OK."),
        func!(hooks::vmafx_test_set_import_residency, "void", "uint32_t backend", "Imported frames claim `backend` as residency (VMAFX_TEST_RESIDENCY_OFF: their device's)."),
        func!(hooks::vmafx_test_import_residency, "uint32_t", "void", ""),
    ];
    let mut items = vec![
        Item::Define { name: "VMAFX_TEST_SKIP_ACQUIRE_WAIT", value: bit(h::SKIP_ACQUIRE_WAIT), doc: "Switch: an import treats an unsignalled acquire fence as signalled." },
        Item::Define { name: "VMAFX_TEST_EARLY_RELEASE", value: bit(h::EARLY_RELEASE), doc: "Switch: a submit signals release fences as it returns, before the engine drops its counts." },
        Item::Define { name: "VMAFX_TEST_FORCE_HOST_COPY", value: bit(h::FORCE_HOST_COPY), doc: "Switch: host imports copy planar planes instead of binding them." },
        Item::Define { name: "VMAFX_FENCE_POLL_NS", value: format!("{}u", vmafx::fence::POLL_INTERVAL.as_nanos()), doc: "Sleep between two looks at a host fence, and the virtual clock's step." },
        Item::Define { name: "VMAFX_TEST_RESIDENCY_OFF", value: "UINT32_MAX".into(), doc: "No residency override." },
    ];
    items.extend(fns.into_iter().map(hidden));
    Header {
        path: "private/vmafx/frame_import_hooks.h",
        guard: "VMAFX_FRAME_IMPORT_HOOKS_H",
        brief: "Test-only switches and counters of the device-frame path; hidden symbols of the static library, for white-box tests.",
        includes: vec!["<stdbool.h>", "<stdint.h>", "<vmafx/vmafx.h>"],
        items,
    }
}
