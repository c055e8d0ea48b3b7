// A program that uses the Turnstile library alone, as an app or a server that only
// matches text would: it links the standard library and nothing else (no Foundation, no
// ICU), which LibraryLinkageTests checks with ldd.
import Turnstile

let verdict = SpamFilter.standard.verdict(for: "URGENT winner! Claim your cash prize now, act fast")
print("spam: \(verdict.isSpam)")

let words = try AhoCorasick(["free", "prize"], asciiCaseInsensitive: true, wholeWord: true)
print("words: \(words.count(in: "Free prize, free entry, no prizes"))")

let url = try RegexAutomaton("https?://[a-z0-9.]+")
print("links: \(url.matches(in: "see http://a.example and https://b.example").map(\.range))")
