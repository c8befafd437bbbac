#!/usr/bin/env bash
# Build the static JupyterLite site from examples/ into lite-site/ (a clean build every time):
# the notebooks run in the browser (Python by Pyodide), served by any static host, no server.
# Extra arguments go to scripts/lite_build.py (--out DIR: build elsewhere).
# The build runs in its own venv, build/lite-env (the package and its lite extra, made on first
# use and again when pyproject.toml or this script changes): the Pyodide kernel's front-end
# extension must not be installed where JupyterLab itself runs (.venv), whose pages it breaks.
# Needs the npm packages (bash scripts/setup.sh: npm ci brings the Pyodide runtime).
# See README.md, "Publish a playable notebook".
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules/pyodide ] || { echo "lite: node_modules/pyodide is missing: run bash scripts/setup.sh (npm ci)"; exit 1; }
[ -f dsa_widget/static/widget.js ] || npm run --silent build
ENV=build/lite-env
mkdir -p build
exec 9>build/.lite-lock
flock 9  # one build at a time: a second waits, then finds the environment made
STAMP=$ENV/.dsa-lite-stamp
if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ] || [ scripts/lite.sh -nt "$STAMP" ]; then
  echo "==> the site's build environment ($ENV: dsa_widget[lite])"
  rm -rf "$ENV"
  "${PYTHON:-python3}" -m venv "$ENV"
  "$ENV/bin/python" -m pip install -q --upgrade pip
  "$ENV/bin/python" -m pip install -q -e ".[lite]"
  touch "$STAMP"
fi
exec "$ENV/bin/python" scripts/lite_build.py "$@"
