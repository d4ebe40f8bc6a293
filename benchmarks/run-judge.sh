#!/bin/sh
# JMH: time to judge one command line in a warm JVM (median, p99), over the corpora.
# Usage: benchmarks/run-judge.sh [extra JMH options]   (after mvn -B install)
set -e
cd "$(dirname "$0")/.."
java=${SHELLGATE_JAVA_HOME:-${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}}/bin/java
exec "$java" --enable-native-access=ALL-UNNAMED -jar benchmarks/target/benchmarks.jar JudgeBenchmark -rf json \
    -rff benchmarks/target/judge-benchmark.json "$@"
