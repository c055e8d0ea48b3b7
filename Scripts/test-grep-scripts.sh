#!/usr/bin/env bash
# Turnstile first on PATH as grep (issue 35): real shell scripts that call grep — those
# of Debian packages (gzip's zgrep, bzip2's bzgrep, xz's xzgrep, zstd's zstdgrep, grep's
# own rgrep, egrep and fgrep, less's lesspipe) — and a harness of everyday commands run
# once with links named grep, egrep and fgrep to TURNSTILE first on PATH and once with
# the system's grep, under LC_ALL=C and a UTF-8 locale. Standard output, whether anything
# went to standard error, and the exit status must be equal.
#
#   Scripts/test-grep-scripts.sh [path/to/turnstile]     (make test-grep-scripts)
set -uo pipefail
cd "$(dirname "$0")/.."
turnstile=$(realpath "${1:-.build/debug/turnstile}")
[ -x "$turnstile" ] || { echo "test-grep-scripts: no turnstile binary at $turnstile" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
links="$work/links"
mkdir -p "$links"
for name in grep egrep fgrep; do ln -s "$turnstile" "$links/$name"; done

# The inputs: text with a few lines, compressed copies, a tree for -r.
data="$work/data"
mkdir -p "$data/tree/sub" "$data/tree/.hidden"
cp README.md "$data/readme.txt"
printf 'alpha\nBeta\ngamma delta\nerror: disk full\nwarning: low memory\n\nerror: again\ncafé\nÉLAN\n' > "$data/log.txt"
gzip -c "$data/log.txt" > "$data/log.txt.gz"
bzip2 -c "$data/log.txt" > "$data/log.txt.bz2"
xz -c "$data/log.txt" > "$data/log.txt.xz"
zstd -q -c "$data/log.txt" > "$data/log.txt.zst"
cp "$data/log.txt" "$data/tree/a.log"; cp "$data/log.txt" "$data/tree/sub/b.c"
printf 'error in hidden\n' > "$data/tree/.hidden/h.txt"

# One command per line, run with sh in $data.
commands=$(cat <<'EOF'
zgrep error log.txt.gz
zgrep -c -i ERROR log.txt.gz log.txt
zgrep -n -e alpha -e gamma log.txt.gz
zgrep -l error log.txt.gz log.txt.bz2
zegrep 'error|warning' log.txt.gz
zfgrep -x alpha log.txt.gz
zgrep -h -w disk log.txt.gz
zgrep missing log.txt.gz; echo "status $?"
zgrep error nonexistent.gz; echo "status $?"
bzgrep -n error log.txt.bz2
bzgrep -c 'a\(l\|m\)' log.txt.bz2
xzgrep -v error log.txt.xz
xzgrep -E '^(alpha|Beta)$' log.txt.xz
zstdgrep warning log.txt.zst
rgrep error tree | sort
rgrep -l --include='*.c' error tree
rgrep -c error tree/sub
egrep -c 'err(or)?' log.txt
egrep -o '[a-z]+:' log.txt
fgrep -c 'error:' log.txt
fgrep -f /dev/null log.txt; echo "status $?"
grep -r --exclude-dir=.hidden error tree | sort
grep -rl error tree | sort
grep -rh error tree --include='*.log'
grep -c '^$' log.txt
grep -n '^[[:upper:]]' log.txt
grep -v 'caf' log.txt | grep -o '\<[a-z]*\>' | sort | uniq -c
grep -E -o '[[:alpha:]]+' log.txt | head -3
grep -i 'élan' log.txt
grep -w -c 'error' log.txt readme.txt
grep -q error log.txt && echo found
grep -s error nonexistent; echo "status $?"
grep -A1 -B1 disk log.txt
grep -C1 -n again log.txt
grep -m1 -c error log.txt
grep -L error log.txt readme.txt
grep -b -o 'disk' log.txt
grep -e error -e warning --color=always log.txt
grep '\(error\|warning\): [a-z]*' log.txt
grep 'a\{2,\}' readme.txt | head -5
grep -c 'turnstile\( match\)\?' readme.txt
grep -E '^#{2,3} ' readme.txt
grep -n '`[^`]*`' readme.txt | tail -3
grep -F -e '$ ' readme.txt | wc -l
cat log.txt | grep -v -e '^$' | grep -c .
printf 'a\nb\n' | grep -c -e "$(printf 'a\nb')"
printf 'x\0y\nz\n' > bin.dat; grep y bin.dat; grep -a -c y bin.dat; grep -I y bin.dat; echo "status $?"
ls | grep -E '\.(gz|xz)$'
head -c 17000000 /dev/zero | tr '\0' a > long.txt; echo b >> long.txt; grep -c 'ab$' long.txt; grep -b -o 'a\{3\}b' long.txt
yes ab | head -c 19000000 | tr -d '\n' > dense.txt; echo >> dense.txt; grep -o b dense.txt | wc -l; grep -c -v x dense.txt
lesspipe log.txt.gz >/dev/null; echo "status $?"
EOF
)

locales="C C.UTF-8"
failures=0
count=0
while IFS= read -r command; do
    [ -n "$command" ] || continue
    for locale in $locales; do
        count=$((count + 1))
        (cd "$data" && env LC_ALL="$locale" PATH="/usr/bin:/bin" sh -c "$command" >"$work/gnu.out" 2>"$work/gnu.err"; echo $? >"$work/gnu.status")
        (cd "$data" && env LC_ALL="$locale" PATH="$links:/usr/bin:/bin" sh -c "$command" >"$work/ours.out" 2>"$work/ours.err"; echo $? >"$work/ours.status")
        gnu_err=$([ -s "$work/gnu.err" ] && echo yes || echo no)
        ours_err=$([ -s "$work/ours.err" ] && echo yes || echo no)
        if ! cmp -s "$work/gnu.out" "$work/ours.out" || ! cmp -s "$work/gnu.status" "$work/ours.status" \
            || [ "$gnu_err" != "$ours_err" ]; then
            failures=$((failures + 1))
            echo "DIFFERENT (LC_ALL=$locale): $command"
            echo "  status: grep $(cat "$work/gnu.status"), turnstile $(cat "$work/ours.status"); stderr: grep $gnu_err, turnstile $ours_err"
            diff "$work/gnu.out" "$work/ours.out" | head -10 | sed 's/^/  /'
            sed 's/^/  grep stderr: /' "$work/gnu.err" | head -3
            sed 's/^/  turnstile stderr: /' "$work/ours.err" | head -3
        fi
    done
done <<<"$commands"

if [ "$failures" -gt 0 ]; then
    echo "test-grep-scripts: $failures of $count runs differ from GNU grep" >&2
    exit 1
fi
echo "test-grep-scripts: all $count runs equal GNU grep's (stdout, stderr presence, exit status)"
