#!/usr/bin/env bash
# Set up (if needed), run the quality gate (lint, formats, strict types), then the whole test
# suite: engine, bots, analysis, widget (no kernel), and the end-to-end tests in a real
# Chromium against a real JupyterLab.  Extra arguments go to pytest.
# The tests run in pytest-xdist worker processes, one a CPU (at most 4; DSA_TEST_WORKERS=N
# chooses, and -n 0 among the arguments runs them in this process); tests that share a costly
# fixture (JupyterLab, the JupyterLite site, a Ray cluster, a module's executed lesson) run on
# one worker (tests/conftest.py).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/check.sh
workers=${DSA_TEST_WORKERS:-$(nproc)}
if [ "$workers" -gt 4 ]; then workers=4; fi
exec .venv/bin/python -m pytest -n "$workers" --dist loadgroup "$@"
