//! The dispatched extractors (adm, motion) give bit-identical scores at every CPU level
//! on every conformance clip (the corpus tests compare the default level with libvmaf;
//! this compares each level with scalar, in one process, via [`crate::cpu::with_level`]).

use crate::cpu::{supported, with_level, CpuLevel};
use crate::feature::options::split_option_string;
use crate::feature::{ExtractInput, ExtractorInfo, FrameScores};
use crate::frame::Frame;
use crate::frame::Geometry;
use crate::testutil::{clip_ids, conformance_dir, load_clip};

/// Every written (name, index, value) of `info` with `options` over the clip.
pub(super) fn scores(
    info: &ExtractorInfo,
    options: &str,
    refs: &[Frame],
    dis: &[Frame],
) -> Vec<(String, u64, f64)> {
    let opts = info
        .parse_options(&split_option_string(options).unwrap())
        .unwrap();
    let mut ex = (info.create)(&opts).unwrap();
    let f = &refs[0];
    ex.init(Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    })
    .unwrap();
    let mut out = FrameScores::default();
    for i in 0..refs.len() {
        let input = ExtractInput {
            reference: &refs[i],
            distorted: &dis[i],
            prev_reference: i.checked_sub(1).map(|j| &refs[j]),
            prev_prev_reference: i.checked_sub(2).map(|j| &refs[j]),
            index: i as u64,
        };
        ex.extract(&input, &mut out).unwrap();
    }
    out.entries
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn adm_and_motion_match_scalar_at_every_level_on_the_corpus() {
    let Some(dir) = conformance_dir() else { return };
    let runs: [(&ExtractorInfo, &str); 5] = [
        (&crate::feature::adm::EXTRACTORS[0], "debug=true"),
        (
            &crate::feature::adm::EXTRACTORS[0],
            "debug=true:adm_enhn_gain_limit=1.0",
        ),
        (
            &crate::feature::adm::EXTRACTORS[0],
            "adm_csf_mode=2:adm_norm_view_dist=5.0",
        ),
        (&crate::feature::motion::EXTRACTORS[0], "debug=true"),
        (
            &crate::feature::motion::EXTRACTORS[0],
            "motion_five_frame_window=true",
        ),
    ];
    let mut compared = 0;
    for clip in clip_ids() {
        let (refs, dis) = load_clip(&dir, clip);
        for (info, options) in runs {
            let want = with_level(CpuLevel::Scalar, || scores(info, options, &refs, &dis));
            for level in supported().into_iter().filter(|&l| l != CpuLevel::Scalar) {
                let got = with_level(level, || scores(info, options, &refs, &dis));
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{clip} {} {options}: {level:?}",
                    info.name
                );
                for ((name, index, g), (_, _, w)) in got.iter().zip(&want) {
                    assert!(
                        g.to_bits() == w.to_bits(),
                        "{clip} {} {options}: frame {index} {name}: {level:?} {g:e}, scalar {w:e}",
                        info.name
                    );
                    compared += 1;
                }
            }
        }
    }
    eprintln!("{compared} values identical to scalar at every level above it");
}
