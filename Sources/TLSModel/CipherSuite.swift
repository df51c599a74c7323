import Foundation

/// A TLS cipher suite, identified by its IANA code point.
///
/// An open struct over `UInt16` (like swift-nio-ssl's `NIOTLSCipher`): a code atscheck has
/// never heard of is still representable and round-trips through JSON. Metadata for the
/// suites we know lives in ``CipherSuite/registry``.
public struct CipherSuite: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ code: UInt16) { self.rawValue = code }

    /// The code as `0xC02F`, the spelling of the JSON contract.
    public var hexCode: String { String(format: "0x%04X", rawValue) }

    /// Registry metadata, or nil for a code the registry does not list.
    public var info: CipherSuiteInfo? { CipherSuite.registry[self] }

    /// The IANA name, or the hex code when the suite is not in the registry.
    public var ianaName: String { info?.ianaName ?? hexCode }

    public var description: String { ianaName }

    public static func < (lhs: CipherSuite, rhs: CipherSuite) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Parses `0xC02F`, `C02F`, an IANA name or an OpenSSL name.
    public init?(text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let info = CipherSuite.registryByName[t] ?? CipherSuite.registryByName[t.uppercased()] {
            self = info.suite
            return
        }
        let hex = t.lowercased().hasPrefix("0x") ? String(t.dropFirst(2)) : t
        guard hex.count == 4, let value = UInt16(hex, radix: 16) else { return nil }
        self.init(rawValue: value)
    }
}

extension CipherSuite: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let suite = CipherSuite(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a cipher suite: \(text)")
        }
        self = suite
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hexCode)
    }
}

/// How a suite agrees on keys.
public enum KeyExchange: String, Codable, Sendable, CaseIterable {
    case ecdhe, dhe, rsa, psk, ecdhePSK, dhePSK, rsaPSK, srp
    /// TLS 1.3 suites leave key exchange to the separately negotiated group (always ephemeral).
    case tls13
    case none

    /// Whether this key exchange gives forward secrecy.
    public var isForwardSecret: Bool {
        switch self {
        case .ecdhe, .dhe, .ecdhePSK, .dhePSK, .tls13: return true
        case .rsa, .psk, .rsaPSK, .srp, .none: return false
        }
    }

    /// A short display name: ECDHE, DHE, RSA, …
    public var displayName: String {
        switch self {
        case .ecdhe: return "ECDHE"
        case .dhe: return "DHE"
        case .rsa: return "RSA"
        case .psk: return "PSK"
        case .ecdhePSK: return "ECDHE-PSK"
        case .dhePSK: return "DHE-PSK"
        case .rsaPSK: return "RSA-PSK"
        case .srp: return "SRP"
        case .tls13: return "(TLS 1.3)"
        case .none: return "none"
        }
    }
}

/// How the server authenticates in a suite (TLS 1.2 and earlier).
public enum SuiteAuthentication: String, Codable, Sendable, CaseIterable {
    case rsa, ecdsa, dss, anonymous, psk, srp
    /// TLS 1.3: authentication follows the certificate, not the suite.
    case any
    case none
}

/// Registry metadata of one cipher suite.
public struct CipherSuiteInfo: Sendable, Hashable {
    public var suite: CipherSuite
    /// The IANA TLS Cipher Suites registry name.
    public var ianaName: String
    /// OpenSSL's name (`ECDHE-RSA-AES128-GCM-SHA256`); IANA name for TLS 1.3 suites.
    public var openSSLName: String
    /// The oldest protocol version the suite can be used with.
    public var minimumVersion: TLSVersion
    public var keyExchange: KeyExchange
    public var authentication: SuiteAuthentication
    /// Bulk cipher as OpenSSL prints it: `AESGCM(128)`, `CHACHA20/POLY1305(256)`, `AES(256)`.
    public var encryption: String
    /// MAC as OpenSSL prints it: `AEAD`, `SHA1`, `SHA256`, `SHA384`, `MD5`.
    public var mac: String

