//! The writers' handling of what the corpus logs do not show: subsampling, values missing
//! from a frame or a whole frame, metrics without a pooled value, non-finite values,
//! aggregate metrics and empty tables. Expected texts follow libvmaf's `output.c`.

use super::*;

/// Two metrics over five pictures, subsampled by 2, rows out of order: `b` lacks frame 0
/// (so it is not pooled), frame 3 holds nothing, and values are infinite or tiny.
fn uneven() -> (ScoreTable, ReportInfo) {
    let table = ScoreTable {
        names: vec!["a".into(), "b".into()],
        frames: vec![
            (4, vec![Some(1e-7), Some(3.0)]),
            (0, vec![Some(1.0), None]),
            (1, vec![Some(0.5), Some(0.25)]),
            (2, vec![Some(3.0), Some(f64::INFINITY)]),
            (3, vec![None, None]),
        ],
    };
    let mut info = ReportInfo::new(8, 6, 5);
    info.fps = 12.5;
    info.subsample = 2;
    info.aggregate = vec![("psnr_y".into(), 40.0), ("x".into(), f64::NAN)];
    (table, info)
}

#[test]
fn json_writes_subsampled_frames_nulls_and_unpooled_metrics_like_libvmaf() {
    let (table, info) = uneven();
    let expected = r#"{
  "version": "3.2.0",
  "fps": 12.50,
  "frames": [
    {
      "frameNum": 0,
      "metrics": {
        "a": 1.000000
      }
    },
    {
      "frameNum": 2,
      "metrics": {
        "a": 3.000000,
        "b": null      }
    },
    {
      "frameNum": 4,
      "metrics": {
        "a": 0.0000001000000000,
        "b": 3.000000
      }
    }
  ],
  "pooled_metrics": {
    "a": {
      "min": 0.0000001000000000,
      "max": 3.000000,
      "mean": 1.333333,
      "harmonic_mean": 0.714286
    },
    "b": {
    }
  },
  "aggregate_metrics": {
    "psnr_y": 40.000000,
    "x": null
  }
}
"#;
    assert_eq!(render_report(OutputFormat::Json, &table, &info), expected);
}

#[test]
fn xml_csv_and_sub_write_the_same_table_like_libvmaf() {
    let (table, info) = uneven();
    let xml = r#"<VMAF version="3.2.0">
  <params qualityWidth="8" qualityHeight="6" />
  <fyi fps="12.50" />
  <frames>
    <frame frameNum="0" a="1.000000" />
    <frame frameNum="2" a="3.000000" b="inf" />
    <frame frameNum="4" a="0.0000001000000000" b="3.000000" />
  </frames>
  <pooled_metrics>
    <metric name="a" min="0.0000001000000000" max="3.000000" mean="1.333333" harmonic_mean="0.714286" />
    <metric name="b" />
  </pooled_metrics>
  <aggregate_metrics psnr_y="40.000000" x="nan" />
</VMAF>
"#;
    let csv = "Frame,a,b,\n0,1.000000,\n2,3.000000,inf,\n4,0.0000001000000000,3.000000,\n";
    let sub = "{0}{1}frame: 0|a: 1.000000|\n\
               {2}{3}frame: 2|a: 3.000000|b: inf|\n\
               {4}{5}frame: 4|a: 0.0000001000000000|b: 3.000000|\n";
    assert_eq!(render_report(OutputFormat::Xml, &table, &info), xml);
    assert_eq!(render_report(OutputFormat::Csv, &table, &info), csv);
    assert_eq!(render_report(OutputFormat::Sub, &table, &info), sub);
}

#[test]
fn json_keeps_libvmafs_comma_when_frame_zero_is_missing() {
    let table = ScoreTable {
        names: vec!["a".into()],
        frames: vec![(1, vec![Some(2.0)])],
    };
    let mut info = ReportInfo::new(8, 6, 2);
    info.fps = f64::INFINITY;
    let expected = r#"{
  "version": "3.2.0",
  "fps": null,
  "frames": [,
    {
      "frameNum": 1,
      "metrics": {
        "a": 2.000000
      }
    }
  ],
  "pooled_metrics": {
    "a": {
    }
  },
  "aggregate_metrics": {
  }
}
"#;
    assert_eq!(render_report(OutputFormat::Json, &table, &info), expected);
}

#[test]
fn empty_tables_write_empty_sections() {
    let (table, info) = (ScoreTable::default(), ReportInfo::new(8, 6, 0));
    let json = "{\n  \"version\": \"3.2.0\",\n  \"fps\": 0.00,\n  \"frames\": [\n  ],\n  \
                \"pooled_metrics\": {\n  },\n  \"aggregate_metrics\": {\n  }\n}\n";
    let xml = "<VMAF version=\"3.2.0\">\n  <params qualityWidth=\"8\" qualityHeight=\"6\" />\n  \
               <fyi fps=\"0.00\" />\n  <frames>\n  </frames>\n  <pooled_metrics>\n  \
               </pooled_metrics>\n  <aggregate_metrics />\n</VMAF>\n";
    assert_eq!(render_report(OutputFormat::Json, &table, &info), json);
    assert_eq!(render_report(OutputFormat::Xml, &table, &info), xml);
    assert_eq!(render_report(OutputFormat::Csv, &table, &info), "Frame,\n");
    assert_eq!(render_report(OutputFormat::Sub, &table, &info), "");
}

#[test]
fn short_rows_and_duplicate_indices_do_not_panic() {
    let table = ScoreTable {
        names: vec!["a".into(), "b".into()],
        frames: vec![
            (0, vec![Some(1.0)]),
            (0, vec![Some(9.0), Some(9.0)]),
            (1, vec![]),
        ],
    };
    let info = ReportInfo::new(8, 6, 1);
    let csv = render_report(OutputFormat::Csv, &table, &info);
    assert_eq!(csv, "Frame,a,b,\n0,1.000000,\n");
}

#[test]
fn write_report_writes_the_rendered_log() {
    let (table, info) = uneven();
    let mut out = Vec::new();
    write_report(&mut out, OutputFormat::Sub, &table, &info).unwrap();
    assert_eq!(
        out,
        render_report(OutputFormat::Sub, &table, &info).into_bytes()
    );
}

#[test]
fn formats_parse_from_names_and_flags() {
    for fmt in OutputFormat::ALL {
        assert_eq!(fmt.name().parse::<OutputFormat>().unwrap(), fmt);
        assert_eq!(OutputFormat::from_flag(&format!("--{fmt}")), Some(fmt));
    }
    assert_eq!(OutputFormat::default(), OutputFormat::Xml);
    assert_eq!(OutputFormat::from_flag("json"), None);
    assert_eq!(OutputFormat::from_flag("--yaml"), None);
    let err = "yaml".parse::<OutputFormat>().unwrap_err();
    assert!(err.to_string().contains("yaml"), "{err}");
}
