//! The `--model` option string: parse or refuse, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vmafx::model::ModelSpec;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(spec) = ModelSpec::parse(text) {
        let _ = spec.subject();
    }
});
