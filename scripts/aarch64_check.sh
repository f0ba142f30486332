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
# on a machine without the packages; about 10 minutes on 2 cores from a cold cache.
#
# Why Debian's rustc: rustup's toolchain on these machines has no aarch64 standard library;
# rustc-web (1.96 in bookworm-security) with libstd-rust-web-dev:arm64 has one.
#
# Why `qemu-aarch64 -L /`: libstd-rust-web-dev:arm64 pulls in libc6:arm64, whose
# libc.so.6 the host's ld.so.cache lists. Under `-L /usr/aarch64-linux-gnu` the program
# got that prefix's dynamic loader (libc6-arm64-cross, another glibc build) with
# libc6:arm64's libc.so.6; the two share private loader state at different offsets, and
# the first thread start loops for ever. `-L /` takes loader and libc from libc6:arm64.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=aarch64-unknown-linux-gnu
QEMU="qemu-aarch64 -L /"
pkgs=(rustc-web cargo-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

export RUSTC=/usr/bin/rustc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$QEMU"
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

# The Python extension for aarch64 (opt-in, VMAFX_AARCH64_PYTHON=1: about 3.5 CPU-minutes
# of cross-build, over this script's CI budget): python/ cross-built in its own workspace
# (dev profile) with PyO3's abi3 cross-compilation, no aarch64 interpreter needed to build;
# then Debian's aarch64 Python 3.11 and numpy, unpacked under target/ (not installed:
# python3.11:arm64 would replace the host's python3.11), import the package under qemu and
# score the carphone pair to libvmaf's golden.
if [ "${VMAFX_AARCH64_PYTHON:-0}" = 1 ]; then
  t=$SECONDS
  pytarget=target/python-$TARGET
  PYO3_CROSS_PYTHON_VERSION=3.11 CARGO_TARGET_DIR=$pytarget cargo build \
    --manifest-path python/Cargo.toml --target "$TARGET" --features extension-module
  debs=target/$TARGET/python-debs
  if [ ! -x "$debs/root/usr/bin/python3.11" ]; then
    mkdir -p "$debs/root"
    (cd "$debs" && apt-get download python3.11-minimal:arm64 libpython3.11-minimal:arm64 \
      libpython3.11-stdlib:arm64 python3-numpy:arm64 libexpat1:arm64 libblas3:arm64 \
      liblapack3:arm64 libgfortran5:arm64 zlib1g:arm64 libffi8:arm64)
    for d in "$debs"/*.deb; do dpkg -x "$d" "$debs/root"; done
  fi
  pkg=target/$TARGET/python-pkg
  rm -rf "$pkg" && mkdir -p "$pkg" && cp -r python/python/vmafx "$pkg/"
  cp "$pytarget/$TARGET/debug/lib_vmafx.so" "$pkg/vmafx/_vmafx.abi3.so"
  root=$PWD/$debs/root
  lib=$root/usr/lib/aarch64-linux-gnu
  want=$(python3 -c "import json,sys; print('%.6f' % json.load(open(sys.argv[1]))['pooled_metrics']['vmaf']['mean'])" \
    "$corpus/expected/carphone_176x144_420p8.vmaf_v0.6.1.json")
  got=$($QEMU -E LD_LIBRARY_PATH="$lib:$lib/blas:$lib/lapack:$root/lib/aarch64-linux-gnu" \
    -E PYTHONHOME="$root/usr" -E PYTHONPATH="$PWD/$pkg:$root/usr/lib/python3/dist-packages" \
    "$root/usr/bin/python3.11" -c "
import platform, sys, vmafx
assert platform.machine() == 'aarch64', platform.machine()
r = vmafx.score(sys.argv[1], sys.argv[2])
print('%.6f' % r.pooled['vmaf'].mean)" \
    "$corpus/carphone_176x144_420p8_ref.y4m" "$corpus/carphone_176x144_420p8_dis.y4m")
  [ "$got" = "$want" ] ||
    { echo "aarch64: the Python package under qemu gave vmaf $got, libvmaf $want" >&2; exit 1; }
  echo "aarch64: Python package built and scored under qemu: vmaf $got ($((SECONDS - t)) s)"
fi
echo "aarch64: all checks passed in $((SECONDS - start)) s"
