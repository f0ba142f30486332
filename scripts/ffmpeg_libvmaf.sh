#!/usr/bin/env bash
# The proof that vmafx's libvmaf drop-in (crates/vmafx-libvmaf) serves a real libvmaf client:
# builds FFmpeg from Debian's source package against the drop-in's libvmaf.pc, then scores the
# conformance corpus through FFmpeg's `libvmaf` filter and compares every log with libvmaf's
# golden runs (scripts/ffmpeg_libvmaf_check.py), checks that `ldd` resolves libvmaf.so.3 to the
# drop-in, and that LD_LIBRARY_PATH swaps in another libvmaf.so.3.
#
# The FFmpeg build is minimal (`--disable-everything`: y4m and matroska demuxers, h264, hevc,
# vp9 and rawvideo decoders, the libvmaf, scale and format filters, file/pipe protocols, null
# and yuv4mpegpipe muxers; no assembly, so no nasm) and cached under
# target/ffmpeg-build/<source version>-<flags hash>: a second run reuses it. FFmpeg links
# libvmaf.so.3 dynamically with a RUNPATH to the install prefix, so a rebuilt drop-in needs no
# FFmpeg rebuild.
#
# PATCH: FFmpeg 5.1's vf_libvmaf.c `copy_picture_data` copies `sizeof(*dst_data) * dst->w[i]`
# bytes per row, i.e. only half of each row of a 10-bit picture (fixed in later FFmpeg). The
# build replaces that one expression with `bytes_per_value * dst->w[i]`
# (bytes_per_value = bpc > 8 ? 2 : 1), without which 10-bit scores are wrong with Netflix's
# libvmaf too.
#
# FFMPEG_SUITE=trixie builds Debian 13's FFmpeg (7.1) instead, from a trixie deb-src entry
# the script adds (source only: no binary package of the system changes), reading y4m only
# (no compressed decoders: a quicker build), with ffprobe and the filters libvmaf's clients put around the libvmaf filter (setpts, settb, split, scale
# with a reference input, scale2ref, fps, trim, select, psnr, ssim, metadata),
# cached beside the 5.1 build; scripts/ffmpeg_clients.sh runs ab-av1 and
# ffmpeg-quality-metrics through it. 7.1 needs no patch.
#
# Usage: scripts/ffmpeg_libvmaf.sh [--build-only]
# Env:   VMAFX_CONFORMANCE (default ../shared/conformance), LIBVMAF_PROFILE (default dev),
#        FFMPEG_JOBS (default: nproc), FFMPEG_SUITE (bookworm, the default, or trixie).
#        Prints the FFmpeg binary's path last (`ffmpeg_libvmaf: ffmpeg=PATH`).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corpus=${VMAFX_CONFORMANCE:-$root/../shared/conformance}
prefix=$root/target/libvmaf-prefix
build_root=$root/target/ffmpeg-build
jobs=${FFMPEG_JOBS:-$(nproc)}
suite=${FFMPEG_SUITE:-bookworm}
case $suite in
    bookworm) debver=deb12 ;;
    trixie) debver=deb13 ;;
    *) echo "ffmpeg_libvmaf: FFMPEG_SUITE must be bookworm or trixie, not '$suite'" >&2; exit 2 ;;
esac
mkdir -p "$build_root"

