#!/usr/bin/env bash
# Builds the two Debian packages into OUTDIR with dpkg-deb, from this tree's release build:
#   vmafx_<version>_<arch>.deb           the `vmafx` command, its man page and its bash, zsh
#                                        and fish completions
#   libvmaf3-vmafx_<version>_<arch>.deb  the libvmaf drop-in: libvmaf.so.3 (SONAME libvmaf.so.3)
#                                        under the multiarch library folder, libvmaf.so, the
#                                        headers and libvmaf.pc. It Provides libvmaf3 (= 3.2.0)
#                                        and libvmaf-dev, and Conflicts with / Replaces the
#                                        distribution's libvmaf3 and libvmaf-dev: a
#                                        distribution's FFmpeg linked against libvmaf.so.3 then
#                                        scores with vmafx (docs/C.md).
#
# Usage: scripts/deb.sh OUTDIR
# Env:   DEB_PROFILE (default release): the cargo profile the binaries come from.
#        DEB_TARGET (default: this machine's): a Rust target triple to cross-build for; only
#        aarch64-unknown-linux-gnu (arm64 packages) is known, with the toolchain of
#        scripts/aarch64_toolchain.sh in the environment (RUSTC, linker, QEMU).
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
profile=${DEB_PROFILE:-release}
case $profile in dev) dir=debug ;; *) dir=$profile ;; esac

# The tools that read and strip the binaries, how to run them (the man page and completions
# come from the program itself), and Debian's names for the architecture.
case ${DEB_TARGET:-} in
    "")
        target_args=() tools="" run=""
        arch=$(dpkg --print-architecture)
        multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
        ;;
    aarch64-unknown-linux-gnu)
        target_args=(--target "$DEB_TARGET") dir=$DEB_TARGET/$dir tools=aarch64-linux-gnu-
        run=${QEMU:?DEB_TARGET=aarch64-unknown-linux-gnu needs scripts/aarch64_toolchain.sh sourced}
        arch=arm64 multiarch=aarch64-linux-gnu
        ;;
    *) echo "deb.sh: no Debian architecture known for DEB_TARGET=$DEB_TARGET" >&2; exit 2 ;;
esac

cargo build --quiet --profile "$profile" "${target_args[@]}" -p vmafx-cli -p vmafx-libvmaf
bin=target/$dir/vmafx
lib=target/$dir/libvmaf.so
version=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]=="vmafx-cli"))')

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The newest glibc symbol version a binary needs: its libc6 dependency.
glibc_of() {
    "${tools}objdump" -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1
}

copyright() {
    install -d "$1/usr/share/doc/$2"
    {
        echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
        echo "Upstream-Name: vmafx"
        echo
        echo "Files: *"
        echo "License: BSD-2-Clause-Patent"
        echo
        sed 's/^$/./; s/^/ /' LICENSE
        echo
        echo "Files: models/*"
        echo "Comment: libvmaf's model files (Netflix), built into the library"
        echo "License: BSD-2-Clause-Patent"
        echo
        sed 's/^$/./; s/^/ /' crates/vmafx/models/LICENSE-vmaf-models.BSD-2-Clause-Patent
    } > "$1/usr/share/doc/$2/copyright"
    gzip -9n -c CHANGELOG.md > "$1/usr/share/doc/$2/changelog.gz"
}

control() { # DIR PACKAGE DEPENDS DESCRIPTION EXTRA-FIELDS
    local size
    size=$(du -sk --exclude=DEBIAN "$1" | cut -f1)
    install -d "$1/DEBIAN"
    {
        echo "Package: $2"
        echo "Version: $version"
        echo "Architecture: $arch"
        echo "Maintainer: vmafx developers <vmafx@localhost>"
        echo "Installed-Size: $size"
        echo "Depends: $3"
        [ -z "$5" ] || printf '%s\n' "$5"
        echo "Section: video"
        echo "Priority: optional"
        echo "Description: $4"
    } > "$1/DEBIAN/control"
}

