#!/usr/bin/env bash
# Set up everything on a fresh machine: Debian's Chromium (browser tests), a Python venv
# in .venv with the package (editable) and its test and dev extras, and the JavaScript build.
# Safe to run again: a step whose result is already there is skipped. The pip steps are
# skipped while .venv/.dsa-setup-stamp is newer than pyproject.toml and this script (delete
# the stamp to force them); npm ci is skipped while node_modules matches package-lock.json.
# Only the js/ bundle (esbuild, well under a second) is rebuilt every time, since js/ may
# have changed.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "==> installing Debian's chromium (browser tests)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
command -v node >/dev/null || { echo "Node.js 20+ and npm are required (apt-get install nodejs npm)"; exit 1; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "==> npm packages (esbuild, Biome, offline copies of the widget CDN files for the static-export test, the Pyodide runtime for the JupyterLite site)"
  npm ci --no-audit --no-fund --loglevel=error
else
  echo "==> npm packages: up to date, skipped"
fi
echo "==> bundling js/ into dsa_widget/static/"
npm run --silent build

PY=${PYTHON:-python3}
STAMP=.venv/.dsa-setup-stamp
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PY" -m venv .venv
  rm -f "$STAMP"
fi
if [ -f "$STAMP" ] && [ "$STAMP" -nt pyproject.toml ] && [ "$STAMP" -nt scripts/setup.sh ]; then
  echo "==> dsa_widget[test,dev] (AI extras included) in .venv: up to date, skipped"
else
  echo "==> installing dsa_widget[test,dev] (AI extras included) into .venv"
  rm -f "$STAMP"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[test,dev]"
  .venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
  touch "$STAMP"
fi
# the checked rules compiled by mypyc (python -m dsa_widget compile): rebuilt only when
# rules.py changed since the last build (about 35 s); the plain Python rules run until then
if ! command -v cc >/dev/null 2>&1 || ! .venv/bin/python -c "import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))"; then
  echo "==> installing a C compiler and the Python headers (for the compiled rules)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcc python3-dev >/dev/null
fi
echo "==> compiling the checked rules (mypyc), if rules.py changed"
DSA_WIDGET_NO_COMPILED=1 .venv/bin/python -m dsa_widget compile --if-stale
# numba compiles on first use and caches the result: done here, a first board after set-up
# shows its hints at once instead of compiling for many seconds (python -m dsa_widget warm)
echo "==> compiling the games' numba code (a minute or two the first time, then cached)"
.venv/bin/python -m dsa_widget warm
echo "==> set up"
