import ArgumentParser
import Turnstile

extension RecordFormat: ExpressibleByArgument {}

/// `--format`: plain records or mail (`filter`, `eval`, `train`).
struct FormatArguments: ParsableArguments {
    @Option(name: .customLong("format"),
            help: ArgumentHelp("Inputs are records cut by --delimiter (lines, the default), an mbox file, e-mail files (eml: each file is one message; folders are walked) or Maildir folders (maildir: the files under cur/ and new/).",
                               valueName: "lines|mbox|eml|maildir"))
    var format: RecordFormat = .lines

    /// The values given, as the run reads them (``FormatOptions``).
    var options: FormatOptions { FormatOptions(format: format) }
}

/// The values of ``FormatArguments``: what a run reads. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ArgumentParser's path maps its wrappers to them.
struct FormatOptions {
    var format: RecordFormat = .lines

    /// The delimiter records are cut with, given `--delimiter`; an error when a mail
    /// format is combined with a delimiter other than the default.
    func delimiter(_ given: RecordDelimiter) throws -> RecordDelimiter {
        if format.isMail, given != .line {
            throw ValidationError("--delimiter applies to --format lines only; --format \(format) cuts messages itself")
        }
        return format.delimiter(lines: given)
    }

    /// The input files of `paths` for this format: a Maildir folder becomes the files
    /// under its cur/ and new/, an eml folder the files under it; other paths stay.
    func inputs(_ paths: [String]) throws -> [String] {
        switch format {
        case .lines, .mbox: return paths
        case .eml: return try expandFolders(paths)
        case .maildir: return try maildirFiles(paths)
        }
    }
}
