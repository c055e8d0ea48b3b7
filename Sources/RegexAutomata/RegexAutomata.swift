// RegexAutomata: parser → Hir → Thompson NFA → DFA. See Syntax/Hir.swift.
import AutomatonCore
