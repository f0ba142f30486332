#!/usr/bin/env bash
# Builds every release artefact into OUTDIR (scripts/dist_check.sh installs and scores each):
#   crates/*.crate    one per published crate (`cargo package --workspace`, which builds each
#                     package on its own as crates.io would), after `cargo publish --workspace
#                     --dry-run` checked what the registry checks
#   *.deb             vmafx and libvmaf3-vmafx (scripts/deb.sh), for amd64 and arm64
#   vmafx-*.whl       the Python package: abi3 wheels for CPython >= 3.9 on x86-64 and
#                     aarch64, linked with zig against glibc 2.28 (manylinux_2_28), checked by
#                     `auditwheel show`
#   vmafx-*.tar.gz    the Python sdist
# Tools come from PyPI into target/dist-venv (maturin, ziglang, auditwheel); builds are cached
# under target/ (the wheels' in target/py-dist and target/py-dist-aarch64).
#
# Usage: scripts/dist.sh OUTDIR
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p "$out/crates"
out=$(cd "$out" && pwd)
say() { echo "dist: $*"; }
t0=$(date +%s)
lap() { say "$1 ($(($(date +%s) - t0)) s so far)"; }

# 1. Crates. The dry run checks the manifests and the registry's rules without building;
# `cargo package` then builds each packaged crate alone, dependencies from the packages.
# A version is immutable to cargo: the packages of a previous run (their .crate files, their
# copies unpacked under CARGO_HOME in a folder per local registry, named with a leading '-',
# and what was compiled from them) would stand in for this tree's. So each run packages and
# verifies in a target folder of its own, from nothing.
pkg_target=$root/target/package-build
rm -rf "$pkg_target"
for c in $(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["packages"]))'); do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$c"-[0-9]*
done
CARGO_TARGET_DIR=$pkg_target cargo publish --workspace --dry-run --no-verify --allow-dirty --quiet
# The verification builds need no debug info (the tiny-model runtime's tract is most of
# their time). The engine is optimised in them: the `vmafx` program they build from the
# packaged .crates ($pkg_target/debug/vmafx) is the one scripts/dist_check.sh runs, as
# `cargo install vmafx-cli` would build it, without building it a second time.
CARGO_PROFILE_DEV_DEBUG=false CARGO_TARGET_DIR=$pkg_target cargo package --workspace --allow-dirty --quiet \
    --config 'profile.dev.package.vmafx.opt-level=3'
version=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]=="vmafx"))')
rm -f "$out"/crates/*.crate
cp "$pkg_target"/package/*-"$version".crate "$out/crates/"
lap "crates packaged"

# 2. Debian packages.
scripts/deb.sh "$out" >/dev/null
lap "Debian packages built"

# 3. Python: wheel and sdist.
venv=target/dist-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if ! "$venv/bin/python" -c "import maturin, ziglang, auditwheel" 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet maturin ziglang auditwheel
fi
export PATH="$root/$venv/bin:$PATH"
rm -f "$out"/vmafx-*.whl "$out"/vmafx-*.tar.gz
# wheel ARCH [MATURIN ARGS]: the abi3 wheel for ARCH, linked with zig against glibc 2.28,
# which auditwheel must accept as manylinux_2_28 or older (it names the oldest manylinux the
# wheel's symbols allow). Each architecture builds in a target folder of its own.
wheel() {
    local arch=$1 dir=$root/target/py-dist w report tag minor
    shift
    [ "$arch" = x86_64 ] || dir=$dir-$arch
    CARGO_TARGET_DIR=$dir maturin build --quiet --release --zig \
        --compatibility manylinux_2_28 -m python/Cargo.toml -o "$out" "$@"
    w=$(ls "$out"/vmafx-*-cp39-abi3-manylinux_2_28_"$arch".whl) ||
        { say "no cp39-abi3-manylinux_2_28_$arch wheel in $out"; exit 1; }
    report=$(auditwheel show "$w")
    echo "$report"
    tag=$(echo "$report" | grep -o "manylinux_2_[0-9]*_$arch" | head -n 1)
    minor=${tag#manylinux_2_}
    minor=${minor%_"$arch"}
    if [ -z "$tag" ] || [ "$minor" -gt 28 ]; then
        say "auditwheel does not accept $w as manylinux_2_28 or older"
        exit 1
    fi
}
wheel x86_64
maturin sdist -m python/Cargo.toml -o "$out" >/dev/null
lap "wheel and sdist built"

# 4. For aarch64 (Graviton, Ampere, Raspberry Pi 4/5 with a 64-bit OS): the two Debian
# packages for arm64 and the Python wheel, with Debian's rustc and aarch64 standard library
# (scripts/aarch64_toolchain.sh: rustup's toolchain here has none); the packages linked by the
# cross gcc against Debian's arm64 glibc, the wheel by zig against glibc 2.28 as for x86-64.
# VMAFX_DIST_AARCH64=0 leaves them out (the toolchain's packages need root to install).
if [ "${VMAFX_DIST_AARCH64:-1}" = 1 ]; then
    (
        # shellcheck source=scripts/aarch64_toolchain.sh
        source scripts/aarch64_toolchain.sh
        DEB_TARGET=$TARGET scripts/deb.sh "$out" >/dev/null
        unset CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER
        wheel aarch64 --target "$TARGET"
    )
    lap "arm64 packages and aarch64 wheel built"
fi
ls -1 "$out" "$out/crates"
