//! libvmaf's CSV log, byte for byte: a `Frame,` header naming every metric, then one line
//! per written frame holding only the values collected for it (every field ends in a comma).

use std::fmt::{self, Write};

use super::number::Score;
use super::view::View;
use crate::score::ReportInfo;

/// Appends the CSV log of `view` to `out`.
pub(crate) fn write_csv(out: &mut String, view: &View<'_>, info: &ReportInfo) -> fmt::Result {
    out.push_str("Frame,");
    for name in view.names {
        write!(out, "{name},")?;
    }
    out.push('\n');
    for row in view.printed(info) {
        write!(out, "{},", row.index)?;
        for (_, value) in view.written(&row) {
            write!(out, "{},", Score(value))?;
        }
        out.push('\n');
    }
    Ok(())
}
