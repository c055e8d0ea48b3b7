/// `turnstile grep`'s usage errors in GNU grep 3.8's words, with its exit status 2:
/// scripts and people match grep's messages (`grep -A x` says `x: invalid context
/// length argument`), so grep's own words are used, not ArgumentParser's.
///
/// Three moments: ``checked(_:)`` reads the normalized command line before it is parsed
/// (the values GNU grep checks itself), ``message(for:)`` words the normalizer's
/// failures (a missing value, an unknown letter) as getopt does, and
/// ``message(forParserMessage:)`` ArgumentParser's unknown long option. A run with no pattern at all prints the usage lines alone
/// (``GrepCommand``).
enum GNUUsageWords {
    /// A usage error: the message after `grep: `, and whether grep's two usage lines
    /// follow it (getopt's errors; not the values grep checks itself).
    struct Failure: Error {
        var message: String
        var usageLines: Bool
    }

    /// The normalizer's failure as getopt words it, nil for one getopt has no words for.
    static func message(for failure: ArgumentNormalizer.Failure) -> String? {
        switch failure.kind {
        case .missingValue(let option) where option.hasPrefix("--"): "option '\(option)' requires an argument"
        case .missingValue(let option): "option requires an argument -- '\(option.dropFirst())'"
        case .unknownLetter(let letter): "invalid option -- '\(letter)'"
        case .other: nil
        }
    }

    /// `arguments` (normalized, `grep` first after the program) as grep takes them, or
    /// grep's error: a context length or max count that is not a number (one past
    /// `Int.max` is `Int.max`, as grep's overflow is "no limit"), an unknown binary-files
    /// type or devices method.
    static func checked(_ arguments: [String]) throws(Failure) -> [String] {
        var result = arguments
        for k in arguments.indices.dropFirst(2) {
            let word = arguments[k]
            if word == "--" { break }
            guard word.hasPrefix("--") else { continue }
            let name: String, value: String
            if let equals = word.firstIndex(of: "=") {
                name = String(word[word.index(word.startIndex, offsetBy: 2)..<equals])
                value = String(word[word.index(after: equals)...])
            } else if k + 1 < arguments.count, arguments[k + 1].isEmpty {
                (name, value) = (String(word.dropFirst(2)), "")  // the normalizer's `--name ""`
            } else {
                continue
            }
            switch name {
            case "after-context", "before-context", "context":
                guard let n = count(value, negative: false) else {
                    throw Failure(message: "\(value): invalid context length argument", usageLines: false)
                }
                result[k] = "--\(name)=\(n)"
            case "max-count":
                guard let n = count(value, negative: true) else {
                    throw Failure(message: "invalid max count", usageLines: false)
                }
                result[k] = "--\(name)=\(n)"
            case "binary-files" where BinaryFiles(rawValue: value) == nil:
                throw Failure(message: "unknown binary-files type", usageLines: false)
            case "devices" where DeviceAction(rawValue: value) == nil:
                throw Failure(message: "unknown devices method", usageLines: false)
            default:
                break
            }
        }
        return result
    }

    /// ArgumentParser's "Unknown option '--foo'. Did you mean…" as getopt_long words it
    /// (naming the word as given in `arguments`, `--foo=x`), nil for any other message.
    static func message(forParserMessage message: String, arguments: [String] = ArgumentNormalizer.current) -> String? {
        let prefix = "Unknown option '"
        guard message.hasPrefix(prefix), let end = message.dropFirst(prefix.count).firstIndex(of: "'") else { return nil }
        let option = message[message.index(message.startIndex, offsetBy: prefix.count)..<end]
        let given = arguments.first { $0 == option || $0.hasPrefix(option + "=") } ?? String(option)
        return "unrecognized option '\(given)'"
    }

    /// A decimal count as grep reads it (`xstrtoimax`): digits, a sign only where
    /// allowed, a value past `Int.max` taken as `Int.max`; nil when it is no number.
    static func count(_ text: String, negative: Bool) -> Int? {
        var digits = Substring(text)
        var sign = 1
        if negative, digits.first == "-" {
            sign = -1
            digits = digits.dropFirst()
        } else if digits.first == "+" {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits).map { $0 * sign } ?? (sign < 0 ? Int.min : Int.max)
    }
}
