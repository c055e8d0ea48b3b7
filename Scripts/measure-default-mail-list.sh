#!/bin/sh
# Measures the built-in mail list on both corpora (README.md, "The built-in mail list";
# `make mail-quality`): the present-day set in Corpora/present-day (no ham may be
# flagged) and, when ../shared/corpora is there, the SpamAssassin training half — the
# list on it, and 5-fold cross-validation of the procedure that made it
# (Scripts/train-default-mail-list.sh's settings; the list written to a temporary file).
# Not part of `make test`: the cross-validation trains 30 lists.
#
# Usage: Scripts/measure-default-mail-list.sh   (TURNSTILE=path to use another build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${TURNSTILE:-"$root/.build/release/turnstile"}
[ -x "$bin" ] || swift build -c release --product turnstile >&2
echo "== present-day set (Corpora/present-day), the built-in list"
"$bin" eval --format mbox --spam Corpora/present-day/spam.mbox --ham Corpora/present-day/ham.mbox --top 5
echo "highest present-day ham score: $("$bin" filter --format mbox --json Corpora/present-day/ham.mbox \
    | sed 's/.*"score":\([-0-9.e]*\),.*/\1/' | sort -g | tail -n 1)"
shared="$root/../shared/corpora/spamassassin"
if [ ! -f "$shared/spam.mbox" ]; then
    echo "== SpamAssassin half: skipped ($shared is absent)"
    exit 0
fi
echo "== SpamAssassin training half, the built-in list"
"$bin" eval --format mbox --spam "$shared/spam.mbox" --ham "$shared/ham.mbox" --top 0
echo "== SpamAssassin training half, 5-fold cross-validation of the list's settings"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$bin" train --format mbox --spam "$shared/spam.mbox" --ham "$shared/ham.mbox" \
    --top 10000 --min-count 2 --smoothing 1 --threshold-above 0 \
    --max-weight 1 --min-rules 10 --fp-cost 10 --threshold-folds 5 \
    --exclude Corpora/spam/excluded-words.txt --exclude Corpora/spam/excluded-mail-tokens.txt \
    --folds 5 --seed 1 -o "$tmp"
