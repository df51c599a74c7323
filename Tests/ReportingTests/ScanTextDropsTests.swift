import Foundation
import Reporting
import TLSModel
import Testing

/// The text report says how many connections a server dropped and how many were retried (issue 8).
@Suite("Scan text: dropped connections")
struct ScanTextDropsTests {
    static func render(_ profile: ServerProfile) -> String {
        ScanTextRenderer(now: ReportFixtures.date).render(
            ScanReport(endpoints: [
                EndpointResult(profile: profile, ats: ATSEvaluation(verdict: .pass, osVersion: "26.4"))
            ]))
    }

    @Test("a scanned endpoint with drops shows them under its handshake count")
    func completed() {
        var profile = ReportFixtures.profile("api.example.com")
        profile.handshakes = 31
        profile.drops = 9
        profile.retries = 9
        let text = Self.render(profile)
        #expect(text.contains("\n  server dropped 9 of 31 connections; 9 retried\n"))
    }

    @Test("an endpoint that could not be scanned shows its drops too")
    func notScanned() {
        var profile = ReportFixtures.profile(
            "down.example.com", status: .error, error: "server closed every connection without a TLS answer")
        profile.handshakes = 25
        profile.drops = 25
        profile.retries = 20
        #expect(Self.render(profile).contains("server dropped 25 of 25 connections; 20 retried"))
    }

    @Test("no line when nothing was dropped")
    func none() {
        #expect(!Self.render(ReportFixtures.profile("api.example.com")).contains("dropped"))
    }
}
