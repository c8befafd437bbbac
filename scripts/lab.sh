#!/usr/bin/env bash
# Set up (if needed) and open JupyterLab on the example notebook.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/jupyter lab examples/play.ipynb "$@"
