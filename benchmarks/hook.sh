#!/usr/bin/env bash
# Wall time of an agent hook call (`shellgate-hook AGENT` or `shellgate hook AGENT` with the agent's
# JSON on stdin) as a whole process: relayed to a warm judge server, and cold (a JVM of its own,
# with the AOT cache);
# and of a refused `shellgate -c` ask with nobody to ask (no terminal, no approver watching).
# Prints every case's median, min and max over RUNS runs (milliseconds).
# Then a few hook calls each after a pause (PAUSE seconds, as an agent thinks between two commands).
# Usage: benchmarks/hook.sh [RUNS [PAUSED_RUNS [PAUSE]]]
#        (after mvn -B package; needs a JDK 25 the launcher finds)
# With SHELLGATE_HOOK_BASELINE=PROGRAM, another build of shellgate-hook (one of an earlier commit, say)
# takes its turn in the warm runs too, for a comparison on the same machine at the same load.
# With WARM_ONLY=1, only the warm runs (no cold cases, no pauses).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
paused_runs=${2:-9}
pause=${3:-8}
if ((BASH_VERSINFO[0] < 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] < 1))); then
    echo "note: bash $BASH_VERSION gives a here-string as a temporary file, not a pipe as agents do" >&2
fi
sg=$PWD/launcher/target/shellgate
client=$PWD/launcher/target/shellgate-hook
[ -x "$sg" ] || { echo "build first: mvn -B install -DskipTests" >&2; exit 1; }
[ -x "$client" ] || { echo "no $client: the build makes it where it finds a C compiler (gcc)" >&2; exit 1; }

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
    local name=$1 stdin=$2 i text
    shift 2
    text=$(< "$stdin")
    local times=()
    for ((i = 0; i < runs; i++)); do
        time_once "$@" <<< "$text"
        times+=("$lap")
    done
    report "$name" "${times[@]}"
}

# time_once COMMAND...: runs it (standard input as given, output discarded); its wall time in
# microseconds in lap
time_once() {
    local start end
    start=$EPOCHREALTIME
    "$@" > /dev/null 2>&1 || true
    end=$EPOCHREALTIME
    lap=$(( (${end/./} - ${start/./}) ))
}

# report NAME MICROSECONDS...: the median, min and max
report() {
    local name=$1 sorted n
    shift
    n=$#
    sorted=$(printf '%s\n' "$@" | sort -n)
    printf '%-66s median %9s ms   min %9s   max %9s\n' "$name" "$(ms "$(sed -n "$(( (n + 1) / 2 ))p" <<< "$sorted")")" \
        "$(ms "$(head -n1 <<< "$sorted")")" "$(ms "$(tail -n1 <<< "$sorted")")"
}

# microseconds as milliseconds with one decimal
ms() {
    printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100))
}

echo "runs per case: $runs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
warm_only=${WARM_ONLY:-}
# cold, AOT cache: make the cache first (the first start makes it in the background)
[ -n "$warm_only" ] || SHELLGATE_NO_SERVER=1 "$sg" hook claude-code < "$scratch/claude-ls.json" > /dev/null
if [ -z "$warm_only" ]; then
    for ((i = 0; i < 120; i++)); do
        compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null && break
        sleep 0.5
    done
    time_runs "shellgate hook claude-code, allow (cold: JVM, AOT cache)" "$scratch/claude-ls.json" env SHELLGATE_NO_SERVER=1 "$sg" hook claude-code
    time_runs "shellgate-hook claude-code, allow (cold: the script's JVM)" "$scratch/claude-ls.json" env SHELLGATE_NO_SERVER=1 "$client" claude-code
fi

"$sg" serve --idle 30 < /dev/null > /dev/null 2>&1 &
for ((i = 0; i < 200; i++)); do
    [ -r "$SHELLGATE_RUN_DIR/server.port" ] && break
    sleep 0.1
done
# warm the server's JIT a little, as an agent's session would
for ((i = 0; i < 50; i++)); do "$sg" hook claude-code < "$scratch/claude-ls.json" > /dev/null; done

