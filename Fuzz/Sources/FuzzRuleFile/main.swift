// Fuzz target: the rule-file parser on arbitrary bytes (issue 16).
//
// Input: the file. Every input must give a typed error whose message names the source,
// or rules; parsed rules written back as a rule file must parse to the same rules,
// weights, threshold and flags (the round trip `train` and `compile` rely on).

import FuzzSupport
import Turnstile

runFuzzer { data in
    let file: RuleFile
    do throws(TurnstileError) {
        file = try RuleFile(parsing: data, source: "fuzz.tsv")
    } catch {
        let message = String(describing: error)
        if !message.contains("fuzz.tsv") {
            fuzzFailure("error without the file name: \(message) for \(showBytes(data))")
        }
        return
    }
    let written = file.bytes()
    do throws(TurnstileError) {
        let again = try RuleFile(parsing: written, source: "again.tsv")
        if again.rules != file.rules || again.threshold != file.threshold || again.flags != file.flags {
            fuzzFailure("rule file does not survive a write and a parse: \(showBytes(data)) -> \(showBytes(written))")
        }
    } catch {
        fuzzFailure("a written rule file does not parse (\(error)): \(showBytes(data)) -> \(showBytes(written))")
    }
}
