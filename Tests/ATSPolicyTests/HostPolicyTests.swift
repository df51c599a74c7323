import TLSModel
import Testing

@testable import ATSPolicy

/// §0 D1–D4, §4.1, the corrected matrix of §4.2 and §4.5, through the evaluator: a server that is not
/// ATS-compliant (RSA key exchange only, otherwise fine) passes exactly when ATS is off for the client.
@Suite("Which clients and hosts ATS covers")
struct HostPolicyTests {
    static let nonCompliant = Fixture.rsaKxOnly

    /// "off" = ATS not applied (non-compliant HTTPS and http:// both load), "blocked" = ATS applies.
    static func isOff(_ dict: [String: PlistValue], os: String, client: ClientKind, host: String = "api.example.com")
        -> Bool
    {
        let config = ATSConfiguration(dictionary: PlistValue.dict(dict).foundationValue as! [String: Any])
        let profile = Fixture.profile(host: host, nonCompliant)
        let https = Fixture.evaluate(profile, config, os: os, client: client).verdict
        let http = Fixture.evaluate(profile, config, os: os, client: client, scheme: "http").verdict
        #expect((https == .pass) == (http == .pass), "https and http disagree")
        return http == .pass
    }

    static let aal = "NSAllowsArbitraryLoads", web = "NSAllowsArbitraryLoadsInWebContent"
    static let media = "NSAllowsArbitraryLoadsForMedia", local = "NSAllowsLocalNetworking"

    // §4.2 corrected matrix: dictionary, OS, [URLSession, WKWebView, media, UIWebView (source reading)].
    static let matrix: [([String: PlistValue], String, [Bool])] = [
        ([:], "9", [false, false, false, false]),
        ([:], "10", [false, false, false, false]),
        ([aal: .bool(true)], "9", [true, true, true, true]),
        ([aal: .bool(true)], "10", [true, true, true, true]),
        ([aal: .bool(true), web: .bool(true)], "9", [true, true, true, true]),
        ([aal: .bool(true), web: .bool(true)], "10", [false, true, false, false]),
        ([aal: .bool(true), web: .bool(false)], "9", [true, true, true, true]),
        ([aal: .bool(true), web: .bool(false)], "10", [false, false, false, false]),
        ([web: .bool(true)], "9", [false, false, false, false]),
        ([aal: .bool(false), web: .bool(true)], "10", [false, true, false, false]),
        ([web: .bool(true)], "26.4", [false, true, false, false]),
        ([aal: .bool(true), media: .bool(true)], "10", [false, false, true, false]),
        ([aal: .bool(true), media: .bool(false)], "10", [false, false, false, false]),
        ([aal: .bool(true), local: .bool(true)], "10", [false, false, false, false]),
        ([aal: .bool(true), local: .bool(false)], "17", [false, false, false, false]),
        ([aal: .bool(true), media: .int(2)], "13", [false, false, false, false]),  // present, any value
        ([aal: .int(2)], "13", [false, false, false, false]),  // 2 is not YES
        ([aal: .string("YES")], "13", [false, false, false, false]),  // wrong type: absent
    ]

    @Test("§4.1/§4.2 matrix per client", arguments: matrix)
    func matrixRow(dict: [String: PlistValue], os: String, expected: [Bool]) {
        let clients: [ClientKind] = [.urlSession, .wkWebView, .media]
        for (client, off) in zip(clients, expected) {
            #expect(Self.isOff(dict, os: os, client: client) == off, "\(client)")
        }
    }

