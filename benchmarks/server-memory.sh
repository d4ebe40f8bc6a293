#!/usr/bin/env bash
# The judge server's resident memory (VmRSS) as a user meets it: right after it starts, after a burst of
# requests (every line of shellgate's own corpus, 5 times, on one connection), and then every few seconds of
# idling up to 90 s, which shows whether what the burst took is given back within a minute.
# Usage: benchmarks/server-memory.sh [LAUNCHER]   (default: the built distribution's launcher, with the Java
# runtime and AOT cache it carries; after mvn -B package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
sg=${1:-$(ls -d "$PWD"/launcher/target/shellgate-*/ 2>/dev/null | head -n1)shellgate}
[ -x "$sg" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
scratch=$(mktemp -d)
export SHELLGATE_RUN_DIR=$scratch/run SHELLGATE_CACHE_DIR=$scratch/cache SHELLGATE_SHELL=/bin/bash HOME=$scratch
unset SHELLGATE_JAVA_HOME
cleanup() {
    if [ -r "$SHELLGATE_RUN_DIR/server.pid" ]; then kill "$(cat "$SHELLGATE_RUN_DIR/server.pid")" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT
corpus=$PWD/judge/src/test/resources/corpus
cd "$scratch"
"$sg" serve --idle 300 < /dev/null > /dev/null 2>&1 &
for ((i = 0; i < 300; i++)); do
    [ -r "$SHELLGATE_RUN_DIR/server.port" ] && [ -r "$SHELLGATE_RUN_DIR/server.pid" ] && break
    sleep 0.1
done
pid=$(cat "$SHELLGATE_RUN_DIR/server.pid")
rss() { echo "$(($(awk '/^VmRSS/ {print $2}' "/proc/$pid/status") / 1024))"; }
echo "launcher: $sg"
echo "java: $(tr '\0' ' ' < "/proc/$pid/cmdline" | awk '{print $1}')"
"$sg" -c true
echo "after start and one command: $(rss) MiB"
json() {
    local s=$1
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//$'\t'/\\t}
    j="\"$s\""
}
port=$(cat "$SHELLGATE_RUN_DIR/server.port")
token=$(cat "$SHELLGATE_RUN_DIR/server.token")
mapfile -t lines < <(cat "$corpus"/*.txt | grep -v '^#' | grep -v '^$' | sed 's/^[a-z]*\(:[a-z0-9-]*\)\{0,1\} //')
exec 3<> "/dev/tcp/127.0.0.1/$port"
n=0
for ((round = 0; round < 5; round++)); do
    for line in "${lines[@]}"; do
        json "$line"
        printf '{"v":1,"op":"judge","cmd":%s,"cwd":"/tmp","env":{"PATH":"/usr/bin:/bin","HOME":"/root"},"token":"%s"}\n' "$j" "$token" >&3
        IFS= read -r _ <&3
        n=$((n + 1))
    done
done
exec 3>&-
echo "after $n requests: $(rss) MiB"
for t in 5 10 20 30 45 60 75 90; do
    sleep $((t - ${prev:-0}))
    prev=$t
    echo "idle ${t} s: $(rss) MiB"
done
