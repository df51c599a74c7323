import Foundation
import Testing

@testable import TLSModel

/// Saved profiles are input: their counts must never trap the summary (issue 8).
@Suite("ReportSummary with hostile handshake counts")
struct ReportSummaryOverflowTests {
    static func endpoint(handshakes: Int) -> EndpointResult {
        EndpointResult(
            profile: ServerProfile(target: "x:1", host: "x", port: 1, status: .completed, handshakes: handshakes),
            ats: ATSEvaluation(verdict: .pass))
    }

    @Test("huge counts saturate at Int.max instead of overflowing")
    func saturates() {
        let s = ReportSummary(endpoints: [
            Self.endpoint(handshakes: .max), Self.endpoint(handshakes: .max), Self.endpoint(handshakes: 3),
        ])
        #expect(s.handshakes == .max)
        #expect(s.passed == 3)
    }

    @Test("negative counts add nothing")
    func negative() {
        let s = ReportSummary(endpoints: [
            Self.endpoint(handshakes: .min), Self.endpoint(handshakes: -5), Self.endpoint(handshakes: 4),
        ])
        #expect(s.handshakes == 4)
    }

    @Test("a decoded report with a huge handshakes value builds its summary")
    func decodedProfile() throws {
        let saved = try JSONEncoder().encode(
            ServerProfile(target: "x:1", host: "x", port: 1, status: .completed, handshakes: 7))
        let json = String(decoding: saved, as: UTF8.self).replacingOccurrences(
            of: #""handshakes":7"#, with: #""handshakes":9223372036854775807"#)
        #expect(json.contains("9223372036854775807"))
        let profile = try JSONDecoder().decode(ServerProfile.self, from: Data(json.utf8))
        #expect(profile.handshakes == .max)
        let report = ScanReport(endpoints: [EndpointResult(profile: profile), EndpointResult(profile: profile)])
        #expect(report.summary.handshakes == .max)
    }
}
