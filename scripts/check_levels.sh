#!/usr/bin/env bash
# Every SIMD level this processor runs, proven: the kernel checker compares each table's
# entries with scalar at every level the processor has (and prints, per table, the levels it
# compared), then the conformance tests run again with the kernels capped at each lower
# level (VMAFX_CPU), so an AVX-512 machine also proves its AVX2 and scalar paths and an AVX2
# machine its scalar one. The default-level run is the README's `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test -q -p vmafx --lib tests::checkasm -- --nocapture 2>&1 | grep -E '^checkasm:|test result'

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
  VMAFX_CPU=$level cargo test -q -p vmafx-cli --test manifest_conformance --test vmaf_conformance \
    --test psnr_conformance -- --nocapture 2>&1 | grep -E 'test result|panicked|FAILED| runs \(' \
    || { echo "failed at $level" >&2; exit 1; }
  # The engine's whole suite (its conformance tests included).
  VMAFX_CPU=$level cargo test -q -p vmafx 2>&1 \
    | grep -E 'test result|panicked|FAILED' || { echo "failed at $level" >&2; exit 1; }
done
