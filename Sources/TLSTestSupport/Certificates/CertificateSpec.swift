import Foundation
internal import TLSModel

/// The digest a test certificate is signed with.
package enum TestDigest: String, Sendable, Hashable {
    case sha256, sha384, sha1, md5
}

/// What a test certificate says: names, key, signature digest, validity and extensions.
///
/// Defaults describe an ordinary leaf: RSA-2048, SHA-256, valid from a day ago for 90 days,
/// `serverAuth` EKU, no SCTs, random serial.
package struct CertificateSpec: Sendable {
    /// Subject commonName; nil means the subject has no CN.
    package var commonName: String?
    /// SAN dNSName entries. With no `ipAddresses` either, the certificate has no SAN extension at all.
    package var dnsNames: [String]
    /// SAN iPAddress entries, as text (`127.0.0.1`, `::1`).
    package var ipAddresses: [String]
    /// The subject key's type. Keys are cached per type and ``keySlot``.
    package var key: TestKeyType
    /// Which cached key of `key`'s type to use (see ``TestKey/generate(_:slot:)``). Every leaf of one
    /// type shares the `"leaf"` key by default, so two such leaves have the same SPKI pin: give a
    /// distinct slot when a test needs a different key (a pin mismatch).
    package var keySlot: String
    /// The digest of the issuer's signature.
    package var digest: TestDigest
    package var notBefore: Date
    package var notAfter: Date
    /// A CA: basicConstraints critical CA:TRUE and keyUsage keyCertSign, cRLSign.
    package var isCA: Bool
    /// Extended key usage by OpenSSL short name (`serverAuth`, `clientAuth`); nil means no EKU extension.
    package var extendedKeyUsage: [String]?
    /// How many fake (syntactically valid, unsigned) v1 SCTs to embed in the
    /// CT precertificate SCT list extension (OID 1.3.6.1.4.1.11129.2.4.2); 0 adds no extension.
    package var embeddedSCTs: Int
    /// Real SCTs to embed, each signed by its test log over the precertificate entry (RFC 6962 §3.2); when not
    /// empty they replace ``embeddedSCTs``. Needs an issuer (the entry hashes the issuer's key).
    package var signedSCTs: [SCTSpec] = []
    /// Serial number; nil picks a random positive one.
    package var serial: Int?
    /// Organization of the subject (always set, so subjects stay distinct from each other's CNs).
    package var organization: String
    /// Extra bytes of padding carried in a non-critical `nsComment` extension (0 = none):
    /// makes certificates large without changing what they mean (the huge-chain fixture).
    package var paddingBytes: Int
    /// Extensions in OpenSSL's config syntax, by short name (`nameConstraints`, `keyUsage`, `basicConstraints`,
    /// `extendedKeyUsage`, …), added in order; one named like a default (`keyUsage`, `basicConstraints`,
    /// `extendedKeyUsage`) replaces it. For the corners path building must get right: name constraints, odd key
    /// usages, a CA without basic constraints.
    package var extensions: [(name: String, value: String)] = []

    /// A spec; `extendedKeyUsage` starts as `["serverAuth"]` for leaves and nil for CAs.
    /// See the static helpers for the usual shapes.
    package init(
        commonName: String?, dnsNames: [String] = [], ipAddresses: [String] = [],
        key: TestKeyType = .rsa(bits: 2048), keySlot: String = "leaf", digest: TestDigest = .sha256,
        notBefore: Date = Date().addingTimeInterval(-86_400), notAfter: Date = Date().addingTimeInterval(90 * 86_400),
        isCA: Bool = false, embeddedSCTs: Int = 0, serial: Int? = nil,
        organization: String = "atscheck test", paddingBytes: Int = 0
    ) {
        self.commonName = commonName
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.key = key
        self.keySlot = keySlot
        self.digest = digest
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.isCA = isCA
        self.extendedKeyUsage = isCA ? nil : ["serverAuth"]
        self.embeddedSCTs = embeddedSCTs
        self.serial = serial
        self.organization = organization
        self.paddingBytes = paddingBytes
    }

    /// A server leaf for `names`: each name that parses as an IP address becomes an iPAddress SAN,
    /// every other a dNSName SAN; the first name is also the CN.
    ///
    /// - Parameters:
    ///   - names: Host names and IP literals, e.g. `"localhost", "127.0.0.1"`.
    ///   - key: The leaf key type.
    ///   - digest: The issuer's signature digest.
    ///   - validityDays: Lifetime in days, counted from `notBefore`.
    ///   - notBefore: Start of validity (default: a day ago).
    package static func leaf(
        _ names: String..., key: TestKeyType = .rsa(bits: 2048), digest: TestDigest = .sha256,
        validityDays: Double = 90, notBefore: Date = Date().addingTimeInterval(-86_400)
    ) -> CertificateSpec {
        let ips = names.filter(isIPLiteral)
        let dns = names.filter { !isIPLiteral($0) }
        return CertificateSpec(
            commonName: names.first, dnsNames: dns, ipAddresses: ips, key: key, digest: digest,
            notBefore: notBefore, notAfter: notBefore.addingTimeInterval(validityDays * 86_400))
    }

    /// The usual loopback leaf: SANs `localhost` and `127.0.0.1`, CN `localhost`.
    package static func localhost(key: TestKeyType = .rsa(bits: 2048), digest: TestDigest = .sha256) -> CertificateSpec
    {
        leaf("localhost", "127.0.0.1", key: key, digest: digest)
    }

    /// A leaf that names its host only in the subject CN (no SAN extension), as pre-2017 certificates did.
    package static func commonNameOnly(_ name: String, key: TestKeyType = .rsa(bits: 2048)) -> CertificateSpec {
        CertificateSpec(commonName: name, key: key)
    }

    /// A CA certificate valid for ten years from a day ago.
    package static func ca(_ commonName: String, key: TestKeyType = .rsa(bits: 2048), digest: TestDigest = .sha256)
        -> CertificateSpec
    {
        let start = Date().addingTimeInterval(-86_400)
        return CertificateSpec(
            commonName: commonName, key: key, keySlot: "ca-\(commonName)", digest: digest, notBefore: start,
            notAfter: start.addingTimeInterval(3_650 * 86_400), isCA: true)
    }

    /// Returns a copy valid from `notBefore` for `days` days.
    package func valid(from notBefore: Date, days: Double) -> CertificateSpec {
        var copy = self
        copy.notBefore = notBefore
        copy.notAfter = notBefore.addingTimeInterval(days * 86_400)
        return copy
    }

    /// Returns a copy that expired `daysAgo` days ago (after a 90-day life).
    package func expired(daysAgo: Double = 1) -> CertificateSpec {
        valid(from: Date().addingTimeInterval(-(daysAgo + 90) * 86_400), days: 90)
    }

    /// Returns a copy whose validity starts `inDays` days from now.
    package func notYetValid(inDays: Double = 1) -> CertificateSpec {
        valid(from: Date().addingTimeInterval(inDays * 86_400), days: 90)
    }

    /// Returns a copy with this EKU (nil: no EKU extension at all).
    package func withExtendedKeyUsage(_ usages: [String]?) -> CertificateSpec {
        var copy = self
        copy.extendedKeyUsage = usages
        return copy
    }

    /// Returns a copy with the extension `name` set to `value` (OpenSSL config syntax), replacing a default one.
    package func withExtension(_ name: String, _ value: String) -> CertificateSpec {
        var copy = self
        copy.extensions.removeAll { $0.name == name }
        copy.extensions.append((name, value))
        return copy
    }

    /// Returns a copy that embeds `count` fake SCTs.
    package func withEmbeddedSCTs(_ count: Int) -> CertificateSpec {
        var copy = self
        copy.embeddedSCTs = count
        return copy
    }

    /// Returns a copy that embeds real SCTs from `scts`' logs.
    package func withSignedSCTs(_ scts: [SCTSpec]) -> CertificateSpec {
        var copy = self
        copy.signedSCTs = scts
        return copy
    }

    /// Whether `text` is an IPv4 or IPv6 literal.
    static func isIPLiteral(_ text: String) -> Bool {
        !text.hasPrefix("[") && IPAddress(literal: text) != nil  // a SAN iPAddress is written bare
    }
}
