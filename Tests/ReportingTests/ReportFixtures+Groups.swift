import Foundation
import TLSModel

extension ReportFixtures {
    /// A TLS 1.3 result with one suite and the given groups (nil: not enumerated).
    static func tls13(_ groups: [NamedGroup]?, complete: Bool? = nil) -> ProtocolResult {
        var result = ProtocolResult(
            version: .tls1_3, supported: true, cipherSuites: [AcceptedCipherSuite(suite: .TLS_AES_128_GCM_SHA256)])
        result.groups = groups?.map(AcceptedGroup.init(group:))
        result.groupsComplete = complete
        return result
    }

    /// A TLS 1.2 result with one ECDHE suite, the given groups, and the codepoints that were not tested.
    static func tls12(_ groups: [NamedGroup]?, untested: [UInt16] = []) -> ProtocolResult {
        var result = ProtocolResult(
            version: .tls1_2, supported: true, cipherSuites: [AcceptedCipherSuite(suite: CipherSuite(0xC02F))],
            enumerationComplete: untested.isEmpty)
        result.groups = groups?.map(AcceptedGroup.init(group:))
        result.untestedSuites = untested.isEmpty ? nil : untested.map { CipherSuite($0) }
        return result
    }

    /// Four passing endpoints whose groups were enumerated, or not:
    /// - `pq.example.com` accepts X25519MLKEM768 first in TLS 1.3, and an ffdhe group in TLS 1.2;
    /// - `classic.example.com` accepts only classical groups, and two TLS 1.2 codepoints (3DES) were not tested;
    /// - `stalled.example.com`'s group enumeration stopped early, with a classical group found;
    /// - `atsonly.example.com` was scanned ats-only (no groups) and refuses TLS 1.0 as far as it was tested.
    static var groupsReport: ScanReport {
        func endpoint(_ host: String, _ protocols: [ProtocolResult], line: Int) -> EndpointResult {
            var profile = profile(host, certificate: certificate(trusted: true, hostnameMatches: true))
            profile.protocols = protocols
            return EndpointResult(
                profile: profile, ats: ATSEvaluation(verdict: .pass, osVersion: "26.4"),
                source: SourceLocation(file: "endpoints.txt", line: line))
        }
        var tls10 = ProtocolResult(version: .tls1_0, supported: false, enumerationComplete: false)
        tls10.untestedSuites = [CipherSuite(0x000A)]
        var atsOnly = endpoint("atsonly.example.com", [tls10, tls12(nil), tls13(nil)], line: 5)
        atsOnly.profile.scope = "ats-only"
        return ScanReport(endpoints: [
            endpoint(
                "pq.example.com",
                [tls12([.x25519, .secp256r1, .ffdhe2048]), tls13([.X25519MLKEM768, .x25519, .secp256r1])], line: 2),
            endpoint(
                "classic.example.com",
                [tls12([.secp256r1], untested: [0x000A, 0x0016]), tls13([.x25519, .secp384r1])],
                line: 3),
            endpoint("stalled.example.com", [tls13([.secp256r1], complete: false)], line: 4),
            atsOnly,
        ])
    }
}
