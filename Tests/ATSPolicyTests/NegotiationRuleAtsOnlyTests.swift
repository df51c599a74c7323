import TLSModel
import Testing

@testable import ATSPolicy

/// An ats-only scan's list (issue 10) is incomplete, but the suites it offered and saw refused
/// (`refusedSuites`) tell the negotiation rule whether a suite the client offers could still be accepted.
@Suite("Incomplete lists with refused suites (ats-only)")
struct NegotiationRuleAtsOnlyTests {
    typealias S = CipherSuite

    /// `profile` with TLS 1.2 marked not enumerated and `refused` recorded as offered and refused.
    static func atsOnly(_ profile: ServerProfile, refused: [CipherSuite]) -> ServerProfile {
        var profile = NegotiationRuleUnknownTests.incomplete(profile, .tls1_2)
        profile.protocols = profile.protocols.map {
            guard $0.version == .tls1_2 else { return $0 }
            var result = $0
            result.reason = "ats-only scan: not enumerated"
            result.refusedSuites = refused
            return result
        }
        return profile
    }

    static let forwardSecretUnion = ATSSuiteGroups.forwardSecret(.sourceUpTo2022)

    @Test("every ATS suite refused: the forward-secrecy failure of a full scan, not unknown")
    func refusedCoversTheList() {
        let profile = Self.atsOnly(Fixture.profile(Fixture.rsaKxOnly), refused: Self.forwardSecretUnion)
        let e = Fixture.evaluate(profile)
        #expect(e.verdict == .fail)
        #expect(e.violations.first?.rule == "ats.tls.forward-secrecy")
        #expect(e.violations == Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly)).violations)
    }

    @Test("one ATS suite not refused and not found: still unknown")
    func refusedLeavesAGap() {
        let profile = Self.atsOnly(
            Fixture.profile(Fixture.rsaKxOnly), refused: Array(Self.forwardSecretUnion.dropFirst()))
        #expect(Fixture.evaluate(profile).verdict == .unknown)
    }

    @Test("a CBC-SHA256 suite is outside the 2022 list: with the rest refused, iOS 26.4 fails as a full scan does")
    func cbcSHA256() {
        let refused = Self.forwardSecretUnion.filter { $0 != S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 }
        let profile = Self.atsOnly(Fixture.profile(Fixture.cbcSHA256Only), refused: refused)
        for os in ["26.4", "15.3"] {
            let full = Fixture.evaluate(Fixture.profile(Fixture.cbcSHA256Only), os: os)
            let limited = Fixture.evaluate(profile, os: os)
            #expect(limited.verdict == full.verdict, "iOS \(os)")
            #expect(limited.violations == full.violations, "iOS \(os)")
        }
    }
}