say() { echo "ffmpeg_libvmaf: $*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. The drop-in, installed into the prefix FFmpeg builds against.
LIBVMAF_PROFILE=${LIBVMAF_PROFILE:-dev} scripts/install_libvmaf.sh "$prefix"

# 2. Debian's FFmpeg source: deb-src enabled, dpkg-dev for `apt-get source`.
if ! apt-cache showsrc ffmpeg >/dev/null 2>&1 || [ -z "$(apt-cache showsrc ffmpeg 2>/dev/null)" ]; then
    say "enabling deb-src"
    src_list=/etc/apt/sources.list.d/vmafx-deb-src.sources
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && grep -q '^Types: deb$' "$f" && sed 's/^Types: deb$/Types: deb-src/' "$f"
        echo
    done | as_root tee "$src_list" >/dev/null
    if [ -f /etc/apt/sources.list ]; then
        grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | as_root tee -a /etc/apt/sources.list.d/vmafx-deb-src.list >/dev/null || true
    fi
    as_root apt-get update -qq
fi
# (read whole first: `grep -q` closing the pipe early would fail it under pipefail)
sources=$(apt-cache showsrc ffmpeg 2>/dev/null || true)
if [ "$suite" = trixie ] && ! grep -q "^Version: .*+$debver" <<<"$sources"; then
    say "adding a deb-src entry for trixie (sources only)"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        | as_root tee /etc/apt/sources.list.d/vmafx-trixie-src.sources >/dev/null
    as_root apt-get update -qq
fi
command -v dpkg-source >/dev/null || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dpkg-dev
command -v make >/dev/null || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends make

# The suite's own version (both suites' sources may be listed).
version=$(apt-cache showsrc ffmpeg | awk '/^Version:/ {print $2}' | grep "+$debver" | sort -V | tail -1)
[ -n "$version" ] || { say "no ffmpeg source package of $suite ($debver) in apt's lists"; exit 1; }
upstream=${version#*:}
upstream=${upstream%%-*}

configure_flags=(
    --disable-everything --disable-doc --disable-x86asm --disable-autodetect
    --disable-ffplay --disable-ffprobe --disable-avdevice --disable-network
    --enable-libvmaf
    --enable-demuxer=yuv4mpegpipe,matroska
    --enable-decoder=h264,hevc,vp9,rawvideo,wrapped_avframe
    --enable-encoder=rawvideo,wrapped_avframe
    --enable-muxer=null,yuv4mpegpipe
    --enable-filter=libvmaf,scale,format,null
    --enable-protocol=file,pipe
    --pkg-config=pkg-config
    "--extra-ldflags=-Wl,--enable-new-dtags -Wl,-rpath,$prefix/lib"
)
patch=none
targets=(ffmpeg)
case $upstream in
    5.1*) patch=copy_picture_data ;;
esac
if [ "$suite" = trixie ]; then
    # y4m in, no compressed decoders (what the checks and clients read here; the h264, hevc
    # and vp9 decoders would double the build), and ffprobe.
    flags=()
    for f in "${configure_flags[@]}"; do
        case $f in
            --disable-ffprobe) ;;
            --enable-demuxer=*) flags+=(--enable-demuxer=yuv4mpegpipe) ;;
            --enable-decoder=*) flags+=(--enable-decoder=rawvideo,wrapped_avframe) ;;
            *) flags+=("$f") ;;
        esac
    done
    configure_flags=("${flags[@]}")
    configure_flags+=(--enable-filter=setpts,settb,split,scale2ref,fps,trim,select,psnr,ssim,metadata)
    targets+=(ffprobe)
fi
key=$(printf '%s\n' "$version" "${configure_flags[@]}" "patch:$patch" | sha256sum | cut -c1-12)
dir=$build_root/ffmpeg-$upstream-$key
ffmpeg=$dir/ffmpeg

# 3. Build (once per source version and flag set).
if [ ! -x "$ffmpeg" ]; then
    say "building FFmpeg $version in $dir"
    rm -rf "$dir" "$dir.tmp"
    mkdir -p "$dir.tmp"
    (cd "$dir.tmp" && apt-get source -qq "ffmpeg=$version" >/dev/null)
    src=$(find "$dir.tmp" -maxdepth 1 -mindepth 1 -type d -name 'ffmpeg-*' | head -1)
    f=$src/libavfilter/vf_libvmaf.c
    if [ "$patch" = copy_picture_data ]; then
    grep -q 'memcpy(dst_data, src_data, sizeof(\*dst_data) \* dst->w\[i\]);' "$f"
    sed -i 's/memcpy(dst_data, src_data, sizeof(\*dst_data) \* dst->w\[i\]);/memcpy(dst_data, src_data, bytes_per_value * dst->w[i]);/' "$f"
    # copy_picture_data has no bytes_per_value of its own in 5.1: derive it from bpc.
    sed -i 's/^static int copy_picture_data(AVFrame \*src, VmafPicture \*dst, unsigned bpc)$/&\n{\n    const size_t bytes_per_value = bpc > 8 ? 2 : 1;/' "$f"
    python3 - "$f" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
