#!/usr/bin/env bash
# Service benchmark: submit-move throughput and latency through the local gateway against a
# local PostgreSQL (`wordgame loadtest`: two-human games, each side submitting its top play),
# then pgbench (TPC-B-like) on the same server, in the same run. Loopback only. The load runs
# twice: with a hint request before every submit (`--moves hint`), and with the top play chosen
# by the engine inside the load client, blanks held back while it can (`--moves local`, submits
# only).
#
#   scripts/bench-service.sh [CLIENTS] [SECONDS]      (defaults: 16 clients, 20 s each)
#
# SERVE_ARGS adds arguments to `wordgame serve`: `SERVE_ARGS="--connections 2 --in-flight 1"`
# measures the Lambda configuration (a pool of 2 connections an instance, one request at a time).
# SERVE_BIN runs another build's `wordgame` as the gateway (the load client stays this build's),
# to compare two builds in one session.
set -euo pipefail
clients="${1:-16}"
seconds="${2:-20}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$bin" ] || bin="$(dirname "$(command -v initdb)")"
as_pg=()
if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); fi

work="$(mktemp -d /tmp/wordgame-bench.XXXXXX)"
port=$((20000 + RANDOM % 20000))
gw_port=$((40000 + RANDOM % 10000))
[ "$(id -u)" = 0 ] && chown postgres "$work"
cleanup() {
  [ -n "${serve_pid:-}" ] && kill -INT "$serve_pid" 2>/dev/null || true
  "${as_pg[@]}" "$bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

cargo build --release --quiet --bin wordgame
"${as_pg[@]}" "$bin/initdb" -D "$work/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -w -D "$work/data" -l "$work/data/log" \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $work/data -c max_connections=200" start >/dev/null
"$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres wordgame
"$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres pgbench

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; PostgreSQL $("$bin/postgres" --version | awk '{print $3}')"
DATABASE_URL="postgres://postgres@127.0.0.1:$port/wordgame" RUST_LOG=warn "${SERVE_BIN:-target/release/wordgame}" serve --port "$gw_port" ${SERVE_ARGS:-} &
serve_pid=$!
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$gw_port/games" && break
  sleep 0.1
done
for moves in hint local; do
  target/release/wordgame loadtest --url "http://127.0.0.1:$gw_port" --clients "$clients" --seconds "$seconds" --moves "$moves" | tee -a "$work/loadtest.out"
done
kill -INT "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=

"$bin/pgbench" -h 127.0.0.1 -p "$port" -U postgres -i -s "$clients" -q pgbench >/dev/null 2>&1
(cd "$work" && "$bin/pgbench" -h 127.0.0.1 -p "$port" -U postgres -c "$clients" -j 2 -T "$seconds" -l --log-prefix=pgb pgbench) > "$work/pgbench.out" 2>&1
tps="$(grep -E '^tps' "$work/pgbench.out" | head -n 1 | awk '{print $3}')"
cat "$work"/pgb.* | awk '{print $3}' | sort -n > "$work/lat"
n="$(wc -l < "$work/lat")"
p() { sed -n "$(( ($1 * n + 99) / 100 ))p" "$work/lat" | awk '{printf "%.1f", $1 / 1000}'; }
echo "pgbench (TPC-B-like, scale $clients): $clients clients, ${seconds} s, $n transactions, $tps TPS; latency p50 $(p 50) ms, p99 $(p 99) ms"
awk -v tps="$tps" '/^submit-move/ { m = $0; sub(/^.*\(/, "", m); sub(/\/s\).*$/, "", m); split($0, w, /[()]/); printf "%s: %.1f%% of pgbench TPS\n", w[2], 100 * m / tps }' "$work/loadtest.out"
