// `--allow-from CIDR`: the networks a client may connect from (spamd's
// --allowed-ips). By default only the loopback networks, as spamd's default.

/// An IPv4 or IPv6 network: an address and a prefix length.
///
/// ```swift
/// let net = try IPNetwork(parsing: "10.0.0.0/8")
/// net.contains(IPNetwork.addressBytes("10.1.2.3")!)   // true
/// ```
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// 4 or 16 bytes.
    public let address: [UInt8]
    public let prefixLength: Int

    /// 127.0.0.0/8 and ::1/128.
    public static let loopback: [IPNetwork] = [
        IPNetwork(address: [127, 0, 0, 0], prefixLength: 8),
        IPNetwork(address: Array(repeating: 0, count: 15) + [1], prefixLength: 128),
    ]

    init(address: [UInt8], prefixLength: Int) {
        self.address = address
        self.prefixLength = prefixLength
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `ADDRESS/LENGTH`, or an address alone (the whole address).
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.addressBytes(String(parts[0])) else {
            throw ParseError(description: "--allow-from \(text): \(parts[0]) is not an IP address")
        }
        let bits = bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let n = Int(parts[1]), (0...bits).contains(n) else {
                throw ParseError(description: "--allow-from \(text): the prefix length must be 0 to \(bits)")
            }
            length = n
        }
        self.init(address: bytes, prefixLength: length)
    }

    /// Whether `address` (4 or 16 bytes; an IPv4-mapped IPv6 address counts as IPv4) is in the network.
    public func contains(_ candidate: [UInt8]) -> Bool {
        var other = candidate
        if other.count == 16, address.count == 4, other[0..<10].allSatisfy({ $0 == 0 }), other[10] == 0xFF, other[11] == 0xFF {
            other = Array(other[12...])
        }
        guard other.count == address.count else { return false }
        var left = prefixLength
        for k in 0..<address.count where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if address[k] & mask != other[k] & mask { return false }
            left -= 8
        }
        return true
    }

    public var description: String {
        "\(Self.text(address))/\(prefixLength)"
    }

    /// The bytes of a textual IPv4 or IPv6 address (inet_pton), or nil.
    public static func addressBytes(_ text: String) -> [UInt8]? {
        parsedAddressBytes(text)
    }

    static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: bytes.count, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
