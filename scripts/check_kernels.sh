#!/usr/bin/env bash
# The check-kernels mode on one conformance clip: every extractor with SIMD kernels runs
# beside its scalar twin (VMAFX_CHECK_KERNELS=1) and the run stops at the first score
# that differs in any bit; the integer features must also match libvmaf's log at six
# decimals. About half a minute once the CLI is built. See docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${VMAFX_CONFORMANCE:-../shared/conformance}"
clip="${1:-bbb_576x324_420p8_crf35}"
out="$(mktemp -d)/check_kernels.json"
# The CLI as the README's `cargo test --workspace` built it (same features: no second build).
cargo test -q --workspace --no-run
VMAFX_CHECK_KERNELS=1 target/debug/vmafx -r "$corpus/${clip}_ref.y4m" -d "$corpus/${clip}_dis.y4m" \
  -n --feature vif=debug=true --feature adm=debug=true --feature motion=debug=true \
  --json -o "$out" -q
python3 - "$out" "$corpus/expected/$clip.integer_features_debug.json" <<'PY'
import json, sys
got, want = (json.load(open(p))["frames"] for p in sys.argv[1:3])
assert len(got) == len(want), (len(got), len(want))
n = 0
for g, w in zip(got, want):
    for k, v in w["metrics"].items():
        assert k in g["metrics"], (g["frameNum"], k)
        assert f"{g['metrics'][k]:.6f}" == f"{v:.6f}", (g["frameNum"], k, g["metrics"][k], v)
        n += 1
print(f"check-kernels: {len(got)} frames, {n} values, scalar and SIMD identical, libvmaf's at 6 decimals")
PY
