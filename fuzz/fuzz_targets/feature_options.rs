//! Feature option strings: split, then parse against every extractor's table and create the
//! extractor from what parsed. Each step returns Ok or Err, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vmafx::feature::{name::feature_name, options::split_option_string, registry};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pairs) = split_option_string(text) else {
        return;
    };
    for info in registry::all() {
        let Ok(opts) = info.parse_options(&pairs) else {
            continue;
        };
        let params = opts.non_default_params();
        for provided in info.provided {
            let _ = feature_name(provided, &params);
        }
        // `create` only validates and stores options; files (cambi heatmaps) open at init.
        let _ = (info.create)(&opts);
    }
});
