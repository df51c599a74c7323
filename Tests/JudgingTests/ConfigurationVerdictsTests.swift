import ATSPolicy
import AuditFixtures
import Foundation
import TLSModel
import Testing

@testable import Judging

/// An endpoint judged under every build configuration of a preprocessed Info.plist (issue 32).
@Suite("ConfigurationVerdicts")
struct ConfigurationVerdictsTests {
    static let violation = ATSViolation(rule: RuleID.ATS.minimumVersion, message: "TLS 1.0 only")

    @Test("agreeing configurations: the one evaluation, as it is")
    func agree() {
        let pass = ATSEvaluation(verdict: .pass, notes: ["n"])
        #expect(ConfigurationVerdicts.merged([pass, pass], labels: ["A defined", "A not defined"]) == pass)
    }

    @Test("disagreeing configurations: a failure wins, each is a reading, the violation says where it holds")
    func disagree() {
        let fail = ATSEvaluation(verdict: .fail, violations: [Self.violation], osVersion: "26.4")
        let pass = ATSEvaluation(verdict: .pass, osVersion: "26.4")
        let merged = ConfigurationVerdicts.merged([pass, fail], labels: ["DEBUG defined", "DEBUG not defined"])
        #expect(merged.verdict == .fail)
        #expect(merged.violations.map(\.message) == ["TLS 1.0 only (only with DEBUG not defined)"])
        #expect(merged.readings.map(\.name) == ["configuration: DEBUG defined", "configuration: DEBUG not defined"])
        #expect(merged.notes.last?.contains("pass with DEBUG defined, fail with DEBUG not defined") == true)
        let unknown = ConfigurationVerdicts.merged(
            [pass, ATSEvaluation(verdict: .unknown)], labels: ["a", "b"])
        #expect(unknown.verdict == .unknown)
    }

    @Test("a preprocessed plist in scan and audit: each configuration judged, findings scoped")
    func audit() throws {
        // ownCloud's shape: an exception only when ALLOW_LEGACY is defined.
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            <key>NSAppTransportSecurity</key>
            <dict>
            #ifdef ALLOW_LEGACY
            <key>NSExceptionDomains</key>
            <dict><key>old.example.com</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict></dict>
            #endif
            </dict>
            </dict>
            </plist>
            """
        let source = try PlistSource.parse(data: Data(text.utf8), file: "Info.plist")
        #expect(source.configurations.count == 2)
        let profile = AuditFixture.profile("old.example.com", AuditFixture.tls10Only)
        let judge = PolicyJudge(policy: AppPolicySource(source: source))
        let evaluation = judge.judge(profile)
        #expect(evaluation.verdict == .fail)
        #expect(evaluation.readings.map(\.verdict) == [.fail, .pass])
        let entry = try AuditFixture.entry("old.example.com", line: 1)
        let result = Auditor(for: ATSClient(os: AuditFixture.os)).audit(
            configurations: source.configurations, endpoints: [Auditor.Endpoint(entry: entry, profile: profile)],
            findings: [])
        #expect(result.report.endpoints.first?.ats.verdict == .fail)
        // Without the exception the host needs one: a finding that holds in that configuration only, and says so.
        let scoped = result.report.findings.filter { $0.configuration == "ALLOW_LEGACY not defined" }
        #expect(!scoped.isEmpty, "\(result.report.findings.map(\.message))")
        #expect(scoped.allSatisfy { $0.message.hasSuffix("(only with ALLOW_LEGACY not defined)") })
    }
}
