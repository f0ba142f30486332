//! report.h: reports with the provenance record, read back and verified (ABI 0.1.5).

use crate::func;
use crate::header_items::{Header, Item};
use crate::report::{self, REPORT_FORMATS, REPORT_PROVENANCE_SIDECAR};

/// report.h.
pub fn report_h() -> Header {
    Header {
        path: "include/vmafx/report.h",
        guard: "VMAFX_REPORT_H",
        brief: "Reports with the provenance record, read back and verified (ABI 0.1.5).",
        includes: vec![
            "<stddef.h>",
            "<stdint.h>",
            "<vmafx/types.h>",
            "<vmafx/error.h>",
            "<vmafx/context.h>",
        ],
        items: vec![
            Item::Enum {
                name: "VmafxReportFormat",
                doc: "Format of a report (values equal libvmaf's enum VmafOutputFormat).",
                typedef: true,
                values: REPORT_FORMATS
                    .iter()
                    .map(|(n, v, d)| (n.to_string(), *v as i64, d.to_string()))
                    .collect(),
            },
            Item::Define {
                name: "VMAFX_REPORT_PROVENANCE_SIDECAR",
                value: format!(
                    "(UINT32_C(1) << {}U)",
                    REPORT_PROVENANCE_SIDECAR.trailing_zeros()
                ),
                doc:
                    "vmafx_report_write() flag: also write the record to `<path>.provenance.json`.",
            },
            Item::Opaque {
                name: "VmafxReportFile",
                doc: "A JSON report read back for verification (vmafx_report_open()).",
            },
            func!(report::vmafx_report_write),
            func!(report::vmafx_report_open),
            func!(report::vmafx_report_close),
            func!(report::vmafx_report_field),
            func!(report::vmafx_report_verify),
        ],
    }
}
