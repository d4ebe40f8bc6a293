#!/bin/sh
# JMH: time to answer the deeply nested lines of issue 19 (nested defaults, substitutions, subshells,
# doubling), each of which must be answered in under a second and not allowed.
# Usage: benchmarks/run-nested.sh [extra JMH options]   (after mvn -B install)
set -e
cd "$(dirname "$0")/.."
java=${SHELLGATE_JAVA_HOME:-${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}}/bin/java
exec "$java" --enable-native-access=ALL-UNNAMED -jar benchmarks/target/benchmarks.jar NestedExpansionBenchmark -rf json \
    -rff benchmarks/target/nested-benchmark.json "$@"