# The line added above opened the body; drop the original opening brace that follows it.
marker = "    const size_t bytes_per_value = bpc > 8 ? 2 : 1;\n{\n"
assert marker in s, "copy_picture_data patch did not apply"
s = s.replace(marker, "    const size_t bytes_per_value = bpc > 8 ? 2 : 1;\n", 1)
open(p, "w").write(s)
PY
    grep -q 'memcpy(dst_data, src_data, bytes_per_value \* dst->w\[i\]);' "$f"
    fi
    start=$(date +%s)
    (cd "$src" && PKG_CONFIG_PATH="$prefix/lib/pkgconfig" ./configure "${configure_flags[@]}" >"$dir.tmp/configure.log" 2>&1) \
        || { tail -40 "$dir.tmp/configure.log"; tail -40 "$src/ffbuild/config.log"; exit 1; }
    (cd "$src" && make -j"$jobs" "${targets[@]}" >"$dir.tmp/make.log" 2>&1) || { tail -40 "$dir.tmp/make.log"; exit 1; }
    end=$(date +%s)
    for t in "${targets[@]}"; do cp "$src/$t" "$dir.tmp/$t"; done
    echo $((end - start)) >"$dir.tmp/build-seconds"
    rm -rf "$src" "$dir.tmp"/ffmpeg_*
    mv "$dir.tmp" "$dir"
    say "FFmpeg built in $(cat "$dir/build-seconds") s (configure + make -j$jobs)"
else
    say "reusing $ffmpeg (built in $(cat "$dir/build-seconds" 2>/dev/null || echo '?') s)"
fi
"$ffmpeg" -hide_banner -filters 2>/dev/null | grep -q ' libvmaf ' || { say "ffmpeg lacks the libvmaf filter"; exit 1; }
if [ "${1:-}" = "--build-only" ]; then say "ffmpeg=$ffmpeg"; exit 0; fi

# 4. ldd resolves libvmaf.so.3 to the drop-in.
resolved=$(ldd "$ffmpeg" | awk '$1 == "libvmaf.so.3" {print $3}')
[ "$(readlink -f "$resolved")" = "$(readlink -f "$prefix/lib/libvmaf.so.3")" ] \
    || { say "ldd resolves libvmaf.so.3 to '$resolved', not the drop-in in $prefix/lib"; exit 1; }
say "ldd: libvmaf.so.3 => $resolved (the drop-in)"

# 5. Every clip and configuration through the filter, compared with the goldens.
start=$(date +%s)
python3 scripts/ffmpeg_libvmaf_check.py --ffmpeg "$ffmpeg" --corpus "$corpus" --out "$build_root/logs"
end=$(date +%s)
say "scoring and comparison took $((end - start)) s"

# 6. LD_LIBRARY_PATH puts another libvmaf.so.3 in front: a copy of the drop-in in another
#    directory, told apart by its path in the loader's trace of a scoring run through it
#    (without LD_LIBRARY_PATH the trace names the prefix's library instead).
alt=$build_root/alt-libvmaf
rm -rf "$alt" && mkdir -p "$alt"
cp "$prefix/lib/libvmaf.so.3.2.0" "$alt/libvmaf.so.3"
trace=$build_root/ld-debug
rm -f "$trace".*
LD_DEBUG=libs LD_DEBUG_OUTPUT=$trace python3 scripts/ffmpeg_libvmaf_check.py --ffmpeg "$ffmpeg" \
    --corpus "$corpus" --out "$build_root/logs-alt" --quick --ld-library-path "$alt"
grep -h "calling init: $alt/libvmaf.so.3" "$trace".* >/dev/null \
    || { say "LD_LIBRARY_PATH=$alt did not load $alt/libvmaf.so.3"; grep -h 'init:.*libvmaf' "$trace".*; exit 1; }
if grep -h "calling init: $prefix/lib/libvmaf.so.3" "$trace".* >/dev/null; then
    say "with LD_LIBRARY_PATH=$alt FFmpeg still loaded $prefix/lib/libvmaf.so.3"
    exit 1
fi
rm -f "$trace".*
say "LD_LIBRARY_PATH=$alt: FFmpeg scored through $alt/libvmaf.so.3"
