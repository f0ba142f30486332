//! Property tests on real clips: VMAF's per-frame values do not depend on the thread count
//! nor on the order frames are submitted in (within the reorder window).

use std::path::PathBuf;

use vmafx::context::{Context, ContextConfig};
use vmafx::io::VideoReader;
use vmafx::model::{LoadedModel, ModelSpec};
use vmafx::Frame;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("VMAFX_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
        });
    if dir.join("manifest.json").is_file() {
        return Some(dir);
    }
    panic!("conformance corpus missing at {}", dir.display());
}

fn frames(path: PathBuf) -> Vec<Frame> {
    let mut r = VideoReader::open(&path, None).unwrap();
    let mut v = Vec::new();
    while let Some(f) = r.next_frame().unwrap() {
        v.push(f);
    }
    v
}

fn run(
    threads: usize,
    order: &[usize],
    refs: &[Frame],
    dis: &[Frame],
) -> Vec<(String, Vec<Option<f64>>)> {
    let mut c = Context::new(ContextConfig {
        threads,
        ..Default::default()
    })
    .unwrap();
    let m = LoadedModel::load(&ModelSpec::default_model()).unwrap();
    c.use_model(m).unwrap();
    c.use_feature("psnr", &[]).unwrap();
    for &i in order {
        c.submit(refs[i].clone(), dis[i].clone(), i as u64).unwrap();
    }
    c.flush().unwrap();
    c.predict_all().unwrap();
    let t = c.score_table().unwrap();
    t.names
        .iter()
        .enumerate()
        .map(|(j, n)| (n.clone(), t.frames.iter().map(|(_, row)| row[j]).collect()))
        .collect()
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn vmaf_is_the_same_for_any_thread_count_and_submission_order() {
    let Some(dir) = corpus() else { return };
    let refs = frames(dir.join("bbb_384x216_420p8_scenecut_ref.y4m"));
    let dis = frames(dir.join("bbb_384x216_420p8_scenecut_dis.y4m"));
    let in_order: Vec<usize> = (0..refs.len()).collect();
    // Reverse each block of 7: every frame arrives out of order, within the window.
    let mut shuffled = in_order.clone();
    for c in shuffled.chunks_mut(7) {
        c.reverse();
    }
    let base = run(0, &in_order, &refs, &dis);
    assert!(base.iter().any(|(n, _)| n == "vmaf"));
    for threads in [1, 2, 4] {
        assert_eq!(
            run(threads, &in_order, &refs, &dis),
            base,
            "threads {threads}"
        );
        assert_eq!(
            run(threads, &shuffled, &refs, &dis),
            base,
            "threads {threads}, shuffled"
        );
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn every_frame_is_released_once_scoring_ends() {
    let Some(dir) = corpus() else { return };
    let refs = frames(dir.join("bbb_576x324_420p8_crf35_ref.y4m"));
    let dis = frames(dir.join("bbb_576x324_420p8_crf35_dis.y4m"));
    let fences: Vec<_> = refs.iter().chain(&dis).map(|f| f.release_fence()).collect();
    let mut c = Context::new(ContextConfig {
        threads: 2,
        ..Default::default()
    })
    .unwrap();
    c.use_model(LoadedModel::load(&ModelSpec::default_model()).unwrap())
        .unwrap();
    for (i, (r, d)) in refs.into_iter().zip(dis).enumerate() {
        c.submit(r, d, i as u64).unwrap();
    }
    c.flush().unwrap();
    assert!(
        fences.iter().all(|f| f.is_signalled()),
        "a frame is still held after flush"
    );
}
