#!/bin/sh
# Prints the `turnstile train` options the built-in mail list is trained with (one
# place for Scripts/train-default-mail-list.sh and Scripts/measure-default-mail-list.sh's
# cross-validation). Run from the repository root. DATED=no leaves out
# Corpora/spam/excluded-dated-spam-words.txt (Scripts/find-dated-spam-words.sh), for the
# training pass that finds those words.
dated="--exclude Corpora/spam/excluded-dated-spam-words.txt"
[ "${DATED:-yes}" = no ] && dated=
echo --prior none --model chi-square --top 10000 --min-count 2 --smoothing 1 --max-weight 1.4 --exclude-numbers \
    --exclude Corpora/spam/excluded-words.txt --exclude Corpora/spam/excluded-mail-tokens.txt \
    --exclude Corpora/spam/excluded-era-tokens.txt --exclude Corpora/spam/excluded-function-words.txt $dated
