#!/usr/bin/env bash
# The quality gate, run before the tests (scripts/test.sh) and in CI: lint and format of the
# Python and the JavaScript, strict types, and the rule that only a game's rules module
# touches its state's private fields.  Expects scripts/setup.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "==> ruff check (E, F, W, I, B, UP, SIM)"
.venv/bin/ruff check .
echo "==> ruff format --check"
.venv/bin/ruff format --check .
echo "==> mypy --strict dsa_widget"
.venv/bin/mypy
echo "==> biome (js/)"
npm run --silent lint
echo "==> private fields stay in the rules modules"
.venv/bin/python scripts/check_privates.py
