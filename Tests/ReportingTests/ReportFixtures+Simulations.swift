import Foundation
import TLSModel

extension ReportFixtures {
    /// A simulated client that connected.
    static func negotiated(
        _ client: String, os: String, _ version: TLSVersion, _ suite: CipherSuite, _ group: NamedGroup,
        signature: String? = nil, evidence: String = "exact"
    ) -> ClientSimulation {
        let profile = "ios" + os.replacingOccurrences(of: ".", with: "") + (client.contains("Safari") ? "-safari" : "")
        return ClientSimulation(
            client: client, profile: profile, osVersion: os, evidence: evidence, outcome: .negotiated, version: version,
            suite: AcceptedCipherSuite(suite: suite), group: AcceptedGroup(group: group), signatureScheme: signature,
            quantumSecure: group.isPostQuantum)
    }

    /// Four passing endpoints of a full scan, each client simulated with its own ClientHello, or not:
    /// - `pq.example.com`: iOS 26 negotiates X25519MLKEM768 (quantum-secure); iOS 12.2's profile is inferred;
    /// - `classic.example.com`: iOS 26 connects with x25519 (not quantum-secure);
    /// - `tldr.example.com`: iOS 26's two-segment ClientHello is reset while iOS 18's is answered (unknown);
    /// - `atsonly.example.com`: an ats-only scan that simulated nothing (no readiness at all).
    static var simulationsReport: ScanReport {
        func endpoint(_ host: String, _ simulations: [ClientSimulation]?, line: Int) -> EndpointResult {
            var profile = profile(host, certificate: certificate(trusted: true, hostnameMatches: true))
            profile.simulations = simulations
            return EndpointResult(
                profile: profile, ats: ATSEvaluation(verdict: .pass, osVersion: "26.4"),
                source: SourceLocation(file: "endpoints.txt", line: line))
        }
        let aes256 = CipherSuite.TLS_AES_256_GCM_SHA384
        let aes128 = CipherSuite.TLS_AES_128_GCM_SHA256
        let ecdhe = CipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
        var pq = endpoint(
            "pq.example.com",
            [
                negotiated("iOS 26 (URLSession)", os: "26", .tls1_3, aes256, .X25519MLKEM768),
                negotiated("iOS 18 (URLSession)", os: "18", .tls1_3, aes128, .x25519, signature: "rsa_pss_rsae_sha256"),
                negotiated("iOS 12.2 (URLSession)", os: "12.2", .tls1_2, ecdhe, .x25519, evidence: "inferred"),
            ], line: 2)
        pq.profile.helloSizeTolerance = HelloSizeTolerance(split: .negotiated, single: .negotiated, tolerant: true)
        let classic = endpoint(
            "classic.example.com",
            [
                negotiated("iOS 26 (URLSession)", os: "26", .tls1_3, aes256, .x25519),
                negotiated("iOS 18 (URLSession)", os: "18", .tls1_3, aes128, .x25519),
            ], line: 3)
        let reset = "the connection is reset after the first segment of the ClientHello"
        var tldr = endpoint(
            "tldr.example.com",
            [
                ClientSimulation(
                    client: "iOS 26 (URLSession)", profile: "ios26", osVersion: "26", evidence: "exact",
                    outcome: .dropped, failure: reset),
                negotiated("iOS 18 (URLSession)", os: "18", .tls1_2, ecdhe, .secp256r1),
            ], line: 4)
        tldr.profile.helloSizeTolerance = HelloSizeTolerance(
            split: .dropped, single: .negotiated, tolerant: false, detail: reset)
        var atsOnly = endpoint("atsonly.example.com", nil, line: 5)
        atsOnly.profile.scope = "ats-only"
        return ScanReport(endpoints: [pq, classic, tldr, atsOnly])
    }
}

extension ReportFixtures {
    /// The reset after the first segment, as the prober words it.
    static let resetAfterFirstSegment = "the connection is reset after the first segment of the ClientHello"

    /// ``simulationsReport`` as a scan judged for iOS 26.4 reports it, for the CI formats (issue 36):
    /// - `classic.example.com` has a client whose simulation did not run (the scan was interrupted first);
    /// - `tldr.example.com` fails ATS, since the judged release's own client (iOS 26) is reset after the first
    ///   segment (`ats.tls.simulated-handshake-failed`), while iOS 18 connects.
    static var simulatedErasReport: ScanReport {
        var report = simulationsReport
        report.endpoints[1].profile.simulations?.append(
            ClientSimulation(
                client: "iOS 15.4 (URLSession)", profile: "ios154", osVersion: "15.4", evidence: "exact",
                outcome: .notRun, failure: "the scan was interrupted before this client's turn"))
        report.endpoints[2].ats = ATSEvaluation(
            verdict: .fail,
            violations: [
                ATSViolation(
                    rule: RuleID.ATS.simulatedHandshakeFailed,
                    message: "iOS 26 (URLSession)'s own ClientHello does not connect: \(resetAfterFirstSegment)")
            ], osVersion: "26.4")
        report.summary = ReportSummary(endpoints: report.endpoints)
        return report
    }
}
