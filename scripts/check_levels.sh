#!/usr/bin/env bash
# Every SIMD level this processor runs, proven: the kernel checker compares each table's
# entries with scalar at every level the processor has (and prints, per table, the levels it
# compared), then the conformance tests run again with the kernels capped at each lower
# level (VMAFX_CPU), so an AVX-512 machine also proves its AVX2 and scalar paths and an AVX2
# machine its scalar one. The default-level run is the README's `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every cargo command here selects the whole workspace and picks targets, so its features
# are those of the README's `cargo test --workspace` and nothing is compiled again (`-p X`
# alone would resolve other features and rebuild the engine, and the tiny-model runtime,
# once per command).
# (-q prints its progress dots on the line of the first report, hence -o.)
cargo test -q --workspace --lib -- tests::checkasm --nocapture 2>&1 | grep -oE 'checkasm: .*|test result.*'

# The engine's integration tests, by target name.
engine_tests=()
for t in $(cargo metadata --format-version 1 --no-deps | python3 -c '
import json, sys
pkg = next(p for p in json.load(sys.stdin)["packages"] if p["name"] == "vmafx")
print(" ".join(t["name"] for t in pkg["targets"] if "test" in t["kind"]))'); do
  engine_tests+=(--test "$t")
done

flags="$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)"
lower=(scalar)
case "$flags" in
  *avx512bw*) lower=(avx2 scalar) ;;
esac
if [[ "$flags" != *avx2* ]]; then
  echo "check-levels: no AVX2 here; the default run was the scalar one"
  exit 0
fi
for level in "${lower[@]}"; do
  echo "check-levels: conformance with VMAFX_CPU=$level"
  VMAFX_CPU=$level cargo test -q --workspace --test manifest_conformance --test vmaf_conformance \
    --test psnr_conformance -- --nocapture 2>&1 | grep -E 'test result|panicked|FAILED| runs \(' \
    || { echo "failed at $level" >&2; exit 1; }
  # The engine's whole suite (its conformance tests included), and the other crates' unit
  # tests with it. Tests that read the process-global import counters hold hooks::test_lock,
  # as does every test that imports, so they run in parallel here as in the README's run.
  VMAFX_CPU=$level cargo test -q --workspace --lib 2>&1 \
    | grep -E 'test result|panicked|FAILED' || { echo "failed at $level" >&2; exit 1; }
  VMAFX_CPU=$level cargo test -q --workspace "${engine_tests[@]}" 2>&1 \
    | grep -E 'test result|panicked|FAILED' || { echo "failed at $level" >&2; exit 1; }
done
