#!/usr/bin/env bash
# `make install` into a temporary DESTDIR, then each installed file used the way a system
# uses it: the binary runs without the Swift runtime's shared libraries, `man -l` renders
# the page, bash, zsh and fish load the completions from the installed folders, and
# `make uninstall` removes every file `make install` put there. Run by `make test-install`.
set -euo pipefail
cd "$(dirname "$0")/.."

MAKE=${MAKE:-make}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/root"
prefix=/usr/local
root="$stage$prefix"
fail() { echo "test-install: $*" >&2; exit 1; }

links=/opt/turnstile-grep/bin
$MAKE --no-print-directory install DESTDIR="$stage" PREFIX="$prefix" GREP_LINKS_DIR="$links"

installed=$(cd "$stage" && find . -type f | sort)
# The Makefile's INSTALLED_FILES is the one list (uninstall removes the same files).
[ -n "${INSTALLED_FILES:-}" ] || fail "INSTALLED_FILES is not set (run this through make test-install)"
# shellcheck disable=SC2086
expected=$(printf './usr/local/%s\n' $INSTALLED_FILES | sort)
[ "$installed" = "$expected" ] || fail "installed files differ from the expected list:
$installed"

# The binary: runs from its installed place, and it is one static executable (Package.swift,
# staticReleaseExecutable: no dynamic loader, no libswiftCore.so to relocate at start-up).
"$root/bin/turnstile" --version >/dev/null || fail "the installed turnstile --version failed"
if ldd "$root/bin/turnstile" 2>&1 | grep -q '=>'; then
    fail "the installed binary loads shared libraries (expected one static executable): $(ldd "$root/bin/turnstile" 2>&1 | tr '\n' ' ')"
fi
# A static executable has no dynamic symbols for dlsym: grep's locale classes still work.
printf 'caf\303\251\n123\n' > "$work/classes.txt"
[ "$(LC_ALL=en_US.UTF-8 "$root/bin/turnstile" grep -c '^[[:alpha:]]*$' "$work/classes.txt")" = 1 ] \
    || fail "grep '[[:alpha:]]' in en_US.UTF-8 does not see é as a letter"
if readelf -S "$root/bin/turnstile" | grep -q '\.debug_info'; then
    fail "the installed binary carries debug info (expected a stripped binary)"
fi
echo "test-install: binary ok ($("$root/bin/turnstile" --version), $(du -h "$root/bin/turnstile" | cut -f1), stripped)"

# The man page: man renders it without groff warnings, and it documents each subcommand.
page=$(MANWIDTH=80 man --warnings -l "$root/share/man/man1/turnstile.1" 2>"$work/man.err") \
    || fail "man -l failed: $(cat "$work/man.err")"
[ ! -s "$work/man.err" ] || fail "man -l printed warnings: $(cat "$work/man.err")"
for word in NAME SYNOPSIS filter match compile eval rules train serve learn; do
    grep -qw -- "$word" <<<"$page" || fail "the rendered man page does not mention '$word'"
done
echo "test-install: man page ok ($(wc -l <<<"$page") lines rendered)"

# The completions complete the subcommands from the installed binary on PATH.
export PATH="$root/bin:$PATH"
bash_words=$(bash --norc --noprofile -c '
    source "$1" && complete -p turnstile >/dev/null || exit 1
    fn=$(complete -p turnstile | sed -E "s/.*-F ([^ ]+).*/\1/")
    COMP_WORDS=(turnstile "") COMP_CWORD=1 COMP_LINE="turnstile " COMP_POINT=10
    "$fn" turnstile "" turnstile && printf "%s\n" "${COMPREPLY[@]}"' \
    bash "$root/share/bash-completion/completions/turnstile") || fail "bash did not load the completion"
zsh_function=$(zsh -f -c 'fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -D; print -r -- ${_comps[turnstile]}' \
    zsh "$root/share/zsh/site-functions") || fail "zsh did not load the completion"
[ "$zsh_function" = _turnstile ] || fail "zsh's compinit did not register _turnstile for turnstile (got '$zsh_function')"
fish_words=$(fish --no-config -c 'set fish_complete_path $argv[1] $fish_complete_path; complete -C "turnstile "' \
    "$root/share/fish/vendor_completions.d") || fail "fish did not load the completion"
for word in filter match compile eval rules train serve learn; do
    grep -qw -- "$word" <<<"$bash_words" || fail "bash does not complete 'turnstile $word': $bash_words"
    grep -qw -- "$word" <<<"$fish_words" || fail "fish does not complete 'turnstile $word': $fish_words"
done
echo "test-install: bash, zsh and fish completions ok"

# The daemon's units: ExecStart names the installed binary, and the socket unit pairs with it.
unit="$root/lib/systemd/system/turnstile-serve.service"
exec_start=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
[ "$exec_start" = "$prefix/bin/turnstile" ] || fail "turnstile-serve.service starts '$exec_start', not $prefix/bin/turnstile"
grep -q '^ListenStream=' "$root/lib/systemd/system/turnstile-serve.socket" || fail "turnstile-serve.socket has no ListenStream="
echo "test-install: systemd units ok (ExecStart=$exec_start)"

# GREP_LINKS_DIR: grep, egrep and fgrep link to the installed binary and answer as grep
# (run here through links of the same names to the staged binary); the system's folders
# are refused.
for name in grep egrep fgrep; do
    [ "$(readlink "$stage$links/$name")" = "$prefix/bin/turnstile" ] || fail "$links/$name is not a link to $prefix/bin/turnstile"
    ln -s "$root/bin/turnstile" "$work/$name"
done
[ "$(printf 'ab\naab\n' | "$work/grep" -c 'a\{2\}')" = 1 ] || fail "the grep link does not read BRE"
[ "$(printf 'ab\naab\n' | "$work/egrep" -c 'a{2}|x')" = 1 ] || fail "the egrep link does not read ERE"
[ "$(printf 'a.b\naxb\n' | "$work/fgrep" -c 'a.b')" = 1 ] || fail "the fgrep link does not read literal strings"
if $MAKE --no-print-directory install DESTDIR="$stage" PREFIX="$prefix" GREP_LINKS_DIR=/usr/bin >/dev/null 2>&1; then
    fail "make install GREP_LINKS_DIR=/usr/bin was not refused"
fi
echo "test-install: grep, egrep and fgrep links ok"

$MAKE --no-print-directory uninstall DESTDIR="$stage" PREFIX="$prefix" GREP_LINKS_DIR="$links"
left=$(cd "$stage" && find . -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left files behind: $left"
echo "test-install: make uninstall removed every installed file"
