#!/usr/bin/env bash
# Wall time of `shellgate -c true` through a warm judge server: without audit export, and exporting
# over OTLP to a collector that is down (nothing listens), that never answers (accepts connections
# and holds them), and that answers at once. The decision must not wait for the collector.
# Prints every case's median, min and max over RUNS runs (milliseconds).
# Usage: benchmarks/otlp.sh [RUNS]   (after mvn -B package; needs python3 for the collectors)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
sg=$PWD/launcher/target/shellgate
[ -x "$sg" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }

scratch=$(mktemp -d)
export SHELLGATE_CACHE_DIR=$scratch/cache
export SHELLGATE_SHELL=/bin/bash
export HOME=$scratch/home
mkdir -p "$HOME"
pids=()
cleanup() {
    for run in "$scratch"/run-*; do
        [ -r "$run/server.pid" ] && kill "$(cat "$run/server.pid")" 2>/dev/null || true
    done
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT

# a free port on 127.0.0.1 (nothing listens on it afterwards)
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# collector PORT MODE: hold = accept and never answer; ok = answer 200 at once
collector() {
    python3 - "$1" "$2" <<'PY' &
import sys, socket, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
port, mode = int(sys.argv[1]), sys.argv[2]
if mode == "hold":
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port)); s.listen(128)
    held = []
    while True:
        c, _ = s.accept(); held.append(c)
class H(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *a): pass
ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
    pids+=($!)
    sleep 0.5
}

time_runs() {
    local name=$1 i start end
    shift
    local times=()
    for ((i = 0; i < runs; i++)); do
        start=$EPOCHREALTIME
        "$@" > /dev/null
        end=$EPOCHREALTIME
        times+=("$(( (${end/./} - ${start/./}) ))")
    done
    local sorted median min max
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    median=$(sed -n "$(( (runs + 1) / 2 ))p" <<< "$sorted")
    min=$(head -n1 <<< "$sorted")
    max=$(tail -n1 <<< "$sorted")
    printf '%-44s median %7s ms   min %7s   max %7s\n' "$name" "$(ms "$median")" "$(ms "$min")" "$(ms "$max")"
}

ms() {
    printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100))
}

# case NAME ENDPOINT: a server of its own with that export, warmed up, then timed
case_run() {
    local name=$1 endpoint=$2
    export SHELLGATE_RUN_DIR=$scratch/run-${name// /-}
    export SHELLGATE_STATE_DIR=$scratch/state-${name// /-}
    if [ -n "$endpoint" ]; then export OTEL_EXPORTER_OTLP_ENDPOINT=$endpoint; else unset OTEL_EXPORTER_OTLP_ENDPOINT; fi
    "$sg" serve --idle 5 < /dev/null > /dev/null 2>&1 &
    for ((i = 0; i < 200; i++)); do
        [ -r "$SHELLGATE_RUN_DIR/server.port" ] && break
        sleep 0.1
    done
    for ((i = 0; i < 200; i++)); do "$sg" -c true; done
    time_runs "shellgate -c true, $name" "$sg" -c true
    if [ -d "$SHELLGATE_STATE_DIR/otlp-queue" ]; then
        echo "    queued: $(find "$SHELLGATE_STATE_DIR/otlp-queue" -name '*.jsonl' | wc -l) batch file(s)"
    fi
}

echo "runs per case: $runs"
case_run "no export" ""
case_run "collector down" "http://127.0.0.1:$(free_port)"
port=$(free_port); collector "$port" hold
case_run "collector holds every request" "http://127.0.0.1:$port"
port=$(free_port); collector "$port" ok
case_run "collector answers" "http://127.0.0.1:$port"
