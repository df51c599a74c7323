import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// The host-policy CONFLICTs of §4.5 (added 2026-11-23: a public IP literal with `NSAllowsLocalNetworking =
/// YES` on iOS 17+) and §3.2 (iOS 9-era `NSThirdPartyException…` keys on iOS 9), evaluated both ways.
@Suite("§4.5 and §3.2 host CONFLICTs")
struct HostConflictTests {
    static let local = "NSAllowsLocalNetworking"
    static let doc = "doc-local-networking-any-ip", src = "source-local-networking-loopback-link-local"

    struct IPCase: Sendable, CustomStringConvertible {
        var host: String
        var os: String
        var dict: [String: PlistValue]
        var verdict: ATSEvaluation.Verdict
        var description: String { "\(host) on \(os) with \(dict.keys.sorted())" }
    }

    /// An RSA key-exchange-only server: passes exactly when ATS is off for the host.
    static let ipCases: [IPCase] = [
        IPCase(host: "203.0.113.1", os: "17", dict: [local: .bool(true)], verdict: .ambiguous),
        IPCase(host: "203.0.113.1", os: "26.4", dict: [local: .bool(true)], verdict: .ambiguous),
        // private is not local in SRC
        IPCase(host: "192.168.1.10", os: "17", dict: [local: .bool(true)], verdict: .ambiguous),
        IPCase(host: "2001:db8::1", os: "17", dict: [local: .bool(true)], verdict: .ambiguous),
        IPCase(host: "203.0.113.1", os: "16", dict: [local: .bool(true)], verdict: .pass),  // every IP exempt on 10–16
        IPCase(host: "203.0.113.1", os: "17", dict: [:], verdict: .fail),  // under ATS, no key to read two ways
        IPCase(host: "203.0.113.1", os: "17", dict: [local: .bool(false)], verdict: .fail),
        IPCase(host: "127.0.0.1", os: "17", dict: [local: .bool(true)], verdict: .pass),  // loopback: local in both
        IPCase(host: "::1", os: "17", dict: [local: .bool(true)], verdict: .pass),
        IPCase(host: "169.254.10.1", os: "17", dict: [local: .bool(true)], verdict: .pass),  // link-local
        IPCase(host: "fe80::1", os: "17", dict: [local: .bool(true)], verdict: .pass),
    ]

    @Test(
        "§4.5 CONFLICT: a public IP literal with NSAllowsLocalNetworking = YES on iOS 17+ (added 2026-11-23)",
        arguments: ipCases)
    func publicIP(c: IPCase) {
        let config = ATSConfiguration(dictionary: PlistValue.dict(c.dict).foundationValue as! [String: Any])
        let profile = Fixture.profile(host: c.host, Fixture.rsaKxOnly)
        for scheme in ["https", "http"] {
            let e = Fixture.evaluate(profile, config, os: c.os, scheme: scheme)
            #expect(e.verdict == c.verdict, "\(scheme)")
            switch c.verdict {
            case .ambiguous:
                #expect(e.readings.map(\.name) == [Self.doc, Self.src], "\(scheme)")
                #expect(e.readings.map(\.verdict) == [.pass, .fail], "\(scheme)")
                let rule: RuleID = scheme == "http" ? "ats.http.cleartext" : "ats.tls.forward-secrecy"
                #expect(e.violations.map(\.rule) == [rule], "\(scheme)")
                #expect(e.readings[1].violations.map(\.rule) == [rule], "\(scheme)")
            case .fail:
                #expect(e.readings.isEmpty && !e.violations.isEmpty, "\(scheme)")
            default:
                #expect(e.readings.isEmpty && e.violations.isEmpty, "\(scheme)")
            }
        }
    }

