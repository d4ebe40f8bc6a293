#!/usr/bin/env bash
# Wall time of `shellgate -c true` next to `bash -c true`, as whole processes: with a warm judge
# server (the cases take turns run after run, so that whatever else the machine does falls on all
# alike; each warm median also as a multiple of bash -c true's in the same run), and cold (a JVM per
# command, with and without the AOT cache). The warm cases: the launcher script handing -c to the
# native client beside it (what `shellgate -c` does where the build made one), the native client run
# as `shellgate` itself (a link of that name to shellgate-hook), and the script's own relay in bash
# (what the native client hands back to: `shellgate __relayed -c`). Then the idle server's resident
# memory. Prints every case's median, min and max over RUNS runs (milliseconds), and the load average.
# Usage: benchmarks/shell-c.sh [RUNS]   (after mvn -B package; needs a JDK 25 the launcher finds)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
sg=$PWD/launcher/target/shellgate
[ -x "$sg" ] || { echo "build first: mvn -B install -DskipTests" >&2; exit 1; }

scratch=$(mktemp -d)
export SHELLGATE_RUN_DIR=$scratch/run
export SHELLGATE_CACHE_DIR=$scratch/cache
export SHELLGATE_SHELL=/bin/bash
cleanup() {
    if [ -r "$SHELLGATE_RUN_DIR/server.pid" ]; then kill "$(cat "$SHELLGATE_RUN_DIR/server.pid")" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT
corpus=$PWD/judge/src/test/resources/corpus
cd "$scratch"

# time_runs NAME COMMAND...: runs the command RUNS times, prints the median, min and max
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
    local sorted
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    local median min max
    median=$(sed -n "$(( (runs + 1) / 2 ))p" <<< "$sorted")
    min=$(head -n1 <<< "$sorted")
    max=$(tail -n1 <<< "$sorted")
    printf '%-48s median %9s ms   min %9s   max %9s\n' "$name" "$(ms "$median")" "$(ms "$min")" "$(ms "$max")"
}

# microseconds as milliseconds with one decimal
ms() {
    printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100))
}

# time_once COMMAND...: its wall time in microseconds in lap
time_once() {
    local start end
    start=$EPOCHREALTIME
    "$@" > /dev/null 2>&1 || true
    end=$EPOCHREALTIME
    lap=$(( (${end/./} - ${start/./}) ))
}

# the median of the microseconds given
median() {
    printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"
}

echo "runs per case: $runs; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

# cold, AOT cache: make the cache first (the first start makes it in the background)
SHELLGATE_NO_SERVER=1 "$sg" -c true
for ((i = 0; i < 120; i++)); do
    compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null && break
    sleep 0.5
done
if compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null; then
    time_runs "shellgate -c true (cold: JVM, AOT cache)" env SHELLGATE_NO_SERVER=1 "$sg" -c true
else
    echo "no AOT cache was made within 60 s (a busy machine?): the cold case with the cache is left out"
fi
time_runs "shellgate -c true (cold: JVM, no AOT cache)" env SHELLGATE_NO_SERVER=1 SHELLGATE_NO_AOT=1 "$sg" -c true

# warm: start the server, let it warm up, then measure
"$sg" serve --idle 5 < /dev/null > /dev/null 2>&1 &
for ((i = 0; i < 200; i++)); do
    [ -r "$SHELLGATE_RUN_DIR/server.port" ] && break
    sleep 0.1
done
for ((i = 0; i < 200; i++)); do "$sg" -c true; done
names=("bash -c true (for scale)"
    "shellgate -c true (warm server)"
    "shellgate -c 'ls -la | grep x' (warm server)"
    "shellgate __relayed -c true (the script's own relay)")
native=/nonexistent
if [ -x "${sg%/*}/shellgate-hook" ]; then
    mkdir -p "$scratch/bin"
    native=$scratch/bin/shellgate
    ln -s "${sg%/*}/shellgate-hook" "$native"
    names+=("native client as shellgate -c true (warm server)")
fi
warm_case() {
    case $1 in
        0) bash -c true ;;
        1) "$sg" -c true ;;
        2) "$sg" -c 'ls -la | grep x' ;;
        3) "$sg" __relayed -c true ;;
        4) "$native" -c true ;;
    esac
}
declare -a took
for ((r = 0; r < runs; r++)); do
    for ((c = 0; c < ${#names[@]}; c++)); do
        time_once warm_case "$c"
        took[c]+=" $lap"
    done
done
# shellcheck disable=SC2086
base=$(median ${took[0]})
for ((c = 0; c < ${#names[@]}; c++)); do
    # shellcheck disable=SC2086
    set -- ${took[c]}
    m=$(median "$@")
    sorted=$(printf '%s\n' "$@" | sort -n)
    printf '%-58s median %9s ms   min %9s   max %9s   %s x bash -c true\n' "${names[c]}" "$(ms "$m")" \
        "$(ms "$(head -n1 <<< "$sorted")")" "$(ms "$(tail -n1 <<< "$sorted")")" \
        "$((m / base)).$(( (m * 100 / base) % 100 / 10 ))$(( (m * 100 / base) % 10 ))"
done
echo "load average after the warm cases: $(cut -d' ' -f1-3 /proc/loadavg)"

pid=$(cat "$SHELLGATE_RUN_DIR/server.pid")
rss() {
    echo "$(($(awk '/^VmRSS/ {print $2}' "/proc/$pid/status") / 1024)) MiB"
}
echo "server resident memory after the runs above: $(rss)"

# load: every line of shellgate's own corpus, 10 times, on one connection
json() {
    local s=$1
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//$'\t'/\\t}
    j="\"$s\""
}
port=$(cat "$SHELLGATE_RUN_DIR/server.port")
token=$(cat "$SHELLGATE_RUN_DIR/server.token")
mapfile -t lines < <(cat "$corpus"/*.txt \
    | grep -v '^#' | grep -v '^$' | sed 's/^[a-z]*\(:[a-z0-9-]*\)\{0,1\} //')
exec 3<> "/dev/tcp/127.0.0.1/$port"
start=$EPOCHREALTIME
n=0
for ((round = 0; round < 10; round++)); do
    for line in "${lines[@]}"; do
        json "$line"
        printf '{"v":1,"op":"judge","cmd":%s,"cwd":"/tmp","env":{"PATH":"/usr/bin:/bin","HOME":"/root"},"token":"%s"}\n' "$j" "$token" >&3
        IFS= read -r reply <&3
        n=$((n + 1))
    done
done
end=$EPOCHREALTIME
exec 3>&-
echo "load: $n requests on one connection, $(( (${end/./} - ${start/./}) / n )) us each; resident memory right after: $(rss)"
sleep 7
echo "idle server resident memory: $(rss) (VmRSS of pid $pid, 7 s after the last request)"
