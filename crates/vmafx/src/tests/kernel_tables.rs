//! Which kernel table each extractor picks: every extractor with SIMD kernels follows the
//! level cap, whether it comes from [`with_level`] (in this process), `VMAFX_CPU` or the
//! cpumask (in a child run of this test binary, since both are read process-wide).

use crate::cpu::{self, detected, with_level, CpuLevel};
use crate::feature::{registry, Geometry};
use crate::frame::PixelFormat;

/// The extractors with SIMD kernels and the levels each has a table for, lowest first,
/// every architecture's (a build has the tables of its own).
/// A new SIMD feature must be listed here (the test fails on an unlisted one).
pub(super) const SIMD_TABLES: [(&str, &[CpuLevel]); 14] = [
    (
        "vif",
        &[
            CpuLevel::Scalar,
            CpuLevel::Neon,
            CpuLevel::Avx2,
            CpuLevel::Avx512Vnni,
        ],
    ),
    (
        "adm",
        &[
            CpuLevel::Scalar,
            CpuLevel::Neon,
            CpuLevel::Avx2,
            CpuLevel::Avx512,
        ],
    ),
    ("motion", MOTION),
    ("motion_v2", MOTION),
    (
        "cambi",
        &[CpuLevel::Scalar, CpuLevel::Avx2, CpuLevel::Avx512],
    ),
    (
        "psnr",
        &[CpuLevel::Scalar, CpuLevel::Avx2, CpuLevel::Avx512],
    ),
    ("psnr_hvs", PSNR_HVS),
    ("float_vif", FLOAT),
    ("float_motion", FLOAT),
    ("float_ssim", FLOAT),
    ("float_ms_ssim", FLOAT),
    ("float_adm", FLOAT),
    ("speed_chroma", SPEED),
    ("speed_temporal", SPEED),
];

/// SpEED's tables.
const SPEED: &[CpuLevel] = &[CpuLevel::Scalar, CpuLevel::Avx2, CpuLevel::Avx512];

/// psnr_hvs's tables (the AVX-512 levels run the AVX2 DCT).
const PSNR_HVS: &[CpuLevel] = &[CpuLevel::Scalar, CpuLevel::Avx2];

/// The float convolution's and the IQA steps' tables (float_vif, float_motion,
/// float_adm, float_ssim, float_ms_ssim).
const FLOAT: &[CpuLevel] = &[CpuLevel::Scalar, CpuLevel::Avx2, CpuLevel::Avx512];

/// motion's tables (`motion_v2` runs the same ones).
const MOTION: &[CpuLevel] = &[
    CpuLevel::Scalar,
    CpuLevel::Neon,
    CpuLevel::Avx2,
    CpuLevel::Avx512,
    CpuLevel::Avx512Vnni,
];

/// The level each registered extractor's instance picks in `init` at the current cap
/// (`None` for extractors without SIMD tables).
fn picked() -> Vec<(&'static str, Option<CpuLevel>)> {
    registry::all()
        .into_iter()
        .map(|info| {
            let opts = info.parse_options(&[]).unwrap();
            let mut ex = (info.create)(&opts).unwrap();
            let g = Geometry {
                format: PixelFormat::Yuv420p,
                bpc: 8,
                width: 256,
                height: 224,
            };
            ex.init(g).unwrap_or_else(|e| panic!("{}: {e}", info.name));
            (info.name, ex.kernel_level())
        })
        .collect()
}

/// The table a feature with `levels` must pick under `cap` on this processor (and under
/// `VMAFX_CPU`, when the whole test run is capped).
fn expected(levels: &[CpuLevel], cap: CpuLevel) -> CpuLevel {
    let reach = with_level(cap, cpu::level);
    *levels
        .iter()
        .rev()
        .find(|&&l| l.is_native() && l <= reach)
        .unwrap()
}

/// Asserts every extractor picked the table `cap` calls for.
fn assert_all_follow(cap: CpuLevel, got: &[(&str, Option<CpuLevel>)]) {
    let mut simd = 0;
    for &(name, level) in got {
        match SIMD_TABLES.iter().find(|(n, _)| *n == name) {
            Some((_, levels)) => {
                assert_eq!(level, Some(expected(levels, cap)), "{name} under {cap:?}");
                simd += 1;
            }
            None => assert_eq!(level, None, "{name} has SIMD tables but is not listed"),
        }
    }
    assert_eq!(
        simd,
        SIMD_TABLES.len(),
        "a listed extractor is not registered"
    );
}

#[test]
fn with_level_caps_every_simd_table() {
    for cap in CpuLevel::ALL {
        let got = with_level(cap, picked);
        assert_all_follow(cap, &got);
    }
    if with_level(CpuLevel::Avx2, cpu::level) == CpuLevel::Avx2 {
        let got = with_level(CpuLevel::Avx2, picked);
        let avx2 = got.iter().filter(|(_, l)| *l == Some(CpuLevel::Avx2));
        let with_avx2 = SIMD_TABLES
            .iter()
            .filter(|(_, levels)| levels.contains(&CpuLevel::Avx2));
        assert_eq!(avx2.count(), with_avx2.count(), "{got:?}");
    }
}

/// The child half of [`env_and_cpumask_cap_every_simd_table`]: run only by it, with
/// `VMAFX_KERNEL_CHILD_CAP` naming the cap the environment or mask should give.
#[test]
#[ignore = "run by env_and_cpumask_cap_every_simd_table in a child process"]
fn env_child() {
    let cap = CpuLevel::parse(&std::env::var("VMAFX_KERNEL_CHILD_CAP").unwrap()).unwrap();
    if let Ok(mask) = std::env::var("VMAFX_KERNEL_CHILD_MASK") {
        cpu::set_cpumask(mask.parse().unwrap());
    }
    assert_eq!(cpu::level(), cap.min(detected()));
    assert_all_follow(cap, &picked());
    println!("kernel tables follow {}", cap.name());
}

#[test]
fn env_and_cpumask_cap_every_simd_table() {
    let runs: [(Option<&str>, Option<u32>, CpuLevel); 5] = [
        (Some("avx2"), None, CpuLevel::Avx2),
        (Some("scalar"), None, CpuLevel::Scalar),
        (Some("AVX512"), None, CpuLevel::Avx512),
        (None, Some(cpu::FLAG_AVX512), CpuLevel::Avx2),
        (None, Some(cpu::FLAG_AVX512ICL), CpuLevel::Avx512),
    ];
    let exe = std::env::current_exe().unwrap();
    for (env, mask, cap) in runs {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args([
            "tests::kernel_tables::env_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ]);
        cmd.env_remove(cpu::ENV_VAR)
            .env("VMAFX_KERNEL_CHILD_CAP", cap.name());
        if let Some(v) = env {
            cmd.env(cpu::ENV_VAR, v);
        }
        if let Some(m) = mask {
            cmd.env("VMAFX_KERNEL_CHILD_MASK", m.to_string());
        }
        let out = cmd.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("kernel tables follow"),
            "{env:?} {mask:?}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
