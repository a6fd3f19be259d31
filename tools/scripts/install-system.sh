#!/bin/sh
# Installs the Debian packages the tests need (each package lists its own in apt-packages.txt), skipping the
# ones already present, then installs the project itself. Runs as root, or with sudo.
set -eu
cd "$(dirname "$0")/../.."
wanted=$(cat packages/*/apt-packages.txt tools/*/apt-packages.txt 2>/dev/null | sed 's/#.*//' | tr -s ' \t\n' '\n' | sort -u)
missing=""
for pkg in $wanted; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $pkg"
  fi
done
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing Debian packages:$missing"
  $sudo apt-get update
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi
sh tools/scripts/bootstrap.sh
