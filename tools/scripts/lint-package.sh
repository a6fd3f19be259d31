#!/bin/sh
# Lints one workspace package (run from its folder; its `lint` script): Biome (rules and import order) on src and
# test, the Python programs under src (compile + pyflakes), and a published package's manifest (publint). Arguments
# are modules the published types must not import (check-public-types.mjs).
set -eu
scripts=$(dirname "$0")
folders=src
if [ -d test ]; then folders="src test"; fi
# shellcheck disable=SC2086
biome check $folders
python=$(find src -name '*.py')
if [ -n "$python" ]; then
  # shellcheck disable=SC2086
  sh "$scripts/check-python.sh" $python
fi
if ! grep -q '"private": true' package.json; then
  publint --strict
fi
if [ "$#" -gt 0 ]; then
  node "$scripts/check-public-types.mjs" "$@"
fi
