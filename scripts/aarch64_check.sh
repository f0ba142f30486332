#!/usr/bin/env bash
# aarch64 under emulation: cross-builds the engine's unit tests and the vmafx CLI for
# aarch64-unknown-linux-gnu with Debian's own packages, then runs under qemu-aarch64
#   1. the engine's unit tests of the CPU levels, the kernel checker, motion, VIF, ADM's
#      kernel width sweeps and the cross-level comparisons at the detected level (NEON)
#      and at VMAFX_CPU=scalar, and
#   2. the CLI against libvmaf's goldens for vmaf_v0.6.1, vmaf_v1.0.16_3d0h and the
#      extra features on every public clip (scripts/conformance_subset.py), at NEON and
#      at scalar.
# The cross target is cached under target/aarch64-unknown-linux-gnu. Needs root for apt
# on a machine without the packages; about 10 minutes on 2 cores from a cold cache. Why
# Debian's rustc and `qemu-aarch64 -L /`: scripts/aarch64_toolchain.sh. The Python wheel
# for aarch64 is built by scripts/dist.sh and run under qemu by scripts/dist_check.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/aarch64_toolchain.sh
source scripts/aarch64_toolchain.sh
# Without debug info: nothing here reads it, and GNU ld (the cross linker) spends much of
# the link on it. The profiles stay optimised (opt-level 3).
export CARGO_PROFILE_DEV_DEBUG=false CARGO_PROFILE_TEST_DEBUG=false
"$RUSTC" --version

start=$SECONDS
# One build: the CLI and the C libraries together (one feature resolution, so the engine is
# compiled once for the three), then the engine's unit-test binary (the dev profile is
# opt-level 3).
cargo build -p vmafx-cli -p vmafx-capi -p vmafx-libvmaf --target "$TARGET"
cargo test -p vmafx --lib --target "$TARGET" --no-run
echo "aarch64: cross-built in $((SECONDS - start)) s"

# The engine's tests of the levels, the kernel checker, the kernels with NEON tables and
# the cross-level comparisons on the corpus (about 1.5 min a level under qemu; the whole
# suite takes over 30). Tests that start a child process of the test binary itself cannot
# run here: the host kernel has no binfmt entry for aarch64 (the children run on real ARM).
tests=(cpu:: tests::checkasm tests::kernel_tables tests::cross_level feature::motion
  feature::vif feature::adm::dispatch feature::check)
skip=(--skip tests::kernel_tables::env_and_cpumask_cap_every_simd_table)
for level in neon scalar; do
  t=$SECONDS
  VMAFX_CPU=$level cargo test -p vmafx --lib --target "$TARGET" -q -- "${tests[@]}" "${skip[@]}"
  echo "aarch64: engine tests at $level under qemu in $((SECONDS - t)) s"
done

# The goldens at the default level (neon); the scalar level's are the same Rust as the x86
# scalar run of scripts/check_levels.sh (and the checker above compares scalar with neon
# under qemu). VMAFX_AARCH64_GOLDEN_LEVELS="neon scalar" runs both (about 2 min more).
bin=target/$TARGET/debug/vmafx
for level in ${VMAFX_AARCH64_GOLDEN_LEVELS:-neon}; do
  t=$SECONDS
  VMAFX_CPU=$level python3 scripts/conformance_subset.py --bin "$bin" --runner "$QEMU" \
    --config vmaf_v0.6.1 --config vmaf_v1.0.16_3d0h --config extra_features
  echo "aarch64: conformance at $level under qemu in $((SECONDS - t)) s"
done
# The C faces for aarch64: libvmafx and the libvmaf drop-in cross-built as shared libraries,
# and a libvmaf program (crates/vmafx-libvmaf/examples/libvmaf_score.c) cross-compiled against
# the drop-in's headers and run under qemu on the 576x324 pair.
t=$SECONDS
libdir=target/$TARGET/debug
file -L "$libdir/libvmafx_capi.so" "$libdir/libvmaf.so" | grep -c "ARM aarch64" | grep -qx 2 ||
  { echo "aarch64: the C libraries are not aarch64 shared objects" >&2; exit 1; }
ln -sf libvmaf.so "$libdir/libvmaf.so.3"   # its SONAME, as an install lays it out
aarch64-linux-gnu-gcc -std=c11 -O1 crates/vmafx-libvmaf/examples/libvmaf_score.c \
  -I crates/vmafx-libvmaf/include -L "$libdir" -lvmaf -o "$libdir/libvmaf_score"
corpus=${VMAFX_CONFORMANCE:-../shared/conformance}
got=$(LD_LIBRARY_PATH=$libdir $QEMU "$libdir/libvmaf_score" \
  "$corpus/bbb_576x324_420p8_crf35_ref.y4m" "$corpus/bbb_576x324_420p8_crf35_dis.y4m")
[ "$got" = "vmaf_v0.6.1: 73.343961" ] ||
  { echo "aarch64: libvmaf_score through the drop-in gave '$got'" >&2; exit 1; }
echo "aarch64: C faces built, libvmaf API under qemu: $got ($((SECONDS - t)) s)"

echo "aarch64: all checks passed in $((SECONDS - start)) s"
