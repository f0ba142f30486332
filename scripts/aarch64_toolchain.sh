# Sourced (not run) by the scripts that build for aarch64 (scripts/aarch64_check.sh,
# scripts/dist.sh): installs what cross-building needs from Debian's own packages where it is
# missing, then exports the compiler, linker and runner for aarch64-unknown-linux-gnu.
#
# Why Debian's rustc: rustup's toolchain on these machines has no aarch64 standard library;
# rustc-web (1.96 in bookworm-security) with libstd-rust-web-dev:arm64 has one.
#
# Why `qemu-aarch64 -L /`: libstd-rust-web-dev:arm64 pulls in libc6:arm64, whose
# libc.so.6 the host's ld.so.cache lists. Under `-L /usr/aarch64-linux-gnu` the program
# got that prefix's dynamic loader (libc6-arm64-cross, another glibc build) with
# libc6:arm64's libc.so.6; the two share private loader state at different offsets, and
# the first thread start loops for ever. `-L /` takes loader and libc from libc6:arm64.
#
# Exports TARGET, QEMU, RUSTC, the target's linker and runner; needs root for apt where a
# package is missing.

export TARGET=aarch64-unknown-linux-gnu
export QEMU="qemu-aarch64 -L /"
aarch64_pkgs=(rustc-web cargo-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu
  libc6-dev-arm64-cross qemu-user)
aarch64_missing=()
for p in "${aarch64_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    aarch64_missing+=("$p")
done
if [ ${#aarch64_missing[@]} -gt 0 ]; then
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${aarch64_missing[@]}"
fi

export RUSTC=/usr/bin/rustc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$QEMU"
