#!/bin/sh
# Builds one workspace package (run from its folder; its `build` script): src to dist with the shared
# tsconfig.build.base.json, then the Python programs beside the compiled modules that read them at run time.
set -eu
rm -rf dist
tsc -p tsconfig.build.json
find src -name '*.py' | while read -r file; do
  target="dist/${file#src/}"
  mkdir -p "$(dirname "$target")"
  cp "$file" "$target"
done