    @Test("UIWebView with InWebContent = YES on iOS 10+ is ambiguous (docs: exempt; source: not)")
    func uiWebView() {
        let config = Fixture.config([Self.aal: true, Self.web: true])
        let e = Fixture.evaluate(Fixture.profile(Self.nonCompliant), config, os: "10", client: .uiWebView)
        #expect(e.verdict == .ambiguous)
        #expect(Set(e.readings.map(\.name)) == ["source-uiwebview-not-exempt", "doc-uiwebview-exempt"])
        #expect(e.readings.first { $0.name == "doc-uiwebview-exempt" }?.verdict == .pass)
        // iOS 9 reads only AAL: no conflict.
        #expect(
            Fixture.evaluate(Fixture.profile(Self.nonCompliant), config, os: "9", client: .uiWebView).verdict == .pass)
        // Without InWebContent, UIWebView is simply under ATS.
        #expect(Fixture.evaluate(Fixture.profile(Self.nonCompliant), .default, client: .uiWebView).verdict == .fail)
    }

    @Test(
        "§4.5 local names and IP literals by OS",
        arguments: [
            // host, os, dictionary, ATS off?
            ("myserver", "9", [String: PlistValue](), false),
            ("myserver", "10", [:], true),
            ("localhost", "17", [:], true),
            ("printer.local", "16", [:], true),
            ("printer.local.", "26.4", [:], true),
            ("printer.local", "26.4", [local: .bool(false)], false),  // explicit NO re-enables ATS
            ("203.0.113.1", "9", [:], false),
            ("203.0.113.1", "10", [:], true),
            ("203.0.113.1", "16", [:], true),
            ("203.0.113.1", "17", [:], false),
            // A public IP with NSAllowsLocalNetworking = YES on 17+ is a CONFLICT (HostConflictTests).
            ("127.0.0.1", "17", [local: .bool(true)], true),
            ("169.254.10.1", "17", [local: .bool(true)], true),
            ("127.0.0.1", "17", [:], false),
            (
                "203.0.113.1", "17",
                [
                    "NSExceptionDomains": .dict([
                        "203.0.113.1": .dict([
                            "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                            "NSExceptionRequiresForwardSecrecy": .bool(false),
                        ])
                    ])
                ], true
            ),
            (
                "203.0.113.1", "17",
                [
                    "NSExceptionDomains": .dict([
                        "203.0.113.0/24": .dict([
                            "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                            "NSExceptionRequiresForwardSecrecy": .bool(false),
                        ])
                    ])
                ], true
            ),
            (
                "203.0.113.1", "9",
                [
                    "NSExceptionDomains": .dict([
                        "203.0.113.1": .dict([
                            "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                            "NSExceptionRequiresForwardSecrecy": .bool(false),
                        ])
                    ])
                ], false
            ),
            ("203.0.113.1", "9", [aal: .bool(true)], true),
            (
                "myserver", "9",
                [
                    "NSExceptionDomains": .dict([
                        "myserver": .dict([
                            "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                            "NSExceptionRequiresForwardSecrecy": .bool(false),
                        ])
                    ])
                ], true
            ),
            ("api.example.com", "26.4", [local: .bool(true)], false),
        ])
    func localAndIP(host: String, os: String, dict: [String: PlistValue], off: Bool) {
        #expect(Self.isOff(dict, os: os, client: .urlSession, host: host) == off)
    }

    @Test("§0 D1/§4.3: an exception entry ignores every global key, and can raise requirements")
    func exceptionIgnoresGlobals() {
        let profile = Fixture.profile(Self.nonCompliant)
        // Inverted pattern: AAL=YES plus an empty entry keeps full ATS for that host.
        let inverted = Fixture.config([Self.aal: true, "NSExceptionDomains": ["api.example.com": [String: Any]()]])
        #expect(Fixture.evaluate(profile, inverted).verdict == .fail)
        #expect(
            Fixture.evaluate(Fixture.profile(host: "other.example.org", Self.nonCompliant), inverted).verdict == .pass)
        // Raising: min TLS 1.3 under AAL fails a TLS 1.2 server.
        let raised = Fixture.config([
            Self.aal: true, "NSExceptionDomains": ["api.example.com": ["NSExceptionMinimumTLSVersion": "TLSv1.3"]],
        ])
        let e = Fixture.evaluate(Fixture.profile(Fixture.tls12Good), raised)
        #expect(e.verdict == .fail && e.violations.map(\.rule) == ["ats.tls.minimum-version"])
    }

    @Test("§4.4 subdomain depth CONFLICT: ambiguous only when the readings' verdicts differ")
    func depthConflict() {
        let config = Fixture.config([
            "NSExceptionDomains": [
                "example.com": ["NSIncludesSubdomains": true, "NSExceptionRequiresForwardSecrecy": false]
            ]
        ])
        let deep = Fixture.evaluate(Fixture.profile(host: "b.a.example.com", Self.nonCompliant), config)
        #expect(deep.verdict == .ambiguous)
        #expect(deep.readings.map(\.name) == ["source-any-depth", "doc-one-level"])
        #expect(deep.readings.map(\.verdict) == [.pass, .fail])
        #expect(deep.violations.first?.rule == "ats.tls.forward-secrecy")
        // The same host with a compliant server: both readings pass → pass with a note.
        let agree = Fixture.evaluate(Fixture.profile(host: "b.a.example.com", Fixture.modern), config)
        #expect(agree.verdict == .pass)
        #expect(agree.notes.contains { $0.hasPrefix("CONFLICT subdomain-depth") })
        // One level deep: no conflict at all.
        let shallow = Fixture.evaluate(Fixture.profile(host: "a.example.com", Self.nonCompliant), config)
        #expect(shallow.verdict == .pass && !shallow.notes.contains { $0.contains("CONFLICT") })
    }

    @Test("http:// is blocked with a keyPath, unless the host allows insecure loads")
    func cleartext() throws {
        let e = Fixture.evaluate(Fixture.profile(Fixture.modern), scheme: "http")
        let v = try #require(e.violations.first)
        #expect(e.verdict == .fail && v.rule == "ats.http.cleartext")
        #expect(
            v.keyPath == "NSAppTransportSecurity.NSExceptionDomains.api.example.com.NSExceptionAllowsInsecureHTTPLoads")
        // A built-in Apple entry allows cleartext to *.apple.com.
        #expect(
            Fixture.evaluate(Fixture.profile(host: "www.apple.com", Fixture.modern), scheme: "http").verdict == .pass)
        // Even an incomplete scan is judged for http://: ATS blocks before any connection.
        let down = Fixture.profile(Fixture.modern, status: .timeout)
        #expect(Fixture.evaluate(down, scheme: "http").verdict == .fail)
        #expect(Fixture.evaluate(down).verdict == .unknown)
    }
}
