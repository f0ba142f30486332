//! VMAFx's C ABI over the vmafx engine (lands in its own change).
