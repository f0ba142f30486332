#!/usr/bin/env bash
# The README's Rust snippet, built as a newcomer builds it: a new crate (its own workspace)
# whose main.rs and Cargo.toml are the README's marked blocks, depending on this checkout's
# crates/vmafx by path, built in cargo's default (debug) profile with the README's
# `[profile.dev.package.vmafx] opt-level = 3`, then run on the corpus's 576x324 pair; it must
# print libvmaf's pooled score from the golden log (the README states the same number).
#
# The crate and its build are cached in target/readme-snippet/ (the first build compiles
# vmafx again, a few minutes; a rebuild after a change to vmafx, less).
# Env: VMAFX_CONFORMANCE (default ../shared/conformance).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpus=${VMAFX_CONFORMANCE:-$root/../shared/conformance}
work=target/readme-snippet
mkdir -p "$work/crate/src"

# The block after `<!-- readme-snippet: NAME ... -->`, between its ``` fences.
block() {
  awk -v name="$1" '
    index($0, "<!-- readme-snippet: " name) == 1 { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }
  ' README.md
}
block main.rs > "$work/crate/src/main.rs.new"
block Cargo.toml > "$work/crate/deps.toml"
[ -s "$work/crate/src/main.rs.new" ] && [ -s "$work/crate/deps.toml" ] || {
  echo "error: README.md lacks a marked main.rs or Cargo.toml snippet" >&2
  exit 1
}
# Only rewrite main.rs when it changed, so a warm cache does not rebuild.
cmp -s "$work/crate/src/main.rs.new" "$work/crate/src/main.rs" 2>/dev/null \
  || mv "$work/crate/src/main.rs.new" "$work/crate/src/main.rs"
rm -f "$work/crate/src/main.rs.new"
# The README's dependency, its path pointed at this checkout.
grep -q '^vmafx = { path = "' "$work/crate/deps.toml" || {
  echo "error: the README's Cargo.toml snippet does not depend on vmafx by path" >&2
  exit 1
}
{
  printf '[package]\nname = "readme-snippet"\nversion = "0.1.0"\nedition = "2021"\n\n'
  sed "s|^vmafx = { path = \"[^\"]*\"|vmafx = { path = \"$root/crates/vmafx\"|" "$work/crate/deps.toml"
  # Its own workspace root, not a member of this one.
  printf '\n[workspace]\n'
} > "$work/crate/Cargo.toml.new"
cmp -s "$work/crate/Cargo.toml.new" "$work/crate/Cargo.toml" 2>/dev/null \
  || mv "$work/crate/Cargo.toml.new" "$work/crate/Cargo.toml"
rm -f "$work/crate/Cargo.toml.new"
# The workspace's lock pins the same dependency versions (cargo drops what is unused).
[ -f "$work/crate/Cargo.lock" ] || cp Cargo.lock "$work/crate/Cargo.lock"

export CARGO_TARGET_DIR=$root/$work/target
start=$(date +%s)
cargo build --quiet --manifest-path "$work/crate/Cargo.toml"
built=$(date +%s)
got=$("$CARGO_TARGET_DIR/debug/readme-snippet" \
  "$corpus/bbb_576x324_420p8_crf35_ref.y4m" "$corpus/bbb_576x324_420p8_crf35_dis.y4m")
ran=$(date +%s)
want=$(python3 -c 'import json,sys; print("vmaf_v0.6.1: %.6f" % json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"])' \
  "$corpus/expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json")
echo "README snippet: $got (build $((built - start)) s, run $((ran - built)) s)"
[ "$got" = "$want" ] || { echo "error: the README snippet printed '$got', libvmaf '$want'" >&2; exit 1; }
grep -qF "prints \`$want\`" README.md || {
  echo "error: the README does not state the snippet's output, \`$want\`" >&2
  exit 1
}
