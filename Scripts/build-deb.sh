#!/usr/bin/env bash
# Builds a Debian package from `make install-build`'s stage (run by `make deb`):
#   /usr/bin/turnstile (stripped, Swift runtime linked in), its man page, the bash, zsh
#   and fish completions, and links named grep, egrep and fgrep in /usr/lib/turnstile/bin
#   (put that folder first on PATH to have turnstile answer as grep; the system's grep is
#   never replaced), and the systemd units of `turnstile serve` in /usr/lib/systemd/system.
#   Depends: from dpkg-shlibdeps on the binary.
# Usage: Scripts/build-deb.sh STAGE VERSION OUTPUT_DIR   → OUTPUT_DIR/turnstile_VERSION_ARCH.deb
# Then lintian checks it when lintian is installed (errors fail; warnings are printed).
set -euo pipefail
stage=$1 version=$2 out=$3
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
fail() { echo "build-deb: $*" >&2; exit 1; }

install -D -m 755 "$stage/turnstile" "$root/usr/bin/turnstile"
install -D -m 644 "$stage/turnstile.1" "$root/usr/share/man/man1/turnstile.1"
gzip -9n "$root/usr/share/man/man1/turnstile.1"
# bash-completion sources the file: no #! line (lintian: bash-completion-with-hashbang).
install -d "$root/usr/share/bash-completion/completions"
sed '1{/^#!/d}' "$stage/completion.bash" > "$root/usr/share/bash-completion/completions/turnstile"
chmod 644 "$root/usr/share/bash-completion/completions/turnstile"
install -D -m 644 "$stage/completion.zsh" "$root/usr/share/zsh/vendor-completions/_turnstile"
install -D -m 644 "$stage/completion.fish" "$root/usr/share/fish/vendor_completions.d/turnstile.fish"
mkdir -p "$root/usr/lib/turnstile/bin"
for name in grep egrep fgrep; do ln -s ../../../bin/turnstile "$root/usr/lib/turnstile/bin/$name"; done
# The daemon's units (README "Running the daemon"); installed, not enabled.
install -D -m 644 Distribution/turnstile-serve.service "$root/usr/lib/systemd/system/turnstile-serve.service"
install -D -m 644 Distribution/turnstile-serve.socket "$root/usr/lib/systemd/system/turnstile-serve.socket"

# The static executable is on purpose: the override says so to lintian and to Debian.
install -D -m 644 Distribution/debian/lintian-overrides "$root/usr/share/lintian/overrides/turnstile"

doc="$root/usr/share/doc/turnstile"
install -D -m 644 Distribution/debian/copyright "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'turnstile (%s) unstable; urgency=medium\n\n  * Built from the source tree (make deb).\n\n -- Turnstile developers <turnstile@turnstile.dev>  %s\n' \
    "$version" "$date" | gzip -9n > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

# The shared libraries the binary needs, as package dependencies.
mkdir -p "$work/src/debian"
printf 'Source: turnstile\n\nPackage: turnstile\nArchitecture: any\n' > "$work/src/debian/control"
# The release binary is one static executable (Package.swift, staticReleaseExecutable):
# no shared library to name, but glibc's NSS modules (serve --user's user lookups,
# host names) are loaded at run time and must be the glibc it was linked with.
if readelf -d "$root/usr/bin/turnstile" 2>/dev/null | grep -q NEEDED; then
    depends=$(cd "$work/src" && dpkg-shlibdeps -O "$root/usr/bin/turnstile" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
    [ -n "$depends" ] || fail "dpkg-shlibdeps found no dependencies for the binary"
else
    glibc=$(dpkg-query -W -f='${Version}' libc6 | sed 's/-.*//')
    [ -n "$glibc" ] || fail "the installed libc6 has no version"
    depends="libc6 (>= $glibc)"
fi

mkdir -p "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@SIZE@/$size/" \
    Distribution/debian/control > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k2) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb="$out/turnstile_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "build-deb: $deb ($(du -h "$deb" | cut -f1))"
listing=$(dpkg-deb -c "$deb")
for path in ./usr/bin/turnstile ./usr/share/man/man1/turnstile.1.gz ./usr/share/bash-completion/completions/turnstile \
    ./usr/share/zsh/vendor-completions/_turnstile ./usr/share/fish/vendor_completions.d/turnstile.fish \
    "./usr/lib/turnstile/bin/grep -> ../../../bin/turnstile" ./usr/share/doc/turnstile/copyright; do
    grep -qF -- "$path" <<<"$listing" || fail "the package lacks $path"
done

if command -v lintian >/dev/null 2>&1; then
    # Errors fail the build; warnings and the rest are shown. Tags left out on
    # purpose, with the reason for each, are in Distribution/debian/lintian-suppressed.
    report=$(lintian --tag-display-limit 0 --suppress-tags-from-file Distribution/debian/lintian-suppressed "$deb" 2>&1 || true)
    [ -z "$report" ] || printf '%s\n' "$report"
    if grep -q '^E: ' <<<"$report"; then fail "lintian reported errors"; fi
    echo "build-deb: lintian: no errors"
else
    echo "build-deb: lintian is not installed; the package was not checked (apt-get install lintian)"
fi
