import ATSPolicy
import Foundation
import Judging
import TLSModel
import Testing

/// The `ats.tls.hello-size-intolerant` warning (issue 36): one per endpoint whose scan found it intolerant of a
/// ClientHello in two TCP segments, none for a tolerant, undecided or untested one; declared in the catalogue.
@Suite("ClientHello size warnings")
struct HelloSizeWarningsTests {
    static func endpoint(_ tolerance: HelloSizeTolerance?) -> EndpointResult {
        var profile = ServerProfile(
            target: "api.example.com:443", host: "api.example.com", port: 443, status: .completed)
        profile.helloSizeTolerance = tolerance
        return EndpointResult(profile: profile, source: SourceLocation(file: "endpoints.txt", line: 7))
    }

    @Test(
        "only an intolerant endpoint warns",
        arguments: [
            (HelloSizeTolerance(split: .dropped, single: .negotiated, tolerant: false, detail: "both outcomes"), 1),
            (HelloSizeTolerance(split: .negotiated, single: .negotiated, tolerant: true), 0),
            (HelloSizeTolerance(split: .refused, single: .refused, tolerant: nil, detail: "not decided"), 0),
            (nil, 0),
        ] as [(HelloSizeTolerance?, Int)])
    func warns(_ tolerance: HelloSizeTolerance?, count: Int) throws {
        let findings = HelloSizeWarnings.findings(for: [Self.endpoint(tolerance)])
        #expect(findings.count == count)
        guard count == 1 else { return }
        let finding = try #require(findings.first)
        #expect(finding.rule == RuleID.ATS.helloSizeIntolerant && finding.severity == .warning)
        #expect(finding.message.hasPrefix("api.example.com:443: iOS 26 cannot connect: both outcomes."))
        #expect(finding.file == "endpoints.txt" && finding.line == 7)
    }

    @Test("the rule is declared in the ats.tls registry as a warning")
    func declared() throws {
        let entry = try #require(RuleRegistry.atsTLS.descriptor(for: RuleID.ATS.helloSizeIntolerant))
        #expect(entry.severity == .warning && entry.family == .tls)
        #expect(entry.help.contains("two TCP segments"))
    }
}
