#!/usr/bin/env bash
# Whole-process start-up of an installed turnstile (issue 25), with hyperfine:
#   1. `turnstile --version` against `rg --version` and `bogofilter -V`;
#   2. `filter` on an empty file (exit 1: no spam, so -i) with the built-in list built at start-up against the same
#      list loaded from a file saved by `turnstile compile -o` (--automaton).
# Usage: Benchmarks/scripts/startup.sh [TURNSTILE]   (default: turnstile on PATH, e.g.
# after `make install`). Prints the load first: run it on an idle machine for real figures.
set -euo pipefail
turnstile=${1:-$(command -v turnstile)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/empty.txt"
"$turnstile" compile -o "$work/spam.tsa"
echo "load: $(uptime)"
echo "binary: $turnstile ($(ldd "$turnstile" | wc -l) shared libraries)"
hyperfine -N --warmup 20 --runs 200 \
    "$turnstile --version" "rg --version" "bogofilter -V"
hyperfine -N -i --warmup 10 --runs 100 \
    "$turnstile filter $work/empty.txt" \
    "$turnstile filter --automaton $work/spam.tsa $work/empty.txt"
