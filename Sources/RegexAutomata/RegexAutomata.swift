// Regex automata. (placeholder until issue 4)
import AutomatonCore
