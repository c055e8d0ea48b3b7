#!/usr/bin/env bash
# The CLI on hostile input, with exit status and peak memory (/usr/bin/time -v) per
# case. Each case must give the right output or a clear error (exit 2) and stay under
# its memory bound; the script fails otherwise. Issue 16's bound is 64 MiB at default
# limits for every input; cases that do not meet it yet are listed in KNOWN_GAPS below
# (reported as "known gap", not failed; one that starts passing is reported too, so the
# list is kept honest). Fuzz/README.md records the last full-size run.
#
#   Fuzz/hostile-cli.sh [--small] [path/to/turnstile]   (default: release build, built first)
#
# Full size: a 1 GB line, 1 GB of /dev/zero as a record, as a pattern file and as an
# automaton, a 19 MB line dense with matches (count, JSON, match), 256 MB of NUL bytes,
# 100,000 patterns (-F and regex), a word list whose long word is pruned, 400 single-byte
# changes to a saved automaton, a symlink loop under eval, 2 GB from /dev/zero with
# --max-record-bytes, and the mail hostile set through --tag, --spam-to and
# --move-spam-to. --small (CI) runs every case with inputs about 1/32 the size; the
# memory bounds stay the same.
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=1
if [ "${1:-}" = --small ]; then SCALE=32; shift; fi
if [ "$#" -ge 1 ]; then BIN=$1; else swift build -c release --product turnstile >&2; BIN=$(swift build -c release --show-bin-path)/turnstile; fi
command -v /usr/bin/time >/dev/null || { echo "hostile-cli: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
failures=0
GiB=$((1073741824 / SCALE)); MiB=1048576

# Cases known to fail today: match --count-matches holds a line in memory, as grep and
# rg do (up to 4 GiB; lines are judged whole in pieces only when lines are selected:
# issue 48), so the 1 GB line peaks far above 64 MiB, and building the 100,000-word
# automaton peaks above 64 MiB (issue 28).
KNOWN_GAPS=" line-match patterns-100k patterns-words "

# run ID NAME MAX_RSS_MB EXPECTED_STATUS COMMAND... ; stdout goes to $TMP/out
run() {
    local id=$1 name=$2 limit=$3 want=$4; shift 4
    local status=0
    /usr/bin/time -v -o "$TMP/time" "$@" > "$TMP/out" 2> "$TMP/err" || status=$?
    local rss; rss=$(awk -F': ' '/Maximum resident set size/ {print int($2/1024)}' "$TMP/time")
    local secs; secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$TMP/time")
    local verdict=ok
    if [ "$status" != "$want" ]; then verdict="FAIL (exit $status, wanted $want: $(head -c 300 "$TMP/err"))"; fi
    if [ "$verdict" = ok ] && [ "$rss" -gt "$limit" ]; then verdict="FAIL (peak RSS ${rss} MB > ${limit} MB)"; fi
    if [[ "$KNOWN_GAPS" == *" $id "* ]]; then
        if [ "$verdict" = ok ]; then verdict="ok (now passes: remove '$id' from KNOWN_GAPS)"; else verdict="known gap: ${verdict#FAIL }"; fi
    elif [ "$verdict" != ok ]; then
        failures=$((failures + 1))
    fi
    printf '%-62s exit %s  peak RSS %5s MB  %8s  %s\n' "$name" "$status" "$rss" "$secs" "$verdict"
}
check() { if ! eval "$2"; then echo "  FAIL: $1"; failures=$((failures + 1)); fi; }
size() { stat -c %s "$1"; }
# $TMP/out is FILE, plus the `\n` filter adds to a last line that has none (as grep does).
passed() { [ "$(size "$TMP/out")" = $(($(size "$1") + 1)) ] && cmp -s -n "$(size "$1")" "$TMP/out" "$1"; }

# 1. One long line ending in a spam word, no newline.
{ head -c "$GiB" /dev/zero | tr '\0' 'z'; printf ' winner'; } > "$TMP/line"
run line-1m "$((GiB >> 20)) MB line, --max-record-bytes 1M (judged on 1 MB, passed)" 64 1 "$BIN" filter --max-record-bytes 1048576 "$TMP/line"
check "long line passed through whole (plus the newline that ends a last line, as grep)" 'passed "$TMP/line"'
run line-default "$((GiB >> 20)) MB line, default 16 MiB cap (judged on its head)" 64 1 "$BIN" filter "$TMP/line"
check "long line passed through whole (plus the newline that ends a last line, as grep)" 'passed "$TMP/line"'
run line-match "$((GiB >> 20)) MB line, match -F --count-matches (match at the end)" 64 0 "$BIN" match -F -e winner --count-matches "$TMP/line"
run line-select "$((GiB >> 20)) MB line, match -c and grep -l (judged whole in pieces, match at the end)" 64 0 bash -c "'$BIN' match -F -c -e winner '$TMP/line' > '$TMP/count' && '$BIN' grep -l 'z winner\$' '$TMP/line' >> '$TMP/count'"
check "the match at the end of the long line is found" '[ "$(head -1 "$TMP/count")" = 1 ] && [ "$(tail -1 "$TMP/count")" = "$TMP/line" ]' 
rm -f "$TMP/line"

# 2. /dev/zero as one record, as a pattern file and as an automaton.
# Through a pipe (64 KiB per read): a record's end is searched in the new bytes only
# (this took 27 s for 64 MB when every read rescanned the record); 120 s is a hang.
run zero-record "$((GiB >> 20)) MB of /dev/zero as one record through a pipe, filter --count" 64 1 timeout 120 bash -c "head -c $GiB /dev/zero | '$BIN' filter --count"
run zero-patterns "/dev/zero as a pattern file (-f): a limit error" 64 2 "$BIN" match -f /dev/zero /dev/null
check "the error names the flag" 'grep -q -- "--max-pattern-file-bytes" "$TMP/err"'
run zero-automaton "/dev/zero as a saved automaton: a limit error" 64 2 "$BIN" filter --automaton /dev/zero /dev/null

# 3. A 19 MB line dense with matches: counting, scoring and JSON must stream them.
# (19 MB at either size: the case is about matches per record, and it is quick.)
python3 -c "import sys; sys.stdout.write('free cash now win prize ' * 800000 + '\n')" > "$TMP/dense"
run dense-count "$(($(size "$TMP/dense") >> 20)) MB line dense with matches, filter --count" 64 0 "$BIN" filter --count "$TMP/dense"
run dense-json "$(($(size "$TMP/dense") >> 20)) MB line dense with matches, filter --json" 64 0 "$BIN" filter --json "$TMP/dense"
run dense-match "$(($(size "$TMP/dense") >> 20)) MB line dense with matches, match --count-matches -F -e free -e cash" 64 0 "$BIN" match --count-matches -F -e free -e cash "$TMP/dense"
run dense-match-c "$(($(size "$TMP/dense") >> 20)) MB line dense with matches, match -c -F -e free -e cash" 64 0 "$BIN" match -c -F -e free -e cash "$TMP/dense"
rm -f "$TMP/dense"

# 4. NUL bytes.
head -c $((GiB / 4)) /dev/zero > "$TMP/zeros"
run nul-lines "$((GiB >> 22)) MB of NUL bytes, filter (one line, judged on its head)" 64 1 "$BIN" filter --max-record-bytes 1048576 "$TMP/zeros"
check "NUL file passed through unchanged (plus the final newline)" 'passed "$TMP/zeros"'
run nul-records "$((GiB >> 22)) MB of NUL bytes, --delimiter nul" 64 1 "$BIN" filter --delimiter nul "$TMP/zeros"
check "NUL records passed through unchanged" 'cmp -s "$TMP/out" "$TMP/zeros"'
rm -f "$TMP/zeros"

# 5. 100,000 patterns with empty lines and duplicates.
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
python3 -c "import sys; sys.stdout.write('the quick brown fox abcdefghij jumps\n' * (200000 // $SCALE))" > "$TMP/text"
run patterns-100k "100,000 patterns (-F), $((200000 / SCALE)) lines" 64 0 "$BIN" match -F -f "$TMP/patterns" --count-matches "$TMP/text"
# Plain words without -F are still words (grep's rule): the same answer as -F.
"$BIN" match -F -f "$TMP/patterns" --count-matches "$TMP/text" > "$TMP/fixed" 2>&1 || true
run patterns-words "100,000 plain words without -F: the literal automaton" 64 0 "$BIN" match -f "$TMP/patterns" --count-matches "$TMP/text"
check "plain words without -F count what -F counts" 'cmp -s "$TMP/out" "$TMP/fixed"'
# Each word followed by a class is a regex: past the state limit, a clear error.
sed '/./s/$/[a-j]/' "$TMP/patterns" > "$TMP/regexes"
run patterns-regex "100,000 regexes (word[a-j]): a clear limit error" 512 2 "$BIN" match -f "$TMP/regexes" --count-matches "$TMP/text"
check "the error names the limit" 'grep -q "states" "$TMP/err"'

# 6. A word list whose 1 MB word can never be reported (leftmost-first prunes it):
#    the search buffers are sized by the words that can be.
{ echo a; head -c $((MiB)) /dev/zero | tr '\0' 'a'; echo; } > "$TMP/words"
run pruned-word "a pruned 1 MB word in a -F list: buffers stay small" 64 0 bash -c "python3 -c \"import sys; sys.stdout.write('xaab a\\\\n' * 100000)\" | '$BIN' match -F -f '$TMP/words' --count-matches"

# 7. Single-byte changes to a saved automaton: each one rejected (exit 2), none crashes.
printf 'free\nwinner\ncash prize\n' > "$TMP/list"
"$BIN" compile -F -f "$TMP/list" -o "$TMP/list.tsa" 2>/dev/null
python3 - "$TMP/list.tsa" "$TMP/flips" 400 <<'PY'
import os, random, sys
data = open(sys.argv[1], "rb").read()
os.makedirs(sys.argv[2], exist_ok=True)
r = random.Random(16)
for i in range(int(sys.argv[3])):
    b = bytearray(data)
    k = (i * len(b)) // int(sys.argv[3])
    b[k] ^= r.randrange(1, 256)
    open(os.path.join(sys.argv[2], f"{i:03}.tsa"), "wb").write(bytes(b))
PY
accepted=0; crashed=0
for f in "$TMP"/flips/*.tsa; do
    s=0; printf 'free winner\n' | "$BIN" filter --automaton "$f" --count > /dev/null 2>&1 || s=$?
    if [ "$s" -ge 128 ]; then crashed=$((crashed + 1)); elif [ "$s" != 2 ]; then accepted=$((accepted + 1)); fi
done
printf '%-62s %s accepted, %s crashed of 400\n' "400 single-byte changes to a saved automaton" "$accepted" "$crashed"
check "no changed automaton crashes the loader" '[ "$crashed" = 0 ]'
if [ "$accepted" != 0 ]; then
    if [[ "$KNOWN_GAPS" == *" flips "* ]]; then echo "  known gap: $accepted changed files accepted"; else echo "  FAIL: $accepted changed files accepted"; failures=$((failures + 1)); fi
fi

# 8. A symlink loop under eval's directories: a warning, each file read once.
mkdir -p "$TMP/mail/spam/deeper" "$TMP/mail/ham"
echo "win cash prize now" > "$TMP/mail/spam/a.txt"; echo "see you at lunch" > "$TMP/mail/ham/b.txt"
ln -s .. "$TMP/mail/spam/deeper/loop"
run symlink-loop "a symlink loop under eval --spam: a warning, no endless walk" 64 0 "$BIN" eval --spam "$TMP/mail/spam" --ham "$TMP/mail/ham"
check "the loop is reported" 'grep -q "recursive directory loop" "$TMP/err"'
check "each file read once (2 spam records: a.txt, and nothing twice)" 'grep -q "^records 2: 1 spam, 1 ham" "$TMP/out"'

# 9. /dev/zero with --max-record-bytes: 2 GB streamed through, memory flat.
run zero-stream "/dev/zero, --max-record-bytes 64K, first $((2 * GiB >> 20)) MB" 64 0 bash -c "set -o pipefail; '$BIN' filter --max-record-bytes 65536 /dev/zero | head -c $((2 * GiB)) | wc -c > '$TMP/count'; true"
check "all of it came out" '[ "$(cat "$TMP/count")" = $((2 * GiB)) ]'

# 10. The mail hostile set (issue 23; Fuzz/hostile-mail.py makes it and checks the
# results): no header, empty, binary, a 30 MB attachment, a 20 MB Subject, nesting 20
# deep, broken base64, an unknown charset, CR-only, CRLF, NUL, no final newline and a
# `From ` line in the body, through --tag (each message alone on standard input, and
# all of them as one mbox), --spam-to and --move-spam-to: the output is the input plus
# the added fields only (a header past --max-record-bytes: unchanged, with a warning),
# nothing is lost, --tag exits 0, memory stays under 64 MiB plus the largest message.
MAIL="$TMP/hostile-mail"; mkdir -p "$MAIL"
largest=$(python3 Fuzz/hostile-mail.py make "$MAIL" "$SCALE")
mail_limit=$((64 + (largest + MiB - 1) / MiB))
run mail-tag-eml "mail hostile set, each message: filter --format eml --tag -" "$mail_limit" 0 bash -c "for f in '$MAIL'/eml/*; do '$BIN' filter --format eml --tag - < \"\$f\" > \"\$f.tagged\" 2> \"\$f.err\" || exit \$?; done"
for f in "$MAIL"/eml/*; do
    case $f in *.tagged|*.err) continue ;; esac
    check "--tag on $(basename "$f"): the input plus the added fields only" 'python3 Fuzz/hostile-mail.py tagged "$f" "$f.tagged" "$f.err"'
done
run mail-tag-mbox "mail hostile set as one mbox: filter --format mbox --tag" "$mail_limit" 0 "$BIN" filter --format mbox --tag "$MAIL/all.mbox"
check "--tag on the mbox: the input plus the added fields only" 'python3 Fuzz/hostile-mail.py tagged-mbox "$MAIL/all.mbox" "$TMP/out" "$TMP/err"'
printf 'viagra\t5\n' > "$MAIL/rules.tsv"
rules=(-F -i -w --rules "$MAIL/rules.tsv" --threshold 1)
"$BIN" filter --format mbox "${rules[@]}" --json "$MAIL/all.mbox" > "$MAIL/verdicts.json" || true
printf 'From earlier@example.invalid  Thu Jan  1 00:00:00 2001\n\nearlier mail\n\n' > "$MAIL/prior.mbox"
cp "$MAIL/prior.mbox" "$MAIL/Junk.mbox"
run mail-spam-to "mail hostile set: --spam-to an mbox holding earlier mail" "$mail_limit" 0 "$BIN" filter --format mbox "${rules[@]}" --spam-to "$MAIL/Junk.mbox" "$MAIL/all.mbox"
check "clean messages out and spam appended, byte for byte, earlier mail kept" 'python3 Fuzz/hostile-mail.py split "$MAIL/all.mbox" "$MAIL/verdicts.json" "$TMP/out" "$MAIL/prior.mbox" "$MAIL/Junk.mbox"'
run mail-move "mail hostile set in a Maildir: --move-spam-to" "$mail_limit" 0 "$BIN" filter --format maildir "${rules[@]}" --count --move-spam-to "$MAIL/Junk" "$MAIL/Maildir"
check "every message in exactly one Maildir, byte for byte" 'python3 Fuzz/hostile-mail.py moved "$MAIL/manifest.json" "$MAIL/Maildir" "$MAIL/Junk"'
rm -rf "$MAIL"

echo "hostile-cli: $failures failure(s)"
[ "$failures" = 0 ]
