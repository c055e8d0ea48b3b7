// Literal automata: KMP and Aho-Corasick. (placeholder until issue 3)
import AutomatonCore
