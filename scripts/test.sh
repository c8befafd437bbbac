#!/usr/bin/env bash
# Set up (if needed), run the quality gate (lint, formats, strict types), then the whole test
# suite: engine, bots, analysis, widget (no kernel), and the end-to-end tests in a real
# Chromium against a real JupyterLab.  Extra arguments go to pytest.
# The tests run in two pytest-xdist workers on a machine with two or more CPUs (one process on
# one CPU; DSA_TEST_WORKERS=N sets the number, 1 runs them in this process).  Tests that share a
# costly fixture (JupyterLab, the JupyterLite site, a Ray cluster, a module's executed lesson)
# run on one worker (--dist loadgroup, tests/conftest.py), so each is built once.  The test
# extra pins pytest below 9.2: 9.2 with pytest-xdist 3.8 silently drops the groups
# (pytest-dev/pytest-xdist#1386), and conftest.py refuses to run them that way.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then default_workers=2; else default_workers=1; fi
workers=${DSA_TEST_WORKERS:-$default_workers}
case "$workers" in
  '' | *[!0-9]*) echo "DSA_TEST_WORKERS must be a whole number (1: one process), not '$workers'" >&2; exit 2 ;;
esac
bash scripts/setup.sh
bash scripts/check.sh
if [ "$workers" -le 1 ]; then exec .venv/bin/python -m pytest "$@"; fi
exec .venv/bin/python -m pytest -n "$workers" --dist loadgroup "$@"
