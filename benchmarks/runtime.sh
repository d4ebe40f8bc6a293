#!/usr/bin/env bash
# The Java runtime the distribution carries against a system JDK 25: the size of the runtime and of the archive,
# and the wall time of one `shellgate check -- ls -la` (a JVM start with its AOT cache, judging one line), run
# after run, interleaved. The bundled runtime uses the AOT cache the build made; the system JDK the per-user cache
# the launcher makes on first use (made here before timing).
# Usage: benchmarks/runtime.sh [RUNS] [JDK]   (after mvn -B package -DskipTests; JDK default: $JAVA_HOME)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
jdk=${2:-${JAVA_HOME:?give a JDK 25 or set JAVA_HOME}}
dist=$(ls -d "$PWD"/launcher/target/shellgate-*/ 2>/dev/null | head -n1)
[ -x "$dist/shellgate" ] && [ -d "$dist/runtime" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch SHELLGATE_CACHE_DIR=$scratch/cache SHELLGATE_NO_SERVER=1
unset JAVA_HOME
echo "runtime: $(du -sh "$dist/runtime" | cut -f1), AOT cache $(du -sh "$dist/shellgate.aot" | cut -f1)"
for f in "$dist"/../shellgate-*.tar.gz "$dist"/../shellgate_*.deb; do
    [ -f "$f" ] && echo "$(basename "$f"): $(du -sh "$f" | cut -f1)"
done
# the system JDK's per-user AOT cache, made by a first run in the background
SHELLGATE_JAVA_HOME=$jdk "$dist/shellgate" check -- ls > /dev/null
for ((i = 0; i < 600; i++)); do
    compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null && [ -z "$(compgen -G "$SHELLGATE_CACHE_DIR/aot/*.lock")" ] && break
    sleep 0.5
done
compgen -G "$SHELLGATE_CACHE_DIR/aot/*.aot" > /dev/null || { echo "the system JDK's AOT cache was not made" >&2; exit 1; }
bundled=() system=()
for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME; "$dist/shellgate" check -- ls -la > /dev/null; end=$EPOCHREALTIME
    bundled+=($(( ${end/./} - ${start/./} )))
    start=$EPOCHREALTIME; SHELLGATE_JAVA_HOME=$jdk "$dist/shellgate" check -- ls -la > /dev/null; end=$EPOCHREALTIME
    system+=($(( ${end/./} - ${start/./} )))
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
echo "runs: $runs, interleaved; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "shellgate check -- ls -la, bundled runtime + build's AOT cache: median $(( $(median "${bundled[@]}") / 1000 )) ms"
echo "shellgate check -- ls -la, $jdk + per-user AOT cache: median $(( $(median "${system[@]}") / 1000 )) ms"
