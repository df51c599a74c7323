import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import TLSModel
import TLSTestSupport
import Testing

/// `audit --client`: web views and media have exemptions of their own (docs/apple-rules.md §4.5); the audit must
/// judge the endpoints as the named client would load them, not always as URLSession.
@Suite("audit honours --client")
struct AuditClientTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoadsInWebContent</key>
        \t\t<true/>
        \t</dict>
        </dict>
        </plist>
        """

    /// Runs the audit of one `http://` endpoint (judged without a connection) as `client`.
    func audit(as client: ClientKind) async throws -> AuditResult {
        let dir = TestScratch.file("atscheck-audit-client")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.plist.write(toFile: dir + "/Info.plist", atomically: true, encoding: .utf8)
        try "http://news.example.test/feed\n".write(toFile: dir + "/endpoints.txt", atomically: true, encoding: .utf8)
        return try await AuditRun.run(
            plistPath: dir + "/Info.plist", endpointsPath: dir + "/endpoints.txt", for: ATSClient(kind: client))
    }

    @Test("§4.5 NSAllowsArbitraryLoadsInWebContent: an http:// page is blocked for URLSession, allowed in a WKWebView")
    func webContentExemption() async throws {
        let session = try await audit(as: .urlSession)
        let sessionHTTP = session.report.findings.filter { $0.rule == RuleID.Audit.endpointHTTP }
        #expect(sessionHTTP.map(\.severity) == [.error])
        #expect(session.report.endpoints.first?.ats.verdict == .fail)
        #expect(session.exitStatus == .policyFailure)

        let webView = try await audit(as: .wkWebView)
        #expect(webView.report.endpoints.first?.ats.verdict == .pass)
        #expect(!webView.report.findings.contains { $0.rule == RuleID.Audit.endpointHTTP && $0.severity == .error })
        #expect(webView.exitStatus != .policyFailure)
    }
}
