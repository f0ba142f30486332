//! The partial-run mark in the logs (score::Partial), as the writers print it.

use crate::output::{render_report, OutputFormat};
use crate::score::{Partial, PartialReason, ReportInfo, ScoreTable};

fn table() -> ScoreTable {
    ScoreTable {
        names: vec!["psnr_y".into()],
        frames: vec![(0, vec![Some(40.0)]), (1, vec![Some(41.0)])],
    }
}

#[test]
fn json_and_xml_logs_carry_the_mark_and_parse() {
    let info = ReportInfo {
        partial: Some(Partial {
            reason: PartialReason::InputFailed,
            frames: 2,
            detail: "a \"cut\" <file> & more".into(),
        }),
        ..ReportInfo::new(8, 8, 2)
    };
    let json = render_report(OutputFormat::Json, &table(), &info);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["partial"]["reason"], "input_failed");
    assert_eq!(v["partial"]["frames"], 2);
    assert_eq!(v["partial"]["detail"], "a \"cut\" <file> & more");
    assert_eq!(v["frames"].as_array().unwrap().len(), 2);
    let xml = render_report(OutputFormat::Xml, &table(), &info);
    assert!(xml.contains(
        "<partial reason=\"input_failed\" frames=\"2\" \
         detail=\"a &quot;cut&quot; &lt;file&gt; &amp; more\" />"
    ));
}

#[test]
fn a_whole_run_has_no_mark() {
    let info = ReportInfo::new(8, 8, 2);
    for f in OutputFormat::ALL {
        assert!(
            !render_report(f, &table(), &info).contains("partial"),
            "{f}"
        );
    }
}
