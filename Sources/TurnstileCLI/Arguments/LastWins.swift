/// grep's options that undo each other, where the one given last wins: `-H`/`-h`,
/// `-l`/`-L`, `-a`/`-I`/`--binary-files=`, `-i`/`--no-ignore-case`
/// (`grep -H -h a x y` prints no names, `grep -l -L` lists the inputs without a match).
///
/// ArgumentParser keeps each flag's value but not the order between two flags, so the
/// normalized command line (``ArgumentNormalizer/current``: one option per word, short
/// flags alone, `--name=value`) is read again, up to `--`.
enum LastWins {
    /// Which of `choices` was given last: the index of the choice whose spelling (a
    /// whole word such as `-H`, or `--name=` for a value) occurs latest; nil when none
    /// occurs.
    static func last(of choices: [[String]], in arguments: [String] = ArgumentNormalizer.current) -> Int? {
        var found: (choice: Int, at: Int)?
        for (at, word) in arguments.prefix(while: { $0 != "--" }).enumerated() {
            for (choice, spellings) in choices.enumerated()
            where spellings.contains(where: { $0.hasSuffix("=") ? word.hasPrefix($0) : word == $0 }) {
                found = (choice, at)
            }
        }
        return found?.choice
    }
}
