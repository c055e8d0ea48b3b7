#!/usr/bin/env bash
# Whole-process start-up of turnstile against rg and GNU grep (issue 40), as a Markdown
# table for the README: mean wall time (hyperfine, -N: no shell) and peak RSS
# (/usr/bin/time, the largest of 5 runs) of
#   --version, and `match -c foo small.txt` (rg -c / grep -c on the same file);
#   a static Swift "hello" (swiftc -static-stdlib), the floor any Swift program starts at;
#   `filter` on an empty file with the built-in list built at start-up, and the same list
#   loaded from a file saved by `turnstile compile -o` (--automaton).
# Usage: Benchmarks/scripts/startup.sh [TURNSTILE]   (default: turnstile on PATH, e.g.
# after `make install`). Prints the load first: take the figures on an idle machine.
#
# Peak RSS counts the executable's pages mapped from the page cache, and how many a
# fault maps depends on how the file got there (a file `strip` or `install` just wrote
# sits in large folios: turnstile's --version 15 MB, against 4.7 MB read from disk).
# So before each RSS run the executable's cached pages are dropped
# (posix_fadvise DONTNEED, that file only) and it is read back as after a reboot.
set -euo pipefail
turnstile=${1:-$(command -v turnstile)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/empty.txt"
printf 'foo\nbar\nfoo bar\n' >"$work/small.txt"
"$turnstile" compile -o "$work/spam.tsa"
printf 'print("hello")\n' >"$work/hello.swift"
hello=""
if swiftc -O -static-stdlib "$work/hello.swift" -o "$work/hello" 2>/dev/null; then hello="$work/hello"; fi

echo "load: $(uptime)"
echo "binary: $turnstile ($(du -h "$turnstile" | cut -f1), $(ldd "$turnstile" 2>/dev/null | wc -l) shared libraries)"
echo

rows=(
    "turnstile --version|$turnstile --version"
    "turnstile match -c foo small.txt|$turnstile match -c foo $work/small.txt"
    "rg --version|rg --version"
    "rg -c foo small.txt|rg -c foo $work/small.txt"
    "grep --version|grep --version"
    "grep -c foo small.txt|grep -c foo $work/small.txt"
    "turnstile filter empty.txt (built-in list built)|$turnstile filter $work/empty.txt"
    "turnstile filter --automaton saved.tsa empty.txt|$turnstile filter --automaton $work/spam.tsa $work/empty.txt"
)
[ -n "$hello" ] && rows+=("static Swift hello (the floor)|$hello")

echo "| command | mean time | peak RSS |"
echo "|---|--:|--:|"
for row in "${rows[@]}"; do
    name=${row%%|*}
    cmd=${row#*|}
    command -v "${cmd%% *}" >/dev/null 2>&1 || [ -x "${cmd%% *}" ] || { echo "| $name | (not installed) | |"; continue; }
    hyperfine -N -i --warmup 20 --runs 200 --export-json "$work/h.json" "$cmd" >/dev/null 2>&1
    mean=$(python3 -c 'import json,sys; print("%.1f ms" % (json.load(open(sys.argv[1]))["results"][0]["mean"] * 1000))' "$work/h.json")
    rss=0
    exe=$(command -v "${cmd%% *}")
    for _ in 1 2 3 4 5; do
        python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$exe" || true
        /usr/bin/time -f '%M' -o "$work/rss" $cmd >/dev/null 2>&1 || true
        r=$(tail -1 "$work/rss")
        [ "$r" -gt "$rss" ] && rss=$r
    done
    echo "| \`$name\` | $mean | $(python3 -c "print('%.1f MB' % ($rss / 1024))") |"
done
