import TLSModel
import Testing

@testable import ATSPolicy

/// An era whose own ClientHello does not connect fails that era's verdict (issue 36), whatever the enumeration says.
@Suite("ats.tls.simulated-handshake-failed: the era's own hello decides")
struct SimulatedHandshakeRuleTests {
    static func simulation(
        _ os: String, _ outcome: ClientSimulation.Outcome, client: String? = nil, failure: String? = nil
    ) -> ClientSimulation {
        ClientSimulation(
            client: client ?? "iOS \(os) (URLSession)", profile: "ios\(os)", osVersion: os, evidence: "exact",
            outcome: outcome, version: outcome == .negotiated ? .tls1_3 : nil, failure: failure)
    }

    /// A modern server that passes on every era by its enumeration, and whose iOS 26 simulation was reset.
    static var resetForIOS26: ServerProfile {
        var profile = Fixture.profile(Fixture.modern)
        profile.simulations = [
            simulation("26", .dropped, failure: "the connection is reset after the ClientHello, with no answer"),
            simulation("18", .negotiated), simulation("17", .negotiated), simulation("15.4", .negotiated),
            simulation("14", .negotiated), simulation("12.2", .negotiated),
        ]
        return profile
    }

    @Test(
        "iOS 26 fails by its simulation; iOS 18 and 26's earlier releases' eras pass",
        arguments: [
            ("26.4", ATSEvaluation.Verdict.fail), ("26", .fail), ("18", .pass), ("18.4", .pass), ("16", .pass),
            ("12", .pass), ("9", .pass),
        ])
    func eraOfFailure(os: String, verdict: ATSEvaluation.Verdict) throws {
        let profile = Self.resetForIOS26
        #expect(Fixture.evaluate(Fixture.profile(Fixture.modern), os: os).verdict == .pass)  // the enumeration alone
        let e = Fixture.evaluate(profile, os: os)
        #expect(e.verdict == verdict)
        if verdict == .fail {
            let v = try #require(e.violations.first { $0.rule == RuleID.ATS.simulatedHandshakeFailed })
            #expect(
                v.message
                    == "iOS 26 (URLSession)'s own ClientHello does not connect: the connection is reset after the "
                    + "ClientHello, with no answer")
            #expect(v.keyPath == nil)
        }
    }

    @Test(
        "each failing outcome fails the era; negotiated and not run decide nothing",
        arguments: [
            (ClientSimulation.Outcome.refused, true), (.dropped, true), (.timedOut, true), (.broken, true),
            (.negotiated, false), (.notRun, false),
        ])
    func outcomes(outcome: ClientSimulation.Outcome, fails: Bool) {
        var profile = Fixture.profile(Fixture.modern)
        profile.simulations = [Self.simulation("26", outcome)]
        let e = Fixture.evaluate(profile)
        #expect(e.violations.contains { $0.rule == RuleID.ATS.simulatedHandshakeFailed } == fails)
        #expect(e.verdict == (fails ? .fail : .pass))
    }

    @Test("the era maps to the newest simulated release at or before it: iOS 16 is judged by 15.4's hello")
    func mapping() {
        let sims = [
            Self.simulation("26", .negotiated), Self.simulation("15.4", .refused), Self.simulation("14", .negotiated),
        ]
        func picked(_ os: String, _ kind: ClientKind = .urlSession) -> String? {
            SimulatedHandshakeRule.simulation(
                for: ATSClient(os: AppleOSVersion(string: os)!, kind: kind), in: sims)?.osVersion
        }
        #expect(picked("16") == "15.4" && picked("15.3") == "14" && picked("18.4") == "15.4")
        #expect(picked("26.4") == "26" && picked("13") == nil)
        var profile = Fixture.profile(Fixture.modern)
        profile.simulations = sims
        #expect(Fixture.evaluate(profile, os: "16").verdict == .fail)
        #expect(Fixture.evaluate(profile, os: "15.3").verdict == .pass)
    }

    @Test("WKWebView is judged by the release's Safari hello when one was simulated, URLSession by its own")
    func safari() {
        var profile = Fixture.profile(Fixture.modern)
        profile.simulations = [
            Self.simulation("26", .negotiated),
            Self.simulation("26", .refused, client: "iOS 26 (Safari)", failure: "the server refuses the ClientHello"),
        ]
        #expect(Fixture.evaluate(profile, client: .urlSession).verdict == .pass)
        #expect(Fixture.evaluate(profile, client: .wkWebView).verdict == .fail)
    }

    @Test("beside a failing enumeration, both rules are reported")
    func both() {
        var profile = Fixture.profile(Fixture.dheOnly)
        profile.simulations = [Self.simulation("26", .refused, failure: "the server refuses the ClientHello")]
        let rules = Fixture.evaluate(profile).violations.map(\.rule)
        #expect(rules.contains(RuleID.ATS.noATSSuite) && rules.contains(RuleID.ATS.simulatedHandshakeFailed))
    }

    @Test("a host whose policy lowers the minimum TLS version is not judged by the default hello: a note says so")
    func loweredMinimum() {
        var profile = Fixture.profile(Fixture.tls10Only)
        profile.simulations = [
            Self.simulation("26", .refused, failure: "the server refuses the ClientHello: protocol_version (70)")
        ]
        let lowered = Fixture.config([
            "NSExceptionDomains": ["api.example.com": ["NSExceptionMinimumTLSVersion": "TLSv1.0"]]
        ])
        let e = Fixture.evaluate(profile, lowered)
        #expect(!e.violations.contains { $0.rule == RuleID.ATS.simulatedHandshakeFailed })
        #expect(e.notes.contains { $0.contains("iOS 26 (URLSession)") && $0.contains("TLSv1.0") }, "\(e.notes)")
        #expect(Fixture.evaluate(profile).violations.contains { $0.rule == RuleID.ATS.simulatedHandshakeFailed })
    }

    @Test("the rule is in the TLS registry")
    func registered() {
        #expect(RuleRegistry.atsTLS.descriptor(for: RuleID.ATS.simulatedHandshakeFailed) != nil)
    }
}
