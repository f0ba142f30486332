#!/usr/bin/env bash
# pyvmaf 1.0.0a1 (PyPI), a Python extension written against libvmaf, on the libvmaf drop-in:
# its C extension is compiled against the drop-in's headers (scripts/install_libvmaf.sh into
# target/libvmaf-prefix), loaded with LD_LIBRARY_PATH at the drop-in, and pyvmaf's own test
# file (tests/test_pyvmaf.py of the sdist, unchanged) runs with pytest. The run checks, on the
# loader's trace, that the extension's libvmaf.so.3 is the drop-in.
#
# pyvmaf reads libvmaf's private VmafModel layout (it compares `->name` of each loaded model),
# which the drop-in keeps (docs/C.md, "libvmaf's private layouts"): before that, its second
# model load crashed.
#
# Cached under target/pyvmaf/: the venv (pytest, pillow, setuptools) and the sdist.
# Usage: scripts/pyvmaf_tests.sh     Env: LIBVMAF_PROFILE (default dev).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
prefix=$root/target/libvmaf-prefix
work=$root/target/pyvmaf
version=1.0.0a1
venv=$work/venv
say() { echo "pyvmaf_tests: $*"; }

LIBVMAF_PROFILE=${LIBVMAF_PROFILE:-dev} scripts/install_libvmaf.sh "$prefix"

mkdir -p "$work"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pytest, PIL, setuptools' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q pytest pillow setuptools
fi
sdist=$work/pyvmaf-$version.tar.gz
if [ ! -f "$sdist" ]; then
    "$venv/bin/pip" download -q --no-deps --no-binary :all: -d "$work" "pyvmaf==$version"
fi

# A fresh tree each run: the extension is rebuilt against the headers as installed now.
src=$work/src
rm -rf "$src" && mkdir -p "$src"
tar -xzf "$sdist" -C "$src"
pkg=$src/pyvmaf-$version
(cd "$pkg" && CFLAGS="-I$prefix/include" LDFLAGS="-L$prefix/lib" \
    "$venv/bin/python" setup.py -q build_ext --inplace >"$work/build.log" 2>&1) \
    || { tail -30 "$work/build.log"; exit 1; }
ext=$(find "$pkg/src/pyvmaf" -name '_vmaf*.so' | head -1)
[ -n "$ext" ] || { say "the extension was not built"; exit 1; }

trace=$work/ld-debug
rm -f "$trace".*
(cd "$pkg" && LD_LIBRARY_PATH="$prefix/lib" PYTHONPATH="$pkg/src" LD_DEBUG=libs LD_DEBUG_OUTPUT="$trace" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/test_pyvmaf.py)
grep -h "calling init: $prefix/lib/libvmaf.so.3" "$trace".* >/dev/null \
    || { say "pytest did not load $prefix/lib/libvmaf.so.3"; grep -h 'init:.*libvmaf' "$trace".* || true; exit 1; }
rm -f "$trace".*
say "pyvmaf $version's tests passed on $prefix/lib/libvmaf.so.3 (the drop-in)"
