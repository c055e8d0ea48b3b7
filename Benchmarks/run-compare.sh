#!/usr/bin/env bash
# The full side-by-side comparison: builds `compare` and the `turnstile` CLI in
# release mode (from this package, which depends on the root package by path), runs
# every workload of ../Corpora/bench/workloads.json and writes
#   results/<UTC date>/{table.md,results.csv,chart.svg,machine.txt}
# Extra arguments go to compare (for example --size 16, --filter words, --quick,
# --reps 5); the default here is 1 warm-up + 3 timed runs per engine and workload.
#
#   ./run-compare.sh                 full run: 128 MiB haystacks, 1 GiB filter stream
#   ./run-compare.sh --quick         the CI smoke run (writes results/<date>-quick/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

swift build -c release --product compare
swift build -c release --product turnstile

stamp="$(date -u +%Y-%m-%d)"
reps=(--reps 3)
for arg in "$@"; do
    if [ "$arg" = "--quick" ]; then stamp="$stamp-quick"; reps=(); fi
done
out="results/$stamp"
mkdir -p "$out"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C .. diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "uname: $(uname -srvm)"
    echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    lscpu | grep -E '^(Architecture|Model name|CPU\(s\)|Thread|Core|Socket|L1d|L2|L3|CPU max MHz|Flags)' | cut -c1-200
    echo
    free -h | head -2
} > "$out/machine.txt"

# compare exits 1 when two engines disagree on a count; keep its output either way.
set +e
.build/release/compare --out "$out" --turnstile .build/release/turnstile --scratch "results/tmp" "${reps[@]}" "$@"
status=$?
set -e
rm -rf results/tmp
echo "run-compare: results in Benchmarks/$out (compare exit status $status)"
exit $status
