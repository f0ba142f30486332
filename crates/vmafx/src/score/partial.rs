//! A run that stopped before its inputs ended: why, and how many frames it scored.
//!
//! Logs of such a run carry the mark (see [`crate::output`]) so a reader never takes a
//! short log for a whole one.

use std::fmt;

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartialReason {
    /// The caller asked it to stop (Ctrl-C in the command line).
    Interrupted,
    /// An input failed while being read (a decoder that died, a stream cut mid-frame).
    InputFailed,
}

impl PartialReason {
    /// The name logs print: `interrupted` or `input_failed`.
    pub fn name(self) -> &'static str {
        match self {
            PartialReason::Interrupted => "interrupted",
            PartialReason::InputFailed => "input_failed",
        }
    }
}

impl fmt::Display for PartialReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The mark of a partial run: why it stopped, the frames scored, and the failure's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partial {
    /// Why it stopped.
    pub reason: PartialReason,
    /// Frames scored (and written) before it stopped.
    pub frames: u64,
    /// What happened, for people (the input error's text; empty for an interruption).
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{render_report, OutputFormat};
    use crate::score::{ReportInfo, ScoreTable};

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
}
