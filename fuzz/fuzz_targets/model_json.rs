//! The model JSON reader: any text must load or be refused with an error, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vmafx::model::{LoadedModel, ReadFlags};

fuzz_target!(|data: &[u8]| {
    let Some((&flag_byte, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let flags = ReadFlags {
        enable_transform: flag_byte & 1 != 0,
        disable_clip: flag_byte & 2 != 0,
    };
    if let Ok(model) = LoadedModel::from_json_str("fuzz.json", "vmaf", text, flags) {
        // A model that loaded must also predict (or refuse) without panicking.
        let n = model.features().len();
        let values: Vec<f64> = (0..n).map(|i| i as f64 * 0.25).collect();
        let _ = model.predict(&values);
        let _ = model.predict(&values[..n / 2]);
        let _ = model.output_names();
    }
});
