#!/usr/bin/env bash
# Set up everything on a fresh machine: Debian's Chromium (browser tests), a Python venv
# in .venv with the package (editable) and its test extras, and the JavaScript build.
# Safe to run again: each step is skipped when already done.
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

echo "==> npm packages (esbuild, offline copies of the widget CDN files for the static-export test)"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "==> bundling js/ into dsa_widget/static/"
npm run --silent build

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PY" -m venv .venv
fi
echo "==> installing dsa_widget[test] into .venv"
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
.venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
echo "==> set up"
