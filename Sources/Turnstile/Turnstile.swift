@_exported import AutomatonCore
