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
# Conformance pairs (8 and 10 bits, the default model and a feature of every kernel family)
# must also log exactly as this machine's own run, on every model whose emulation can be
# trusted with this binary. qemu 7.2 (Debian 12) decodes the vector index register 4 of an
# AVX2 gather (`vpgatherqd %xmm5,(%r11,%ymm4,4),%xmm7`) as "no index", as a plain SIB would
# mean, and loads the base element into every lane: one build of VIF's scale-3 scoring
# happened to get that register and logged integer_vif_scale3 2.554 for 0.887 under
# qemu's Haswell and EPYC Milan, while the same binary was right natively at
# VMAFX_CPU=avx2 (traced instruction by instruction: every register equal up to that
# gather, whose lanes qemu left 0). So the AVX2 models' logs are compared when qemu passes
# scripts/qemu_vsib_probe.c, or when no AVX2 gather of this build indexes through xmm4 or
# ymm4 (objdump); else the script says which instruction it found and checks the level
# and the kernels only. About two minutes (qemu interprets every instruction).
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
# The models whose runs are compared with the native run's: the scalar ones always, the AVX2
# ones where qemu's gathers can be trusted with this build (see above).
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

# qemu's gathers through vector index register 4 (see above), and this build's use of them.
avx2_logs=""
if command -v cc >/dev/null && cc -O2 -o "$out/vsib_probe" scripts/qemu_vsib_probe.c \
    && qemu-x86_64 -cpu Haswell "$out/vsib_probe" >"$out/probe.txt" 2>/dev/null; then
  avx2_logs="qemu's gathers are right ($(cat "$out/probe.txt"))"
else
  [ -s "$out/probe.txt" ] && echo "check-cpu-models: qemu: $(cat "$out/probe.txt")"
  if ! command -v objdump >/dev/null; then
    echo "check-cpu-models: objdump is missing (Debian: binutils), so the AVX2 models' logs" \
      "are not compared"
  else
    objdump -d --no-show-raw-insn "$vmafx" >"$out/vmafx.s"
    index4=$(grep -E 'gather[a-z]* .*\(.*,%[xy]mm4,' "$out/vmafx.s" || true)
    if [ -z "$index4" ]; then
      avx2_logs="no AVX2 gather of this build indexes through xmm4 or ymm4"
    else
      echo "check-cpu-models: this build gathers through index register 4, which qemu" \
        "mis-decodes, so the AVX2 models' logs are not compared:" \
        "$(echo "$index4" | head -3 | tr -s '\t ' ' ' | sed 's/^ //')"
    fi
  fi
fi
if [ -n "$avx2_logs" ]; then
  echo "check-cpu-models: AVX2 models' logs compared too: $avx2_logs"
  compared+=(Haswell EPYC-Milan)
fi

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
