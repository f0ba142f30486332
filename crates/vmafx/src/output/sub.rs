//! libvmaf's subtitle log (MicroDVD `.sub`), byte for byte: one line per written frame,
//! shown from that frame to the next.

use std::fmt::{self, Write};

use super::number::Score;
use super::view::View;
use crate::score::ReportInfo;

/// Appends the subtitle log of `view` to `out`.
pub(crate) fn write_sub(out: &mut String, view: &View<'_>, info: &ReportInfo) -> fmt::Result {
    for row in view.printed(info) {
        let i = row.index;
        write!(out, "{{{i}}}{{{}}}frame: {i}|", i.wrapping_add(1))?;
        for (j, value) in view.written(&row) {
            write!(out, "{}: {}|", view.names[j], Score(value))?;
        }
        out.push('\n');
    }
    Ok(())
}
