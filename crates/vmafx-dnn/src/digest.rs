//! SHA-256 digests of model files, as the sidecar and the registry record them (lowercase
//! hex).

use sha2::{Digest, Sha256};

/// The SHA-256 of `bytes` in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `recorded` (hex, either case, optionally `sha256:`-prefixed) is the digest `hex`.
pub fn matches(recorded: &str, hex: &str) -> bool {
    let r = recorded.trim();
    let r = r.strip_prefix("sha256:").unwrap_or(r);
    r.eq_ignore_ascii_case(hex)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_of_abc_is_the_fips_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(matches(
            "sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
            &sha256_hex(b"abc")
        ));
        assert!(!matches("00", &sha256_hex(b"abc")));
    }
}
