#!/usr/bin/env bash
# Builds the Python package into a virtual environment under target/ (made once) and runs its
# tests against the `retest` command built beside it. Needs python3 (≥ 3.9) with venv, and the
# package registry for maturin, numpy, polars and pytest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The data mirror, as the justfile finds it: the whole-run tests need it.
export RETEST_DATA_DIR="${RETEST_DATA_DIR:-$root/../shared/data}"
venv=$root/target/python-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$root/python[test]"
cargo build --quiet --release --locked -p retest-cli
RETEST_BIN=$root/target/release/retest "$venv/bin/python" -m pytest -q "$root/python/tests"
