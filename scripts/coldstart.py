#!/usr/bin/env python3
"""Cold start of each Lambda function binary, measured locally.

For every binary given (default: target/release/<function> for each binary in functions/src/bin/), starts
it against a fake Lambda runtime API on 127.0.0.1 and times process start to the moment it asks
for its first event (GET .../runtime/invocation/next): the init a real cold start pays before the
first request, without the database (the pool connects lazily). No function reads a word graph
or the chain's dictionary at init: a game's family loads what it needs on first use. So the
script then runs the `first_use` example (target/release/examples/first_use, built with
`cargo build --release -p api --example first_use`) for what the first request of a tile route
(one variant's graph from LEXICON_DIR, read and checked) and of a chain route (the dictionary,
parsed) add. The graphs come from `wordgame graphs` (written to
target/lambda/lexicon-layer/lexicon if missing).

    scripts/coldstart.py [--runs N] [BINARY ...]
"""
import argparse
import http.server
import os
import statistics
import subprocess
import sys
import threading
import time

ready = threading.Event()


class RuntimeApi(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the runtime API's verb)
        if self.path.endswith("/runtime/invocation/next"):
            ready.set()
            time.sleep(2)  # hold the long poll; the process is killed meanwhile
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def measure(binary, port, lexicon_dir):
    env = dict(os.environ)
    env.update({
        "AWS_LAMBDA_RUNTIME_API": f"127.0.0.1:{port}",
        "AWS_LAMBDA_FUNCTION_NAME": os.path.basename(binary),
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "512",
        "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
        "AWS_LAMBDA_LOG_STREAM_NAME": "local",
        "AWS_LAMBDA_LOG_GROUP_NAME": "local",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
        "RUST_LOG": "warn",
        "LEXICON_DIR": lexicon_dir,
    })
    ready.clear()
    start = time.monotonic()
    proc = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok = ready.wait(10)
    elapsed = time.monotonic() - start
    proc.kill()
    proc.wait()
    if not ok:
        raise SystemExit(f"{binary} never asked for an event")
    return elapsed * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("binaries", nargs="*")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binaries = args.binaries or [os.path.join(root, "target", "release", f[:-3]) for f in sorted(os.listdir(os.path.join(root, "functions", "src", "bin")))]
    lexicon_dir = os.path.join(root, "target", "lambda", "lexicon-layer", "lexicon")
    if not os.path.isdir(lexicon_dir):
        subprocess.run(["cargo", "run", "--quiet", "-p", "wordgame", "--", "graphs", "--out", lexicon_dir],
                       cwd=root, check=True, stdout=subprocess.DEVNULL)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RuntimeApi)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    print(f"{'function':<18} {'median ms':>10} {'max ms':>8}  ({args.runs} runs each)")
    worst = 0.0
    for binary in binaries:
        times = [measure(binary, port, lexicon_dir) for _ in range(args.runs)]
        worst = max(worst, statistics.median(times))
        print(f"{os.path.basename(binary):<18} {statistics.median(times):>10.1f} {max(times):>8.1f}")
    server.shutdown()
    print(f"worst median: {worst:.1f} ms")
    first_use = os.path.join(root, "target", "release", "examples", "first_use")
    if not os.path.exists(first_use):
        print(f"(no {first_use}: build it for the first-use figures)")
        return
    print(f"first request of each family, on top of init (median of {args.runs} processes):")
    runs = []
    for _ in range(args.runs):
        out = subprocess.run([first_use], env=dict(os.environ, LEXICON_DIR=lexicon_dir), check=True, capture_output=True, text=True)
        runs.append({line.rsplit(" ms", 1)[0].rsplit(" ", 1)[0]: float(line.rsplit(" ms", 1)[0].rsplit(" ", 1)[1]) for line in out.stdout.splitlines()})
    for what in runs[0]:
        print(f"  {what:<28} {statistics.median(r[what] for r in runs):>8.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
