#!/bin/sh
# find-dated-spam-words.sh TRAINED: prints the trained spam words (positive weights of
# TRAINED, a list `turnstile train` wrote before the built-in rules are merged in) whose
# spam evidence is dated, one a line, sorted: words of the body or subject (not the
# sender's from: tokens, which say who sends, not how mail is worded) that fire in at
# least MIN_HAM (default 5) messages of the present-day ham written for this project
# (Corpora/present-day/ham.mbox, ham-generated.mbox) and in less than RATIO (default 8)
# times that share of its present-day spam (spam.mbox, spam-generated.mbox).
# Why: the 2002 SpamAssassin spam says "thank", "payment", "billing", "reply" where the
# 2002 ham (technical mailing lists) does not, yet today's receipts and subscription
# notices say them all (issue 52: three real transactional messages were flagged on such
# words alone). Scripts/train-default-mail-list.sh writes the result to
# Corpora/spam/excluded-dated-spam-words.txt and trains again without them.
# Only redistributable, project-written mail is read; deterministic.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${TURNSTILE:-"$root/.build/release/turnstile"}
pd=Corpora/present-day
# fired FILES...: "token<TAB>messages it fires in<TAB>messages" for every positive rule
fired() {
    cat "$@" | "$bin" filter --format mbox --rules "$list" --explain - |
        awk '/^record/ { m++; delete seen; next }
             $1 ~ /^\+/ { t = $3; for (i = 4; i <= NF; i++) t = t " " $i
                          if (!(t in seen)) { seen[t] = 1; n[t]++ } }
             END { for (t in n) printf "%s\t%d\t%d\n", t, n[t], m }'
}
list=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fired "$pd/ham.mbox" "$pd/ham-generated.mbox" > "$work/ham"
fired "$pd/spam.mbox" "$pd/spam-generated.mbox" > "$work/spam"
awk -F'\t' -v min="${MIN_HAM:-5}" -v ratio="${RATIO:-8}" '
    FNR == NR { spam[$1] = $2 / $3; next }
    $1 !~ /^from:/ && $2 >= min && (spam[$1] + 0) < ratio * $2 / $3 { print $1 }' "$work/spam" "$work/ham" | LC_ALL=C sort
