#!/usr/bin/env bash
# Installs what scripts/dist.sh built, as users install it, and scores the 576x324 pair of the
# conformance corpus with each (libvmaf 3.2's vmaf_v0.6.1: 73.343961):
#   - the wheel, into a fresh virtual environment (numpy from PyPI);
#   - both .deb files, with `dpkg --root` into an empty root: the installed `vmafx`, its man
#     page and bash completions, and a C program built with the installed libvmaf.pc that
#     calls libvmaf's API on the installed libvmaf.so.3;
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
"$work/venv/bin/python" -m pip install --quiet "$out"/vmafx-*.whl
got=$("$work/venv/bin/python" - "$ref" "$dis" <<'PY'
import sys, vmafx
r = vmafx.score(sys.argv[1], sys.argv[2])
print(f"vmaf_v0.6.1: {r.pooled['vmaf'].mean:.6f}")
PY
)
[ "$got" = "$want" ] || fail "wheel: $got (want $want)"
say "wheel: $got"

# 2. The Debian packages into an empty root.
R=$work/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
# Dependencies (libc6, libgcc-s1) are the host's; the root holds only these two packages.
dpkg --root="$R" --force-depends --force-script-chrootless -i "$out"/vmafx_*.deb "$out"/libvmaf3-vmafx_*.deb >/dev/null 2>"$work/dpkg.log" ||
    { cat "$work/dpkg.log" >&2; fail "dpkg could not install the packages"; }
dpkg --root="$R" -s vmafx libvmaf3-vmafx | grep '^Status: install ok installed' >/dev/null || fail "dpkg did not install both"
got=$("$R/usr/bin/vmafx" -r "$ref" -d "$dis" | tail -n 1)
[ "$got" = "$want" ] || fail "deb vmafx: $got (want $want)"
say "deb vmafx: $got"
zcat "$R/usr/share/man/man1/vmafx.1.gz" | grep '^\.TH vmafx 1' >/dev/null || fail "no man page"
if command -v man >/dev/null 2>&1; then
    MANPATH=$R/usr/share/man man -P cat vmafx 2>/dev/null | grep -- '--reference' >/dev/null || fail "man vmafx shows no --reference"
fi
bash -c "source '$R/usr/share/bash-completion/completions/vmafx' && complete -p vmafx" | grep _vmafx >/dev/null ||
    fail "the bash completion does not register"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
export PKG_CONFIG_SYSROOT_DIR=$R PKG_CONFIG_LIBDIR=$R/usr/lib/$multiarch/pkgconfig
[ "$(pkg-config --modversion libvmaf)" = 3.2.0 ] || fail "libvmaf.pc is not 3.2.0"
# shellcheck disable=SC2046
cc -std=c11 -O1 crates/vmafx-libvmaf/examples/libvmaf_score.c $(pkg-config --cflags --libs libvmaf) \
    -o "$work/libvmaf_score"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
got=$(LD_LIBRARY_PATH=$R/usr/lib/$multiarch "$work/libvmaf_score" "$ref" "$dis")
[ "$got" = "$want" ] || fail "deb libvmaf.so.3: $got (want $want)"
loaded=$(LD_LIBRARY_PATH=$R/usr/lib/$multiarch ldd "$work/libvmaf_score")
grep -q "$R/usr/lib/$multiarch/libvmaf.so.3" <<<"$loaded" ||
    fail "libvmaf_score did not load the packaged libvmaf.so.3"
say "deb libvmaf.so.3: $got"

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
say "all installs score $want"
