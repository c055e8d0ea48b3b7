#!/bin/sh
# Regenerates Sources/Turnstile/Generated/DefaultMailList.swift from
# Corpora/spam/default-mail-words.txt, so the default mail list is compiled into the binary
# (no resource files at run time). The list's `# threshold:` header becomes the Swift
# constant DefaultMailList.threshold. TurnstileTests fails when the file differs from
# what this script writes. Run from anywhere:
#   ./Scripts/generate-default-mail-list.sh            # rewrite the file in the repository
#   ./Scripts/generate-default-mail-list.sh OUT.swift  # write it elsewhere (the test does)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/Corpora/spam/default-mail-words.txt"
builtin="$root/Corpora/spam/builtin-mail-rules.txt"
out="${1:-$root/Sources/Turnstile/Generated/DefaultMailList.swift}"
if grep -q '"""#' "$src" "$builtin"; then echo "$src must not contain \"\"\"#" >&2; exit 1; fi
threshold=$(sed -n '1,/^[^#]/s/^# *threshold: *\([0-9.eE+-]*\).*/\1/p' "$src" | head -n 1)
if [ -z "$threshold" ]; then echo "$src has no '# threshold: T' header line" >&2; exit 1; fi
model=$(sed -n '1,/^[^#]/s/^# *model: *\([a-z-]*\).*/\1/p' "$src" | head -n 1)
case "$model" in
    chi-square) model_case=chiSquare ;;
    ""|sum) model_case=sum ;;
    *) echo "$src: unknown '# model: $model'" >&2; exit 1 ;;
esac
{
    printf '%s\n' '// GENERATED FILE — DO NOT EDIT.'
    printf '%s\n' '// Written by Scripts/generate-default-mail-list.sh from Corpora/spam/default-mail-words.txt'
    printf '%s\n' '// (itself written by Scripts/train-default-mail-list.sh). Edit or retrain the word list and'
    printf '%s\n' '// run the script; a test fails when this file differs from its output.'
    printf '%s\n' ''
    printf '%s\n' '/// The mail list compiled into the binary: body words and scoped subject:, from:,'
    printf '%s\n' '/// uri: and header: tokens learnt from e-mail, used in mail mode (`--format mbox|eml|maildir`)'
    printf '%s\n' '/// when no rule option is given (as whole words, ASCII case-insensitive, with the'
    printf '%s\n' '/// list'"'"'s own ``threshold``).'
    printf '%s\n' '///'
    printf '%s\n' '/// ```swift'
    printf '%s\n' '/// DefaultMailList.rules.count   // the entries of Corpora/spam/default-mail-words.txt'
    printf '%s\n' '/// ```'
    printf '%s\n' 'public enum DefaultMailList {'
    printf '%s\n' '    /// The threshold the list was trained for (its `# threshold:` header line).'
    printf '%s\n' "    public static let threshold: Double = $threshold"
    printf '%s\n' ''
    printf '%s\n' '    /// How the weights combine (its `# model:` header line; see ``ScoreModel``).'
    printf '%s\n' "    public static let model: ScoreModel = .$model_case"
    printf '%s\n' ''
    printf '%s\n' '    /// The list in rule-file format (see ``RuleFile``), byte for byte as in'
    printf '%s\n' '    /// `Corpora/spam/default-mail-words.txt`.'
    printf '%s\n' '    public static let source: String = #"""'
    cat "$src"
    printf '\n%s\n' '"""#'
    printf '%s\n' ''
    printf '%s\n' '    /// The built-in present-day rules, byte for byte as in `Corpora/spam/builtin-mail-rules.txt`'
    printf '%s\n' '    /// (written by hand; also the end of ``source``): a learning database'"'"'s list weighs them'
    printf '%s\n' '    /// together with the tokens it learned.'
    printf '%s\n' '    public static let builtinRulesSource: String = #"""'
    cat "$builtin"
    printf '%s\n' '"""#'
    printf '%s\n' ''
    printf '%s\n' '    /// The parsed built-in present-day rules.'
    printf '%s\n' '    public static let builtinRules: [Rule] = {'
    printf '%s\n' '        do { return try RuleFile.parse(Array(builtinRulesSource.utf8), source: "builtin-mail-rules.txt") }'
    printf '%s\n' '        catch { fatalError("the embedded built-in mail rules are invalid: \(error)") }'
    printf '%s\n' '    }()'
    printf '%s\n' ''
    printf '%s\n' '    /// The parsed rules (the list is checked by a test, so parsing cannot fail).'
    printf '%s\n' '    public static let rules: [Rule] = {'
    printf '%s\n' '        do { return try RuleFile.parse(Array(source.utf8), source: "default-mail-words.txt") }'
    printf '%s\n' '        catch { fatalError("the embedded default mail list is invalid: \(error)") }'
    printf '%s\n' '    }()'
    printf '%s\n' '}'
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
