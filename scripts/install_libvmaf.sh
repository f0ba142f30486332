#!/usr/bin/env bash
# Builds vmafx's libvmaf drop-in (crates/vmafx-libvmaf) and installs it into a prefix the way
# libvmaf installs itself:
#   PREFIX/lib/libvmaf.so.3.2.0, libvmaf.so.3 -> it, libvmaf.so -> libvmaf.so.3
#   PREFIX/lib/libvmaf.a
#   PREFIX/lib/pkgconfig/libvmaf.pc        (Version: 3.2.0)
#   PREFIX/include/libvmaf/{libvmaf,model,picture,feature,version}.h
#   PREFIX/include/vmafx/libvmaf_frame_bridge.h (vmafx_frame_from_picture / _to_picture)
#   PREFIX/include/vmafx/*.h                    (libvmafx's headers, which the bridge includes:
#                                                libvmaf.so.3 also exports libvmafx's API)
#
# Usage: scripts/install_libvmaf.sh PREFIX
# Env:   LIBVMAF_PROFILE=release (default) or dev: the cargo profile to build with
#        (dev is opt-level 3 as well here; release adds fat LTO and takes longer to build).
set -euo pipefail

prefix=${1:?usage: $0 PREFIX}
profile=${LIBVMAF_PROFILE:-release}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

cargo build -p vmafx-libvmaf --profile "$profile" --quiet
case $profile in
    dev) outdir=target/debug ;;
    *) outdir=target/$profile ;;
esac
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
outdir=$target_dir/${outdir#target/}

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include/libvmaf"
install -m 0755 "$outdir/libvmaf.so" "$prefix/lib/libvmaf.so.3.2.0"
ln -sf libvmaf.so.3.2.0 "$prefix/lib/libvmaf.so.3"
ln -sf libvmaf.so.3 "$prefix/lib/libvmaf.so"
install -m 0644 "$outdir/libvmaf.a" "$prefix/lib/libvmaf.a"
install -m 0644 crates/vmafx-libvmaf/include/libvmaf/*.h "$prefix/include/libvmaf/"
# The frame bridge (VMAFx ABI 0.1.11) includes libvmafx's headers (crates/vmafx-capi): they
# go beside it, so <vmafx/libvmaf_frame_bridge.h> and <vmafx/vmafx.h> both compile.
mkdir -p "$prefix/include/vmafx"
install -m 0644 crates/vmafx-capi/include/vmafx/*.h "$prefix/include/vmafx/"
install -m 0644 crates/vmafx-libvmaf/include/vmafx/libvmaf_frame_bridge.h "$prefix/include/vmafx/"

cat > "$prefix/lib/pkgconfig/libvmaf.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: libvmaf
Description: libvmaf's C API on the vmafx engine (drop-in libvmaf.so.3)
Version: 3.2.0
Libs: -L\${libdir} -lvmaf
Libs.private: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
Cflags: -I\${includedir} -I\${includedir}/libvmaf
PC
echo "installed libvmaf 3.2.0 (vmafx drop-in, $profile build) into $prefix"
