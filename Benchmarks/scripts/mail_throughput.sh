#!/usr/bin/env bash
# Mail mode's messages/s beside bogofilter's and SpamAssassin's, on the same messages
# (issue 52), as a Markdown table for the README. The messages are SpamAssassin's shared
# ham and spam mbox files (../shared/corpora/spamassassin), cut into one file each in a
# Maildir, so every program reads the same bytes from the page cache:
#   turnstile filter --format maildir --count, the built-in mail list (no training);
#   the same with --threads 1;
#   bogofilter -t -B on the Maildir's files (-t: a verdict line per message), with a word list trained first on both mbox files (the
#   training is not timed);
#   SpamAssassin's spamd (-L, no network tests; its Bayes left as installed) judging every
#   $SA_EVERY-th file (ham and spam) through `spamc -c`, one at a time, as a mail server
#   hands them over (spamd's start-up is not timed).
# Each row is the best of $RUNS runs, wall clock: take the figures on an idle machine
# (the script prints the load before and after).
# Usage: Benchmarks/scripts/mail_throughput.sh [TURNSTILE] [CORPORA]
set -euo pipefail
turnstile=${1:-$(command -v turnstile)}
corpora=${2:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/corpora}
runs=${RUNS:-3}
sa_every=${SA_EVERY:-10}
sa_port=${SA_PORT:-7861}
work=$(mktemp -d)
spamd_pid=""
cleanup() {
    if [[ -n "$spamd_pid" ]]; then kill "$spamd_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/mail/cur" "$work/mail/new" "$work/mail/tmp" "$work/bogo"
python3 - "$work/mail/cur" "$corpora/spamassassin/ham.mbox" "$corpora/spamassassin/spam.mbox" <<'EOF'
import mailbox, sys
out, n = sys.argv[1], 0
for path in sys.argv[2:]:
    box = mailbox.mbox(path)
    for key in box.keys():
        with open(f"{out}/{n:05d}.eml", "wb") as f:
            f.write(box.get_bytes(key))
        n += 1
EOF
count=$(ls "$work/mail/cur" | wc -l)
bytes=$(cat "$work/mail/cur"/* | wc -c)
bogofilter -d "$work/bogo" -M -s <"$corpora/spamassassin/spam.mbox"
bogofilter -d "$work/bogo" -M -n <"$corpora/spamassassin/ham.mbox"

# The best wall time of $runs runs of "$@", in seconds.
best() {
    local best="" t
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$work/time" -f %e "$@" >/dev/null 2>&1 || true
        t=$(tail -1 "$work/time")
        if [[ -z "$best" ]] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    done
    echo "$best"
}
row() {  # name, messages, seconds
    awk -v n="$1" -v m="$2" -v s="$3" 'BEGIN{printf "| %s | %d | %.2f s | %.0f |\n", n, m, s, m / s}'
}

# Every program judges every message (a run that judged none would look fast).
judged=$("$turnstile" filter --format maildir --count "$work/mail" | awk '{print $2 + $4}')
[[ "$judged" -eq "$count" ]] || { echo "turnstile judged $judged of $count messages" >&2; exit 1; }
judged=$(bogofilter -d "$work/bogo" -t -B "$work/mail/cur" | wc -l)
[[ "$judged" -eq "$count" ]] || { echo "bogofilter judged $judged of $count messages" >&2; exit 1; }

echo "load before: $(uptime)"
echo "messages: $count ($bytes bytes), SpamAssassin: every ${sa_every}th"
echo
echo "| program | messages | wall | messages/s |"
echo "|---|--:|--:|--:|"
row "turnstile filter --format maildir --count (built-in mail list)" "$count" \
    "$(best "$turnstile" filter --format maildir --count "$work/mail")"
row "the same, --threads 1" "$count" \
    "$(best "$turnstile" filter --format maildir --count --threads 1 "$work/mail")"
row "bogofilter 1.2.5 -t -B (trained on both files)" "$count" \
    "$(best bogofilter -d "$work/bogo" -t -B "$work/mail/cur")"

spamd -L -p "$sa_port" -i 127.0.0.1 -A 127.0.0.1 --max-children 2 -s stderr 2>/dev/null &
spamd_pid=$!
# Ready when spamc -x gets a verdict (0 ham, 1 spam) rather than a connection error.
for _ in $(seq 120); do
    status=0
    printf 'Subject: x\n\nx\n' | spamc -p "$sa_port" -x -c >/dev/null 2>&1 || status=$?
    if [[ $status -le 1 ]]; then break; fi
    sleep 1
done
ls "$work/mail/cur" | awk -v every="$sa_every" 'NR % every == 1' | sed "s|^|$work/mail/cur/|" >"$work/sa-list"
sa_messages=$(wc -l <"$work/sa-list")
sa_run() { while read -r f; do spamc -p "$sa_port" -c <"$f" >/dev/null || true; done <"$work/sa-list"; }
start=$(date +%s.%N); sa_run; end=$(date +%s.%N)
row "SpamAssassin 4 (spamd -L, spamc -c one message at a time, 2 children)" "$sa_messages" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN{print b - a}')"
echo
echo "load after: $(uptime)"
