#!/bin/sh
# Measures the built-in mail list and learning (README.md, "The built-in mail list";
# `make mail-quality`; issue 43) and prints one table, our rows next to bogofilter's and
# SpamAssassin's where they are installed, on the same messages:
# - the present-day set written for this project (Corpora/present-day: hand-written and
#   generated ham and spam): no ham may be flagged;
# - when ../shared/corpora is there, the SpamAssassin training half: the built-in list
#   on it (its own training data), and 5-fold cross-validation of the procedure that
#   made it (Scripts/train-default-mail-list.sh's settings, the present-day mail in
#   every training fold) — the stand-in for the held-out half, which we do not have;
# - when PHISHING_POT names a folder of .eml files (the open half that
#   ../shared/corpora/phishing-pot/extract.py writes), Phishing Pot: `phishing@pot`
#   replaced by user@example.org, split in two by the SHA-256 of the file name: the
#   built-in list on both halves, then learning as a user teaches a filter (issue 52)
#   — half of the SpamAssassin half, Phishing Pot half A and, from
#   ../shared/corpora/present-ham, R's lists of January–August 2024 and the
#   transactional mail of half the sender domains, judged on the other halves and on
#   the hand-written present-day ham — by `turnstile train` (the list `learn` derives),
#   by `train --prior none` and by bogofilter (-s/-n registration, the same messages),
#   and by SpamAssassin's stock rules (`spamassassin -L`, no network tests, no Bayes;
#   SA_SAMPLE messages of each set) where installed.
# Not part of `make test`: it trains a dozen lists and runs the other filters.
# Phishing Pot is CC BY-NC: nothing of it is written into the repository.
#
# Usage: [PHISHING_POT=dir] [SA_SAMPLE=300] Scripts/measure-default-mail-list.sh
#        (TURNSTILE=path to use another build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${TURNSTILE:-"$root/.build/release/turnstile"}
[ -x "$bin" ] || swift build -c release --product turnstile >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pd=Corpora/present-day
sa="$root/../shared/corpora/spamassassin"

# row LABEL RULES SPAM HAM: one line of the table from `turnstile eval`
row() {
    label=$1 rules=$2 spam=$3 ham=$4
    if [ "$rules" = builtin ]; then set --; else set -- --rules "$rules"; fi
    "$bin" eval --format mbox "$@" --spam "$spam" --ham "$ham" --top 0 | awk -v label="$label" '
        /^tp / { tp = $2; fp = $4; tn = $6; fn = $8 }
        END { printf "| %s | %d of %d (%.1f %%) | %d of %d (%.2f %%) | %.4f | %.4f |\n",
              label, tp, tp + fn, 100 * tp / (tp + fn), fp, fp + tn, 100 * fp / (fp + tn),
              (tp + fp) ? tp / (tp + fp) : 1, tp / (tp + fn) }'
}
# unsure RULES FILE: how many messages of FILE score in the unsure band (0.2 to the threshold)
unsure() {
    if [ "$1" = builtin ]; then set -- "$2"; else set -- --rules "$1" "$2"; fi
    "$bin" filter --format mbox --json "$@" | awk -F'"score":' '{ split($2, a, ","); s = a[1] + 0;
        split($0, b, "\"threshold\":"); split(b[2], c, ","); t = c[1] + 0; n++; if (s >= 0.2 && s < t) u++ }
        END { printf "%d of %d", u, n }'
}
header() {
    echo
    echo "| $1 | spam caught | ham flagged | precision | recall |"
    echo "|---|--:|--:|--:|--:|"
}

