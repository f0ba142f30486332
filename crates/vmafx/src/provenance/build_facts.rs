//! What the record says about the build that ran.

use super::canonical::canonical_json;
use super::digest::sha256_tag;

/// The build of this library.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BuildFacts {
    /// `vmafx <crate version>`.
    pub version: String,
    /// The commit the build was made from (`VMAFX_COMMIT` at build time), else `unknown`.
    pub commit: String,
    /// `sha256:` over the canonical build description (compiler, flags, fp policy,
    /// backends, rust_twins).
    pub build_id: String,
    /// The compiler (`rustc 1.xx.y (...)`).
    pub compiler: String,
    /// Profile, optimisation level and debug assertions of the build.
    pub build_flags: String,
    /// The floating-point rules the kernels are built under.
    pub fp_policy: String,
    /// Backends built in (`cpu`).
    pub backends: String,
    /// 1 when `<name>_rust` twins of the extractors are registered; 0 here (every extractor
    /// is the reference of its name).
    pub rust_twins: u32,
}

impl BuildFacts {
    /// The facts of this build.
    pub fn current() -> BuildFacts {
        let mut b = BuildFacts {
            version: format!("vmafx {}", env!("CARGO_PKG_VERSION")),
            commit: option_env!("VMAFX_COMMIT").unwrap_or("unknown").to_string(),
            build_id: String::new(),
            compiler: env!("VMAFX_RUSTC_VERSION").to_string(),
            build_flags: format!(
                "profile={} opt-level={} debug-assertions={}",
                env!("VMAFX_BUILD_PROFILE"),
                env!("VMAFX_OPT_LEVEL"),
                cfg!(debug_assertions)
            ),
            fp_policy: "IEEE-754 binary64 and binary32 as written: no fast-math, no FMA \
                        contraction, no reassociation (Rust's defaults)"
                .to_string(),
            backends: "cpu".to_string(),
            rust_twins: 0,
        };
        let description = serde_json::json!({
            "backends": b.backends,
            "build_flags": b.build_flags,
            "compiler": b.compiler,
            "fp_policy": b.fp_policy,
            "rust_twins": b.rust_twins,
        });
        b.build_id = sha256_tag(canonical_json(&description).as_bytes());
        b
    }
}
