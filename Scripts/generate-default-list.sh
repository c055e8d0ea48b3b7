#!/bin/sh
# Regenerates Sources/Turnstile/Generated/DefaultSpamList.swift from
# Corpora/spam/default-words.txt, so the default spam list is compiled into the binary
# (no resource files at run time). The list's `# threshold:` header becomes the Swift
# constant DefaultSpamList.threshold. TurnstileTests fails when the file differs from
# what this script writes. Run from anywhere:
#   ./Scripts/generate-default-list.sh            # rewrite the file in the repository
#   ./Scripts/generate-default-list.sh OUT.swift  # write it elsewhere (the test does)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/Corpora/spam/default-words.txt"
out="${1:-$root/Sources/Turnstile/Generated/DefaultSpamList.swift}"
if grep -q '"""#' "$src"; then echo "$src must not contain \"\"\"#" >&2; exit 1; fi
threshold=$(sed -n '1,/^[^#]/s/^# *threshold: *\([0-9.eE+-]*\).*/\1/p' "$src" | head -n 1)
if [ -z "$threshold" ]; then echo "$src has no '# threshold: T' header line" >&2; exit 1; fi
{
    printf '%s\n' '// GENERATED FILE — DO NOT EDIT.'
    printf '%s\n' '// Written by Scripts/generate-default-list.sh from Corpora/spam/default-words.txt'
    printf '%s\n' '// (itself written by Scripts/train-default-list.sh). Edit or retrain the word list and'
    printf '%s\n' '// run the script; a test fails when this file differs from its output.'
    printf '%s\n' ''
    printf '%s\n' '/// The spam list compiled into the binary: classic SMS and e-mail spam words and'
    printf '%s\n' '/// phrases, used by `turnstile filter` when no rule option is given (as whole words,'
    printf '%s\n' '/// ASCII case-insensitive, with the list'"'"'s own ``threshold``).'
    printf '%s\n' '///'
    printf '%s\n' '/// ```swift'
    printf '%s\n' '/// DefaultSpamList.rules.count   // the entries of Corpora/spam/default-words.txt'
    printf '%s\n' '/// ```'
    printf '%s\n' 'public enum DefaultSpamList {'
    printf '%s\n' '    /// The threshold the list was trained for (its `# threshold:` header line).'
    printf '%s\n' "    public static let threshold: Double = $threshold"
    printf '%s\n' ''
    printf '%s\n' '    /// The list in rule-file format (see ``RuleFile``), byte for byte as in'
    printf '%s\n' '    /// `Corpora/spam/default-words.txt`.'
    printf '%s\n' '    public static let source: String = #"""'
    cat "$src"
    printf '\n%s\n' '"""#'
    printf '%s\n' ''
    printf '%s\n' '    /// The parsed rules (the list is checked by a test, so parsing cannot fail).'
    printf '%s\n' '    public static let rules: [Rule] = {'
    printf '%s\n' '        do { return try RuleFile.parse(Array(source.utf8), source: "default-words.txt") }'
    printf '%s\n' '        catch { fatalError("the embedded default spam list is invalid: \(error)") }'
    printf '%s\n' '    }()'
    printf '%s\n' '}'
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
