#!/bin/sh
# Checks the Python programs kept as .py files (the keeper, ...): they must compile, and pyflakes must find nothing.
# Debian's interpreter runs the check, because it is the one the programs run under and the one pyflakes is
# installed for (python3-pyflakes, listed in packages/core/apt-packages.txt).
set -eu
python=${AGENT_TOOLS_KEEPER_PYTHON:-/usr/bin/python3}
for file in "$@"; do
  "$python" -c 'import sys; compile(open(sys.argv[1], encoding="utf-8").read(), sys.argv[1], "exec")' "$file"
done
if ! "$python" -c 'import pyflakes' 2>/dev/null; then
  echo "check-python: pyflakes is not installed for $python; run sh tools/scripts/install-system.sh (apt python3-pyflakes)" >&2
  exit 1
fi
"$python" -m pyflakes "$@"
