#!/usr/bin/env bash
# Renders a vmafx HTML report in headless Chromium (Debian's `chromium` package) and keeps
# the screenshot. With no report given, it first writes one for the corpus's scenecut clip
# (scored from its x264 bitstream through ffmpeg, so it shows a decoded input).
#
#   scripts/html_screenshot.sh [REPORT.html] [OUT.png]
#
# Default output: target/html-report/report.png, plus report-small.png (256 colours, for the
# docs) where ffmpeg is present. Needs chromium (apt-get install -y chromium);
# the network is never used (the page is self-contained, and Chromium's background traffic is
# turned off).
set -euo pipefail
cd "$(dirname "$0")/.."

out_dir=target/html-report
mkdir -p "$out_dir"
report=${1:-}
shot=${2:-$out_dir/report.png}

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "error: no chromium on PATH; install it: apt-get install -y chromium" >&2
  exit 1
fi

if [ -z "$report" ]; then
  corpus=${VMAFX_CONFORMANCE:-../shared/conformance}
  clip=bbb_384x216_420p8_scenecut
  report=$out_dir/report.html
  cargo build -q -p vmafx-cli
  dis=$corpus/bitstreams/$clip.mkv
  command -v ffmpeg >/dev/null 2>&1 || dis=$corpus/${clip}_dis.y4m
  target/debug/vmafx -r "$corpus/${clip}_ref.y4m" -d "$dis" \
    -m version=vmaf_v0.6.1 -m version=vmaf_b_v0.6.3 --feature psnr --html-plot psnr_y \
    --html "$report" -q
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
  --user-data-dir="$profile" --window-size=1280,2000 \
  --screenshot="$(realpath -m "$shot")" "file://$(realpath "$report")" 2>/dev/null
test -s "$shot" || { echo "error: chromium wrote no screenshot" >&2; exit 1; }
echo "$shot"
if command -v ffmpeg >/dev/null 2>&1; then
  small="${shot%.png}-small.png"
  ffmpeg -nostdin -v error -y -i "$shot" \
    -vf "scale=iw*3/4:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=128[p];[b][p]paletteuse=dither=none" \
    "$small"
  echo "$small"
fi
