#!/usr/bin/env bash
# End to end through the real function binaries under cargo lambda's runtime emulator: builds
# migrate and the game's functions for this machine and starts a throwaway private PostgreSQL
# (`wordgame postgres`). Under one emulator, migrate logs in as the owner (the database's owner,
# allowed to create roles, no superuser: as RDS's master user), applies the migrations and
# creates the application role. Under a second emulator, whose functions log in as that role
# only, it plays a short game against a robot — create, get, hint, submit the hint, resign, get —
# each request an HTTP API payload-2.0 event with the JWT authoriser's claims, as API Gateway
# sends it. Checks every answer; then, as the owner, the game's rows and that the functions
# were logged in as the application role. Stops everything it started (emulators, functions,
# PostgreSQL) however it exits.
#
#   scripts/e2e-lambda.sh        prints each step and the total time; exit 0 when all passed
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
started=$(date +%s)

command -v cargo-lambda >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check cargo-lambda
cargo lambda --version

work="$(mktemp -d)"
groups=()
cleanup() {
  # Each emulator runs in a session of its own: its process group holds it, `cargo run` and
  # the function; the PostgreSQL command's watchdog stops the server once that command is gone.
  for g in "${groups[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
  for g in "${groups[@]}"; do
    for _ in $(seq 50); do kill -0 -- "-$g" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$g" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

fns=(migrate create-game get-game hint submit-move resign)
echo "=== build (host, debug): wordgame ${fns[*]}"
bins=(--bin wordgame)
for f in "${fns[@]}"; do bins+=(--bin "$f"); done
cargo build --quiet "${bins[@]}"
target/debug/wordgame graphs --out "$work/lexicon" >/dev/null

echo "=== private PostgreSQL"
setsid target/debug/wordgame postgres --data-dir "$work/pg" >"$work/pg.url" 2>"$work/pg.log" &
groups+=($!)
for _ in $(seq 600); do [ -s "$work/pg.url" ] && break; sleep 0.1; done
superuser_url="$(head -1 "$work/pg.url")"
[ -n "$superuser_url" ] || { cat "$work/pg.log" >&2; echo "PostgreSQL did not start" >&2; exit 1; }
psql_bin=""
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/psql" ] && psql_bin="$d/psql"; done
[ -n "$psql_bin" ] || psql_bin="$(command -v psql)"
# The owner as in Amazon RDS: the database's owner, allowed to create roles, no superuser.
"$psql_bin" "$superuser_url" -q -v ON_ERROR_STOP=1 \
  -c "CREATE ROLE wordgame_owner LOGIN CREATEROLE" -c "ALTER DATABASE wordgame OWNER TO wordgame_owner"
owner_url="${superuser_url/postgres:\/\/postgres@/postgres://wordgame_owner@}"
app_user=wordgame_app
app_url="${superuser_url/postgres:\/\/postgres@/postgres://$app_user@}"
echo "owner $owner_url (no superuser), application role $app_user"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start_emulator PORT LOG KEY=VALUE...: cargo lambda watch on PORT with those variables.
start_emulator() {
  local port="$1" log="$2"
  shift 2
  local vars=()
  for v in "$@" "LEXICON_DIR=$work/lexicon" "RUST_LOG=info"; do vars+=(--env-var "$v"); done
  setsid cargo lambda watch --ignore-changes --quiet --invoke-address 127.0.0.1 --invoke-port "$port" --timeout 120 "${vars[@]}" \
    >"$log" 2>&1 &
  groups+=($!)
  for _ in $(seq 300); do
    python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$log" >&2
  echo "the emulator on $port did not start" >&2
  return 1
}

owner_port=$(free_port)
app_port=$(free_port)
echo "=== emulators: owner on $owner_port (migrate), application role on $app_port (the game)"
start_emulator "$owner_port" "$work/watch-owner.log" "DATABASE_URL=$owner_url" "DB_APP_USER=$app_user"
start_emulator "$app_port" "$work/watch-app.log" "DATABASE_URL=$app_url"

status=0
GAME_FILE=$work/game OWNER_PORT=$owner_port APP_PORT=$app_port APP_USER=$app_user python3 - <<'PY' || status=$?
import json, os, subprocess, sys, time, uuid

def invoke(port, function, event):
    t = time.time()
    out = subprocess.run(
        ["cargo", "lambda", "invoke", function, "--invoke-address", "127.0.0.1", "--invoke-port", str(port),
         "--data-ascii", json.dumps(event), "--output-format", "json"],
        capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        sys.exit(f"{function}: invoke failed: {out.stdout}{out.stderr}")
    return json.loads(out.stdout), time.time() - t

def http(function, method, path, route, params=None, query="", body=None):
    """One payload-2.0 event as API Gateway's HTTP API sends it, with the authoriser's claims."""
    event = {
        "version": "2.0", "routeKey": f"{method} {route}", "rawPath": path, "rawQueryString": query,
        "headers": {"content-type": "application/json"},
        "queryStringParameters": dict(p.split("=", 1) for p in query.split("&")) if query else None,
        "pathParameters": params,
        "requestContext": {
            "accountId": "e2e", "apiId": "e2e", "domainName": "localhost", "domainPrefix": "localhost",
            "requestId": str(uuid.uuid4()), "routeKey": f"{method} {route}", "stage": "$default",
            "time": "", "timeEpoch": 0,
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "e2e"},
            "authorizer": {"jwt": {"claims": CLAIMS, "scopes": None}},
        },
        "body": None if body is None else json.dumps(body), "isBase64Encoded": False,
    }
    answer, took = invoke(int(os.environ["APP_PORT"]), function, event)
    status, text = answer.get("statusCode"), answer.get("body") or ""
    print(f"{function:12} {method} {path}{'?' + query if query else ''} -> {status} ({took:.1f} s)")
    return status, (json.loads(text) if text else None)

def expect(ok, what, detail):
    if not ok:
        sys.exit(f"FAILED: {what}: {json.dumps(detail)[:800]}")

CLAIMS = {"sub": str(uuid.uuid4()), "name": "E2E Player"}

answer, took = invoke(int(os.environ["OWNER_PORT"]), "migrate", {})
print(f"migrate      -> {json.dumps(answer)} ({took:.1f} s)")
expect(answer.get("app_role") == os.environ["APP_USER"] and len(answer.get("applied", [])) >= 6, "migrate", answer)

s, game = http("create-game", "POST", "/games", "/games", body={"variant": "scrabble-en", "opponents": [{"robot": "easy"}]})
expect(s == 201 and game.get("game_id"), "create", game)
gid = game["game_id"]
p = {"id": gid}
s, view = http("get-game", "GET", f"/games/{gid}", "/games/{id}", p)
expect(s == 200 and view["game_id"] == gid and view["status"] == "active", "get", view)
n = view["move_count"]
s, hints = http("hint", "GET", f"/games/{gid}/hint", "/games/{id}/hint", p, query="limit=1")
expect(s == 200 and len(hints.get("hints", [])) == 1, "hint", hints)
play = {"kind": "play", "placements": hints["hints"][0]["placements"]}
body = {"expected_move_no": n, "client_move_id": str(uuid.uuid4()), "move": play}
s, moved = http("submit-move", "POST", f"/games/{gid}/moves", "/games/{id}/moves", p, body=body)
expect(s == 200 and len(moved.get("moves", [])) >= 1 and moved["moves"][0]["kind"] == "play", "submit", moved)
s, after = http("get-game", "GET", f"/games/{gid}", "/games/{id}", p)
expect(s == 200 and after["move_count"] >= n + 1, "get after the move", after)
s, resigned = http("resign", "POST", f"/games/{gid}/resign", "/games/{id}/resign", p)
expect(s == 200, "resign", resigned)
s, final = http("get-game", "GET", f"/games/{gid}", "/games/{id}", p)
expect(s == 200 and final["status"] == "finished", "get after resigning", final)
print(f"game {gid}: {final['move_count']} moves, status {final['status']}")
with open(os.environ["GAME_FILE"], "w") as f:
    f.write(gid)
PY
if [ "$status" = 0 ]; then
  # As the owner: the game's rows are there, and the functions were logged in as the
  # application role (their pools keep their connections open between invocations).
  game="$(cat "$work/game")"
  check="$("$psql_bin" "$owner_url" -At -c "SELECT (SELECT status FROM games WHERE game_id = '$game') || ' ' ||
    (SELECT count(*) FROM game_moves WHERE game_id = '$game') || ' ' ||
    (SELECT count(*) FROM pg_stat_activity WHERE usename = '$app_user' AND datname = current_database())")"
  echo "as the owner: status, moves, connections of $app_user: $check"
  read -r row_status row_moves app_connections <<<"$check"
  if [ "$row_status" != finished ] || [ "$row_moves" -lt 3 ] || [ "$app_connections" -lt 1 ]; then
    echo "FAILED: the rows or the application role's connections are not as played" >&2
    status=1
  fi
fi
if [ "$status" != 0 ]; then
  for log in "$work"/watch-*.log; do echo "--- $log (tail)"; tail -40 "$log"; done >&2
  exit "$status"
fi
echo "=== e2e through cargo lambda watch passed in $(( $(date +%s) - started )) s"
