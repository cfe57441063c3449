#!/usr/bin/env bash
# The leaderboard's query on 100,000 rated accounts: its plan (EXPLAIN ANALYZE, the first page and
# a page deep in the list) and its latency under pgbench (the query as the service sends it, from
# a random rating, 2 clients, 20 s; p50 and p99 from pgbench's per-query log). A throwaway
# PostgreSQL with the schema (`wordgame postgres`, then `serve` once to migrate it); loopback only.
#
#   scripts/bench-leaderboard.sh [ACCOUNTS] [SECONDS]      (defaults: 100000 accounts, 20 s)
set -euo pipefail
accounts="${1:-100000}"
seconds="${2:-20}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
cargo build -q --release --bin wordgame
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$bin" ] || bin="$(dirname "$(command -v pgbench)")"
work="$(mktemp -d /tmp/wordgame-leaderboard.XXXXXX)"
cleanup() {
  [ -n "${serve_pid:-}" ] && kill -INT "$serve_pid" 2>/dev/null || true
  [ -n "${pg_pid:-}" ] && kill "$pg_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

target/release/wordgame postgres --data-dir "$work/pg" > "$work/url" &
pg_pid=$!
until [ -s "$work/url" ]; do sleep 0.2; done
url="$(head -n 1 "$work/url")"
# The schema: serve migrates the database when it starts.
port=$((40000 + RANDOM % 10000))
DATABASE_URL="$url" target/release/wordgame serve --port "$port" > /dev/null 2>&1 &
serve_pid=$!
until curl -s -o /dev/null "http://127.0.0.1:$port/variants"; do sleep 0.2; done
kill -INT "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=

psql -q "$url" <<SQL
INSERT INTO accounts (account_id, display_name, kind, created_at)
  SELECT md5(i::text)::uuid, 'player ' || i, 'human', now() FROM generate_series(1, $accounts) AS i;
-- Ratings spread like a population (about 1500 ± 300); four in five established.
INSERT INTO ratings (account_id, variant, speed, rating, deviation, volatility, games, rated_at)
  SELECT md5(i::text)::uuid, 'scrabble-en', 'realtime',
         1500 + 300 * ((random() + random() + random() + random() + random() + random()) - 3) / 0.707,
         CASE WHEN i % 5 = 0 THEN 200 ELSE 50 + 50 * random() END, 0.06, 20, now()
  FROM generate_series(1, $accounts) AS i;
ANALYZE ratings;
ANALYZE accounts;
SQL

query="SELECT r.account_id, r.variant, r.speed, r.rating, r.deviation, r.volatility, r.games, r.rated_at, a.display_name
 FROM ratings r JOIN accounts a ON a.account_id = r.account_id
 WHERE r.variant = 'scrabble-en' AND r.speed = 'realtime' AND r.deviation < 110
   AND (CAST(:after AS float8) IS NULL OR (r.rating, r.account_id) < (CAST(:after AS float8), 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))
 ORDER BY r.rating DESC, r.account_id DESC LIMIT 51"
echo "== plan: the first page"
psql "$url" -c "EXPLAIN (ANALYZE, BUFFERS) ${query//:after/NULL}"
echo "== plan: a page below 1200"
psql "$url" -c "EXPLAIN (ANALYZE, BUFFERS) ${query//:after/1200}"

printf '\\set after random(900, 2100)\n%s;\n' "$query" > "$work/leaderboard.sql"
(cd "$work" && "$bin/pgbench" -n -c 2 -j 2 -T "$seconds" -l -f leaderboard.sql "$url" | grep -E "number of transactions|latency average|tps")
sort -n -k3 "$work"/pgbench_log.* | awk '{ l[NR] = $3 } END { printf "queries %d, p50 %.2f ms, p99 %.2f ms\n", NR, l[int(NR * 0.5)] / 1000, l[int(NR * 0.99)] / 1000 }'
