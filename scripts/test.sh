#!/usr/bin/env bash
# Set up (if needed), run the quality gate (lint, formats, strict types), then the whole test
# suite: engine, bots, analysis, widget (no kernel), and the end-to-end tests in a real
# Chromium against a real JupyterLab.  Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/check.sh
exec .venv/bin/python -m pytest "$@"
