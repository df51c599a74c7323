import Foundation

/// A TLS protocol version, identified by its wire value (0x0301 … 0x0304).
///
/// An open struct rather than an enum so that an unexpected wire value (an SSL 3.0 or
/// a draft version seen in a saved profile) is still representable.
/// It encodes as the OpenSSL-style name used throughout the JSON contract: `"TLSv1.2"`.
public struct TLSVersion: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let tls1_0 = TLSVersion(rawValue: 0x0301)
    public static let tls1_1 = TLSVersion(rawValue: 0x0302)
    public static let tls1_2 = TLSVersion(rawValue: 0x0303)
    public static let tls1_3 = TLSVersion(rawValue: 0x0304)

    /// The versions atscheck probes, oldest first.
    public static let probed: [TLSVersion] = [.tls1_0, .tls1_1, .tls1_2, .tls1_3]

    /// `"TLSv1.0"` … `"TLSv1.3"`, the spelling of `NSExceptionMinimumTLSVersion` values.
    public var name: String {
        switch rawValue {
        case 0x0300: return "SSLv3"
        case 0x0301: return "TLSv1.0"
        case 0x0302: return "TLSv1.1"
        case 0x0303: return "TLSv1.2"
        case 0x0304: return "TLSv1.3"
        default: return String(format: "0x%04X", rawValue)
        }
    }

    public var description: String { name }

    /// Parses `"TLSv1.2"` (exact, case-sensitive, as Apple does) or a `0x0303`-style value.
    public init?(name: String) {
        switch name {
        case "SSLv3": self = TLSVersion(rawValue: 0x0300)
        case "TLSv1.0": self = .tls1_0
        case "TLSv1.1": self = .tls1_1
        case "TLSv1.2": self = .tls1_2
        case "TLSv1.3": self = .tls1_3
        default:
            guard name.hasPrefix("0x"), let value = UInt16(name.dropFirst(2), radix: 16) else { return nil }
            self.init(rawValue: value)
        }
    }

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = TLSVersion(name: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown TLS version \(text)")
        }
        self = version
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
