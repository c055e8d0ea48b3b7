#!/bin/sh
# Chooses the training settings of the built-in spam list by cross-validation on the
# training half of the SMS Spam Collection (never by fitting it): for every setting in
# the grid below, `turnstile train --folds 5` trains on four folds and judges the
# fifth, five times, for each of three seeds; the table gives the mean held-out
# precision, recall and F1 over the 15 folds, best F1 first. The chosen setting goes
# into Scripts/train-default-list.sh.
#
# Usage: Scripts/select-default-list.sh [train.tsv] > selection.txt
#   (TURNSTILE=path/to/turnstile to use another build; default: a release build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-"$root/../shared/corpora/sms-spam/train.tsv"}
bin=${TURNSTILE:-"$root/.build/release/turnstile"}
[ -x "$bin" ] || (cd "$root" && swift build -c release --product turnstile >&2)
phrases="$root/Corpora/spam/curated-phrases.txt"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for top in ${TOPS:-1000 2000 5000}; do
  for a in ${SMOOTHINGS:-1 2 5}; do
    for mc in ${MIN_COUNTS:-2}; do
      for rule in ${RULES:-f1 0.98 0.99}; do
        for prior in ${PRIORS:-none 1}; do
          for seed in ${SEEDS:-1 2 3}; do
            set -- --top "$top" --smoothing "$a" --min-count "$mc" --folds 5 --seed "$seed"
            [ "$rule" = f1 ] || set -- "$@" --min-precision "$rule"
            [ "$prior" = none ] || set -- "$@" --include "$phrases" --phrase-prior "$prior"
            "$bin" train "$@" -o /dev/null "$data" | awk -v key="top=$top a=$a mc=$mc rule=$rule prior=$prior" \
              '/^  mean:/ { gsub(",", ""); print key, $3, $5, $7 }' >> "$tmp"
          done
        done
      done
    done
  done
done
printf '%-44s %9s %9s %9s\n' setting precision recall F1
awk '{ k = $1 " " $2 " " $3 " " $4 " " $5; p[k] += $6; r[k] += $7; f[k] += $8; n[k]++ }
     END { for (k in p) printf "%-44s %9.4f %9.4f %9.4f\n", k, p[k] / n[k], r[k] / n[k], f[k] / n[k] }' "$tmp" |
  sort -k8,8nr
