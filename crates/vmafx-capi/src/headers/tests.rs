use std::path::Path;

#[test]
fn checked_in_headers_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("VMAFX_BLESS").is_some();
    let mut drifted = Vec::new();
    for (path, text) in super::all() {
        let file = root.join(path);
        if bless {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, &text).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            drifted.push(path);
        }
    }
    assert!(
        drifted.is_empty(),
        "headers differ from the Rust definitions: {drifted:?}; regenerate with VMAFX_BLESS=1"
    );
}
