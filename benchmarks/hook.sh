#!/usr/bin/env bash
# Wall time of an agent hook call (`shellgate hook AGENT` with the agent's JSON on stdin) as a
# whole process: relayed to a warm judge server, and cold (a JVM of its own, with the AOT cache);
# and of a refused `shellgate -c` ask with nobody to ask (no terminal, no approver watching).
# Prints every case's median, min and max over RUNS runs (milliseconds).
# Usage: benchmarks/hook.sh [RUNS]   (after mvn -B install; needs a JDK 25 the launcher finds)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
if ((BASH_VERSINFO[0] < 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] < 1))); then
    echo "note: bash $BASH_VERSION gives a here-string as a temporary file, not a pipe as agents do" >&2
fi
sg=$PWD/launcher/target/shellgate
[ -x "$sg" ] || { echo "build first: mvn -B install -DskipTests" >&2; exit 1; }

scratch=$(mktemp -d)
export SHELLGATE_RUN_DIR=$scratch/run
export SHELLGATE_CACHE_DIR=$scratch/cache
export SHELLGATE_STATE_DIR=$scratch/state
export SHELLGATE_SHELL=/bin/bash
export HOME=$scratch/home
mkdir -p "$HOME" "$scratch/work"
cleanup() {
    if [ -r "$SHELLGATE_RUN_DIR/server.pid" ]; then kill "$(cat "$SHELLGATE_RUN_DIR/server.pid")" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT
cd "$scratch/work"

# input EVENT TOOL COMMAND: a pre-tool hook input the size and shape Claude Code sends (docs/agents.md;
# about 500 bytes: the others send the same fields or fewer)
input() {
    local u=0b7f6a52-1d2e-4c3b-9a8f-112233445566
    printf '{"session_id":"%s","transcript_path":"%s/.claude/projects/-work/%s.jsonl","cwd":"%s","prompt_id":"%s","permission_mode":"bypassPermissions","effort":{"level":"medium"},"hook_event_name":"%s","tool_name":"%s","tool_input":{"command":"%s","description":"Run the command the task needs next"},"tool_use_id":"toolu_01ABCDEFGHJKLMNPQRSTUVWX"}' \
        "$u" "$HOME" "$u" "$PWD" "$u" "$1" "$2" "$3"
}
input PreToolUse Bash "ls -la" > "$scratch/claude-ls.json"
input PreToolUse Bash "rm -rf ~" > "$scratch/claude-rm.json"
input BeforeTool run_shell_command "git status" > "$scratch/gemini-git.json"
input PreToolUse Bash "touch x" > "$scratch/codex-touch.json"

# time_runs NAME STDIN COMMAND...: runs the command RUNS times, prints the median, min and max. The
# input comes through a pipe, as an agent gives it (bash 5.1 and newer make a here-string a pipe
# when it fits in one): a program may read a pipe differently from a file.
time_runs() {
    local name=$1 stdin=$2 i start end text
    shift 2
    text=$(< "$stdin")
    local times=()
    for ((i = 0; i < runs; i++)); do
        start=$EPOCHREALTIME
        "$@" <<< "$text" > /dev/null 2>&1 || true
        end=$EPOCHREALTIME
        times+=("$(( (${end/./} - ${start/./}) ))")
    done
    local sorted
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    printf '%-58s median %9s ms   min %9s   max %9s\n' "$name" "$(ms "$(sed -n "$(( (runs + 1) / 2 ))p" <<< "$sorted")")" \
        "$(ms "$(head -n1 <<< "$sorted")")" "$(ms "$(tail -n1 <<< "$sorted")")"
}

# microseconds as milliseconds with one decimal
ms() {
    printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100))
}

echo "runs per case: $runs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
# what a process start costs on this machine now, for comparing runs on machines of different load
time_runs "bash -c true (a process start, for scale)" /dev/null bash -c true
# cold, AOT cache: make the cache first (the first start makes it in the background)
SHELLGATE_NO_SERVER=1 "$sg" hook claude-code < "$scratch/claude-ls.json" > /dev/null
for ((i = 0; i < 120; i++)); do
    compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null && break
    sleep 0.5
done
time_runs "hook claude-code, allow (cold: JVM, AOT cache)" "$scratch/claude-ls.json" env SHELLGATE_NO_SERVER=1 "$sg" hook claude-code

"$sg" serve --idle 30 < /dev/null > /dev/null 2>&1 &
for ((i = 0; i < 200; i++)); do
    [ -r "$SHELLGATE_RUN_DIR/server.port" ] && break
    sleep 0.1
done
# warm the server's JIT a little, as an agent's session would
for ((i = 0; i < 50; i++)); do "$sg" hook claude-code < "$scratch/claude-ls.json" > /dev/null; done
time_runs "shellgate -c true (warm server, for scale)" /dev/null "$sg" -c true
time_runs "hook claude-code, allow (warm server)" "$scratch/claude-ls.json" "$sg" hook claude-code
# the README's hook command: bash runs the script without the start of env its first line costs
time_runs "bash shellgate hook claude-code, allow (warm server)" "$scratch/claude-ls.json" bash "$sg" hook claude-code
time_runs "hook claude-code, deny (warm server)" "$scratch/claude-rm.json" "$sg" hook claude-code
time_runs "hook gemini-cli, allow git status (warm server)" "$scratch/gemini-git.json" "$sg" hook gemini-cli
time_runs "hook codex, ask refused (warm server)" "$scratch/codex-touch.json" "$sg" hook codex
time_runs "shellgate -c 'touch x', ask, nobody to ask (warm server)" /dev/null "$sg" -c 'touch x'
