import ATSCheckKit
import Foundation
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// TrustKit (§3.3–3.4), Alamofire (§4) and NSPinnedDomains (§5) against staging-like servers, with the real
/// OpenSSL path builder.
@Suite("TrustKit, Alamofire and NSPinnedDomains against real servers")
struct PinLibraryEndToEndTests {
    static func spki(_ c: TestCertificate) -> String { PinScenarios.facts(c).spkiSHA256 }
    /// A well-formed pin that matches nothing (the SHA-256 of a phrase).
    static let spare = "YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI="

    func trustKit(_ scenario: String, pins: [String], enforce: Bool = true, expiration: String? = nil) async throws
        -> PinEvaluation
    {
        let s = try await PinScenarios.shared()
        let set = PinSet(domains: [
            PinScenarios.host: DomainPins(pins: pins, enforce: enforce, expirationDate: expiration)
        ])
        return try #require(try s.result(scenario, try s.checker(.trustkit(TrustKitOptions()), pinSet: set)).evaluation)
    }

    @Test("TrustKit §3.3: an intermediate pin plus a spare → Success")
    func trustKitSuccess() async throws {
        let s = try await PinScenarios.shared()
        let ev = try await trustKit("private-ca", pins: [Self.spki(s.pki.intermediate), Self.spare])
        #expect(ev.verdict == .accept)
        #expect(ev.result == "Success")
        #expect(ev.matches.first?.position == 1)
    }

    @Test("TrustKit §3.3: a root pin matches the store root the server did not send")
    func trustKitRootNotSent() async throws {
        let s = try await PinScenarios.shared()
        let ev = try await trustKit(
            "rotated-intermediate", pins: [Self.spki(s.pki.intermediate), Self.spki(s.pki.root)])
        #expect(ev.verdict == .accept)
        #expect(ev.matches.first?.role == "anchor")
    }

    @Test("TrustKit §3.4: no matching pin blocks when enforcing, is allowed and reported with enforce = NO")
    func trustKitEnforce() async throws {
        let s = try await PinScenarios.shared()
        let pins = [Self.spki(s.otherPKI.intermediate), Self.spare]
        let enforcing = try await trustKit("private-ca", pins: pins)
        #expect(enforcing.verdict == .reject)
        #expect(enforcing.result == "FailedNoMatchingPin")
        let reporting = try await trustKit("private-ca", pins: pins, enforce: false)
        #expect(reporting.verdict == .accept)
        #expect(reporting.findings.contains { $0.rule == RuleID.Pins.notEnforced })
    }

    @Test("TrustKit §3.4: an invalid chain blocks even with enforce = NO")
    func trustKitInvalidChain() async throws {
        let s = try await PinScenarios.shared()
        for scenario in ["self-signed", "wrong-host", "expired"] {
            let ev = try await trustKit(
                scenario, pins: [Self.spki(s.selfSignedLeaf), Self.spki(s.pki.intermediate)], enforce: false)
            #expect(ev.verdict == .reject, "\(scenario)")
            #expect(ev.result == "FailedInvalidCertificateChain", "\(scenario)")
        }
    }

    @Test("TrustKit: a passed expirationDate means not pinned, default trust decides")
    func trustKitExpired() async throws {
        let s = try await PinScenarios.shared()
        let ev = try await trustKit(
            "private-ca", pins: [Self.spki(s.otherPKI.intermediate), Self.spare], expiration: "2020-01-01")
        #expect(ev.verdict == .accept)
        #expect(ev.result == "DomainNotPinned")
    }

    func alamofire(_ scenario: String, _ evaluator: AlamofireEvaluator, pins: [TestCertificate]) async throws
        -> PinCheckResult
    {
        let s = try await PinScenarios.shared()
        return try s.result(scenario, try s.checker(.alamofire(evaluator), certificates: pins))
    }

