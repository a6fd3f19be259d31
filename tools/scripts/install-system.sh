#!/bin/sh
# Installs Debian packages, skipping the ones already present, then installs the project itself (bootstrap.sh).
# Runs as root, or with sudo.
#   install-system.sh           what the tests need: every package's apt-packages.txt (the README's second command)
#   install-system.sh --demo    only what `pnpm demo` needs: tools/agent-tools/demo-apt-packages.txt (its first)
#   --list                      prints the Debian packages wanted and stops
set -eu
cd "$(dirname "$0")/../.."
lists="packages/*/apt-packages.txt tools/*/apt-packages.txt"
only_list=false
for arg in "$@"; do
  case "$arg" in
    --demo) lists="tools/agent-tools/demo-apt-packages.txt" ;;
    --list) only_list=true ;;
    *) echo "install-system.sh: unknown option $arg (use --demo, --list)" >&2; exit 2 ;;
  esac
done
# shellcheck disable=SC2086
wanted=$(cat $lists 2>/dev/null | sed 's/#.*//' | tr -s ' \t\n' '\n' | sed '/^$/d' | sort -u)
if $only_list; then
  printf '%s\n' "$wanted"
  exit 0
fi
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
