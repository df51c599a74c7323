import Foundation
import TLSModel

/// Hand-built reports for the renderer tests (no network, no scan).
enum ReportFixtures {
    static let date = Date(timeIntervalSince1970: 1_760_000_000)

    static func profile(
        _ host: String, status: ScanStatus = .completed, error: String? = nil, certificate: CertificateReport? = nil
    ) -> ServerProfile {
        ServerProfile(
            target: "\(host):443", host: host, port: 443, address: "127.0.0.1", sni: host, status: status, error: error,
            handshakes: status == .completed ? 9 : 1,
            protocols: status == .completed
                ? [
                    ProtocolResult(
                        version: .tls1_2, supported: true,
                        cipherSuites: [AcceptedCipherSuite(suite: CipherSuite(0xC02F))])
                ]
                : [],
            certificate: certificate, scannedAt: date)
    }

    static func certificate(trusted: Bool, hostnameMatches: Bool, error: String? = nil) -> CertificateReport {
        CertificateReport(
            chain: [], trusted: trusted, hostnameMatches: hostnameMatches, verifyError: error, verifiedAt: date)
    }

    /// Five endpoints (pass, fail, unreachable, ambiguous, unknown) and three plist findings.
    static var report: ScanReport {
        let passing = EndpointResult(
            profile: profile("api.example.com", certificate: certificate(trusted: true, hostnameMatches: true)),
            ats: ATSEvaluation(verdict: .pass, osVersion: "26.4"),
            source: SourceLocation(file: "endpoints.txt", line: 2))
        let failing = EndpointResult(
            profile: profile(
                "legacy.example.com",
                certificate: certificate(trusted: false, hostnameMatches: true, error: "self-signed certificate")),
            ats: ATSEvaluation(
                verdict: .fail,
                violations: [
                    ATSViolation(
                        rule: "ats.tls.forward-secrecy",
                        message: "no ECDHE suite: the server offers only RSA key exchange",
                        keyPath: "NSExceptionDomains.legacy.example.com.NSExceptionRequiresForwardSecrecy"),
                    ATSViolation(
                        rule: "trust.chain", message: "chain not trusted: self-signed certificate <root> & \"CA\""),
                ], osVersion: "26.4"),
            source: SourceLocation(file: "endpoints.txt", line: 3))
        let unreachable = EndpointResult(
            profile: profile("down.example.com", status: .unreachable, error: "connection refused"),
            source: SourceLocation(file: "endpoints.txt", line: 5))
        let ambiguous = EndpointResult(
            profile: profile("deep.sub.example.com", certificate: certificate(trusted: true, hostnameMatches: true)),
            ats: ATSEvaluation(
                verdict: .ambiguous,
                violations: [ATSViolation(rule: "ats.tls.minimum-version", message: "TLS 1.0 only | no TLS 1.2")],
                readings: [
                    .init(name: "doc", verdict: .fail, violations: []),
                    .init(name: "source", verdict: .pass, violations: []),
                ]))
        let unknown = EndpointResult(profile: profile("partial.example.com"))
        let findings = [
            Finding(
                rule: "plist.key.misspelled", severity: .error,
                message:
                    "unknown key NSAllowArbitraryLoads: did you mean NSAllowsArbitraryLoads? Apple ignores unknown "
                    + "keys",
                file: "Info.plist", line: 12, keyPath: "NSAppTransportSecurity.NSAllowArbitraryLoads"),
            Finding(
                rule: "plist.domain.trailing-dot", severity: .warning,
                message: "exception domain key example.com. ends with a dot", file: "Info.plist", line: 20,
                keyPath: "NSAppTransportSecurity.NSExceptionDomains.example.com."),
            Finding(
                rule: "plist.review.justification", severity: .note,
                message: "App Review asks for a justification of NSAllowsArbitraryLoads = YES", file: "Binary.plist",
                keyPath: "NSAppTransportSecurity.NSAllowsArbitraryLoads"),
        ]
        return ScanReport(endpoints: [passing, failing, unreachable, ambiguous, unknown], findings: findings)
    }

    /// The package root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
