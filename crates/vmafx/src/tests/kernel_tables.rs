//! Which kernel table each extractor picks: every extractor with SIMD kernels follows the
//! level cap, whether it comes from [`with_level`] (in this process), `VMAFX_CPU` or the
//! cpumask (in a child run of this test binary, since both are read process-wide). The
//! levels each must reach come from the tables of the kernel families it names
//! (`Extractor::kernel_families`), as the kernel checker's suites list them.

use crate::cpu::{self, detected, with_level, CpuLevel};
use crate::feature::{registry, Geometry};
use crate::frame::PixelFormat;

/// What a registered extractor's instance reports after `init` at the current cap: its
/// name, the level of the table it picked (`None` without SIMD tables) and the kernel
/// families it names.
type Picked = (&'static str, Option<CpuLevel>, &'static [&'static str]);

/// [`Picked`] for every registered extractor.
fn picked() -> Vec<Picked> {
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
            (info.name, ex.kernel_level(), ex.kernel_families())
        })
        .collect()
}

/// The levels the kernel families `families` have tables for on this architecture, lowest
/// first: those of their checker suites, which list the dispatch's tables.
pub(super) fn family_levels(families: &[&str]) -> Vec<CpuLevel> {
    let mut levels: Vec<CpuLevel> = families
        .iter()
        .flat_map(|f| {
            super::checkasm::suite(f)
                .unwrap_or_else(|| panic!("kernel family {f} has no checker suite"))
                .levels()
        })
        .collect();
    levels.sort();
    levels.dedup();
    levels
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

/// Asserts every extractor picked the table `cap` calls for: an extractor naming kernel
/// families the highest level their tables reach under `cap`, any other none.
fn assert_all_follow(cap: CpuLevel, got: &[Picked]) {
    let mut simd = 0;
    for &(name, level, families) in got {
        if families.is_empty() {
            assert_eq!(
                level, None,
                "{name} picks a table but names no kernel family"
            );
        } else {
            let levels = family_levels(families);
            assert_eq!(level, Some(expected(&levels, cap)), "{name} under {cap:?}");
            simd += 1;
        }
    }
    // The SIMD extractors of vmaf_v0.6.1 and the float, SSIM, psnr, CAMBI and SpEED ones:
    // fewer would mean a family dropped from its extractor.
    assert!(simd >= 14, "only {simd} extractors name kernel families");
}

#[test]
fn with_level_caps_every_simd_table() {
    for cap in CpuLevel::ALL {
        let got = with_level(cap, picked);
        assert_all_follow(cap, &got);
    }
    if with_level(CpuLevel::Avx2, cpu::level) == CpuLevel::Avx2 {
        let got = with_level(CpuLevel::Avx2, picked);
        let avx2 = got.iter().filter(|(_, l, _)| *l == Some(CpuLevel::Avx2));
        let with_avx2 = got
            .iter()
            .filter(|(_, _, f)| !f.is_empty() && family_levels(f).contains(&CpuLevel::Avx2));
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
