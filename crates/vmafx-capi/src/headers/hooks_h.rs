//! The white-box hooks header, `private/vmafx/frame_import_hooks.h` (built with the
//! `test-hooks` feature only, as are the hooks it declares).

use vmafx::hooks as h;

use crate::header_items::{Header, Item};
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
        func!(hooks::vmafx_test_set_virtual_clock),
        func!(hooks::vmafx_test_clock_is_virtual),
        func!(hooks::vmafx_test_clock_now_ns),
        func!(hooks::vmafx_test_clock_advance),
        func!(hooks::vmafx_test_note_retry_wait),
        func!(hooks::vmafx_test_last_retry_wait_ns),
        func!(hooks::vmafx_test_set_switches),
        func!(hooks::vmafx_test_switch),
        func!(hooks::vmafx_count_host_copy),
        func!(hooks::vmafx_count_conversion),
        func!(hooks::vmafx_count_import_attempt),
        func!(hooks::vmafx_test_host_copies),
        func!(hooks::vmafx_test_host_copy_bytes),
        func!(hooks::vmafx_test_conversions),
        func!(hooks::vmafx_test_import_attempts),
        func!(hooks::vmafx_test_reset_counters),
        func!(hooks::vmafx_test_fail_imports),
        func!(hooks::vmafx_test_take_import_failure),
        func!(hooks::vmafx_test_set_import_residency),
        func!(hooks::vmafx_test_import_residency),
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
