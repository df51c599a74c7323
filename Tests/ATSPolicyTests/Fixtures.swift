import Foundation
import TLSModel

@testable import ATSPolicy

/// Hand-built server profiles for the policy tests.
enum Fixture {
    static let day: TimeInterval = 86_400
    /// The evaluation time of every fixture.
    static let now = AppleDates.utc(2025, 6, 1)

    static func cert(
        _ subject: String = "CN=api.example.com", keyType: KeyAlgorithm = .rsa, bits: Int = 2048,
        hash: SignatureDigest = .sha256,
        sans: [String] = ["api.example.com"], ips: [String] = [], cn: String? = nil,
        eku: [ExtendedKeyUsage]? = [.serverAuth],
        notBefore: Date = Fixture.now.addingTimeInterval(-30 * Fixture.day), days: Double = 90, scts: Int = 3,
        selfSigned: Bool = false, isCA: Bool? = nil, issuer: String = "CN=Test Intermediate"
    ) -> CertificateFacts {
        CertificateFacts(
            subject: subject, issuer: selfSigned ? subject : issuer, commonName: cn, serialNumber: "01",
            notBefore: notBefore, notAfter: notBefore.addingTimeInterval(days * day - 1), keyType: keyType,
            keyBits: bits, curve: keyType == "EC" ? "P-\(bits)" : nil,
            signatureAlgorithm: hash == "SHA1"
                ? "sha1WithRSAEncryption" : hash == "MD5" ? "md5WithRSAEncryption" : "sha256WithRSAEncryption",
            signatureHash: hash, subjectAltNames: sans, ipAddresses: ips, extendedKeyUsage: eku, isCA: isCA,
            embeddedSCTs: scts, selfSigned: selfSigned, sha256: "00", spkiSHA256: "AA==")
    }

    static let intermediate = cert(
        "CN=Test Intermediate", sans: [], eku: nil, notBefore: AppleDates.utc(2020, 1, 1), days: 3650, scts: 0,
        isCA: true, issuer: "CN=Test Root")
    static let root = cert(
        "CN=Test Root", sans: [], eku: nil, notBefore: AppleDates.utc(2015, 1, 1), days: 7300, scts: 0,
        selfSigned: true, isCA: true)

    /// A profile. Versions missing from `suites` are unsupported, those in `unknown` could not be told.
    static func profile(
        host: String = "api.example.com", _ suites: [TLSVersion: [CipherSuite]], unknown: Set<TLSVersion> = [],
        leaf: CertificateFacts? = nil, intermediates: [CertificateFacts]? = nil, trusted: Bool? = true,
        verifyError: String? = nil, anchor: AnchorKind = .system, status: ScanStatus = .completed
    ) -> ServerProfile {
        let leaf = leaf ?? (IPAddress(host) != nil ? cert(sans: [], ips: [host]) : cert(sans: [host]))
        let sent = [leaf] + (intermediates ?? [intermediate])
        let verified = trusted == true ? sent + [root] : []
        let protocols = TLSVersion.probed.map { v -> ProtocolResult in
            if unknown.contains(v) { return ProtocolResult(version: v, supported: nil, reason: "timeout") }
            guard let list = suites[v] else { return ProtocolResult(version: v, supported: false) }
            return ProtocolResult(
                version: v, supported: true, cipherSuites: list.map { AcceptedCipherSuite(suite: $0) })
        }
        return ServerProfile(
            target: "\(host):443", host: host, port: 443, status: status, protocols: protocols,
            certificate: CertificateReport(
                chain: sent, trusted: trusted, hostnameMatches: nil, verifyError: verifyError, verifiedChain: verified,
                anchor: trusted == true ? anchor : .none, verifiedAt: now),
            scannedAt: now)
    }

    typealias S = CipherSuite
    static let modern: [TLSVersion: [CipherSuite]] = [
        .tls1_2: [S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, S.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384],
        .tls1_3: [S.TLS_AES_128_GCM_SHA256, S.TLS_AES_256_GCM_SHA384],
    ]
    static let tls12Good: [TLSVersion: [CipherSuite]] = [.tls1_2: [S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]]
    static let tls10Only: [TLSVersion: [CipherSuite]] = [.tls1_0: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]]
    static let rsaKxOnly: [TLSVersion: [CipherSuite]] = [.tls1_2: [S.TLS_RSA_WITH_AES_128_CBC_SHA]]
    static let tls13Only: [TLSVersion: [CipherSuite]] = [.tls1_3: [S.TLS_AES_128_GCM_SHA256]]
    static let cbcSHA256Only: [TLSVersion: [CipherSuite]] = [.tls1_2: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256]]
    static let dheOnly: [TLSVersion: [CipherSuite]] = [
        .tls1_2: [S.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, S.TLS_DHE_RSA_WITH_AES_256_GCM_SHA384]
    ]

    static func config(_ d: [String: Any]) -> ATSConfiguration { ATSConfiguration(dictionary: d) }

    static func evaluate(
        _ profile: ServerProfile, _ config: ATSConfiguration = .default, os: String = "26.4",
        client: ClientKind = .urlSession, scheme: String = "https", host: String? = nil
    ) -> ATSEvaluation {
        ATSPolicyEvaluator(for: ATSClient(os: AppleOSVersion(string: os)!, kind: client), now: now)
            .evaluate(profile, host: host ?? profile.host, configuration: config, scheme: scheme)
    }
}
