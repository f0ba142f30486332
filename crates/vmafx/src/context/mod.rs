//! Placeholder: lands in its own change.
