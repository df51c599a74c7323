import Foundation

/// A TLS key-exchange group (`NamedGroup` of RFC 8446 §4.2.7, `NamedCurve` of RFC 8422), identified by its code in
/// the IANA "TLS Supported Groups" registry.
///
/// An open struct over `UInt16`, like ``CipherSuite``: a code atscheck has never heard of is still representable and
/// round-trips through JSON. Metadata for the groups that matter lives in ``NamedGroup/registry``.
public struct NamedGroup: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ code: UInt16) { self.rawValue = code }

    /// The code as `0x11EC`, the spelling of the JSON contract.
    public var hexCode: String { String(format: "0x%04X", rawValue) }

    /// Registry metadata, or nil for a code the registry does not list.
    public var info: NamedGroupInfo? { NamedGroup.registry[self] }

    /// The IANA name (`X25519MLKEM768`, `x25519`, `secp256r1`), or the hex code when the group is not in the registry.
    public var ianaName: String { info?.ianaName ?? hexCode }

    /// Whether the group is a post-quantum key exchange (an ML-KEM or Kyber hybrid, or ML-KEM alone); false for a
    /// code the registry does not list.
    public var isPostQuantum: Bool { info?.postQuantum ?? false }

    /// A GREASE value of RFC 8701 (`0x?A?A`): reserved, never a real group.
    public var isGREASE: Bool { rawValue & 0x0F0F == 0x0A0A && rawValue >> 8 == rawValue & 0xFF }

    public var description: String { ianaName }

    public static func < (lhs: NamedGroup, rhs: NamedGroup) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Parses `0x11EC`, `11EC`, an IANA name (`X25519MLKEM768`, case-insensitive) or a display name (`P-256`).
    public init?(text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let info = NamedGroup.registryByName[t.lowercased()] {
            self = info.group
            return
        }
        let hex = t.lowercased().hasPrefix("0x") ? String(t.dropFirst(2)) : t
        guard hex.count == 4, let value = UInt16(hex, radix: 16) else { return nil }
        self.init(rawValue: value)
    }
}

extension NamedGroup: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let group = NamedGroup(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a named group: \(text)")
        }
        self = group
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hexCode)
    }
}

/// Registry metadata of one key-exchange group.
public struct NamedGroupInfo: Sendable, Hashable {
    /// What kind of key agreement the group is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An elliptic curve (ECDHE, RFC 8422 and RFC 7748).
        case ellipticCurve
        /// A finite-field Diffie-Hellman group (RFC 7919).
        case finiteField
        /// A classical curve and ML-KEM (or the Kyber draft) together: safe if either holds.
        case hybrid
        /// ML-KEM alone.
        case postQuantum
    }

    public var group: NamedGroup
    /// The IANA "TLS Supported Groups" registry name.
    public var ianaName: String
    /// A short name for people: `X25519`, `P-256`, `ffdhe2048`, `X25519MLKEM768` (for the curves, the spelling of
    /// ``AcceptedCipherSuite/group``).
    public var displayName: String
    public var kind: Kind
    /// The estimated classical security strength, in bits, of the group (of its classical part for a hybrid): what
    /// breaking it with a classical computer costs. Nil for ML-KEM alone, which has no classical part.
    public var classicalBits: Int?
    /// The oldest protocol version the group can be used with (TLS 1.3 for the hybrids and the `tls13` brainpool
    /// codes; TLS 1.0 for the RFC 8422 curves and the RFC 7919 groups).
    public var minimumVersion: TLSVersion
    /// True for a code the registry marks obsolete (the Kyber draft hybrid), which current clients no longer offer.
    public var obsolete: Bool

    public init(
        _ code: UInt16, _ ianaName: String, _ displayName: String, _ kind: Kind, classicalBits: Int?,
        minimumVersion: TLSVersion, obsolete: Bool = false
    ) {
        self.group = NamedGroup(rawValue: code)
        self.ianaName = ianaName
        self.displayName = displayName
        self.kind = kind
        self.classicalBits = classicalBits
        self.minimumVersion = minimumVersion
        self.obsolete = obsolete
    }

    /// Whether the group resists a quantum computer: a hybrid with ML-KEM or Kyber, or ML-KEM alone.
    public var postQuantum: Bool { kind == .hybrid || kind == .postQuantum }
}
