//! The white-box test hooks of `frame_import_hooks.h` (ADR-1929 item 13).
//!
//! Built only with the `test-hooks` feature (the C suite's static library); even then the
//! shared library's version script (build.rs) makes every `vmafx_test_*` and
//! `vmafx_count_*` symbol local. A library built without the feature has none of them.

use crate::c_export;
use crate::c_type::VmafxStatus;
use vmafx::hooks;

c_export! {
    /// Turns the virtual test clock on or off.
    #[c = "Fence waits read a virtual clock that each poll advances, instead of sleeping."]
    pub fn vmafx_test_set_virtual_clock(on: bool) {
        hooks::set_virtual_clock(on)
    }
}

c_export! {
    /// Whether fence waits read the virtual clock.
    #[c = ""]
    pub fn vmafx_test_clock_is_virtual() -> bool {
        hooks::clock_is_virtual()
    }
}

c_export! {
    /// Now on the test clock, in nanoseconds.
    #[c = ""]
    pub fn vmafx_test_clock_now_ns() -> u64 {
        hooks::clock_now_ns()
    }
}

c_export! {
    /// Advances the virtual clock.
    #[c = ""]
    pub fn vmafx_test_clock_advance(ns: u64) {
        hooks::clock_advance(ns)
    }
}

c_export! {
    /// Notes the host wait the import rule allowed itself before its retry.
    #[c = "The host wait the import rule allowed itself before its retry, last time (0 before)."]
    pub fn vmafx_test_note_retry_wait(ns: u64) {
        hooks::note_retry_wait(ns)
    }
}

c_export! {
    /// The wait last noted (0 before the first).
    #[c = ""]
    pub fn vmafx_test_last_retry_wait_ns() -> u64 {
        hooks::last_retry_wait_ns()
    }
}

c_export! {
    /// Sets the planted-defect switches.
    #[c = "Plants the defects of the VMAFX_TEST_* bits (0: none)."]
    pub fn vmafx_test_set_switches(mask: u32) {
        hooks::set_switches(mask)
    }
}

c_export! {
    /// Whether a switch is set.
    #[c = ""]
    pub fn vmafx_test_switch(bit: u32) -> bool {
        hooks::switch(bit)
    }
}

c_export! {
    /// Records a host copy of `bytes` bytes.
    #[c = "Counters: host copies of imported pixels, planarisations, import attempts."]
    pub fn vmafx_count_host_copy(bytes: u64) {
        hooks::count_host_copy(bytes)
    }
}

c_export! {
    /// Records a conversion.
    #[c = ""]
    pub fn vmafx_count_conversion() {
        hooks::count_conversion()
    }
}

c_export! {
    /// Records an import attempt.
    #[c = ""]
    pub fn vmafx_count_import_attempt() {
        hooks::count_import_attempt()
    }
}

c_export! {
    /// Host copies since the last reset.
    #[c = ""]
    pub fn vmafx_test_host_copies() -> u64 {
        hooks::host_copies()
    }
}

c_export! {
    /// Bytes copied through host memory since the last reset.
    #[c = ""]
    pub fn vmafx_test_host_copy_bytes() -> u64 {
        hooks::host_copy_bytes()
    }
}

c_export! {
    /// Conversions since the last reset.
    #[c = ""]
    pub fn vmafx_test_conversions() -> u64 {
        hooks::conversions()
    }
}

c_export! {
    /// Import attempts since the last reset.
    #[c = ""]
    pub fn vmafx_test_import_attempts() -> u64 {
        hooks::import_attempts()
    }
}

c_export! {
    /// Clears the counters.
    #[c = ""]
    pub fn vmafx_test_reset_counters() {
        hooks::reset_counters()
    }
}

c_export! {
    /// The next `count` imports fail with `status` (a status that is not one of the ABI's is
    /// planted as `VMAFX_E_INTERNAL`).
    #[c = "The next `count` imports fail with `status` before reading their descriptor."]
    pub fn vmafx_test_fail_imports(status: VmafxStatus, count: u32) {
        let s = vmafx::Status::from_code(status).unwrap_or(vmafx::Status::Internal);
        hooks::fail_imports(s, count)
    }
}

c_export! {
    /// Takes one planted failure: its status, or `VMAFX_OK` when none is left.
    #[c = "Takes one planted failure: its status, or VMAFX_OK."]
    pub fn vmafx_test_take_import_failure() -> VmafxStatus {
        hooks::take_import_failure().map_or(0, |s| s.code())
    }
}

c_export! {
    /// Sets the residency override (`VMAFX_TEST_RESIDENCY_OFF`: none).
    #[c = "Imported frames claim `backend` as residency (VMAFX_TEST_RESIDENCY_OFF: their device's)."]
    pub fn vmafx_test_set_import_residency(backend: u32) {
        hooks::set_import_residency(backend)
    }
}

c_export! {
    /// The residency override.
    #[c = ""]
    pub fn vmafx_test_import_residency() -> u32 {
        hooks::import_residency()
    }
}
