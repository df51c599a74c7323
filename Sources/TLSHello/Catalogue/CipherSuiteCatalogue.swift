/// The cipher suites an engine hello can offer, with IANA names and what the enumerator needs of each: the key
/// exchange (to read a ServerKeyExchange), the TLS 1.3 hash, and whether OpenSSL 3.0 can offer it.
package enum CipherSuiteCatalogue {
    /// One suite of the catalogue.
    package struct Entry: Sendable, Hashable {
        /// The IANA codepoint.
        package var code: UInt16
        /// The IANA name, e.g. `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`.
        package var name: String
        /// How the premaster secret is agreed.
        package var keyExchange: KeyExchange
    }

    /// A suite's key exchange, as its name says.
    package enum KeyExchange: String, Sendable, Hashable, CaseIterable {
        /// TLS 1.3: negotiated apart from the suite (key_share).
        case tls13
        case ecdhe, dhe, rsa
        /// Static (EC)DH from the certificate: no ServerKeyExchange.
        case ecdh, dh
        case ecdhAnon, dhAnon
        case psk, dhePSK, ecdhePSK, rsaPSK
        case srp
        /// The renegotiation and fallback signalling values (not suites).
        case signalling
    }

    /// Every entry, by codepoint.
    package static let all: [Entry] = table.map { Entry(code: $0.0, name: $0.1, keyExchange: keyExchange(of: $0.1)) }

    private static let byCode: [UInt16: Entry] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The entry for `code`, nil for a codepoint we do not know.
    package static func entry(_ code: UInt16) -> Entry? { byCode[code] }

    /// The IANA name of `code`, or `0xXXXX` for one we do not know.
    package static func name(_ code: UInt16) -> String {
        byCode[code]?.name ?? "0x" + String(code, radix: 16, uppercase: true).leftPadded(to: 4)
    }

    /// The TLS 1.3 suites (RFC 8446 §B.4).
    package static var tls13: [UInt16] { all.filter { $0.keyExchange == .tls13 }.map(\.code) }

    /// Suites that a TLS ≤ 1.2 server may choose (everything but TLS 1.3 suites and the signalling values).
    package static var tls12AndBelow: [UInt16] {
        all.filter { $0.keyExchange != .tls13 && $0.keyExchange != .signalling }.map(\.code)
    }

    static func keyExchange(of name: String) -> KeyExchange {
        if name.hasSuffix("_SCSV") { return .signalling }
        guard let with = name.range(of: "_WITH_") else { return .tls13 }
        let kx = name[name.index(name.startIndex, offsetBy: 4)..<with.lowerBound]
        switch kx {
        case "ECDHE_ECDSA", "ECDHE_RSA": return .ecdhe
        case "DHE_RSA", "DHE_DSS", "DHE_RSA_EXPORT", "DHE_DSS_EXPORT": return .dhe
        case "ECDH_ECDSA", "ECDH_RSA": return .ecdh
        case "DH_RSA", "DH_DSS", "DH_RSA_EXPORT", "DH_DSS_EXPORT": return .dh
        case "ECDH_anon": return .ecdhAnon
        case "DH_anon", "DH_anon_EXPORT": return .dhAnon
        case "PSK", "PSK_DHE": return kx == "PSK" ? .psk : .dhePSK
        case "DHE_PSK": return .dhePSK
        case "ECDHE_PSK": return .ecdhePSK
        case "RSA_PSK": return .rsaPSK
        case "SRP_SHA", "SRP_SHA_RSA", "SRP_SHA_DSS": return .srp
        default: return .rsa  // RSA, RSA_EXPORT
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
