#!/usr/bin/env bash
# The CLI on hostile input at full size, with peak memory measured by
# /usr/bin/time -v (apt-get install time). Each case must give the right output or a
# clear error, and stay under a memory bound; the script fails otherwise.
#
#   Fuzz/hostile-cli.sh [path/to/turnstile]      (default: release build, built first)
#
# Cases: a 1 GB line (with and without --max-record-bytes), 256 MB of NUL bytes, a
# pattern file of 100,000 lines with empty lines and duplicates (-F and regex),
# and 2 GB from /dev/zero with --max-record-bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -ge 1 ]; then BIN=$1; else swift build -c release --product turnstile >&2; BIN=$(swift build -c release --show-bin-path)/turnstile; fi
command -v /usr/bin/time >/dev/null || { echo "hostile-cli: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
failures=0

# run NAME MAX_RSS_MB EXPECTED_STATUS COMMAND... ; stdout goes to $TMP/out
run() {
    local name=$1 limit=$2 want=$3; shift 3
    local status=0
    /usr/bin/time -v -o "$TMP/time" "$@" > "$TMP/out" 2> "$TMP/err" || status=$?
    local rss; rss=$(awk -F': ' '/Maximum resident set size/ {print int($2/1024)}' "$TMP/time")
    local secs; secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$TMP/time")
    local verdict=ok
    if [ "$status" != "$want" ]; then verdict="FAIL (exit $status, wanted $want: $(head -c 300 "$TMP/err"))"; fi
    if [ "$rss" -gt "$limit" ]; then verdict="FAIL (peak RSS ${rss} MB > ${limit} MB)"; fi
    printf '%-58s exit %s  peak RSS %5s MB  %s  %s\n' "$name" "$status" "$rss" "$secs" "$verdict"
    [ "$verdict" = ok ] || failures=$((failures + 1))
}
check() { if ! eval "$2"; then echo "  FAIL: $1"; failures=$((failures + 1)); fi; }

# 1. One 1 GB line ending in a spam word, no newline.
{ head -c 1073741824 /dev/zero | tr '\0' 'z'; printf ' winner'; } > "$TMP/line"
run "1 GB line, --max-record-bytes 1M (judged on 1 MB, passed)" 64 1 "$BIN" filter --max-record-bytes 1048576 "$TMP/line"
check "1 GB line passed through whole" '[ "$(stat -c %s "$TMP/out")" = "$(stat -c %s "$TMP/line")" ]'
run "1 GB line, default 64 MiB cap (judged on its first 64 MiB)" 400 1 "$BIN" filter "$TMP/line"
check "1 GB line passed through whole" '[ "$(stat -c %s "$TMP/out")" = "$(stat -c %s "$TMP/line")" ]'
run "1 GB line, match -F (streamed, match at the end)" 400 0 "$BIN" match -F -e winner --count "$TMP/line"
rm -f "$TMP/line"

# 2. 256 MB of NUL bytes.
head -c 268435456 /dev/zero > "$TMP/zeros"
run "256 MB of NUL bytes, filter" 400 1 "$BIN" filter "$TMP/zeros"
check "NUL file passed through unchanged" 'cmp -s "$TMP/out" "$TMP/zeros"'
run "256 MB of NUL bytes, --delimiter nul" 64 1 "$BIN" filter --delimiter nul "$TMP/zeros"
check "NUL records passed through unchanged" 'cmp -s "$TMP/out" "$TMP/zeros"'
rm -f "$TMP/zeros"

# 3. 100,000 patterns with empty lines and duplicates.
python3 - "$TMP/patterns" <<'PY'
import random, sys
r = random.Random(100000)
lines = []
for i in range(100000):
    if i % 1000 == 999: lines.append("")
    elif i % 3 == 0 and lines: lines.append(r.choice(lines))
    else: lines.append("".join(r.choice("abcdefghij") for _ in range(r.randint(3, 10))))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
yes 'the quick brown fox abcdefghij jumps' | head -n 200000 > "$TMP/text"
run "100,000 patterns (-F), 200,000 lines" 512 0 "$BIN" match -F -f "$TMP/patterns" --count "$TMP/text"
run "100,000 patterns as regexes: a clear limit error" 512 2 "$BIN" match -f "$TMP/patterns" --count "$TMP/text"
check "the error names the limit" 'grep -q "states" "$TMP/err"'

# 4. /dev/zero with --max-record-bytes: 2 GB streamed through, memory flat.
run "/dev/zero, --max-record-bytes 64K, first 2 GB" 64 0 bash -c "set -o pipefail; '$BIN' filter --max-record-bytes 65536 /dev/zero | head -c 2147483648 | wc -c > '$TMP/count'; true"
check "2 GB of zeros came out" '[ "$(cat "$TMP/count")" = 2147483648 ]'

echo "hostile-cli: $failures failure(s)"
[ "$failures" = 0 ]
