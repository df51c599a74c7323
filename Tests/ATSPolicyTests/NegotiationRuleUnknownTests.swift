import TLSModel
import Testing

@testable import ATSPolicy

/// Facts a scan could not establish (a server that dropped connections, issue 8) give `unknown`, never a
/// failure they could have decided, and the notes say what was not tested.
@Suite("Unknown versions and incomplete suite lists")
struct NegotiationRuleUnknownTests {
    typealias S = CipherSuite

    /// `profile` with `version`'s enumeration marked as stopped early.
    static func incomplete(_ profile: ServerProfile, _ version: TLSVersion) -> ServerProfile {
        var profile = profile
        profile.protocols = profile.protocols.map {
            guard $0.version == version else { return $0 }
            var result = $0
            result.enumerationComplete = false
            result.reason =
                "enumeration stopped early: server closed the connection every time (5 attempts): could not tell"
            return result
        }
        return profile
    }

    @Test("an incomplete RSA-only list is unknown, not a forward-secrecy failure; complete, it fails")
    func incompleteWithoutForwardSecrecy() throws {
        let complete = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly))
        #expect(complete.verdict == .fail && complete.violations.first?.rule == "ats.tls.forward-secrecy")
        let e = Fixture.evaluate(Self.incomplete(Fixture.profile(Fixture.rsaKxOnly), .tls1_2))
        #expect(e.verdict == .unknown)
        #expect(e.violations.isEmpty)
        #expect(
            e.notes.contains {
                $0.contains("TLSv1.2 accepts TLS_RSA_WITH_AES_128_CBC_SHA, but its suite list is incomplete")
            })
        #expect(e.notes.contains { $0.hasPrefix("not tested fully: TLSv1.2 suites beyond the 1 found") })
    }

    @Test("an incomplete list with an ATS suite already found passes, with a note")
    func incompleteButPassing() {
        let e = Fixture.evaluate(Self.incomplete(Fixture.profile(Fixture.tls12Good), .tls1_2))
        #expect(e.verdict == .pass)
        #expect(e.notes.contains { $0.hasPrefix("not tested fully: TLSv1.2") })
    }

    @Test("an incomplete list whose suites do not match the certificate type is unknown")
    func incompleteCertificateType() {
        let ecOnlySuites: [TLSVersion: [CipherSuite]] = [.tls1_2: [S.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]]
        #expect(Fixture.evaluate(Fixture.profile(ecOnlySuites)).verdict == .fail)
        let e = Fixture.evaluate(Self.incomplete(Fixture.profile(ecOnlySuites), .tls1_2))
        #expect(e.verdict == .unknown && e.violations.isEmpty)
    }

    @Test("TLS 1.2 unknown above a TLS 1.0 server: unknown, not a minimum-version failure")
    func unknownVersionIsNoMinimumFailure() {
        #expect(
            Fixture.evaluate(Fixture.profile(Fixture.tls10Only)).violations.first?.rule == "ats.tls.minimum-version")
        for unknown in [[TLSVersion.tls1_2], [.tls1_2, .tls1_3], [.tls1_3]] {
            let e = Fixture.evaluate(Fixture.profile(Fixture.tls10Only, unknown: Set(unknown)))
            #expect(e.verdict == .unknown, "\(unknown)")
            #expect(e.violations.isEmpty, "\(unknown)")
            #expect(e.notes.contains { $0.hasPrefix("not tested: whether the server supports \(unknown[0])") })
        }
    }

    @Test("a version below the minimum left unknown changes no verdict but is noted")
    func unknownLegacyVersion() {
        let e = Fixture.evaluate(Fixture.profile(Fixture.modern, unknown: [.tls1_0]))
        #expect(e.verdict == .pass)
        #expect(e.notes.contains("not tested: whether the server supports TLSv1.0 (timeout)"))
        #expect(!Fixture.evaluate(Fixture.profile(Fixture.modern)).notes.contains { $0.hasPrefix("not tested") })
    }
}
