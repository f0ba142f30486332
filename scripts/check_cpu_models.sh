#!/usr/bin/env bash
# The CLI on processors this machine is not. qemu-x86_64 (user mode) presents each CPU model
# below to the program, so the level vmafx detects is that model's: no AVX at all (Nehalem),
# AVX without AVX2 (Sandy Bridge), and AVX2 without AVX-512 on Intel (Haswell) and AMD
# (EPYC Milan, Zen 3: the kind of machine most users score on). For each model,
# `vmafx --version` must name the level expected of it, and the level tests and the kernel
# checker (every table the model runs against scalar; it names, per table, the levels it
# compared) must pass with the model's CPUID. What VMAFX_CPU forces on this machine
# (scripts/check_levels.sh), this proves from the processor's own CPUID, as a user's machine
# reports it.
#
# On the scalar models, conformance pairs (8 and 10 bits, the default model and a feature
# of every kernel family) must also log exactly as this machine's own run. Not on the AVX2
# ones: qemu 7.2's emulation of AVX2 is not to be trusted with whole runs. One build of an
# unchanged tree (non-incremental, as CI builds) scored integer_vif_scale3 2.554 for 0.887
# under qemu's Haswell and EPYC Milan, while the same binary gave libvmaf's values natively
# at VMAFX_CPU=avx2 (robust to the heap's placement and fill) and its kernel checker passed
# under qemu; an incremental build of the same tree logged identically under qemu. About
# two minutes (qemu interprets every instruction).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${VMAFX_CONFORMANCE:-../shared/conformance}"
command -v qemu-x86_64 >/dev/null || { echo "check-cpu-models: qemu-x86_64 is missing (Debian: qemu-user)" >&2; exit 1; }
if [ "$(uname -m)" != x86_64 ]; then
  echo "check-cpu-models: not an x86-64 machine; nothing to check"
  exit 0
fi
# The CLI and the engine's unit tests as the README's `cargo test --workspace` built them
# (same features: no second build).
lib_tests=$(cargo test -q --workspace --lib --no-run --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "vmafx" \
            and m["profile"]["test"] and m.get("executable"):
        print(m["executable"])')
cargo test -q --workspace --no-run
vmafx=target/debug/vmafx

# model:expected detected level
models=(Nehalem:scalar SandyBridge:scalar Haswell:avx2 EPYC-Milan:avx2)
# The models whose runs are compared with the native run's (see above).
compared=(Nehalem SandyBridge)
# A feature of every kernel family besides the model's vif, adm and motion (psnr, psnr_hvs,
# iqa, float_vif and float_conv, cambi, speed). Not float_adm: its divisions take the
# processor's own `rcpss` estimate, as libvmaf's do (vendors differ in it), and qemu computes
# an exact reciprocal that no processor gives. Not ciede (no SIMD table; two minutes under
# qemu).
features=(psnr psnr_hvs float_ssim float_vif float_motion cambi speed_temporal)
pairs=(bbb_576x324_420p8_crf35 bbb_384x216_420p10_crf35)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
score() { # CPU-model-or-native pair log
  local runner=()
  [ "$1" = native ] || runner=(qemu-x86_64 -cpu "$1")
  "${runner[@]}" "$vmafx" -r "$corpus/$2_ref.y4m" -d "$corpus/$2_dis.y4m" "${features[@]/#/--feature=}" \
    --json -o "$3" -q 2>"$out/stderr" || { cat "$out/stderr" >&2; return 1; }
}
same_log() { # a b: identical but for fps
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for log in (a, b):
    log.pop("fps", None)
if a != b:
    frames = [x["frameNum"] for x, y in zip(a["frames"], b["frames"]) if x != y]
    sys.exit(f"logs differ (frames {frames[:10]}, pooled same: {a.get('pooled_metrics') == b.get('pooled_metrics')})")
PY
}

for pair in "${pairs[@]}"; do
  score native "$pair" "$out/native_$pair.json"
done
for entry in "${models[@]}"; do
  model=${entry%%:*} want=${entry#*:}
  got=$(qemu-x86_64 -cpu "$model" "$vmafx" --version 2>/dev/null | sed -n 's/.*detected: \([a-z0-9]*\)).*/\1/p')
  if [ "$got" != "$want" ]; then
    echo "check-cpu-models: $model: detected level '$got', expected $want" >&2
    exit 1
  fi
  # The level tests and the kernel checker (every table the model runs against scalar; it
  # names, per table, the levels it compared) with the model's CPUID.
  (cd crates/vmafx && qemu-x86_64 -cpu "$model" "$lib_tests" -q cpu:: tests::checkasm \
    tests::kernel_tables 2>&1 | grep -E 'test result: ok' >/dev/null) \
    || { echo "check-cpu-models: $model: the level tests or the kernel checker failed" >&2; exit 1; }
  if [[ " ${compared[*]} " != *" $model "* ]]; then
    echo "check-cpu-models: $model: detected $want; level tests and kernel checker pass"
    continue
  fi
  for pair in "${pairs[@]}"; do
    score "$model" "$pair" "$out/$model.json"
    same_log "$out/native_$pair.json" "$out/$model.json" \
      || { echo "check-cpu-models: $model ($want): $pair differs from the native run" >&2; exit 1; }
  done
  echo "check-cpu-models: $model: detected $want; level tests and kernel checker pass;" \
    "${#pairs[@]} pairs, vmaf and ${#features[@]} features, logs identical to the native run"
done
