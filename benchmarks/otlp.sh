#!/usr/bin/env bash
# Wall time of `shellgate -c true` through a warm judge server: without audit export, and exporting
# over OTLP to a collector that is down (nothing listens), that never answers (accepts connections
# and holds them), and that answers at once. The decision must not wait for the collector.
# Prints every case's median, min and max over RUNS runs (milliseconds); the cases take turns.
# Usage: benchmarks/otlp.sh [RUNS]   (after mvn -B package; needs python3 for the collectors; SG=FILE times
# another build's launcher script)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
sg=${SG:-$PWD/launcher/target/shellgate}
[ -x "$sg" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }

scratch=$(mktemp -d)
export SHELLGATE_CACHE_DIR=$scratch/cache
export SHELLGATE_SHELL=/bin/bash
export HOME=$scratch/home
mkdir -p "$HOME/.config/shellgate"
# a busy machine must not turn a cold server's first judgments into asks (time-budget)
printf '[settings]\ntime-budget-ms = 5000\n' > "$HOME/.config/shellgate/policy.toml"
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

ms() {
    printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100))
}

# stats NAME TIMES...: median, min and max in milliseconds of microsecond times
stats() {
    local name=$1 sorted median min max
    shift
    sorted=$(printf '%s\n' "$@" | sort -n)
    median=$(sed -n "$(( ($# + 1) / 2 ))p" <<< "$sorted")
    min=$(head -n1 <<< "$sorted")
    max=$(tail -n1 <<< "$sorted")
    printf '%-44s median %7s ms   min %7s   max %7s\n' "$name" "$(ms "$median")" "$(ms "$min")" "$(ms "$max")"
}

# The environment of each case: a server of its own (run and state directories) with that export.
names=()
envs=()
add_case() {
    local name=$1 endpoint=$2 tag=${1// /-}
    names+=("$name")
    envs+=("SHELLGATE_RUN_DIR=$scratch/run-$tag SHELLGATE_STATE_DIR=$scratch/state-$tag OTEL_EXPORTER_OTLP_ENDPOINT=$endpoint")
}

add_case "no export" ""
add_case "collector down" "http://127.0.0.1:$(free_port)"
port=$(free_port); collector "$port" hold
add_case "collector holds every request" "http://127.0.0.1:$port"
port=$(free_port); collector "$port" ok
add_case "collector answers" "http://127.0.0.1:$port"

# start and warm every server first, then time the cases in turn, run after run, so that whatever
# else the machine does falls on every case alike
for ((c = 0; c < ${#names[@]}; c++)); do
    # shellcheck disable=SC2086
    env ${envs[c]} "$sg" serve --idle 60 < /dev/null > /dev/null 2>&1 &
    run=${envs[c]%% *}; run=${run#SHELLGATE_RUN_DIR=}
    for ((i = 0; i < 200; i++)); do
        [ -r "$run/server.port" ] && break
        sleep 0.1
    done
    for ((i = 0; i < 200; i++)); do env ${envs[c]} "$sg" -c true || true; done
done
declare -A times
for ((i = 0; i < runs; i++)); do
    for ((c = 0; c < ${#names[@]}; c++)); do
        start=$EPOCHREALTIME
        env ${envs[c]} "$sg" -c true > /dev/null
        end=$EPOCHREALTIME
        times[$c]+=" $(( ${end/./} - ${start/./} ))"
    done
done
echo "runs per case: $runs (interleaved)"
for ((c = 0; c < ${#names[@]}; c++)); do
    # shellcheck disable=SC2086
    stats "shellgate -c true, ${names[c]}" ${times[$c]}
    state=${envs[c]#*SHELLGATE_STATE_DIR=}; state=${state%% *}
    if [ -d "$state/otlp-queue" ]; then
        echo "    queued at the end: $(find "$state/otlp-queue" -name '*.jsonl' | wc -l) batch file(s)"
    fi
done