    public init(
        _ code: UInt16, _ ianaName: String, _ openSSLName: String, _ minimumVersion: TLSVersion,
        _ keyExchange: KeyExchange, _ authentication: SuiteAuthentication, _ encryption: String, _ mac: String
    ) {
        self.suite = CipherSuite(rawValue: code)
        self.ianaName = ianaName
        self.openSSLName = openSSLName
        self.minimumVersion = minimumVersion
        self.keyExchange = keyExchange
        self.authentication = authentication
        self.encryption = encryption
        self.mac = mac
    }

    public var forwardSecrecy: Bool { keyExchange.isForwardSecret }
    /// True for TLS 1.3 suites (0x13xx).
    public var isTLS13: Bool { keyExchange == .tls13 }
    /// CBC-mode block cipher (neither AEAD nor a stream cipher).
    public var isCBC: Bool { mac != "AEAD" && !encryption.hasPrefix("RC4") && encryption != "None" }
    /// ChaCha20-Poly1305 (RFC 7905, RFC 8446): the suite a server may put first for a client that lists it first.
    package var isChaCha20Poly1305: Bool { encryption.hasPrefix("CHACHA20/POLY1305") }
}

extension CipherSuite {
    /// Every registry entry, by code.
    public static let registry: [CipherSuite: CipherSuiteInfo] = {
        var table: [CipherSuite: CipherSuiteInfo] = [:]
        for info in registryTable { table[info.suite] = info }
        return table
    }()

    static let registryByName: [String: CipherSuiteInfo] = {
        var table: [String: CipherSuiteInfo] = [:]
        for info in registryTable {
            table[info.ianaName] = info
            table[info.openSSLName] = info
        }
        return table
    }()

    // Frequently named suites (the ATS groups and common legacy ones).
    public static let TLS_AES_128_GCM_SHA256 = CipherSuite(0x1301)
    public static let TLS_AES_256_GCM_SHA384 = CipherSuite(0x1302)
    public static let TLS_CHACHA20_POLY1305_SHA256 = CipherSuite(0x1303)
    public static let TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 = CipherSuite(0xC02C)
    public static let TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 = CipherSuite(0xC02B)
    public static let TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 = CipherSuite(0xCCA9)
    public static let TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 = CipherSuite(0xC030)
    public static let TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 = CipherSuite(0xC02F)
    public static let TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 = CipherSuite(0xCCA8)
    public static let TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384 = CipherSuite(0xC024)
    public static let TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256 = CipherSuite(0xC023)
    public static let TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA = CipherSuite(0xC00A)
    public static let TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA = CipherSuite(0xC009)
    public static let TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384 = CipherSuite(0xC028)
    public static let TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 = CipherSuite(0xC027)
    public static let TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA = CipherSuite(0xC014)
    public static let TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA = CipherSuite(0xC013)
    public static let TLS_RSA_WITH_AES_256_GCM_SHA384 = CipherSuite(0x009D)
    public static let TLS_RSA_WITH_AES_128_GCM_SHA256 = CipherSuite(0x009C)
    public static let TLS_RSA_WITH_AES_256_CBC_SHA256 = CipherSuite(0x003D)
    public static let TLS_RSA_WITH_AES_128_CBC_SHA256 = CipherSuite(0x003C)
    public static let TLS_RSA_WITH_AES_256_CBC_SHA = CipherSuite(0x0035)
    public static let TLS_RSA_WITH_AES_128_CBC_SHA = CipherSuite(0x002F)
    public static let TLS_DHE_RSA_WITH_AES_128_GCM_SHA256 = CipherSuite(0x009E)
    public static let TLS_DHE_RSA_WITH_AES_256_GCM_SHA384 = CipherSuite(0x009F)
    public static let TLS_RSA_WITH_3DES_EDE_CBC_SHA = CipherSuite(0x000A)
}
