#!/usr/bin/env bash
# The javaagent's cost, as whole processes, on JDK 17 (judge server) and JDK 25 (judge in the JVM):
#  - start-up of a JVM that starts no process: without an agent, with an empty agent (what
#    -javaagent itself costs) and with shellgate's (median wall time);
#  - the first start of /bin/true in a JVM (the one-time installation), with and without;
#  - the cost of one start of /bin/true (ProcessBuilder.start + waitFor, mean over SPAWNS starts
#    inside one JVM) after 50 warm-up starts, and again after WARM warm-up starts (the JIT has then
#    compiled the gate): RUNS pairs of JVMs, without and with the agent one after the other, the
#    medians of each side and the median of the pairs' differences. On JDK 17 (judge server) the first
#    case once more at the end, when the server, which every JVM and shell of the user shares, has
#    been compiled by its own JIT too. The launcher's AOT cache is made first (as after a user's first
#    use of shellgate), so the judge server starts from its training's profiles.
# Usage: benchmarks/javaagent.sh [RUNS] [SPAWNS] [WARM]   (after mvn -B package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
spawns=${2:-2000}
warm=${3:-10000}
root=$PWD
agent=$root/interceptor/target/shellgate-agent.jar
launcher=$root/launcher/target/shellgate
[ -r "$agent" ] && [ -x "$launcher" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }

