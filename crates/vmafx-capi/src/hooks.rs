//! The white-box test hooks of `frame_import_hooks.h` (ADR-1929 item 13).
//!
//! Built only with the `test-hooks` feature (the C suite's static library); even then the
//! shared library's version script (build.rs) makes every `vmafx_test_*` and
//! `vmafx_count_*` symbol local. A library built without the feature has none of them.

use vmafx::hooks;

/// Turns the virtual test clock on or off.
#[no_mangle]
pub extern "C" fn vmafx_test_set_virtual_clock(on: bool) {
    hooks::set_virtual_clock(on)
}

/// Whether fence waits read the virtual clock.
#[no_mangle]
pub extern "C" fn vmafx_test_clock_is_virtual() -> bool {
    hooks::clock_is_virtual()
}

/// Now on the test clock, in nanoseconds.
#[no_mangle]
pub extern "C" fn vmafx_test_clock_now_ns() -> u64 {
    hooks::clock_now_ns()
}

/// Advances the virtual clock.
#[no_mangle]
pub extern "C" fn vmafx_test_clock_advance(ns: u64) {
    hooks::clock_advance(ns)
}

/// Notes the host wait the import rule allowed itself before its retry.
#[no_mangle]
pub extern "C" fn vmafx_test_note_retry_wait(ns: u64) {
    hooks::note_retry_wait(ns)
}

/// The wait last noted (0 before the first).
#[no_mangle]
pub extern "C" fn vmafx_test_last_retry_wait_ns() -> u64 {
    hooks::last_retry_wait_ns()
}

/// Sets the planted-defect switches.
#[no_mangle]
pub extern "C" fn vmafx_test_set_switches(mask: u32) {
    hooks::set_switches(mask)
}

/// Whether a switch is set.
#[no_mangle]
pub extern "C" fn vmafx_test_switch(bit: u32) -> bool {
    hooks::switch(bit)
}

/// Records a host copy of `bytes` bytes.
#[no_mangle]
pub extern "C" fn vmafx_count_host_copy(bytes: u64) {
    hooks::count_host_copy(bytes)
}

/// Records a conversion.
#[no_mangle]
pub extern "C" fn vmafx_count_conversion() {
    hooks::count_conversion()
}

/// Records an import attempt.
#[no_mangle]
pub extern "C" fn vmafx_count_import_attempt() {
    hooks::count_import_attempt()
}

/// Host copies since the last reset.
#[no_mangle]
pub extern "C" fn vmafx_test_host_copies() -> u64 {
    hooks::host_copies()
}

/// Bytes copied through host memory since the last reset.
#[no_mangle]
pub extern "C" fn vmafx_test_host_copy_bytes() -> u64 {
    hooks::host_copy_bytes()
}

/// Conversions since the last reset.
#[no_mangle]
pub extern "C" fn vmafx_test_conversions() -> u64 {
    hooks::conversions()
}

/// Import attempts since the last reset.
#[no_mangle]
pub extern "C" fn vmafx_test_import_attempts() -> u64 {
    hooks::import_attempts()
}

/// Clears the counters.
#[no_mangle]
pub extern "C" fn vmafx_test_reset_counters() {
    hooks::reset_counters()
}

/// The next `count` imports fail with `status` (a status that is not one of the ABI's is
/// planted as `VMAFX_E_INTERNAL`).
#[no_mangle]
pub extern "C" fn vmafx_test_fail_imports(status: i32, count: u32) {
    let s = vmafx::Status::from_code(status).unwrap_or(vmafx::Status::Internal);
    hooks::fail_imports(s, count)
}

/// Takes one planted failure: its status, or `VMAFX_OK` when none is left.
#[no_mangle]
pub extern "C" fn vmafx_test_take_import_failure() -> i32 {
    hooks::take_import_failure().map_or(0, |s| s.code())
}

/// Sets the residency override (`VMAFX_TEST_RESIDENCY_OFF`: none).
#[no_mangle]
pub extern "C" fn vmafx_test_set_import_residency(backend: u32) {
    hooks::set_import_residency(backend)
}

/// The residency override.
#[no_mangle]
pub extern "C" fn vmafx_test_import_residency() -> u32 {
    hooks::import_residency()
}
