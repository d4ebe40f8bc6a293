#!/bin/sh
# Commands per second of `shellgate check --batch` as a whole process (JVM start included),
# fed the reference corpora repeated to N lines. Several runs; prints each and the median.
# Usage: benchmarks/batch-throughput.sh [LINES] [RUNS]   (after mvn -B install)
set -e
cd "$(dirname "$0")/.."
lines=${1:-20000}
runs=${2:-5}
input=$(mktemp)
trap 'rm -f "$input"' EXIT
while [ "$(wc -l < "$input")" -lt "$lines" ]; do
    cat ../shared/corpus/*.jsonl >> "$input"
done
head -n "$lines" "$input" > "$input.n" && mv "$input.n" "$input"
results=""
i=0
while [ $i -lt "$runs" ]; do
    start=$(date +%s%N)
    launcher/target/shellgate check --batch < "$input" > /dev/null
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    rate=$(( lines * 1000 / ms ))
    echo "run $((i + 1)): $lines lines in $ms ms = $rate lines/s"
    results="$results $rate"
    i=$((i + 1))
done
echo "median: $(printf '%s\n' $results | sort -n | sed -n "$(( (runs + 1) / 2 ))p") lines/s"
