#!/usr/bin/env bash
# The libvmaf drop-in under a current FFmpeg and the tools people drive it with:
#
# 1. FFmpeg 7.1 from Debian trixie's source package (FFMPEG_SUITE=trixie
#    scripts/ffmpeg_libvmaf.sh: built once into target/ffmpeg-build/, with ffprobe and the
#    filters below), and the conformance corpus through its libvmaf filter, compared with
#    libvmaf's goldens as for FFmpeg 5.1 (the LD_LIBRARY_PATH check included).
# 2. ab-av1 (crates.io, its current release, `cargo install --locked --debug`, cached in
#    target/ab-av1/): `ab-av1 vmaf` (libvmaf=shortest=true:ts_sync_mode=nearest:n_threads=N
#    after format, setpts and settb; ts_sync_mode needs FFmpeg 6.1 or later) on a conformance
#    pair must print libvmaf's pooled VMAF.
# 3. ffmpeg-quality-metrics (PyPI, its current release, in a venv in target/fqm-venv/):
#    `-m vmaf psnr ssim` (settb, setpts, split, scale=rw:rh with the reference as second
#    input, which FFmpeg 7.1 added, then libvmaf beside FFmpeg's psnr and ssim filters) must
#    give libvmaf's per-frame VMAF of the pair (it rounds to 3 decimals).
#
# Both tools run `ffmpeg` and `ffprobe` from PATH: the FFmpeg 7.1 build's folder goes first.
# Usage: scripts/ffmpeg_clients.sh
# Env:   VMAFX_CONFORMANCE (default ../shared/conformance), FFMPEG_JOBS, LIBVMAF_PROFILE.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corpus=${VMAFX_CONFORMANCE:-$root/../shared/conformance}
say() { echo "ffmpeg_clients: $*"; }
export FFMPEG_SUITE=trixie

# 1. FFmpeg 7.1 and the conformance check through it.
start=$(date +%s)
ffmpeg=$(scripts/ffmpeg_libvmaf.sh --build-only | sed -n 's/^ffmpeg_libvmaf: ffmpeg=//p')
[ -x "$ffmpeg" ] && [ -x "$(dirname "$ffmpeg")/ffprobe" ] || { say "no FFmpeg 7.1 build"; exit 1; }
say "FFmpeg: $("$ffmpeg" -hide_banner -version | head -1) (ready in $(($(date +%s) - start)) s)"
scripts/ffmpeg_libvmaf.sh
export PATH=$(dirname "$ffmpeg"):$PATH

ref=$corpus/bbb_576x324_420p8_crf35_ref.y4m
dis=$corpus/bbb_576x324_420p8_crf35_dis.y4m
golden=$corpus/expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json

# 2. ab-av1.
abav1=$root/target/ab-av1/bin/ab-av1
if [ ! -x "$abav1" ]; then
    start=$(date +%s)
    # A debug build: ab-av1 only starts FFmpeg, and this compiles in a fraction of the time.
    cargo install ab-av1 --locked --debug --root "$root/target/ab-av1" --quiet
    say "ab-av1 built in $(($(date +%s) - start)) s"
fi
say "$("$abav1" --version)"
score=$("$abav1" vmaf --reference "$ref" --distorted "$dis" --vmaf-scale none)
python3 - "$golden" "$score" <<'PY'
import json, sys
want = json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"]
got = float(sys.argv[2])
# ab-av1 parses FFmpeg's "VMAF score: %f" into an f32 and prints that.
assert abs(got - want) <= 1e-4, f"ab-av1 vmaf {got} vs libvmaf's golden {want}"
print(f"ffmpeg_clients: ab-av1 vmaf {got} = libvmaf's golden {want:.6f}")
PY

# 3. ffmpeg-quality-metrics.
venv=$root/target/fqm-venv
if [ ! -x "$venv/bin/ffmpeg-quality-metrics" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q ffmpeg-quality-metrics
fi
say "ffmpeg-quality-metrics $("$venv/bin/pip" show ffmpeg-quality-metrics | awk '/^Version:/ {print $2}')"
out=$root/target/fqm-out.json
"$venv/bin/ffmpeg-quality-metrics" "$dis" "$ref" -m vmaf psnr ssim --ffmpeg-path "$ffmpeg" \
    -of json -o "$out"
python3 - "$golden" "$out" <<'PY'
import json, sys
want = [f["metrics"]["vmaf"] for f in json.load(open(sys.argv[1]))["frames"]]
got = json.load(open(sys.argv[2]))
vmaf = [f["vmaf"] for f in got["vmaf"]]
assert len(vmaf) == len(want), f"{len(vmaf)} frames vs the golden's {len(want)}"
# It prints each value rounded to 3 decimals.
bad = [(i, g, w) for i, (g, w) in enumerate(zip(vmaf, want)) if abs(g - w) > 5e-4 + 1e-9]
assert not bad, f"per-frame vmaf differs from libvmaf's golden: {bad[:5]}"
assert "psnr" in got and "ssim" in got, "psnr and ssim missing"
print(f"ffmpeg_clients: ffmpeg-quality-metrics: {len(vmaf)} per-frame VMAF = libvmaf's golden "
      f"(3 decimals); psnr and ssim from FFmpeg's filters beside it")
PY
say "done"
