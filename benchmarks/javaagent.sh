#!/usr/bin/env bash
# The javaagent's cost, as whole processes, on JDK 17 (judge server) and JDK 25 (judge in the JVM):
#  - start-up of a JVM that starts no process: without an agent, with an empty agent (what
#    -javaagent itself costs) and with shellgate's (median wall time);
#  - the first start of /bin/true in a JVM (the one-time installation), with and without;
#  - the cost of one start of /bin/true (ProcessBuilder.start + waitFor, mean over SPAWNS starts
#    inside one JVM) after 50 warm-up starts, and again after WARM warm-up starts (the JIT has then
#    compiled the gate), with and without; median of RUNS JVMs. On JDK 17 (judge server) the first
#    case once more at the end, when the server, which every JVM and shell of the user shares, has
#    been compiled by its own JIT too.
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

# per_spawn NAME WARMUP JAVA FLAGS...: median over RUNS JVMs of the mean microseconds per /bin/true
# start, over SPAWNS starts after WARMUP starts in the same JVM
per_spawn() {
    local name=$1 warmup=$2 i
    shift 2
    local values=()
    for ((i = 0; i < runs; i++)); do
        values+=("$("$@" -cp "$scratch/classes" AgentTarget spawn-true "$spawns" "$warmup" 2>/dev/null | sed -n 's/^SPAWN_US //p')")
    done
    printf '%-58s median %7s us   (runs: %s)\n' "$name" "$(printf '%s\n' "${values[@]}" | median)" "${values[*]}"
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
    per_spawn "one /bin/true start, without agent" 50 "$j" -Xshare:auto
    per_spawn "one /bin/true start, with agent" 50 "$j" -Xshare:auto "${with[@]}"
    # the same once the JIT has compiled the gate (and, without the agent, the JDK's own code)
    per_spawn "one start after $warm starts, without agent" "$warm" "$j" -Xshare:auto
    per_spawn "one start after $warm starts, with agent" "$warm" "$j" -Xshare:auto "${with[@]}"
    if [ "$v" -lt 25 ]; then
        # the first starts of a JVM again, now that the judge server (shared by every JVM and shell
        # of the user, and long-lived) has itself been compiled by its JIT: the rows above met a
        # server that had answered only the start-up cases' requests
        per_spawn "one /bin/true start, with agent, the server warm" 50 "$j" -Xshare:auto "${with[@]}"
    fi
done
