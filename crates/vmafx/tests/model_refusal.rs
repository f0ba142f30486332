//! A model the scorer cannot use is refused naming the model file: one that asks for a
//! feature no extractor provides, one that cannot be read, one that is not JSON.

use std::path::{Path, PathBuf};

use vmafx::{Model, Scorer, ScorerConfig, Status};

const VMAF: &str = include_str!("../models/vmaf_v0.6.1.json");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vmafx-model-refusal-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn refusal(path: &Path) -> vmafx::Error {
    Scorer::new(ScorerConfig::new().model(Model::from_path(path))).unwrap_err()
}

#[test]
fn an_unknown_feature_is_refused_naming_the_file_and_the_feature() {
    let p = scratch("unknown_feature.json");
    let text = VMAF.replace(
        "VMAF_integer_feature_vif_scale0_score",
        "VMAF_integer_feature_nosuch_score",
    );
    assert_ne!(text, VMAF);
    std::fs::write(&p, text).unwrap();
    let e = refusal(&p);
    assert_eq!(e.subject(), p.display().to_string(), "{e}");
    assert!(
        e.message().contains("VMAF_integer_feature_nosuch_score"),
        "{e}"
    );
}

#[test]
fn an_unreadable_or_broken_file_is_refused_naming_it() {
    let missing = scratch("missing.json");
    let folder = scratch("a_folder.json");
    std::fs::create_dir_all(&folder).unwrap();
    let binary = scratch("binary.json");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    let cut = scratch("cut.json");
    std::fs::write(&cut, &VMAF[..VMAF.len() / 2]).unwrap();
    for p in [missing, folder, binary, cut] {
        let e = refusal(&p);
        assert_eq!(e.subject(), p.display().to_string(), "{e}");
        assert_ne!(e.status(), Status::Ok);
    }
}

#[test]
fn an_unknown_feature_in_inline_json_names_its_label() {
    let text = VMAF.replace(
        "VMAF_integer_feature_adm2_score",
        "VMAF_integer_feature_nosuch_score",
    );
    let e = Scorer::new(ScorerConfig::new().model(Model::from_json("my_model.json", text)))
        .unwrap_err();
    assert_eq!(e.subject(), "my_model.json", "{e}");
    assert!(e.message().contains("nosuch"), "{e}");
}