cat "$pd/ham.mbox" "$pd/ham-generated.mbox" > "$work/pd-ham.mbox"
cat "$pd/spam.mbox" "$pd/spam-generated.mbox" > "$work/pd-spam.mbox"
echo "Measured $(date -u +%Y-%m-%d) with $("$bin" --version)."
header "built-in list (no training)"
row "present-day, hand-written (17 spam, 45 ham)" builtin "$pd/spam.mbox" "$pd/ham.mbox"
row "present-day, generated (116 spam, 191 ham)" builtin "$pd/spam-generated.mbox" "$pd/ham-generated.mbox"
if [ -f "$sa/spam.mbox" ]; then
    row "SpamAssassin training half (its own training data)" builtin "$sa/spam.mbox" "$sa/ham.mbox"
    # 5-fold cross-validation of the whole procedure: split each class by message number.
    for class in spam ham; do
        awk -v dir="$work" -v class="$class" '/^From / { n++ } { print > (dir "/sa-" class "-" (n % 5) ".mbox") }' "$sa/$class.mbox"
    done
    for k in 0 1 2 3 4; do
        trs=""; trh=""
        for j in 0 1 2 3 4; do
            [ "$j" = "$k" ] && continue
            trs="$trs --spam $work/sa-spam-$j.mbox"; trh="$trh --ham $work/sa-ham-$j.mbox"
        done
        # shellcheck disable=SC2086
        "$bin" train --format mbox $trs $trh --spam "$pd/spam.mbox" --spam "$pd/spam-generated.mbox" \
            --ham "$pd/ham.mbox" --ham "$pd/ham-generated.mbox" $(sh Scripts/default-mail-list-settings.sh) \
            -o "$work/cv-t.txt" > /dev/null 2>&1
        sh Scripts/merge-mail-rules.sh "$work/cv-t.txt" Corpora/spam/builtin-mail-rules.txt > "$work/cv-$k.txt"
        "$bin" eval --format mbox --rules "$work/cv-$k.txt" --spam "$work/sa-spam-$k.mbox" --ham "$work/sa-ham-$k.mbox" --top 0 \
            | awk '/^tp / { print $2, $4, $6, $8 }'
    done | awk '{ tp += $1; fp += $2; tn += $3; fn += $4 }
        END { printf "| SpamAssassin half, 5-fold CV of the procedure (pooled held-out) | %d of %d (%.1f %%) | %d of %d (%.2f %%) | %.4f | %.4f |\n",
              tp, tp + fn, 100 * tp / (tp + fn), fp, fp + tn, 100 * fp / (fp + tn), tp / (tp + fp), tp / (tp + fn) }'
else
    echo "(SpamAssassin half: skipped, $sa is absent)"
fi
echo
echo "present-day ham in the unsure band (0.2 to the threshold), built-in list: $(unsure builtin "$work/pd-ham.mbox")"

[ -n "${PHISHING_POT:-}" ] && [ -d "$PHISHING_POT" ] || { echo; echo "(Phishing Pot: skipped; set PHISHING_POT to the open half's folder)"; exit 0; }
python3 - "$PHISHING_POT" "$work" <<'PY'
import hashlib, os, re, sys
src, out = sys.argv[1], sys.argv[2]
files = {0: open(os.path.join(out, "pp-a.mbox"), "wb"), 1: open(os.path.join(out, "pp-b.mbox"), "wb")}
for name in sorted(os.listdir(src)):
    data = open(os.path.join(src, name), "rb").read()
    data = data.replace(b"phishing@pot", b"user@example.org").replace(b"\r\n", b"\n")
    lines = data.split(b"\n")
    if lines and lines[0].startswith(b"From "):
        lines = lines[1:]
    body = b"\n".join(re.sub(rb"^(>*From )", rb">\1", l) for l in lines).rstrip(b"\n") + b"\n\n"
    half = (int(hashlib.sha256(name.encode()).hexdigest(), 16) >> 1) & 1
    files[half].write(b"From corpus@example.invalid  Thu Jan  1 00:00:00 2026\n" + body)
PY
header "Phishing Pot open half (CC BY-NC, not in the repository)"
row "built-in list, half A" builtin "$work/pp-a.mbox" "$pd/ham.mbox"
row "built-in list, half B" builtin "$work/pp-b.mbox" "$pd/ham.mbox"

[ -f "$sa/spam.mbox" ] || exit 0
# Learning, as a user teaches a filter (issue 52): SpamAssassin's training half split in
# two by message number (even: taught, odd: judged), Phishing Pot half A taught and B
# judged, and, when ../shared/corpora/present-ham is there, present-day ham taught: R's
# lists of January to August 2024 (judged: September to December) and the transactional
# mail of half the sender domains (judged: the other half, by a hash of the domain).
# The same mail teaches `turnstile train` (= `learn`: LearnTests pins that they give the
# same list), `train --prior none` (the list not started from the built-in one) and bogofilter.
ph="$root/../shared/corpora/present-ham"
python3 - "$sa" "$ph" "$work" <<'PY'
import email.utils, hashlib, os, re, sys
sa, ph, out = sys.argv[1:4]
def msgs(path):
    data = open(path, "rb").read()
    return [p for p in re.split(rb"(?m)^(?=From )", data) if p.startswith(b"From ")]
def write(name, ms):
    with open(os.path.join(out, name), "wb") as f:
        for m in ms: f.write(m.rstrip(b"\n") + b"\n\n")
for cls in ("spam", "ham"):
    ms = msgs(os.path.join(sa, cls + ".mbox"))
    write("sa-%s-tr.mbox" % cls, ms[0::2]); write("sa-%s-te.mbox" % cls, ms[1::2])
