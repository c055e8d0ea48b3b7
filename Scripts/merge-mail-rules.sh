#!/bin/sh
# merge-mail-rules.sh TRAINED BUILTIN: prints the trained list (header included) without
# the tokens the built-in rules name, then the built-in rules: the built-in mail list
# and a learning database's list are both made this way, so each rule counts once.
set -eu
awk -F'\t' 'FNR == NR { if ($0 !~ /^#/ && NF == 2) named[tolower($1)] = 1; next }
            /^#/ || NF != 2 { print; next }
            !(tolower($1) in named) { print }' "$2" "$1"
echo
cat "$2"
