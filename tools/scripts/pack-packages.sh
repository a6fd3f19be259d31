#!/bin/sh
# Packs the published packages (packages/*, never the private tools/*) into packs/, one tarball each, as
# `changeset publish` would publish them: `workspace:` ranges become versions. Needs a build (bootstrap.sh makes one).
set -eu
cd "$(dirname "$0")/../.."
for dir in packages/*/; do
  if [ ! -f "${dir}dist/index.js" ]; then
    echo "pack-packages: ${dir} has no build; run pnpm build first" >&2
    exit 1
  fi
done
rm -rf packs
mkdir packs
pnpm -r --filter './packages/*' pack --pack-destination "$PWD/packs" > /dev/null
echo "Packed into $PWD/packs:"
ls packs
