#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: engine, bots, analysis, widget (no kernel),
# and the end-to-end tests in a real Chromium against a real JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
