#!/usr/bin/env bash
# Runs docs/C.md's commands as written: each ```sh block marked `<!-- c_docs.sh runs this
# block -->`, in order, from the repository root, with /opt/vmafx pointing at a prefix under
# target/c-docs/, ../shared/conformance at the corpus, and the programs built into
# target/c-docs/ (not the working tree). A `# vmaf_v0.6.1: ...` or `# 3.2.0` comment in a block
# is output the block must print. Then what the text around the blocks says: the installed
# layout, the SONAME, a static link without libvmaf.so, the bridge header compiling on its own,
# and libvmafx's example linked against the drop-in.
#
# Cost: LIBVMAF_PROFILE defaults to dev here (the libraries .ci/run's earlier steps built);
# the compiles and runs take seconds once those exist.
# Env: VMAFX_CONFORMANCE (default ../shared/conformance).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpus=${VMAFX_CONFORMANCE:-$root/../shared/conformance}
work=$root/target/c-docs
prefix=$work/prefix
rm -rf "$work" && mkdir -p "$work"
export LIBVMAF_PROFILE=${LIBVMAF_PROFILE:-dev}
say() { echo "c_docs: $*"; }

# The marked blocks, one file each.
awk -v dir="$work" '
  /<!-- c_docs.sh runs this block -->/ { armed = 1; next }
  armed && /^```sh/ { n++; out = sprintf("%s/block%d.sh", dir, n); inside = 1; armed = 0; next }
  inside && /^```/ { inside = 0; close(out); next }
  inside { print > out }
' docs/C.md
blocks=("$work"/block*.sh)
[ ${#blocks[@]} -ge 4 ] || { say "found ${#blocks[@]} marked blocks in docs/C.md, expected 4"; exit 1; }

# Each block runs in a shell of its own: the export of the "Build against it" block holds for
# the blocks after it, as it would in the reader's shell.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
for b in $(ls "$work"/block*.sh | sort -V); do
  sed -i -e "s|/opt/vmafx|$prefix|g" -e "s|\.\./shared/conformance|$corpus|g" \
    -e "s|-o \([a-z_0-9]*\)\$|-o $work/\1|" -e "s|^\./\([a-z_0-9]*\) |$work/\1 |" "$b"
  say "running $(basename "$b"):"; sed 's/^/    /' "$b"
  out=$(bash -euo pipefail -c "source '$b'" 2>&1) || { echo "$out"; say "$(basename "$b") failed"; exit 1; }
  echo "$out" | sed 's/^/    > /'
  # Output the block announces in a comment.
  { grep -o '# \(vmaf_v0\.6\.1: [0-9.]*\|[0-9]\.[0-9]\.[0-9]\)$' "$b" || true; } | cut -c3- | while read -r want; do
    grep -qxF "$want" <<<"$out" || { say "$(basename "$b") did not print '$want'"; exit 1; }
  done
done

want=$(python3 -c 'import json,sys; print("vmaf_v0.6.1: %.6f" % json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"])' \
  "$corpus/expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json")
grep -qF "# $want" docs/C.md || { say "docs/C.md does not show libvmaf's '$want'"; exit 1; }
pair=("$corpus/bbb_576x324_420p8_crf35_ref.y4m" "$corpus/bbb_576x324_420p8_crf35_dis.y4m")

# The layout the document lists.
for f in lib/libvmaf.so.3.2.0 lib/libvmaf.so.3 lib/libvmaf.so lib/libvmaf.a lib/pkgconfig/libvmaf.pc \
  include/libvmaf/libvmaf.h include/libvmaf/model.h include/libvmaf/picture.h \
  include/libvmaf/feature.h include/libvmaf/version.h include/vmafx/libvmaf_frame_bridge.h \
  include/vmafx/vmafx.h; do
  [ -e "$prefix/$f" ] || { say "the install lacks $f"; exit 1; }
done
readelf -d "$prefix/lib/libvmaf.so.3.2.0" | grep -q 'SONAME.*\[libvmaf\.so\.3\]' \
  || { say "libvmaf.so.3.2.0 has no SONAME libvmaf.so.3"; exit 1; }

# The static link: no libvmaf.so needed, and it scores.
! ldd "$work/libvmaf_score" | grep -q libvmaf || { say "the static link still needs libvmaf.so"; exit 1; }
[ "$("$work/libvmaf_score" "${pair[@]}")" = "$want" ] || { say "the static libvmaf_score scored otherwise"; exit 1; }

# The bridge header compiles with the installed headers alone.
printf '#include <vmafx/libvmaf_frame_bridge.h>\nint main(void) { return 0; }\n' >"$work/bridge.c"
cc -std=c11 -Wall -Werror $(pkg-config --cflags libvmaf) -c "$work/bridge.c" -o "$work/bridge.o"

# libvmafx's example against the drop-in, as the text says.
cc crates/vmafx-capi/examples/score_y4m.c $(pkg-config --cflags --libs libvmaf) \
  -Wl,-rpath,"$prefix/lib" -o "$work/score_y4m_libvmaf"
ldd "$work/score_y4m_libvmaf" | grep -q "libvmaf.so.3 => $prefix/lib/libvmaf.so.3" \
  || { say "score_y4m does not load the drop-in"; exit 1; }
[ "$("$work/score_y4m_libvmaf" "${pair[@]}")" = "$want" ] || { say "score_y4m on libvmaf.so.3 scored otherwise"; exit 1; }

# The shared-library variant of the libvmafx example.
cc crates/vmafx-capi/examples/score_y4m.c -I crates/vmafx-capi/include -L target/debug -lvmafx_capi \
  -Wl,-rpath,"$PWD/target/debug" -o "$work/score_y4m_shared"
[ "$("$work/score_y4m_shared" "${pair[@]}")" = "$want" ] || { say "score_y4m (shared) scored otherwise"; exit 1; }
say "every command of docs/C.md's marked blocks ran; each program printed '$want'"
