import ArgumentParser
import Turnstile

/// `filter`'s options for mail delivery: where spam goes (`--spam-to`,
/// `--move-spam-to`) and tag mode (`--tag`), in which every message is written back
/// with SpamAssassin's status fields and nothing is ever held back.
struct DeliveryArguments: ParsableArguments {
    @Option(name: .customLong("spam-to"),
            help: ArgumentHelp("With --format mbox|eml|maildir: also write each spam message, byte for byte, to this mbox file (mbox: appended under a dotlock and an fcntl lock once every input was read, never truncated) or folder (eml: one file per message; maildir: a Maildir).",
                               valueName: "path"))
    var spamTo: String?

    @Option(name: .customLong("move-spam-to"),
            help: ArgumentHelp("With --format maildir: move each spam message out of its Maildir into this one by rename(2), keeping its cur/ or new/ and its file name with the :2,FLAGS info (a taken name gets a fresh unique one). Safe to rerun.",
                               valueName: "folder"))
    var moveSpamTo: String?

    @Flag(name: .customLong("tag"),
          help: "With --format mbox|eml|maildir: write every message, spam or not, with 'X-Spam-Status: Yes|No, score=S required=T tests=…' (and 'X-Spam-Flag: YES' for spam) added before the end of its header; earlier X-Spam-* fields are replaced. A message that cannot be judged is written unchanged with a warning. Exit status 0 whenever the messages were written.")
    var tag = false

    @Option(name: .customLong("tag-prefix"),
            help: ArgumentHelp("With --tag: the field-name prefix (default X-Spam: X-Spam-Status, X-Spam-Flag).", valueName: "name"))
    var tagPrefix: String?

    @Flag(name: .customLong("exit-verdict"),
          help: "With --tag: exit as bogofilter does: 0 when a message was spam, 1 when none was, 2 after an error.")
    var exitVerdict = false

    @Option(name: .customLong("allow-from"),
            help: ArgumentHelp("With --format mbox|eml|maildir: a message whose sender is in this file (one address or @domain per line, exact, case-insensitive; '#' comments) is clean. Repeatable.",
                               valueName: "file"))
    var allowFrom: [String] = []

    @Option(name: .customLong("deny-from"),
            help: ArgumentHelp("A message whose sender is in this file is spam (as --allow-from; an allowed address wins over a denied one, an address over a domain). Repeatable.",
                               valueName: "file"))
    var denyFrom: [String] = []

    @Option(name: .customLong("sender-fields"),
            help: ArgumentHelp("The fields whose addresses --allow-from and --deny-from look up, comma-separated among from, sender and return-path (default: from).",
                               valueName: "list"))
    var senderFields = "from"

    /// The values given, as the run reads them (``DeliveryOptions``).
    var options: DeliveryOptions {
        DeliveryOptions(
            spamTo: spamTo,
            moveSpamTo: moveSpamTo,
            tag: tag,
            tagPrefix: tagPrefix,
            exitVerdict: exitVerdict,
            allowFrom: allowFrom,
            denyFrom: denyFrom,
            senderFields: senderFields)
    }
}

/// The values of ``DeliveryArguments``: what a run reads. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ArgumentParser's path maps its wrappers to them.
struct DeliveryOptions {
    var spamTo: String?
    var moveSpamTo: String?
    var tag = false
    var tagPrefix: String?
    var exitVerdict = false
    var allowFrom: [String] = []
    var denyFrom: [String] = []
    var senderFields = "from"

    /// The sender lists, read; nil when none is given.
    func senderPolicy() throws -> SenderPolicy? {
        guard !allowFrom.isEmpty || !denyFrom.isEmpty else { return nil }
        var lists: [SenderList] = []
        for (paths, decision) in [(allowFrom, SenderList.Decision.allow), (denyFrom, .deny)] {
            for path in paths {
                lists.append(try SenderList(parsing: readWhole(path), source: path, decision: decision))
            }
        }
        return SenderPolicy(lists: lists, fields: Self.fields(senderFields))
    }

    static func fields(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0.filter { $0 != " " }).lowercased() }
    }

    /// The checks that need nothing but these options and the format.
    func validate(format: RecordFormat, printsOtherwise: Bool) throws {
        if spamTo != nil, !format.isMail { throw ValidationError("--spam-to needs --format mbox, eml or maildir") }
        if moveSpamTo != nil, format != .maildir { throw ValidationError("--move-spam-to needs --format maildir") }
        if moveSpamTo != nil, spamTo != nil { throw ValidationError("choose one of --spam-to (copy) and --move-spam-to (move)") }
        if tag {
            if !format.isMail { throw ValidationError("--tag needs --format mbox, eml or maildir (with '--format eml -' for one message on standard input)") }
            if printsOtherwise { throw ValidationError("--tag writes every message; it cannot be combined with --spam, --count, --json or --explain") }
            if spamTo != nil || moveSpamTo != nil { throw ValidationError("--tag writes every message to standard output; it cannot be combined with --spam-to or --move-spam-to") }
        }
        if let tagPrefix {
            if !tag { throw ValidationError("--tag-prefix needs --tag") }
            if !SpamStatusHeaders.isValidPrefix(tagPrefix) { throw ValidationError("--tag-prefix must be a header field name: printable ASCII without spaces or ':'") }
        }
        if exitVerdict, !tag { throw ValidationError("--exit-verdict needs --tag") }
        if !(allowFrom.isEmpty && denyFrom.isEmpty), !format.isMail {
            throw ValidationError("--allow-from and --deny-from need --format mbox, eml or maildir")
        }
        for field in Self.fields(senderFields) where !["from", "sender", "return-path"].contains(field) {
            throw ValidationError("--sender-fields takes from, sender and return-path, not '\(field)'")
        }
    }
}
