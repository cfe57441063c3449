#!/usr/bin/env bash
# Builds every function (each binary of the functions crate) for Lambda (arm64, provided.al2023)
# as a zip with `cargo lambda`, installing the tools it needs (cargo-lambda and zig from PyPI, the Rust arm64
# target), and the lexicon layer (the word graphs as files, see infra/template.yaml), then prints
# each zip's size and fails if one is over the limit.
#
#   scripts/build-lambdas.sh            zips under target/lambda/<function>/bootstrap.zip,
#                                       the layer in target/lambda/lexicon-layer/ (and its .zip)
#   MAX_ZIP_BYTES=7500000 (default: 7.5 MB, for each function zip and the layer zip)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
max="${MAX_ZIP_BYTES:-7500000}"

# Each tool is checked for itself: the cargo-lambda binary, and zig as the Python module that
# cargo lambda runs (`python3 -m ziglang`) when no zig binary is on PATH.
pip_install() { python3 -m pip install --quiet --disable-pip-version-check "$@"; }
command -v cargo-lambda >/dev/null 2>&1 || pip_install cargo-lambda
command -v zig >/dev/null 2>&1 || python3 -c 'import ziglang' >/dev/null 2>&1 || pip_install ziglang
rustup target list --installed | grep -q '^aarch64-unknown-linux-gnu$' || rustup target add aarch64-unknown-linux-gnu

functions=()
for bin in functions/src/bin/*.rs; do functions+=("$(basename "$bin" .rs)"); done
args=()
for f in "${functions[@]}"; do args+=(--bin "$f"); done
# One cargo invocation for every function; --timings leaves its report in
# target/cargo-timings/cargo-timing.html (which crate took how long, and how parallel it ran).
cargo lambda build --release --arm64 --output-format zip --timings "${args[@]}"

# The lexicon layer: this build's graphs, mounted by Lambda at /opt/lexicon (LEXICON_DIR), and the
# RDS certificate authorities at /opt/certs/rds-ca.pem (DB_CA_FILE in Profile small). SAM zips
# the directory on deploy; the zip here is the same content, to measure it.
layer=target/lambda/lexicon-layer
rm -rf "$layer" "$layer.zip"
cargo run --quiet --locked -p wordgame -- graphs --out "$layer/lexicon" >/dev/null
mkdir -p "$layer/certs"
gzip -dc infra/certs/rds-ca.pem.gz > "$layer/certs/rds-ca.pem"
python3 - "$layer" <<'PY'
import os, sys, zipfile
root = sys.argv[1]
with zipfile.ZipFile(root + ".zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for folder in ("lexicon", "certs"):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            z.write(os.path.join(root, folder, name), folder + "/" + name)
PY

status=0
report() {
  local name="$1" zip="$2" size
  size=$(stat -c %s "$zip")
  printf '%-18s %10d\n' "$name" "$size"
  if [ "$size" -gt "$max" ]; then
    echo "  $name: $size bytes is over the limit of $max" >&2
    status=1
  fi
}
printf '%-18s %10s\n' zip bytes
for f in "${functions[@]}"; do report "$f" "target/lambda/$f/bootstrap.zip"; done
report "lexicon-layer" "$layer.zip"
exit $status