    @Test("Alamofire §4: PinnedCertificatesTrustEvaluator with defaults")
    func alamofirePinnedCertificates() async throws {
        let s = try await PinScenarios.shared()
        let ok = try #require(
            try await alamofire("private-ca", .pinnedCertificates(), pins: [s.pki.intermediate]).evaluation)
        #expect(ok.verdict == .accept)
        #expect(ok.result == "useCredential")
        let selfSigned = try #require(
            try await alamofire("self-signed", .pinnedCertificates(), pins: [s.selfSignedLeaf]).evaluation)
        #expect(selfSigned.result == ".defaultEvaluationFailed")
        let wrongHost = try #require(
            try await alamofire("wrong-host", .pinnedCertificates(), pins: [s.pki.intermediate]).evaluation)
        #expect(wrongHost.result == ".hostValidationFailed")
        let renewed = try #require(
            try await alamofire("renewed-same-key", .pinnedCertificates(), pins: [s.leaf]).evaluation)
        #expect(renewed.result == ".certificatePinningFailed")
        let unrelated = try #require(
            try await alamofire("extra-unrelated", .pinnedCertificates(), pins: [s.unrelated]).evaluation)
        #expect(unrelated.result == ".certificatePinningFailed")
    }

    @Test(
        "Alamofire §4: acceptSelfSignedCertificates accepts the pinned self-signed staging server; the release evaluator rejects it"
    )
    func alamofireSelfSigned() async throws {
        let s = try await PinScenarios.shared()
        let result = try await alamofire(
            "self-signed", .pinnedCertificates(acceptSelfSignedCertificates: true), pins: [s.selfSignedLeaf])
        #expect(result.evaluation?.verdict == .accept)
        #expect(result.release?.verdict == .reject)
        #expect(result.risks.contains { $0.rule == RuleID.Pins.debugReleaseDiffers })
    }

    @Test("Alamofire §4: PublicKeysTrustEvaluator survives a renewal with the same key, not with a new key")
    func alamofirePublicKeys() async throws {
        let s = try await PinScenarios.shared()
        #expect(try await alamofire("renewed-same-key", .publicKeys(), pins: [s.leaf]).evaluation?.verdict == .accept)
        #expect(
            try await alamofire("renewed-new-key", .publicKeys(), pins: [s.leaf]).evaluation?.result
                == ".publicKeyPinningFailed")
        let noHost = try await alamofire("wrong-host", .publicKeys(validateHost: false), pins: [s.pki.intermediate])
        #expect(noHost.evaluation?.verdict == .accept)
        #expect(noHost.release?.verdict == .reject)
    }

    func pinnedDomains(_ scenario: String, leaf: [String]? = nil, ca: [String]? = nil) async throws -> PinEvaluation {
        let s = try await PinScenarios.shared()
        let config = PinnedDomainsConfiguration(domains: [
            PinScenarios.host: PinnedDomainEntry(leafIdentities: leaf, caIdentities: ca)
        ])
        return try #require(try s.result(scenario, try s.checker(.nspinneddomains, pinnedDomains: config)).evaluation)
    }

    @Test(
        "NSPinnedDomains §5: leaf identities match position 0 only, CA identities positions 1…n−1 with the store root")
    func pinnedDomainsPositions() async throws {
        let s = try await PinScenarios.shared()
        #expect(try await pinnedDomains("private-ca", leaf: [Self.spki(s.leaf)]).verdict == .accept)
        #expect(try await pinnedDomains("renewed-same-key", leaf: [Self.spki(s.leaf)]).verdict == .accept)
        #expect(try await pinnedDomains("renewed-new-key", leaf: [Self.spki(s.leaf)]).verdict == .reject)
        let root = try await pinnedDomains("private-ca", ca: [Self.spki(s.pki.root)])
        #expect(root.verdict == .accept)
        #expect(root.matches.first?.position == 2)
        #expect(try await pinnedDomains("private-ca", ca: [Self.spki(s.leaf)]).verdict == .reject)
        #expect(try await pinnedDomains("rotated-intermediate", ca: [Self.spki(s.pki.intermediate)]).verdict == .reject)
        #expect(try await pinnedDomains("extra-unrelated", ca: [Self.spki(s.otherPKI.intermediate)]).verdict == .reject)
        let both = try await pinnedDomains("private-ca", leaf: [Self.spki(s.leaf)], ca: [Self.spki(s.otherPKI.root)])
        #expect(both.verdict == .reject)
    }

    @Test("NSPinnedDomains §5: pins only tighten default trust — a pinned self-signed leaf is still rejected")
    func pinnedDomainsSelfSigned() async throws {
        let s = try await PinScenarios.shared()
        let ev = try await pinnedDomains("self-signed", leaf: [Self.spki(s.selfSignedLeaf)])
        #expect(ev.verdict == .reject)
        #expect(ev.result == "default-trust-failed")
    }

    @Test("the SSL policy applies Apple's checks and reports them; BasicX509 skips them")
    func trustChecksReported() async throws {
        let s = try await PinScenarios.shared()
        let builder = try s.builder("wrong-host")
        let ssl = builder.build(anchors: .system, policy: .ssl(host: PinScenarios.host))
        #expect(ssl.ok == false)
        #expect(ssl.error?.contains("hostname mismatch") == true)
        #expect(ssl.checks.first { $0.check == .hostname }?.status == .applied)
        let basic = builder.build(anchors: .system, policy: .basic)
        #expect(basic.ok)
        #expect(basic.checks.first { $0.check == .serverAuthEKU }?.status == .skipped)
        let expired = try s.builder("private-ca", now: Date().addingTimeInterval(200 * 86_400))
        #expect(expired.build(anchors: .system, policy: .basic).error == "certificate has expired")
    }
}

/// The pin matrices above judge the chain a real scan read from each scenario's server. A server that serves one
/// connection at a time (issue 20, `openssl s_server`) must give the same chain, full or ats-only (the default
/// scope of `pins check`, `audit` and `app`), so every pin verdict above holds for it too.
@Suite("Pin scenarios on servers that serve one connection at a time", .serialized)
struct PinScenariosOneAtATimeTests {
    @Test(
        "every scenario's served chain, full and ats-only, equals the concurrent server's",
        arguments: [
            "private-ca", "self-signed", "wrong-host", "expired", "rotated-intermediate", "extra-unrelated",
            "root-sent",
        ])
    func sameChain(_ scenario: String) async throws {
        let s = try await PinScenarios.shared()
        let chain = try #require(s.chains[scenario])
        var configuration = TLSServerConfiguration.modern(chain: chain)
        configuration.connections = .oneAtATime
        configuration.handshakeTimeout = 60  // an idle connection would hold it far past the scan's timeout
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        let expected = try #require(s.served[scenario]).map(\.sha256)
        for atsOnly in [false, true] {
            let served = try await PinScenarios.scan(port: server.port, caFile: s.caFile, atsOnly: atsOnly)
            #expect(served.map(\.sha256) == expected, "ats-only: \(atsOnly)")
        }
    }
}
