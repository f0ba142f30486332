#!/usr/bin/env bash
# The Python package's tests: a virtual environment under target/py-venv (kept between
# runs), maturin, numpy, pandas, pytest, hypothesis and dask[distributed] from PyPI, the package built
# and installed as users install it (`pip install ./python`), then pytest. The extension's
# Rust build is cached in target/py-cargo. PYTHON picks the interpreter (default python3).
# VMAFX_WHEEL=PATH tests that built wheel instead (scripts/dist.sh's: no second build).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/py-venv
python=${PYTHON:-python3}
start=$(date +%s)
# pip runs as `python -m pip`: a venv copied from another checkout keeps script shebangs
# naming the old path, and its bin/pip would install there.
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
# Installs only what is missing; a warm venv costs no download. pip runs as `python -m pip`:
# a venv copied from another checkout keeps its scripts' #! lines pointing there.
if ! "$venv/bin/python" -c "import maturin, numpy, pandas, pytest, distributed, hypothesis" 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet maturin numpy pandas pytest hypothesis "dask[distributed]"
fi
export CARGO_TARGET_DIR="$PWD/target/py-cargo"
# The extension is its own cargo workspace (PyO3 stays out of `cargo test --workspace`),
# so the workspace's fmt and clippy checks do not see it: check it here.
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --quiet --manifest-path python/Cargo.toml --all-targets -- -D warnings
if [ -n "${VMAFX_WHEEL:-}" ]; then
  "$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$VMAFX_WHEEL"
else
  "$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps ./python
fi
cd python
"../$venv/bin/python" -m pytest -q tests "$@"
echo "python tests: $(($(date +%s) - start)) s"
