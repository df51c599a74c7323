/// Open registries for certificate facts: values OpenSSL names, kept as open structs (like ``CipherSuite``)
/// so a value atscheck has never heard of is still representable and round-trips unchanged. Each encodes
/// as its bare string, the same text `CertificateFacts` held when these were Strings. Spelling variants of
/// well-known values are normalised on init (they never occur in what TLSProbe reads, so its JSON is
/// unchanged; they occur in hand-written or older profiles).
public protocol CertificateRegistryValue: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    /// A value from OpenSSL's (or a saved profile's) text, normalised when it is a known variant.
    init(rawValue: String)
}

extension CertificateRegistryValue {
    /// A value written as a literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// Decodes the bare string.
    /// - Throws: A `DecodingError` when the value is not a string.
    public init(from decoder: Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the bare string.
    /// - Throws: An `EncodingError` from the encoder.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

/// A certificate's public-key algorithm: `RSA`, `EC`, `Ed25519`, `Ed448`, `DSA`, or OpenSSL's name for
/// another type.
public struct KeyAlgorithm: CertificateRegistryValue {
    public let rawValue: String

    /// A key algorithm; `rsa`, `rsaEncryption`, `ec`, `id-ecPublicKey`, `ed25519`, … read as the well-known
    /// members (case-insensitive); other names are kept as given.
    public init(rawValue: String) { self.rawValue = Self.aliases[rawValue.lowercased()] ?? rawValue }

    public static let rsa = KeyAlgorithm(rawValue: "RSA")
    public static let ec = KeyAlgorithm(rawValue: "EC")
    public static let ed25519 = KeyAlgorithm(rawValue: "Ed25519")
    public static let ed448 = KeyAlgorithm(rawValue: "Ed448")
    public static let dsa = KeyAlgorithm(rawValue: "DSA")

    private static let aliases: [String: String] = [
        "rsa": "RSA", "rsaencryption": "RSA", "ec": "EC", "id-ecpublickey": "EC", "ed25519": "Ed25519",
        "ed448": "Ed448", "dsa": "DSA", "dsaencryption": "DSA",
    ]
}

/// The digest of a certificate's signature algorithm, by OpenSSL's short name: `SHA256`, `SHA1`, `MD5`, …
public struct SignatureDigest: CertificateRegistryValue {
    public let rawValue: String

    /// A digest; `SHA-1`, `sha1`, `SHA-256`, … read as the well-known members; other names are kept as given.
    public init(rawValue: String) { self.rawValue = Self.aliases[rawValue.lowercased()] ?? rawValue }

    public static let md2 = SignatureDigest(rawValue: "MD2")
    public static let md4 = SignatureDigest(rawValue: "MD4")
    public static let md5 = SignatureDigest(rawValue: "MD5")
    public static let sha1 = SignatureDigest(rawValue: "SHA1")
    public static let sha224 = SignatureDigest(rawValue: "SHA224")
    public static let sha256 = SignatureDigest(rawValue: "SHA256")
    public static let sha384 = SignatureDigest(rawValue: "SHA384")
    public static let sha512 = SignatureDigest(rawValue: "SHA512")

    private static let aliases: [String: String] = {
        var table: [String: String] = [:]
        for name in ["MD2", "MD4", "MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512"] {
            table[name.lowercased()] = name
        }
        for bits in ["1", "224", "256", "384", "512"] { table["sha-\(bits)"] = "SHA\(bits)" }
        return table
    }()
}

/// One extended key usage purpose, by OpenSSL's short name (`serverAuth`, `clientAuth`,
/// `anyExtendedKeyUsage`, …) or, for a purpose OpenSSL does not name, the dotted OID.
public struct ExtendedKeyUsage: CertificateRegistryValue {
    public let rawValue: String

    /// A purpose; the dotted OID of a well-known purpose reads as its name (OpenSSL names those itself).
    public init(rawValue: String) { self.rawValue = Self.oids[rawValue] ?? rawValue }

    /// id-kp-serverAuth (1.3.6.1.5.5.7.3.1): TLS server certificates.
    public static let serverAuth = ExtendedKeyUsage(rawValue: "serverAuth")
    /// id-kp-clientAuth (1.3.6.1.5.5.7.3.2).
    public static let clientAuth = ExtendedKeyUsage(rawValue: "clientAuth")
    public static let codeSigning = ExtendedKeyUsage(rawValue: "codeSigning")
    public static let emailProtection = ExtendedKeyUsage(rawValue: "emailProtection")
    public static let timeStamping = ExtendedKeyUsage(rawValue: "timeStamping")
    public static let ocspSigning = ExtendedKeyUsage(rawValue: "OCSPSigning")
    /// anyExtendedKeyUsage (2.5.29.37.0).
    public static let anyExtendedKeyUsage = ExtendedKeyUsage(rawValue: "anyExtendedKeyUsage")
    /// Microsoft Server Gated Crypto (1.3.6.1.4.1.311.10.3.3): trustd's SSL policy still accepts it on a sub-CA.
    public static let msSGC = ExtendedKeyUsage(rawValue: "msSGC")
    /// Netscape Server Gated Crypto (2.16.840.1.113730.4.1): trustd's SSL policy still accepts it on a sub-CA.
    public static let nsSGC = ExtendedKeyUsage(rawValue: "nsSGC")

    private static let oids: [String: String] = [
        "1.3.6.1.5.5.7.3.1": "serverAuth", "1.3.6.1.5.5.7.3.2": "clientAuth", "1.3.6.1.5.5.7.3.3": "codeSigning",
        "1.3.6.1.5.5.7.3.4": "emailProtection", "1.3.6.1.5.5.7.3.8": "timeStamping", "1.3.6.1.5.5.7.3.9": "OCSPSigning",
        "2.5.29.37.0": "anyExtendedKeyUsage", "1.3.6.1.4.1.311.10.3.3": "msSGC", "2.16.840.1.113730.4.1": "nsSGC",
    ]
}
