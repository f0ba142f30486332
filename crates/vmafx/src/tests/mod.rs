//! Tests that cross levels of the engine: they drive several modules together (a context
//! with models and imported frames, extractors at every CPU level), so they live above all
//! of them rather than inside the lowest one they touch.

mod checkasm;
mod cpu_bench;
mod cross_level;
mod cross_level_random;
mod import_bitexact;
mod import_formats;
mod import_rgb;
mod import_rgb_clip;
mod kernel_tables;
mod live_windows;
mod producer_bounds;