jdk() {
    local h
    for h in /usr/lib/jvm/*; do
        if [ -f "$h/release" ] && grep -q "^JAVA_VERSION=\"$1" "$h/release" && [ -x "$h/bin/java" ]; then
            echo "$h"; return
        fi
    done
    echo "no JDK $1 under /usr/lib/jvm" >&2; exit 1
}
jdk17=$(jdk 17)
jdk25=$(jdk 25)

scratch=$(mktemp -d)
export SHELLGATE_RUN_DIR=$scratch/run
export SHELLGATE_CACHE_DIR=$scratch/cache
export HOME=$scratch/home
mkdir -p "$HOME"
cleanup() {
    if [ -r "$SHELLGATE_RUN_DIR/server.pid" ]; then kill "$(cat "$SHELLGATE_RUN_DIR/server.pid")" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT
# the launcher's AOT cache (which the judge server starts from) as a user has it after the first
# use of shellgate: made now, in the background run the launcher starts, before any server starts
SHELLGATE_NO_SERVER=1 "$launcher" -c true > /dev/null
for ((i = 0; i < 1200; i++)); do
    if compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null && ! compgen -G "$SHELLGATE_CACHE_DIR/aot/*.lock" > /dev/null; then
        break
    fi
    sleep 0.1
done
compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null || echo "(no AOT cache was made: the judge server starts without one)"
"$jdk17/bin/javac" --release 17 -d "$scratch/classes" "$root/integration-tests/src/test/resources/agent-target/AgentTarget.java"
# an agent whose premain does nothing: the floor of any -javaagent
mkdir -p "$scratch/empty"
printf 'public class EmptyAgent { public static void premain(String a, java.lang.instrument.Instrumentation i) {} }\n' \
    > "$scratch/empty/EmptyAgent.java"
"$jdk17/bin/javac" --release 17 -d "$scratch/empty" "$scratch/empty/EmptyAgent.java"
printf 'Premain-Class: EmptyAgent\nCan-Retransform-Classes: true\n' > "$scratch/empty/manifest"
"$jdk17/bin/jar" cfm "$scratch/empty.jar" "$scratch/empty/manifest" -C "$scratch/empty" EmptyAgent.class
cd "$scratch"

median() {
    sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

# wall NAME COMMAND...: median wall time of RUNS runs, in ms
wall() {
    local name=$1 i start end
    shift
    local times=()
    for ((i = 0; i < runs; i++)); do
        start=$EPOCHREALTIME
        "$@" > /dev/null 2>&1
        end=$EPOCHREALTIME
        times+=("$(( ${end/./} - ${start/./} ))")
    done
    local m
    m=$(printf '%s\n' "${times[@]}" | median)
    printf '%-58s median %7d.%d ms\n' "$name" $((m / 1000)) $(((m % 1000) / 100))
}

# one_start WARMUP JAVA FLAGS...: the mean microseconds per /bin/true start over SPAWNS starts,
# after WARMUP starts, in one JVM
one_start() {
    local warmup=$1
    shift
    "$@" -cp "$scratch/classes" AgentTarget spawn-true "$spawns" "$warmup" 2>/dev/null | sed -n 's/^SPAWN_US //p'
}

# per_spawn NAME WARMUP JAVA FLAGS...: one_start in RUNS JVMs with the agent flags (${with[@]}),
# median of the means
per_spawn() {
    local name=$1 warmup=$2 i
    shift 2
    local values=()
    for ((i = 0; i < runs; i++)); do
        values+=("$(one_start "$warmup" "$@")")
    done
    printf '%-58s median %7s us   (runs: %s)\n' "$name" "$(printf '%s\n' "${values[@]}" | median)" "${values[*]}"
}

# paired NAME WARMUP JAVA: RUNS pairs of JVMs, one without the agent and one with it, run one
# after the other (which goes first alternates), so that the machine's drift over the minutes a
# case takes falls on both sides of each pair alike; prints the medians of both sides and the
# median of the pairs' differences in per cent
paired() {
    local name=$1 warmup=$2 java=$3 i a b
    local without=() agent=() pct=()
    for ((i = 0; i < runs; i++)); do
        if ((i % 2 == 0)); then
            a=$(one_start "$warmup" "$java" -Xshare:auto)
            b=$(one_start "$warmup" "$java" -Xshare:auto "${with[@]}")
        else
            b=$(one_start "$warmup" "$java" -Xshare:auto "${with[@]}")
            a=$(one_start "$warmup" "$java" -Xshare:auto)
        fi
        without+=("$a")
        agent+=("$b")
        pct+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b - a) * 100 / a }')")
    done
    printf '%-58s median %7s us   (runs: %s)\n' "$name, without agent" "$(printf '%s\n' "${without[@]}" | median)" "${without[*]}"
    printf '%-58s median %7s us   (runs: %s)\n' "$name, with agent" "$(printf '%s\n' "${agent[@]}" | median)" "${agent[*]}"
    printf '%-58s median %+6s %%    (pairs: %s)\n' "$name, difference per pair" "$(printf '%s\n' "${pct[@]}" | median)" "${pct[*]}"
}

for java in "$jdk17" "$jdk25"; do
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$java/release")
    j=$java/bin/java
    with=(-javaagent:"$agent"=launcher=$launcher)
    echo "== JDK $v ($java)"
    # a first run starts the judge server (JDK 17) and fills the caches
    "$j" "${with[@]}" -cp classes AgentTarget pb /bin/true > /dev/null 2>&1
    wall "start, no process, without agent" "$j" -Xshare:auto -cp classes AgentTarget nothing
    wall "start, no process, with an empty agent" "$j" -Xshare:auto -javaagent:empty.jar -cp classes AgentTarget nothing
    wall "start, no process, with agent" "$j" -Xshare:auto "${with[@]}" -cp classes AgentTarget nothing
    wall "start + first /bin/true, without agent" "$j" -Xshare:auto -cp classes AgentTarget pb /bin/true
    wall "start + first /bin/true, with agent" "$j" -Xshare:auto "${with[@]}" -cp classes AgentTarget pb /bin/true
    paired "one /bin/true start over the first $spawns" 50 "$j"
    # the same once the JIT has compiled the gate (and, without the agent, the JDK's own code)
    paired "one start after $warm starts" "$warm" "$j"
    if [ "$v" -lt 25 ]; then
        # the first starts of a JVM again, now that the judge server (shared by every JVM and shell
        # of the user, and long-lived) has itself been compiled by its JIT: the rows above met a
        # server that had answered only the start-up cases' requests
        per_spawn "one /bin/true start, with agent, the server warm" 50 "$j" -Xshare:auto "${with[@]}"
    fi
done
