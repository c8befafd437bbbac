#!/usr/bin/env bash
# Set up (if needed) and open JupyterLab on the example notebook.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
extra=()
if [ "$(id -u)" = 0 ]; then extra+=(--allow-root); fi   # JupyterLab refuses root without it
exec .venv/bin/jupyter lab "${extra[@]}" examples/play.ipynb "$@"
