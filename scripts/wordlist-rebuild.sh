# Sourced by scripts/build-wordlists.sh and scripts/build-noitu-wordlist.sh: what both rebuilds
# share (the --check flag, the temporary directory, the byte comparison). Not run on its own.
#
# After sourcing: $check is 1 with --check (exit 2 on other arguments), $tmp is a temporary
# directory removed on exit, $python the interpreter (PYTHON or python3), and pip asks nothing.

usage() { echo "usage: $0 [--check]" >&2; exit 2; }

check=0
case "${1-}" in
  "") ;;
  --check) check=1 ;;
  *) usage ;;
esac
[ $# -le 1 ] || usage

python="${PYTHON:-python3}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

# compare_built OUT DATA FILE...: prints OK or DIFFERS (saying whether only the gzip bytes
# differ) per file and exits 1 on any difference or missing file, 0 otherwise.
compare_built() {
  local out="$1" data="$2" status=0 f
  shift 2
  for f in "$@"; do
    if [ ! -f "$data/$f" ]; then
      echo "MISSING  $data/$f" >&2; status=1
    elif cmp -s "$out/$f" "$data/$f"; then
      echo "OK       $f"
    else
      status=1
      if cmp -s <(gzip -dc "$out/$f") <(gzip -dc "$data/$f"); then
        echo "DIFFERS  $f (gzip bytes differ, decompressed text identical)" >&2
      else
        echo "DIFFERS  $f (word list differs)" >&2
      fi
    fi
  done
  exit "$status"
}
