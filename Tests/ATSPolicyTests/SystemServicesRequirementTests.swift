import TLSModel
import Testing

@testable import ATSPolicy

@Suite("System services (support 126655): TLS 1.2+, ATS suites and certificates, no Info.plist exception (§4.6)")
struct SystemServicesRequirementTests {
    typealias S = CipherSuite

    /// An MDM-like server that speaks TLS 1.2 with RSA key exchange only.
    static let mdmRSAOnly = Fixture.profile(host: "mdm.example.com", Fixture.rsaKxOnly)
    /// An exception that makes URLSession accept it: forward secrecy off for the host.
    static let relaxed = Fixture.config([
        "NSExceptionDomains": ["mdm.example.com": ["NSExceptionRequiresForwardSecrecy": false]]
    ])

    @Test("an RSA-key-exchange-only server passes URLSession with the exception and fails system services with it")
    func exceptionDoesNotApply() throws {
        #expect(Fixture.evaluate(Self.mdmRSAOnly, Self.relaxed).verdict == .pass)
        let e = Fixture.evaluate(Self.mdmRSAOnly, Self.relaxed, client: .systemServices)
        #expect(e.verdict == .fail)
        let v = try #require(e.violations.first)
        #expect(v.rule == RuleID.ATS.forwardSecrecy)
        // No key of the app's Info.plist can fix what a system process refuses.
        #expect(v.keyPath == nil && v.keyPathComponents == nil)
        #expect(e.notes.first?.contains("support article 126655") == true)
    }

    @Test(
        "keys that let an app connect to a TLS 1.0 server leave system services judged",
        arguments: [
            ["NSAllowsArbitraryLoads": true],
            ["NSExceptionDomains": ["mdm.example.com": ["NSExceptionMinimumTLSVersion": "TLSv1.0"]]],
        ] as [[String: any Sendable]])
    func noKeyApplies(dictionary: [String: any Sendable]) {
        let config = Fixture.config(dictionary)
        let old = Fixture.profile(host: "mdm.example.com", Fixture.tls10Only)
        #expect(Fixture.evaluate(old, config).verdict == .pass)
        #expect(Fixture.evaluate(old, config, client: .systemServices).verdict == .fail)
    }

    @Test("a compliant server passes, with the source, the OS it applies to and the unconfirmed details as notes")
    func compliantPasses() {
        let e = Fixture.evaluate(
            Fixture.profile(host: "mdm.example.com", Fixture.modern), Self.relaxed, client: .systemServices)
        #expect(e.verdict == .pass && e.violations.isEmpty)
        #expect(e.notes.contains { $0.contains("may be enforced from the 27 releases") && $0.contains("readiness") })
        #expect(e.notes.contains { $0.contains("Extended Master Secret") && $0.contains("unconfirmed") })
        #expect(e.notes.contains { $0.contains("SCEP") && $0.contains("content caching") })
        #expect(e.notes.contains { $0.contains("ATS suite list and certificate rules of iOS 26.4") })
    }

    @Test("a local name and a loopback address are not exempt, as they are for an app with NSAllowsLocalNetworking")
    func localHostsJudged() {
        let local = Fixture.config(["NSAllowsLocalNetworking": true])
        for host in ["mdm", "127.0.0.1"] {
            let profile = Fixture.profile(host: host, Fixture.rsaKxOnly)
            #expect(Fixture.evaluate(profile, local, host: host).verdict == .pass, "\(host)")
            #expect(Fixture.evaluate(profile, local, client: .systemServices, host: host).verdict == .fail, "\(host)")
        }
    }

    @Test("TLS 1.3 only passes; TLS 1.2 without an ATS suite and a SHA-1 leaf fail")
    func versionsSuitesCertificates() {
        let tls13 = Fixture.profile(host: "mdm.example.com", Fixture.tls13Only)
        #expect(Fixture.evaluate(tls13, client: .systemServices).verdict == .pass)
        let dhe = Fixture.profile(host: "mdm.example.com", Fixture.dheOnly)
        #expect(Fixture.evaluate(dhe, client: .systemServices).verdict == .fail)
        let sha1 = Fixture.profile(
            host: "mdm.example.com", Fixture.modern, leaf: Fixture.cert(hash: "SHA1", sans: ["mdm.example.com"]))
        #expect(Fixture.evaluate(sha1, client: .systemServices).verdict == .fail)
    }

    @Test("the option spellings and the policy the explainer leaves out")
    func spellings() {
        #expect(ClientKind(optionValue: "system-services") == .systemServices)
        #expect(ClientKind(optionValue: "systemServices") == .systemServices)
        #expect(!ClientKind.appClients.contains(.systemServices) && ClientKind.appClients.count == 4)
        #expect(ATSClient(kind: .systemServices).description == "system services on iOS \(AppleOSVersion.newest)")
    }
}
