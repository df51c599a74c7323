import ATSCheckKit
import ATSPolicy
import Foundation
import Reporting
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// A revoked leaf stapled by the in-process server, end to end: the probe reads and checks the staple, the ATS engine
/// fails it, the text report says so where it printed `OCSP stapling: yes`, and a saved profile judged again
/// (`--profile`, ``ProfileFile/reverified(_:settings:)``) fails the same way from the saved bytes.
@Suite("stapled revocation end to end", .serialized)
struct RevocationEndToEndTests {
    static let pki = try! TestPKI.make(name: "revocation-e2e")
    static let leaf = try! pki.leaf(.leaf("localhost", "127.0.0.1"))

    static func scan(staple: Data, at: Date) async throws -> (ServerProfile, String) {
        var configuration = TLSServerConfiguration.modern(chain: pki.chain(for: leaf))
        configuration.ocspStaple = staple
        let server = try TestTLSServer(configuration)
        let caFile = TestScratch.file("atscheck-revocation-e2e", suffix: ".pem")
        try pki.rootPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 30, caFiles: [caFile], now: at)
        request.trustSource = .none
        request.scope = .atsOnly
        return (await TLSProber(perHostLimit: 2).scan(request), caFile)
    }

    @Test("a revoked staple fails, in the report and again from the saved profile")
    func revoked() async throws {
        let at = Date()
        let revokedAt = Date(timeIntervalSince1970: (at.timeIntervalSince1970 - 2 * 86_400).rounded(.down))
        let staple = try TestOCSPResponse.make(
            for: Self.leaf, issuer: Self.pki.intermediate, status: .revoked(at: revokedAt, reason: 4))
        let (profile, caFile) = try await Self.scan(staple: staple, at: at)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        let evaluation = ATSPolicyEvaluator(now: at).evaluate(profile)
        #expect(evaluation.verdict == .fail)
        let message = try #require(evaluation.violations.first { $0.rule == .Trust.revoked }?.message)
        #expect(message.contains("revoked on \(CalendarDay.string(from: revokedAt)) (superseded)"))

        let text = ScanTextRenderer(catalogue: .atscheck, now: at).render(
            ScanReport(endpoints: [EndpointResult(profile: profile, ats: evaluation)]))
        #expect(text.contains("OCSP stapling: yes — revoked on \(CalendarDay.string(from: revokedAt)) (superseded)"))
        #expect(text.contains("[trust.revoked]"))

        let saved = TestScratch.file("atscheck-revocation-e2e", suffix: ".json")
        defer { try? FileManager.default.removeItem(atPath: saved) }
        try ProfileFile.save([profile], to: saved)
        var settings = ScanSettings()
        settings.trustSource = .none
        settings.caFiles = [caFile]
        settings.now = at
        let again = try ProfileFile.reverified(try ProfileFile.load(saved), settings: settings)
        let stapled = try #require(again.first?.certificate?.revocation?.stapled)
        #expect(stapled.response == staple)
        #expect(stapled.status == .revoked)
        #expect(stapled.usable)
        let judged = ATSPolicyEvaluator(now: at).evaluate(try #require(again.first))
        #expect(judged.verdict == .fail)
        #expect(judged.violations.contains { $0.rule == .Trust.revoked && $0.message == message })
    }

    @Test("a good staple passes, and a month later the saved one has expired and is only a note")
    func goodThenExpired() async throws {
        let at = Date()
        let staple = try TestOCSPResponse.make(for: Self.leaf, issuer: Self.pki.intermediate)
        let (profile, caFile) = try await Self.scan(staple: staple, at: at)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        #expect(profile.certificate?.revocation?.stapled?.status == .good)
        #expect(ATSPolicyEvaluator(now: at).evaluate(profile).verdict == .pass)

        var settings = ScanSettings()
        settings.trustSource = .none
        settings.caFiles = [caFile]
        let later = at.addingTimeInterval(30 * 86_400)
        settings.now = later
        let again = try #require(try ProfileFile.reverified([profile], settings: settings).first)
        #expect(again.certificate?.revocation?.stapled?.problem == .expired)
        let judged = ATSPolicyEvaluator(now: later).evaluate(again)
        #expect(judged.verdict == .pass)
        #expect(judged.notes.contains { $0.contains("the stapled OCSP response is not used: it has expired") })
    }
}