# The warm cases take turns, run after run, so that whatever else the machine does falls on every
# case alike. The hooks are started as the README's hook command starts them: bash runs the
# script (its own first line, #!/usr/bin/env bash, would start env first: one more process).
names=("bash -c true (a process start, for scale)"
    "/bin/true (a process start, for scale)"
    "shellgate -c true (warm server, for scale)"
    "shellgate-hook claude-code, allow (warm server)"
    "shellgate-hook claude-code, allow, a new command each run"
    "shellgate-hook claude-code, deny (warm server)"
    "shellgate-hook gemini-cli, allow git status (warm server)"
    "shellgate-hook codex, ask refused (warm server)"
    "bash shellgate hook claude-code, allow (warm server)"
    "bash shellgate hook claude-code, allow, a new command each run"
    "shellgate hook claude-code, allow, through env (#! line)"
    "bash shellgate hook claude-code, deny (warm server)"
    "bash shellgate hook gemini-cli, allow git status (warm server)"
    "bash shellgate hook codex, ask refused (warm server)"
    "shellgate -c 'touch x', ask, nobody to ask (warm server)")
baseline=${SHELLGATE_HOOK_BASELINE:-}
if [ -n "$baseline" ]; then
    names+=("baseline $baseline claude-code, allow (warm server)"
        "baseline $baseline claude-code, deny (warm server)")
fi
claude_ls=$(< "$scratch/claude-ls.json")
claude_rm=$(< "$scratch/claude-rm.json")
gemini_git=$(< "$scratch/gemini-git.json")
codex_touch=$(< "$scratch/codex-touch.json")
# the same input twice finds the server's memory of an allow; an agent's commands mostly differ
fresh= fresh_too=
warm_case() {
    case $1 in
        0) bash -c true <<< "" ;;
        1) /bin/true <<< "" ;;
        2) "$sg" -c true <<< "" ;;
        3) "$client" claude-code <<< "$claude_ls" ;;
        4) "$client" claude-code <<< "$fresh" ;;
        5) "$client" claude-code <<< "$claude_rm" ;;
        6) "$client" gemini-cli <<< "$gemini_git" ;;
        7) "$client" codex <<< "$codex_touch" ;;
        8) bash "$sg" hook claude-code <<< "$claude_ls" ;;
        9) bash "$sg" hook claude-code <<< "$fresh_too" ;;
        10) "$sg" hook claude-code <<< "$claude_ls" ;;
        11) bash "$sg" hook claude-code <<< "$claude_rm" ;;
        12) bash "$sg" hook gemini-cli <<< "$gemini_git" ;;
        13) bash "$sg" hook codex <<< "$codex_touch" ;;
        14) "$sg" -c 'touch x' <<< "" ;;
        15) "$baseline" claude-code <<< "$claude_ls" ;;
        16) "$baseline" claude-code <<< "$claude_rm" ;;
    esac
}
declare -a took
for ((r = 0; r < runs; r++)); do
    fresh=$(input PreToolUse Bash "ls -la src/part-$r")
    fresh_too=$(input PreToolUse Bash "ls -la lib/part-$r")
    for ((c = 0; c < ${#names[@]}; c++)); do
        time_once warm_case "$c"
        took[c]+=" $lap"
    done
done
for ((c = 0; c < ${#names[@]}; c++)); do
    # shellcheck disable=SC2086
    report "${names[c]}" ${took[c]}
done

# After a pause: what a call costs when the agent has been thinking (caches gone cold; the
# server compacts its heap only after a minute of quiet). A new command each time for the allow;
# a denial is never remembered.
paused_allow=() paused_deny=() paused_script=()
[ -z "$warm_only" ] || paused_runs=0
for ((r = 0; r < paused_runs; r++)); do
    fresh=$(input PreToolUse Bash "wc -l notes-$r.txt")
    sleep "$pause"
    time_once "$client" claude-code <<< "$fresh"
    paused_allow+=("$lap")
    sleep "$pause"
    time_once "$client" claude-code <<< "$claude_rm"
    paused_deny+=("$lap")
    fresh=$(input PreToolUse Bash "wc -l todo-$r.txt")
    sleep "$pause"
    time_once bash "$sg" hook claude-code <<< "$fresh"
    paused_script+=("$lap")
done
if [ "$paused_runs" -gt 0 ]; then
    report "shellgate-hook claude-code, allow, after ${pause} s of quiet ($paused_runs runs)" "${paused_allow[@]}"
    report "shellgate-hook claude-code, deny, after ${pause} s of quiet ($paused_runs runs)" "${paused_deny[@]}"
    report "bash shellgate hook claude-code, allow, after ${pause} s of quiet ($paused_runs runs)" "${paused_script[@]}"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
