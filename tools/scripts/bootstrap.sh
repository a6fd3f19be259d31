#!/bin/sh
# Installs the project on a machine with Node.js 20: pnpm 10, the workspace's npm packages, and a build.
set -eu
cd "$(dirname "$0")/../.."
if ! pnpm --version 2>/dev/null | grep -q '^10\.'; then
  npm install -g pnpm@10.34.9
fi
pnpm install --frozen-lockfile
pnpm build
