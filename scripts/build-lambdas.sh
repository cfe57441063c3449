#!/usr/bin/env bash
# Builds every function in functions/ for Lambda (arm64, provided.al2023) as a zip with
# `cargo lambda`, installing the tools it needs (cargo-lambda and zig from PyPI, the Rust arm64
# target), then prints each zip's size and fails if one is over the limit.
#
#   scripts/build-lambdas.sh            zips under target/lambda/<function>/bootstrap.zip
#   MAX_ZIP_BYTES=6291456 (default 6 MiB)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
max="${MAX_ZIP_BYTES:-6291456}"

if ! command -v cargo-lambda >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check cargo-lambda ziglang
fi
rustup target list --installed | grep -q '^aarch64-unknown-linux-gnu$' || rustup target add aarch64-unknown-linux-gnu

functions=()
for dir in functions/*/; do functions+=("$(basename "$dir")"); done
args=()
for f in "${functions[@]}"; do args+=(--bin "$f"); done
cargo lambda build --profile lambda --arm64 --output-format zip "${args[@]}"

status=0
printf '%-18s %10s\n' function zip_bytes
for f in "${functions[@]}"; do
  zip="target/lambda/$f/bootstrap.zip"
  size=$(stat -c %s "$zip")
  printf '%-18s %10d\n' "$f" "$size"
  if [ "$size" -gt "$max" ]; then
    echo "  $f: $size bytes is over the limit of $max" >&2
    status=1
  fi
done
exit $status