# 1. vmafx: the command.
p=$stage/vmafx
install -D -m 0755 "$bin" "$p/usr/bin/vmafx"
"${tools}strip" --strip-unneeded "$p/usr/bin/vmafx"
install -d "$p/usr/share/man/man1" "$p/usr/share/bash-completion/completions" \
    "$p/usr/share/zsh/vendor-completions" "$p/usr/share/fish/vendor_completions.d"
$run "$bin" man | gzip -9n > "$p/usr/share/man/man1/vmafx.1.gz"
$run "$bin" completions bash > "$p/usr/share/bash-completion/completions/vmafx"
$run "$bin" completions zsh > "$p/usr/share/zsh/vendor-completions/_vmafx"
$run "$bin" completions fish > "$p/usr/share/fish/vendor_completions.d/vmafx.fish"
copyright "$p" vmafx
control "$p" vmafx "libc6 (>= $(glibc_of "$bin")), libgcc-s1" \
    "video quality scores exactly as libvmaf computes them
 vmafx scores a distorted video against its reference with VMAF and its
 features, bit-exact with Netflix's libvmaf 3.2, and takes the options of
 libvmaf's vmaf tool. Compressed input is read through ffmpeg when present." \
    "Suggests: ffmpeg"
dpkg-deb --root-owner-group --build "$p" "$out/vmafx_${version}_${arch}.deb" >/dev/null

# 2. libvmaf3-vmafx: the drop-in library with its development files.
p=$stage/libvmaf3-vmafx
libdir=$p/usr/lib/$multiarch
install -D -m 0644 "$lib" "$libdir/libvmaf.so.3.2.0"
"${tools}strip" --strip-unneeded "$libdir/libvmaf.so.3.2.0"
ln -s libvmaf.so.3.2.0 "$libdir/libvmaf.so.3"
ln -s libvmaf.so.3 "$libdir/libvmaf.so"
install -d "$p/usr/include/libvmaf" "$p/usr/include/vmafx" "$libdir/pkgconfig"
install -m 0644 crates/vmafx-libvmaf/include/libvmaf/*.h "$p/usr/include/libvmaf/"
install -m 0644 crates/vmafx-capi/include/vmafx/*.h "$p/usr/include/vmafx/"
install -m 0644 crates/vmafx-libvmaf/include/vmafx/libvmaf_frame_bridge.h "$p/usr/include/vmafx/"
cat > "$libdir/pkgconfig/libvmaf.pc" <<PC
prefix=/usr
libdir=\${prefix}/lib/$multiarch
includedir=\${prefix}/include

Name: libvmaf
Description: libvmaf's C API on the vmafx engine (drop-in libvmaf.so.3)
Version: 3.2.0
Libs: -L\${libdir} -lvmaf
Libs.private: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
Cflags: -I\${includedir} -I\${includedir}/libvmaf
PC
copyright "$p" libvmaf3-vmafx
install -d "$p/DEBIAN"
printf 'activate-noawait ldconfig\n' > "$p/DEBIAN/triggers"
control "$p" libvmaf3-vmafx "libc6 (>= $(glibc_of "$lib")), libgcc-s1" \
    "libvmaf 3.2 drop-in (libvmaf.so.3) on the vmafx engine
 libvmaf's C API, ABI-compatible with Netflix's libvmaf.so.3, scoring with
 vmafx: programs linked against libvmaf.so.3 (FFmpeg's libvmaf filter among
 them) score with vmafx unchanged. Includes the headers and libvmaf.pc, and
 VMAFx's C ABI (libvmafx's functions) in the same library." \
    "Provides: libvmaf3 (= 3.2.0), libvmaf-dev (= 3.2.0)
Conflicts: libvmaf3, libvmaf-dev
Replaces: libvmaf3, libvmaf-dev
Multi-Arch: same"
dpkg-deb --root-owner-group --build "$p" "$out/libvmaf3-vmafx_${version}_${arch}.deb" >/dev/null
ls -1 "$out"/*.deb