    @Test("§4.5 CONFLICT: a compliant server at a public IP passes both readings, with a note")
    func publicIPAgreeing() {
        let config = Fixture.config([Self.local: true])
        let e = Fixture.evaluate(Fixture.profile(host: "203.0.113.1", Fixture.modern), config, os: "17")
        #expect(e.verdict == .pass && e.readings.isEmpty)
        #expect(
            e.notes.contains { $0.hasPrefix("CONFLICT local-networking-ip") && $0.hasSuffix("both readings give pass") }
        )
    }

    static func entry(_ xml: String, domain: String = "api.example.com") throws -> ATSConfiguration {
        let text =
            "<plist version=\"1.0\"><dict><key>NSExceptionDomains</key><dict><key>\(domain)</key><dict>\(xml)</dict></dict></dict></plist>"
        let root = try PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: nil)
        return ATSConfiguration(dictionary: try #require(root as? [String: Any]))
    }

    static let ignored = "source-legacy-keys-ignored", honoured = "ios9-legacy-keys-honoured"

    @Test(
        "§3.2 CONFLICT: NSThirdParty… keys on iOS 9 (honoured vs ignored), probably ignored on iOS 10+",
        arguments: [
            // entry, server, scheme, failing rule
            (
                "<key>NSThirdPartyExceptionRequiresForwardSecrecy</key><false/>", "rsa", "https",
                "ats.tls.forward-secrecy"
            ),
            (
                "<key>NSThirdPartyExceptionMinimumTLSVersion</key><string>TLSv1.0</string>", "tls10", "https",
                "ats.tls.minimum-version"
            ),
            ("<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>", "modern", "http", "ats.http.cleartext"),
            ("<key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/>", "modern", "http", "ats.http.cleartext"),
        ])
    func thirdPartyKeys(xml: String, server: String, scheme: String, rule: String) throws {
        let config = try Self.entry(xml)
        let suites = server == "rsa" ? Fixture.rsaKxOnly : server == "tls10" ? Fixture.tls10Only : Fixture.modern
        let profile = Fixture.profile(suites)
        let nine = Fixture.evaluate(profile, config, os: "9", scheme: scheme)
        #expect(nine.verdict == .ambiguous)
        #expect(nine.readings.map(\.name) == [Self.ignored, Self.honoured])
        #expect(nine.readings.map(\.verdict) == [.fail, .pass])
        #expect(nine.violations.map(\.rule) == [RuleID(rawValue: rule)])
        #expect(nine.notes.contains { $0.hasPrefix("CONFLICT legacy-keys") })
        // iOS 10+: the key is ignored (no ambiguity), and a note says so.
        for os in ["10", "26.4"] {
            let e = Fixture.evaluate(profile, config, os: os, scheme: scheme)
            #expect(e.verdict == .fail && e.readings.isEmpty, "\(os)")
            #expect(e.violations.map(\.rule) == [RuleID(rawValue: rule)], "\(os)")
            #expect(e.notes.contains { $0.contains("probably ignores them") }, "\(os)")
        }
    }

    @Test("§3.2 CONFLICT: the NSException… key wins over its NSThirdParty… spelling; agreeing readings give a note")
    func thirdPartyPrecedence() throws {
        let both = try Self.entry(
            "<key>NSExceptionRequiresForwardSecrecy</key><true/><key>NSThirdPartyExceptionRequiresForwardSecrecy</key><false/>"
        )
        #expect(both.exceptionDomains["api.example.com"]?.legacyValues == nil)
        let e = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), both, os: "9")
        #expect(e.verdict == .fail && e.readings.isEmpty)
        // A compliant server passes under both readings.
        let legacy = try Self.entry("<key>NSThirdPartyExceptionRequiresForwardSecrecy</key><false/>")
        let ok = Fixture.evaluate(Fixture.profile(Fixture.modern), legacy, os: "9")
        #expect(ok.verdict == .pass && ok.readings.isEmpty)
        #expect(ok.notes.contains { $0.hasPrefix("CONFLICT legacy-keys") && $0.hasSuffix("both readings give pass") })
    }

    @Test("§3.2: the linter's deprecated-key warning agrees with the engine")
    func linterText() throws {
        let findings = try PlistFixtures.lint(
            "<key>NSExceptionDomains</key><dict><key>a.com</key><dict><key>NSThirdPartyExceptionRequiresForwardSecrecy</key><false/></dict></dict>"
        )
        let f = try #require(findings.first { $0.rule == RuleID.Plist.keyDeprecated })
        #expect(f.severity == .warning)
        #expect(f.message.contains("iOS 9 may have honoured it like NSExceptionRequiresForwardSecrecy"))
        #expect(f.message.contains("iOS 10 and later probably ignore it"))
    }
}
