#!/usr/bin/env bash
# Installs what scripts/dist.sh built, as users install it, and scores the 576x324 pair of the
# conformance corpus with each (libvmaf 3.2's vmaf_v0.6.1: 73.343961):
#   - the x86-64 wheel, into a fresh virtual environment (numpy from PyPI);
#   - both .deb files, with `dpkg --root` into an empty root: the installed `vmafx`, its man
#     page and bash completions, and a C program built with the installed libvmaf.pc that
#     calls libvmaf's API on the installed libvmaf.so.3;
#   - the aarch64 wheel and arm64 .debs (where scripts/dist.sh built them), as above but run
#     under qemu-aarch64: the wheel installed by pip for that platform with numpy's aarch64
#     wheel from PyPI and imported by Debian's aarch64 Python 3.11;
#   - vmafx-cli as built from its packaged .crate, with the packaged engine and MCP server in
#     place of crates.io's (not published yet): the program scripts/dist.sh's
#     `cargo package --workspace` verification compiled from the .crate files alone.
#
# Usage: scripts/dist_check.sh OUTDIR
set -euo pipefail

out=$(cd "${1:?usage: $0 OUTDIR}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corpus=${VMAFX_CONFORMANCE:-$root/../shared/conformance}
ref=$corpus/bbb_576x324_420p8_crf35_ref.y4m
dis=$corpus/bbb_576x324_420p8_crf35_dis.y4m
want="vmaf_v0.6.1: 73.343961"
say() { echo "dist_check: $*"; }
fail() { say "$*"; exit 1; }
[ -f "$ref" ] || fail "the conformance corpus is missing ($ref)"
work=$root/target/dist-check
rm -rf "$work"
mkdir -p "$work"

# 1. The wheel in a fresh venv.
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$out"/vmafx-*_x86_64.whl
got=$("$work/venv/bin/python" - "$ref" "$dis" <<'PY'
import sys, vmafx
r = vmafx.score(sys.argv[1], sys.argv[2])
print(f"vmaf_v0.6.1: {r.pooled['vmaf'].mean:.6f}")
PY
)
[ "$got" = "$want" ] || fail "wheel: $got (want $want)"
say "wheel: $got"

# 2. The Debian packages of each architecture built, into an empty root of their own.
# debs ARCH MULTIARCH CC [RUNNER...]: installs ARCH's two packages with `dpkg --root`, and
# scores the pair with the installed vmafx and with a C program compiled by CC against the
# installed libvmaf.pc, on the installed libvmaf.so.3; RUNNER runs a program of ARCH here
# (qemu for arm64, nothing for this machine's own).
debs() {
    local arch=$1 multiarch=$2 cc=$3 R=$work/root-$1 got loaded
    shift 3
    mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
    touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
    [ "$arch" = "$(dpkg --print-architecture)" ] || dpkg --root="$R" --add-architecture "$arch"
    # Dependencies (libc6, libgcc-s1) are the host's; the root holds only these two packages.
    dpkg --root="$R" --force-depends --force-script-chrootless -i "$out"/vmafx_*_"$arch".deb \
        "$out"/libvmaf3-vmafx_*_"$arch".deb >/dev/null 2>"$work/dpkg-$arch.log" ||
        { cat "$work/dpkg-$arch.log" >&2; fail "dpkg could not install the $arch packages"; }
    dpkg --root="$R" -s vmafx libvmaf3-vmafx | grep '^Status: install ok installed' >/dev/null ||
        fail "dpkg did not install both $arch packages"
    got=$("$@" "$R/usr/bin/vmafx" -r "$ref" -d "$dis" | tail -n 1)
    [ "$got" = "$want" ] || fail "deb vmafx ($arch): $got (want $want)"
    say "deb vmafx ($arch): $got"
    zcat "$R/usr/share/man/man1/vmafx.1.gz" | grep '^\.TH vmafx 1' >/dev/null || fail "no man page ($arch)"
    if command -v man >/dev/null 2>&1; then
        MANPATH=$R/usr/share/man man -P cat vmafx 2>/dev/null | grep -- '--reference' >/dev/null ||
            fail "man vmafx shows no --reference ($arch)"
    fi
    bash -c "source '$R/usr/share/bash-completion/completions/vmafx' && complete -p vmafx" |
        grep _vmafx >/dev/null || fail "the bash completion does not register ($arch)"
    # pkg-config reading only the root's libvmaf.pc.
    local pc=(env PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_LIBDIR="$R/usr/lib/$multiarch/pkgconfig"
        pkg-config)
    [ "$("${pc[@]}" --modversion libvmaf)" = 3.2.0 ] || fail "libvmaf.pc is not 3.2.0 ($arch)"
    # shellcheck disable=SC2046
    "$cc" -std=c11 -O1 crates/vmafx-libvmaf/examples/libvmaf_score.c \
        $("${pc[@]}" --cflags --libs libvmaf) -o "$work/libvmaf_score-$arch"
    got=$(LD_LIBRARY_PATH=$R/usr/lib/$multiarch "$@" "$work/libvmaf_score-$arch" "$ref" "$dis")
    [ "$got" = "$want" ] || fail "deb libvmaf.so.3 ($arch): $got (want $want)"
    # The dynamic loader lists what it loaded (as ldd does); under qemu the variable is the
    # guest's (-E), or the host's loader would list qemu's own libraries.
    local trace=(env LD_TRACE_LOADED_OBJECTS=1)
    [ $# -eq 0 ] || trace=("$@" -E LD_TRACE_LOADED_OBJECTS=1)
    loaded=$(LD_LIBRARY_PATH=$R/usr/lib/$multiarch "${trace[@]}" "$work/libvmaf_score-$arch")
    grep -q "$R/usr/lib/$multiarch/libvmaf.so.3" <<<"$loaded" ||
        fail "libvmaf_score ($arch) did not load the packaged libvmaf.so.3"
    say "deb libvmaf.so.3 ($arch): $got"
}
debs "$(dpkg --print-architecture)" \
    "$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)" cc

# 3. The CLI from its .crate. `cargo package --workspace` (scripts/dist.sh) unpacks every
# .crate it wrote and compiles each from those sources alone, dependencies from crates.io
# and the workspace's own crates from their packages (the engine and the MCP server are not
# on crates.io yet); that build's program is what `cargo install vmafx-cli` builds.
crate_bin=$root/target/package-build/debug/vmafx
[ -x "$crate_bin" ] || fail "no vmafx built from the .crate files ($crate_bin): run scripts/dist.sh first"
# (dist.sh empties target/package-build before packaging: this program is from that run.)
got=$("$crate_bin" -r "$ref" -d "$dis" | tail -n 1)
[ "$got" = "$want" ] || fail ".crate vmafx: $got (want $want)"
say ".crate vmafx: $got"

# 4. The aarch64 wheel under qemu: pip installs it for that platform into a folder (numpy's
# aarch64 wheel from PyPI with it), and Debian's aarch64 Python 3.11, unpacked under target/
# rather than installed (python3.11:arm64 would replace the host's python3.11), imports it
# and scores the pair.
if ls "$out"/vmafx-*_aarch64.whl >/dev/null 2>&1; then
    # shellcheck source=scripts/aarch64_toolchain.sh
    source scripts/aarch64_toolchain.sh
    site=$work/aarch64-site
    "$work/venv/bin/python" -m pip install --quiet --target "$site" \
        --platform manylinux_2_28_aarch64 --python-version 3.11 --implementation cp \
        --only-binary=:all: "$out"/vmafx-*_aarch64.whl
    py=$root/target/aarch64-python
    if [ ! -x "$py/root/usr/bin/python3.11" ]; then
        rm -rf "$py" && mkdir -p "$py/root"
        pkgs=(python3.11-minimal:arm64 libpython3.11-minimal:arm64 libpython3.11-stdlib:arm64
            libexpat1:arm64 zlib1g:arm64 libffi8:arm64)
        # A package list older than the archive's versions: fetch the lists once and retry.
        get() { (cd "$py" && apt-get -o APT::Sandbox::User=root download "${pkgs[@]}"); }
        get || { apt-get update && get; }
        for d in "$py"/*.deb; do dpkg -x "$d" "$py/root"; done
    fi
    lib=$py/root/usr/lib/aarch64-linux-gnu
    got=$($QEMU -E LD_LIBRARY_PATH="$lib:$py/root/lib/aarch64-linux-gnu" \
        -E PYTHONHOME="$py/root/usr" -E PYTHONPATH="$site" "$py/root/usr/bin/python3.11" - \
        "$ref" "$dis" <<'PY'
import platform, sys, vmafx
assert platform.machine() == "aarch64", platform.machine()
r = vmafx.score(sys.argv[1], sys.argv[2])
# qemu's default CPU has NEON: the wheel's NEON kernels scored, not the scalar ones.
assert r.provenance["simd"] == "neon", r.provenance["simd"]
print(f"vmaf_v0.6.1: {r.pooled['vmaf'].mean:.6f}")
PY
    )
    [ "$got" = "$want" ] || fail "aarch64 wheel under qemu: $got (want $want)"
    say "aarch64 wheel under qemu: $got"
    # shellcheck disable=SC2086
    debs arm64 aarch64-linux-gnu aarch64-linux-gnu-gcc $QEMU
fi
say "all installs score $want"
