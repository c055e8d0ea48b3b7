#!/bin/sh
# Prints the `turnstile train` options the built-in mail list is trained with (one
# place for Scripts/train-default-mail-list.sh and Scripts/measure-default-mail-list.sh's
# cross-validation). Run from the repository root.
echo --prior none --model chi-square --top 10000 --min-count 2 --smoothing 1 --max-weight 1.4 --exclude-numbers \
    --exclude Corpora/spam/excluded-words.txt --exclude Corpora/spam/excluded-mail-tokens.txt \
    --exclude Corpora/spam/excluded-era-tokens.txt --exclude Corpora/spam/excluded-function-words.txt
