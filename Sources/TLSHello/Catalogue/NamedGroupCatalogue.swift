/// Every named group an engine hello can offer in supported_groups.
///
/// Source: the IANA "TLS Supported Groups" registry (RFC 8422, RFC 7027 and RFC 8734 for brainpool, RFC 7748 for
/// x25519/x448, RFC 7919 for ffdhe, draft-ietf-tls-mlkem and draft-ietf-tls-ecdhe-mlkem for the ML-KEM groups and
/// hybrids, draft-tls-westerbaan-xyber768d00 for the withdrawn X25519Kyber768Draft00).
package enum NamedGroupCatalogue {
    /// One group of the catalogue.
    package struct Entry: Sendable, Hashable {
        /// The IANA codepoint.
        package var code: UInt16
        /// The IANA name, e.g. `X25519MLKEM768`.
        package var name: String
        /// What kind of key agreement it is.
        package var kind: Kind
        /// Whether the group resists a quantum computer (a pure or hybrid ML-KEM or Kyber group).
        package var isPostQuantum: Bool { kind == .hybrid || kind == .mlkem }
        /// Whether ``ClientHelloBuilder`` can send a key share for it (and so prove a TLS 1.3 handshake with it).
        package var hasKeyShare: Bool { KeyShareSecret.supportedGroups.contains(code) }
    }

    /// The family of a group.
    package enum Kind: String, Sendable, Hashable {
        /// An elliptic curve (NIST, brainpool, binary, x25519/x448).
        case ecdhe
        /// A finite-field Diffie–Hellman group (RFC 7919).
        case ffdhe
        /// Classical ECDH combined with ML-KEM or Kyber.
        case hybrid
        /// ML-KEM alone.
        case mlkem
    }

    /// Every entry, by codepoint.
    package static let all: [Entry] =
        [
            (0x0001, "sect163k1"), (0x0002, "sect163r1"), (0x0003, "sect163r2"), (0x0004, "sect193r1"),
            (0x0005, "sect193r2"), (0x0006, "sect233k1"), (0x0007, "sect233r1"), (0x0008, "sect239k1"),
            (0x0009, "sect283k1"), (0x000A, "sect283r1"), (0x000B, "sect409k1"), (0x000C, "sect409r1"),
            (0x000D, "sect571k1"), (0x000E, "sect571r1"), (0x000F, "secp160k1"), (0x0010, "secp160r1"),
            (0x0011, "secp160r2"), (0x0012, "secp192k1"), (0x0013, "secp192r1"), (0x0014, "secp224k1"),
            (0x0015, "secp224r1"), (0x0016, "secp256k1"), (0x0017, "secp256r1"), (0x0018, "secp384r1"),
            (0x0019, "secp521r1"), (0x001A, "brainpoolP256r1"), (0x001B, "brainpoolP384r1"),
            (0x001C, "brainpoolP512r1"),
            (0x001D, "x25519"), (0x001E, "x448"), (0x001F, "brainpoolP256r1tls13"), (0x0020, "brainpoolP384r1tls13"),
            (0x0021, "brainpoolP512r1tls13"),
        ].map { Entry(code: $0.0, name: $0.1, kind: .ecdhe) }
        + [
            (0x0100, "ffdhe2048"), (0x0101, "ffdhe3072"), (0x0102, "ffdhe4096"), (0x0103, "ffdhe6144"),
            (0x0104, "ffdhe8192"),
        ]
        .map { Entry(code: $0.0, name: $0.1, kind: .ffdhe) }
        + [(0x0200, "MLKEM512"), (0x0201, "MLKEM768"), (0x0202, "MLKEM1024")].map {
            Entry(code: $0.0, name: $0.1, kind: .mlkem)
        }
        + [
            (0x11EB, "SecP256r1MLKEM768"), (0x11EC, "X25519MLKEM768"), (0x11ED, "SecP384r1MLKEM1024"),
            (0x6399, "X25519Kyber768Draft00"), (0x639A, "SecP256r1Kyber768Draft00"),
        ].map { Entry(code: $0.0, name: $0.1, kind: .hybrid) }

    private static let byCode: [UInt16: Entry] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The entry for `code`, nil for a codepoint we do not know.
    package static func entry(_ code: UInt16) -> Entry? { byCode[code] }

    /// The IANA name of `code`, or `0xXXXX` for one we do not know.
    package static func name(_ code: UInt16) -> String {
        byCode[code]?.name ?? "0x" + String(code, radix: 16, uppercase: true).leftPadded(to: 4)
    }

    /// The groups worth enumerating today: the ones a server of this decade may accept (no binary or 160–224-bit
    /// curves, which no current stack enables).
    package static var current: [UInt16] {
        [
            0x001D, 0x0017, 0x0018, 0x0019, 0x001E, 0x001A, 0x001B, 0x001C, 0x001F, 0x0020, 0x0021, 0x0100, 0x0101,
            0x0102, 0x0103, 0x0104, 0x11EC, 0x11EB, 0x11ED, 0x6399, 0x0200, 0x0201, 0x0202, 0x0016,
        ]
    }

    static let x25519: UInt16 = 0x001D
    static let secp256r1: UInt16 = 0x0017
    static let secp384r1: UInt16 = 0x0018
    static let secp521r1: UInt16 = 0x0019
    static let x25519MLKEM768: UInt16 = 0x11EC
}
