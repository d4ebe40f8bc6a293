#!/usr/bin/env bash
# `shellgate check --batch` as a whole process (launcher script and JVM start included) over LINES corpus lines,
# next to Gemini CLI's policy code and cc-safety-net judging the same lines (../shared/peers/), runs interleaved:
#   in-process   no server (SHELLGATE_NO_SERVER=1): a JVM of its own with the distribution's AOT cache
#   server       a judge server of the same configuration runs (started here, warmed by one batch): the lines are
#                relayed to it
# The lines: the corpora of the five other tools (codex, continue, gemini, gptme, lshell) repeated; the red team's
# corpora are left out because Gemini's code takes exponential time on their nested substitutions.
# Prints every run, then per case the median, and how many times faster shellgate is than the faster peer.
# Usage: benchmarks/batch-throughput.sh [LINES] [RUNS]    (after mvn -B package -DskipTests; peers need npm;
#        SHELLGATE_DIST=DIR measures a copy of the distribution folder instead of launcher/target's)
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-3000}
runs=${2:-7}
dist=${SHELLGATE_DIST:-$(ls -d launcher/target/shellgate-*/ | grep -v '\.tar' | head -n 1)}
sg=${dist%/}/shellgate
[ -x "$sg" ] || { echo "no distribution in launcher/target: mvn -B package -DskipTests" >&2; exit 1; }
scratch=$(mktemp -d)
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    rm -rf "$scratch"
}
trap cleanup EXIT
input=$scratch/lines.jsonl
: > "$input"
while [ "$(wc -l < "$input")" -lt "$lines" ]; do
    cat ../shared/corpus/{codex,continue,gemini,gptme,lshell}.jsonl >> "$input"
done
head -n "$lines" "$input" > "$input.n" && mv "$input.n" "$input"

peers=$(../shared/peers/install.sh "${TMPDIR:-/tmp}/shellgate-peers" 2>/dev/null) || peers=
export HOME=$scratch/home XDG_CONFIG_HOME=$scratch/config XDG_STATE_HOME=$scratch/state XDG_CACHE_HOME=$scratch/cache
mkdir -p "$HOME"

# the server for the "server" case: its own run directory, started as the launcher starts one, warmed by one batch
export SHELLGATE_RUN_DIR=$scratch/run
"$sg" serve > /dev/null 2>&1 &
server_pid=$!
for _ in $(seq 1 300); do [ -S "$SHELLGATE_RUN_DIR/server.sock" ] && break; sleep 0.1; done
[ -S "$SHELLGATE_RUN_DIR/server.sock" ] || { echo "the judge server did not start" >&2; exit 1; }

declare -A cmd
cmd[in-process]="SHELLGATE_NO_SERVER=1 $sg check --batch"
cmd[server]="$sg check --batch"
cases=(in-process server)
if [ -n "$peers" ]; then
    cmd[gemini-cli]="GEMINI_CORE_DIR=$peers/gemini node ../shared/peers/gemini-check.mjs --allow ls,grep,find,cat,head,tail,sort,wc,tree,du,df,file,which"
    cmd[cc-safety-net]="SAFETYNET_NPM_DIR=$peers/safetynet bash ../shared/peers/safetynet-check.sh"
    cases+=(gemini-cli cc-safety-net)
else
    echo "(the peers could not be installed: shellgate alone)"
fi

declare -A times
run_case() {
    local start end
    start=$(date +%s%N)
    env ${cmd[$1]} < "$input" > "$scratch/out" 2> /dev/null
    end=$(date +%s%N)
    [ "$(wc -l < "$scratch/out")" -eq "$lines" ] || { echo "$1 answered $(wc -l < "$scratch/out") of $lines lines" >&2; exit 1; }
    echo $(( (end - start) / 1000000 ))
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${cases[@]}"; do   # warm-up: the server's JIT, the file cache
    run_case "$c" > /dev/null
    cp "$scratch/out" "$scratch/out.$c"
done
# the relayed batch prints exactly what the batch prints in a JVM of its own
cmp -s "$scratch/out.in-process" "$scratch/out.server" || { echo "the server's answers differ from the JVM's own" >&2; exit 1; }
for i in $(seq 1 "$runs"); do
    row="run $i:"
    for c in "${cases[@]}"; do
        ms=$(run_case "$c")
        times[$c]="${times[$c]:-} $ms"
        row="$row $c $ms ms;"
    done
    echo "$row"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A med
for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    med[$c]=$(median ${times[$c]})
    echo "$c: median ${med[$c]} ms = $(( lines * 1000 / med[$c] )) lines/s"
done
if [ -n "$peers" ]; then
    best=$(( med[gemini-cli] < med[cc-safety-net] ? med[gemini-cli] : med[cc-safety-net] ))
    for c in in-process server; do
        echo "$c: $(awk "BEGIN { printf \"%.2f\", $best / ${med[$c]} }") times as fast as the faster peer"
    done
fi