tr, te = [], []
if os.path.isfile(os.path.join(ph, "rlists-2024.mbox")):
    for m in msgs(os.path.join(ph, "rlists-2024.mbox")):
        d = re.search(rb"(?mi)^Date:\s*(.*)$", m.split(b"\n\n", 1)[0])
        try: month = email.utils.parsedate_to_datetime(d.group(1).decode("latin1")).month
        except Exception: month = 0
        (te if month >= 9 else tr).append(m)
write("rl-tr.mbox", tr); write("rl-te.mbox", te)
tr, te = [], []
folder = os.path.join(ph, "transactional")
for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
    b = open(os.path.join(folder, name), "rb").read().replace(b"\r\n", b"\n")
    f = re.search(rb"(?mi)^From:.*@([A-Za-z0-9.-]+)", b.split(b"\n\n", 1)[0])
    domain = b".".join((f.group(1).lower() if f else b"?").split(b".")[-2:])
    body = b"\n".join(re.sub(rb"^(>*From )", rb">\1", l) for l in b.split(b"\n"))
    m = b"From corpus@example.invalid  Thu Jan  1 00:00:00 2026\n" + body
    (te if int(hashlib.sha256(domain).hexdigest(), 16) % 2 else tr).append(m)
write("tx-tr.mbox", tr); write("tx-te.mbox", te)
PY
# lrow LABEL RULES FILE: messages of FILE judged spam and unsure by RULES
lrow() {
    "$bin" filter --format mbox --rules "$2" --json "$3" | awk -F'"score":' -v label="$1" '{ n++; if ($0 ~ /"spam":true/) s++;
        else { split($2, a, ","); if (a[1] + 0 >= 0.2) u++ } } END { printf "| %s | %d of %d (%.2f %%) | %d |\n", label, s, n, n ? 100 * s / n : 0, u }'
}
teach="--spam $work/sa-spam-tr.mbox --spam $work/pp-a.mbox --ham $work/sa-ham-tr.mbox --ham $work/rl-tr.mbox --ham $work/tx-tr.mbox"
# shellcheck disable=SC2086
"$bin" train --format mbox $teach -o "$work/learned.txt" > /dev/null 2>&1
# shellcheck disable=SC2086
"$bin" train --format mbox --prior none $teach -o "$work/learned-plain-t.txt" > /dev/null 2>&1
sh Scripts/merge-mail-rules.sh "$work/learned-plain-t.txt" Corpora/spam/builtin-mail-rules.txt > "$work/learned-plain.txt"
judged="PP-half-B:$work/pp-b.mbox SpamAssassin-spam,-odd-half:$work/sa-spam-te.mbox SpamAssassin-ham,-odd-half:$work/sa-ham-te.mbox R-lists,-Sep-Dec-2024:$work/rl-te.mbox transactional,-other-senders:$work/tx-te.mbox hand-written-present-day-ham:$pd/ham.mbox"
for who in "turnstile train = learn (from the built-in list):$work/learned.txt" "turnstile train --prior none:$work/learned-plain.txt" "the built-in list, no learning:builtin"; do
    echo
    if [ "${who#*:}" = builtin ]; then taught=""; else taught=", taught SA even half + PP A + present-day ham"; fi
    echo "| ${who%%:*}$taught | judged spam | unsure |"
    echo "|---|--:|--:|"
    for j in $judged; do
        label=$(echo "${j%%:*}" | tr '-' ' ')
        if [ "${who#*:}" = builtin ]; then
            "$bin" filter --format mbox --json "${j#*:}" | awk -F'"score":' -v label="$label" '{ n++; if ($0 ~ /"spam":true/) s++;
                else { split($2, a, ","); if (a[1] + 0 >= 0.2) u++ } } END { printf "| %s | %d of %d (%.2f %%) | %d |\n", label, s, n, n ? 100 * s / n : 0, u }'
        else
            lrow "$label" "${who#*:}" "${j#*:}"
        fi
    done
done
if command -v bogofilter > /dev/null; then
    bf="$work/bogofilter"
    mkdir -p "$bf"
    for f in sa-spam-tr pp-a; do bogofilter -d "$bf" -M -s < "$work/$f.mbox"; done
    for f in sa-ham-tr rl-tr tx-tr; do bogofilter -d "$bf" -M -n < "$work/$f.mbox"; done
    echo
    echo "| bogofilter $(bogofilter -V 2>&1 | awk 'NR == 1 { print $3 }'), taught the same mail | judged spam | unsure |"
    echo "|---|--:|--:|"
    for j in $judged; do
        bogofilter -d "$bf" -M -T < "${j#*:}" | awk -v label="$(echo "${j%%:*}" | tr '-' ' ')" '{ c[$1]++; n++ }
            END { printf "| %s | %d of %d (%.2f %%) | %d |\n", label, c["S"], n, n ? 100 * c["S"] / n : 0, c["U"] }'
    done
