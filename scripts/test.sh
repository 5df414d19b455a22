#!/usr/bin/env bash
# Install the project with its development extras into .venv and run every check:
# ruff (lint and import order), mypy (strict, all three packages) and pytest
# (unit, property, store, end-to-end tests and the rules package's doctests), in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
.venv/bin/python -m pip install --quiet --no-deps --upgrade --target .venv/mathable-examples examples/fifteen
echo "== ruff" >&2
.venv/bin/ruff check shared server client tests bench examples
echo "== mypy" >&2
.venv/bin/mypy
echo "== pytest" >&2
# In parallel (pytest-xdist): MATHABLE_TEST_WORKERS processes, 3 by default on this 2-core
# machine (many tests wait on I/O); MATHABLE_TEST_WORKERS=0 runs them in this one.
.venv/bin/python -m pytest -n "${MATHABLE_TEST_WORKERS:-3}" "$@"
