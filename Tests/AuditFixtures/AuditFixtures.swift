import ATSPolicy
import Foundation
import Judging
import TLSModel

/// Hand-built profiles, plists and endpoints for the audit tests (no network, no OpenSSL): shared by JudgingTests
/// and ATSCheckKitTests.
package enum AuditFixture {
    package static let day: TimeInterval = 86_400
    /// The evaluation time of every fixture: 2025-06-01T00:00:00Z.
    package static let now = Date(timeIntervalSince1970: 1_748_736_000)
    package static let os = AppleOSVersion.newest

    package static func cert(
        _ subject: String, sans: [String] = [], eku: [ExtendedKeyUsage]? = [.serverAuth], isCA: Bool? = nil,
        selfSigned: Bool = false, days: Double = 90, issuer: String = "CN=Test Intermediate"
    ) -> CertificateFacts {
        let notBefore = now.addingTimeInterval(-30 * day)
        return CertificateFacts(
            subject: subject, issuer: selfSigned ? subject : issuer, serialNumber: "01", notBefore: notBefore,
            notAfter: notBefore.addingTimeInterval(days * day - 1), keyType: "RSA", keyBits: 2048,
            signatureAlgorithm: "sha256WithRSAEncryption", signatureHash: "SHA256", subjectAltNames: sans,
            extendedKeyUsage: eku, isCA: isCA, embeddedSCTs: 3, selfSigned: selfSigned, sha256: "00", spkiSHA256: "AA=="
        )
    }

    package static let intermediate = cert(
        "CN=Test Intermediate", eku: nil, isCA: true, days: 3650, issuer: "CN=Test Root")
    package static let root = cert("CN=Test Root", eku: nil, isCA: true, selfSigned: true, days: 7300)

    package typealias S = CipherSuite
    package static let modern: [TLSVersion: [CipherSuite]] = [
        .tls1_2: [S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256],
        .tls1_3: [S.TLS_AES_128_GCM_SHA256],
    ]
    package static let tls10Only: [TLSVersion: [CipherSuite]] = [.tls1_0: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]]
    package static let tls11Only: [TLSVersion: [CipherSuite]] = [.tls1_1: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]]
    package static let rsaKxOnly: [TLSVersion: [CipherSuite]] = [.tls1_2: [S.TLS_RSA_WITH_AES_128_GCM_SHA256]]

    /// A profile of `host` supporting `suites` (other versions unsupported), trusted by a system root unless told.
    package static func profile(
        _ host: String, _ suites: [TLSVersion: [CipherSuite]], port: Int = 443, trusted: Bool = true,
        status: ScanStatus = .completed
    ) -> ServerProfile {
        let leaf = cert("CN=\(host)", sans: [host])
        let protocols = TLSVersion.probed.map { v -> ProtocolResult in
            guard let list = suites[v] else { return ProtocolResult(version: v, supported: false) }
            return ProtocolResult(
                version: v, supported: true, cipherSuites: list.map { AcceptedCipherSuite(suite: $0) })
        }
        guard status == .completed else {
            return ServerProfile(
                target: "\(host):\(port)", host: host, port: port, status: status, error: "fake \(status.rawValue)",
                scannedAt: now)
        }
        return ServerProfile(
            target: "\(host):\(port)", host: host, port: port, status: .completed, handshakes: 4, protocols: protocols,
            certificate: CertificateReport(
                chain: [leaf, intermediate], trusted: trusted, hostnameMatches: true,
                verifyError: trusted ? nil : "unable to get local issuer certificate",
                verifiedChain: trusted ? [leaf, intermediate, root] : [], anchor: trusted ? .system : .none,
                verifiedAt: now),
            scannedAt: now)
    }

    /// A bare-ATS or Info.plist XML document (lines count from the XML declaration).
    package static func plist(_ atsBody: String, file: String = "Info.plist") throws -> PlistDocument {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            <key>CFBundleIdentifier</key>
            <string>com.example.app</string>
            <key>NSAppTransportSecurity</key>
            <dict>
            \(atsBody)
            </dict>
            </dict>
            </plist>
            """
        return try PlistDocument.parse(data: Data(xml.utf8), file: file)
    }

    /// `<key>NSExceptionDomains</key><dict>…</dict>` with one `<key>host</key><dict>…</dict>` per entry.
    package static func domains(_ entries: [(String, String)]) -> String {
        "<key>NSExceptionDomains</key>\n<dict>\n"
            + entries.map { "<key>\($0.0)</key>\n<dict>\n\($0.1)\n</dict>" }.joined(separator: "\n") + "\n</dict>"
    }

    package static let tls10 = "<key>NSExceptionMinimumTLSVersion</key>\n<string>TLSv1.0</string>"
    package static let tls11 = "<key>NSExceptionMinimumTLSVersion</key>\n<string>TLSv1.1</string>"
    package static let rfsNo = "<key>NSExceptionRequiresForwardSecrecy</key>\n<false/>"
    package static let insecure = "<key>NSExceptionAllowsInsecureHTTPLoads</key>\n<true/>"
    package static let subdomains = "<key>NSIncludesSubdomains</key>\n<true/>"

    /// An endpoint entry on line `line` of `endpoints.txt`.
    package static func entry(_ text: String, line: Int, expect: EndpointEntry.Expectation? = nil) throws
        -> EndpointEntry
    {
        EndpointEntry(
            target: try Target(parsing: text), expect: expect, source: SourceLocation(file: "endpoints.txt", line: line)
        )
    }

    /// Audits `(endpoint text, profile or nil for http)` pairs on lines 1, 2, 3… against `document`.
    package static func audit(
        _ document: PlistDocument, _ endpoints: [(String, ServerProfile?)],
        expect: [Int: EndpointEntry.Expectation] = [:]
    ) throws -> AuditResult {
        let list = try endpoints.enumerated().map { index, item -> Auditor.Endpoint in
            let e = try entry(item.0, line: index + 1, expect: expect[index + 1])
            return Auditor.Endpoint(entry: e, profile: item.1 ?? Auditor.placeholderProfile(for: e, now: now))
        }
        return Auditor(for: ATSClient(os: os)).audit(document: document, endpoints: list)
    }
}

extension AuditResult {
    package func findings(_ rule: RuleID) -> [Finding] { report.findings.filter { $0.rule == rule } }
    package func verdict(_ host: String) -> ATSEvaluation.Verdict? {
        report.endpoints.first { $0.profile.host == host }?.ats.verdict
    }
}