fi
# The same learning on the same mail with only the header fields every message has from
# its sender kept (From, To, Cc, Subject, Date, Message-ID, Reply-To, Return-Path,
# MIME-Version, Content-*, X-Mailer, List-*): no Received, Authentication-Results, ARC or
# X-MS-Exchange-* fields, which Phishing Pot's messages carry from the honeypot's mailbox
# provider and the ham from its own, so a learner taught them learns where the test mail
# was delivered, not what phishing says (issue 52: bogofilter's lead on half B).
python3 - "$work" "$pd/ham.mbox" <<'PY'
import os, re, sys
out, pdham = sys.argv[1], sys.argv[2]
keep = re.compile(rb"(?i)^(from|to|cc|subject|date|message-id|reply-to|return-path|mime-version|content-[a-z-]+|x-mailer|list-[a-z-]+)$")
for name in ("sa-spam-tr", "pp-a", "sa-ham-tr", "rl-tr", "tx-tr", "pp-b", "sa-spam-te", "sa-ham-te", "rl-te", "tx-te", "pd-ham"):
    src = pdham if name == "pd-ham" else os.path.join(out, name + ".mbox")
    data = open(src, "rb").read()
    with open(os.path.join(out, "sender-only-" + name + ".mbox"), "wb") as f:
        for m in re.split(rb"(?m)^(?=From )", data):
            if not m.startswith(b"From "): continue
            first, rest = m.split(b"\n", 1)
            head, _, body = rest.partition(b"\n\n")
            fields = [x for x in re.split(rb"\n(?![ \t])", head) if keep.match(x.split(b":", 1)[0].strip())]
            f.write(first + b"\n" + b"\n".join(fields) + b"\n\n" + body.rstrip(b"\n") + b"\n\n")
PY
so="$work/sender-only"
# shellcheck disable=SC2086
"$bin" train --format mbox --spam "$so-sa-spam-tr.mbox" --spam "$so-pp-a.mbox" --ham "$so-sa-ham-tr.mbox" \
    --ham "$so-rl-tr.mbox" --ham "$so-tx-tr.mbox" -o "$work/learned-sender-only.txt" > /dev/null 2>&1
sojudged=""
for j in $judged; do
    base=$(basename "${j#*:}" .mbox); [ "${j#*:}" = "$pd/ham.mbox" ] && base=pd-ham
    sojudged="$sojudged ${j%%:*}:$so-$base.mbox"
done
echo
echo "| turnstile train = learn, sender's header fields only (no Received, Authentication-Results, X-MS-*) | judged spam | unsure |"
echo "|---|--:|--:|"
for j in $sojudged; do lrow "$(echo "${j%%:*}" | tr '-' ' ')" "$work/learned-sender-only.txt" "${j#*:}"; done
if command -v bogofilter > /dev/null; then
    bf="$work/bogofilter-sender-only"
    mkdir -p "$bf"
    for f in sa-spam-tr pp-a; do bogofilter -d "$bf" -M -s < "$so-$f.mbox"; done
    for f in sa-ham-tr rl-tr tx-tr; do bogofilter -d "$bf" -M -n < "$so-$f.mbox"; done
    echo
    echo "| bogofilter, the same mail, sender's header fields only | judged spam | unsure |"
    echo "|---|--:|--:|"
    for j in $sojudged; do
        bogofilter -d "$bf" -M -T < "${j#*:}" | awk -v label="$(echo "${j%%:*}" | tr '-' ' ')" '{ c[$1]++; n++ }
            END { printf "| %s | %d of %d (%.2f %%) | %d |\n", label, c["S"], n, n ? 100 * c["S"] / n : 0, c["U"] }'
    done
fi
if command -v spamassassin > /dev/null; then
    n=${SA_SAMPLE:-300}
    # sarow LABEL FILE: SpamAssassin's stock rules (-L: no network tests; no Bayes) on the first n messages
    sarow() { awk -v n="$n" '/^From / { k++ } k <= n' "$2" | spamassassin -L --mbox --cf='use_bayes 0' 2>/dev/null \
        | awk -v label="$1" '/^From / { m++ } /^X-Spam-Flag: YES/ { s++ } END { printf "| SpamAssassin stock rules (-L, no Bayes), %s | %d of %d flagged |\n", label, s, m }'; }
    echo
    echo "| SpamAssassin, no training | flagged |"
    echo "|---|--:|"
    sarow "PP half B, first $n" "$work/pp-b.mbox"
    sarow "hand-written present-day ham" "$pd/ham.mbox"
    sarow "generated present-day ham, first $n" "$pd/ham-generated.mbox"
fi
