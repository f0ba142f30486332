//! Running `cosign verify-blob` on a model and its Sigstore bundle, as VMAFx's
//! `vmaf_dnn_verify_signature` does: the program is run directly (no shell), each argument
//! its own, and only its exit status decides. Cosign does the cryptography (the bundle's
//! certificate chain to Fulcio, the Rekor inclusion proof, the signature over the file);
//! this module only asks it.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

use vmafx::{Error, Result, Status};

/// The signer identity cosign is told to require: a workflow of VMAFx's repository
/// (VMAFx's `--certificate-identity-regexp`).
pub const IDENTITY_REGEXP: &str = "https://github.com/VMAFx/vmafx/.github/workflows/.+";

/// The OIDC issuer of the signing certificate: GitHub Actions.
pub const OIDC_ISSUER: &str = "https://token.actions.githubusercontent.com";

/// The arguments after the program name, in VMAFx's order: `verify-blob --bundle=BUNDLE
/// --certificate-identity-regexp RE --certificate-oidc-issuer ISSUER MODEL`.
pub fn arguments(bundle: &Path, model: &Path) -> Vec<OsString> {
    let mut bundle_arg = OsString::from("--bundle=");
    bundle_arg.push(bundle);
    vec![
        "verify-blob".into(),
        bundle_arg,
        "--certificate-identity-regexp".into(),
        IDENTITY_REGEXP.into(),
        "--certificate-oidc-issuer".into(),
        OIDC_ISSUER.into(),
        model.into(),
    ]
}

/// Runs `program` (a name looked up on `PATH`, or a path) with [`arguments`]; `Ok` only when
/// it exits 0. Errors name `model`: the program not found or not runnable, and a non-zero
/// exit (with its code and the last line cosign wrote to stderr), are `Internal`, the
/// status VMAFx gives these (its `-EACCES` and `-EPROTO` map to `VMAFX_E_INTERNAL`).
/// Builds for other systems than Unix fail `NotSup`, as VMAFx's Windows build does.
pub fn run(program: &Path, bundle: &Path, model: &Path) -> Result<()> {
    let shown = model.display().to_string();
    if !cfg!(unix) {
        return Err(Error::not_supported(
            &shown,
            "signature verification runs cosign only on Unix-like systems, as in VMAFx",
        ));
    }
    let out = Command::new(program)
        .args(arguments(bundle, model))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| {
            Error::new(
                Status::Internal,
                &shown,
                format!(
                    "its signature was not verified: {} could not be run ({e}); install \
                     cosign (sigstore) on PATH",
                    program.display()
                ),
            )
        })?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("(nothing on stderr)");
    let how = match out.status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "was stopped by a signal".to_string(),
    };
    Err(Error::new(
        Status::Internal,
        &shown,
        format!(
            "its signature was refused: cosign verify-blob with bundle {} {how}: {}",
            bundle.display(),
            last.trim()
        ),
    ))
}
