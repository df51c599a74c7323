import ATSPolicy
import AuditFixtures
import Foundation
import Judging
import TLSModel
import Testing

private typealias F = AuditFixture

@Suite("Auditor: exception debt over hand-built profiles")
struct AuditorTests {
    // MARK: missing

    @Test("missing: a TLS 1.0 host with no entry needs NSExceptionMinimumTLSVersion TLSv1.0")
    func missing() throws {
        let doc = try F.plist("")
        let result = try F.audit(doc, [("legacy.example.com", F.profile("legacy.example.com", F.tls10Only))])
        #expect(result.verdict("legacy.example.com") == .fail)
        let missing = result.findings(AuditRuleID.exceptionMissing)
        #expect(missing.count == 1)
        #expect(missing.first?.severity == .error)
        #expect(missing.first?.file == "endpoints.txt")
        #expect(missing.first?.line == 1)
        #expect(missing.first?.message.contains("<key>legacy.example.com</key>") == true)
        #expect(missing.first?.message.contains("TLSv1.0") == true)
        let debt = result.exceptionDebt.filter { $0.kind == .missing }
        #expect(debt.first?.suggested == .dict(["NSExceptionMinimumTLSVersion": .string("TLSv1.0")]))
        #expect(debt.first?.current == nil)
        #expect(result.exitStatus == .policyFailure)
    }

    @Test("missing: negative — a modern host needs nothing, and an entry that suffices is not missing")
    func notMissing() throws {
        let doc = try F.plist(F.domains([("legacy.example.com", F.tls10)]))
        let result = try F.audit(
            doc,
            [
                ("api.example.com", F.profile("api.example.com", F.modern)),
                ("legacy.example.com", F.profile("legacy.example.com", F.tls10Only)),
            ])
        #expect(result.verdict("api.example.com") == .pass)
        #expect(result.verdict("legacy.example.com") == .pass)
        #expect(result.findings(AuditRuleID.exceptionMissing).isEmpty)
        #expect(result.report.findings.filter { $0.severity != .note }.isEmpty, "\(result.report.findings)")
        #expect(result.exitStatus == .success)
    }

    @Test("missing: an entry that is not enough is named, and the suggestion merges it with what is missing")
    func missingFromExistingEntry() throws {
        let doc = try F.plist(F.domains([("legacy.example.com", F.subdomains)]))
        let result = try F.audit(doc, [("api.legacy.example.com", F.profile("api.legacy.example.com", F.tls10Only))])
        let missing = result.findings(AuditRuleID.exceptionMissing)
        #expect(missing.count == 1)
        #expect(
            missing.first?.message.contains("the NSExceptionDomains entry 'legacy.example.com' does not allow it")
                == true)
        let debt = try #require(result.exceptionDebt.first { $0.kind == .missing })
        #expect(debt.domain == "legacy.example.com")
        #expect(debt.current == .dict(["NSIncludesSubdomains": .bool(true)]))
        #expect(
            debt.suggested
                == .dict(["NSIncludesSubdomains": .bool(true), "NSExceptionMinimumTLSVersion": .string("TLSv1.0")]))
    }

    @Test("missing: an RSA key-exchange-only host needs NSExceptionRequiresForwardSecrecy NO")
    func missingForwardSecrecy() throws {
        let result = try F.audit(try F.plist(""), [("rsa.example.com", F.profile("rsa.example.com", F.rsaKxOnly))])
        let debt = try #require(result.exceptionDebt.first { $0.kind == .missing })
        #expect(debt.suggested == .dict(["NSExceptionRequiresForwardSecrecy": .bool(false)]))
    }

    // MARK: unneeded

    @Test("unneeded: an entry whose endpoints pass under the default policy, at the plist line of the key")
    func unneeded() throws {
        let doc = try F.plist(F.domains([("api.example.com", F.tls10)]))
        let result = try F.audit(doc, [("api.example.com", F.profile("api.example.com", F.modern))])
        let unneeded = result.findings(AuditRuleID.exceptionUnneeded)
        #expect(unneeded.count == 1)
        #expect(unneeded.first?.severity == .warning)
        #expect(unneeded.first?.file == "Info.plist")
        #expect(unneeded.first?.line == doc.line(forATSKeyPath: ["NSExceptionDomains", "api.example.com"]))
        #expect(unneeded.first?.line != nil)
        #expect(unneeded.first?.keyPath == "NSAppTransportSecurity.NSExceptionDomains.api.example.com")
        #expect(result.findings(AuditRuleID.exceptionBroader).isEmpty)
        #expect(
            result.exceptionDebt.contains {
                $0.kind == .unneeded && $0.suggested == nil && $0.domain == "api.example.com"
            })
    }

    @Test("unneeded: negative — a needed entry, and an entry that only raises requirements")
    func notUnneeded() throws {
        let raise = "<key>NSExceptionMinimumTLSVersion</key>\n<string>TLSv1.3</string>"
        let doc = try F.plist(F.domains([("legacy.example.com", F.tls10), ("api.example.com", raise)]))
        let result = try F.audit(
            doc,
            [
                ("legacy.example.com", F.profile("legacy.example.com", F.tls10Only)),
                ("api.example.com", F.profile("api.example.com", F.modern)),
            ])
        #expect(result.findings(AuditRuleID.exceptionUnneeded).isEmpty)
        #expect(result.findings(AuditRuleID.exceptionBroader).isEmpty)
    }

    @Test("unneeded: NSAllowsArbitraryLoads when every endpoint passes with ATS on")
    func arbitraryLoadsUnneeded() throws {
        let doc = try F.plist("<key>NSAllowsArbitraryLoads</key>\n<true/>")
        let result = try F.audit(doc, [("api.example.com", F.profile("api.example.com", F.modern))])
        let unneeded = result.findings(AuditRuleID.exceptionUnneeded)
        #expect(unneeded.count == 1)
        #expect(unneeded.first?.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        #expect(unneeded.first?.line == doc.line(forATSKeyPath: ["NSAllowsArbitraryLoads"]))
    }

    // MARK: broader

    @Test("broader: TLSv1.0 where TLSv1.1 suffices")
    func broaderTLS() throws {
        let doc = try F.plist(F.domains([("old.example.com", F.tls10)]))
        let result = try F.audit(doc, [("old.example.com", F.profile("old.example.com", F.tls11Only))])
        let broader = result.findings(AuditRuleID.exceptionBroader)
        #expect(broader.count == 1)
        #expect(
            broader.first?.keyPath
                == "NSAppTransportSecurity.NSExceptionDomains.old.example.com.NSExceptionMinimumTLSVersion")
        #expect(
            broader.first?.line
                == doc.line(forATSKeyPath: ["NSExceptionDomains", "old.example.com", "NSExceptionMinimumTLSVersion"]))
        #expect(broader.first?.message.contains("TLSv1.1 suffices") == true)
        let debt = try #require(result.exceptionDebt.first { $0.kind == .broader })
        #expect(debt.suggested == .dict(["NSExceptionMinimumTLSVersion": .string("TLSv1.1")]))
        #expect(debt.plist?.contains("<string>TLSv1.1</string>") == true)
    }

    @Test("broader: NSExceptionRequiresForwardSecrecy NO on a host that only needs TLS 1.0")
    func broaderForwardSecrecy() throws {
        let doc = try F.plist(F.domains([("legacy.example.com", F.tls10 + "\n" + F.rfsNo)]))
        let result = try F.audit(doc, [("legacy.example.com", F.profile("legacy.example.com", F.tls10Only))])
        let broader = result.findings(AuditRuleID.exceptionBroader)
        #expect(
            broader.map(\.keyPath) == [
                "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSExceptionRequiresForwardSecrecy"
            ])
    }

    @Test("broader: NSExceptionAllowsInsecureHTTPLoads on an RSA-only host that only needs RFS = NO")
    func broaderInsecure() throws {
        let doc = try F.plist(F.domains([("rsa.example.com", F.rfsNo + "\n" + F.insecure)]))
        let result = try F.audit(doc, [("rsa.example.com", F.profile("rsa.example.com", F.rsaKxOnly))])
        let broader = result.findings(AuditRuleID.exceptionBroader)
        #expect(
            broader.map(\.keyPath) == [
                "NSAppTransportSecurity.NSExceptionDomains.rsa.example.com.NSExceptionAllowsInsecureHTTPLoads"
            ])
        #expect(
            result.exceptionDebt.first { $0.kind == .broader }?.suggested
                == .dict(["NSExceptionRequiresForwardSecrecy": .bool(false)]))
    }

    @Test("broader: NSIncludesSubdomains with no subdomain endpoint; negative with one")
    func broaderSubdomains() throws {
        let doc = try F.plist(F.domains([("legacy.example.com", F.tls10 + "\n" + F.subdomains)]))
        let flat = try F.audit(doc, [("legacy.example.com", F.profile("legacy.example.com", F.tls10Only))])
        #expect(
            flat.findings(AuditRuleID.exceptionBroader).map(\.keyPath) == [
                "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com.NSIncludesSubdomains"
            ])
        let withSub = try F.audit(
            doc,
            [
                ("legacy.example.com", F.profile("legacy.example.com", F.tls10Only)),
                ("eu.legacy.example.com", F.profile("eu.legacy.example.com", F.tls10Only)),
            ])
        #expect(withSub.findings(AuditRuleID.exceptionBroader).isEmpty)
        #expect(withSub.verdict("eu.legacy.example.com") == .pass)
    }

    @Test("broader: NSAllowsArbitraryLoads when only one host needs an exception")
    func arbitraryLoadsBroader() throws {
        let doc = try F.plist("<key>NSAllowsArbitraryLoads</key>\n<true/>")
        let result = try F.audit(
            doc,
            [
                ("api.example.com", F.profile("api.example.com", F.modern)),
                ("legacy.example.com", F.profile("legacy.example.com", F.tls10Only)),
            ])
        #expect(result.verdict("legacy.example.com") == .pass)
        let broader = result.findings(AuditRuleID.exceptionBroader)
        #expect(broader.count == 1)
        #expect(broader.first?.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        #expect(broader.first?.message.contains("legacy.example.com") == true)
        #expect(
            result.exceptionDebt.first { $0.kind == .broader }?.plist?.contains("<key>legacy.example.com</key>") == true
        )
    }

    // MARK: no-endpoint

    @Test("no-endpoint: an entry no endpoint uses; negative when one does")
    func noEndpoint() throws {
        let doc = try F.plist(F.domains([("gone.example.com", F.tls10), ("legacy.example.com", F.tls10)]))
        let result = try F.audit(doc, [("legacy.example.com", F.profile("legacy.example.com", F.tls10Only))])
        let unused = result.findings(AuditRuleID.exceptionNoEndpoint)
        #expect(unused.map(\.keyPath) == ["NSAppTransportSecurity.NSExceptionDomains.gone.example.com"])
        #expect(unused.first?.line == doc.line(forATSKeyPath: ["NSExceptionDomains", "gone.example.com"]))
        #expect(unused.first?.severity == .warning)
    }

    // MARK: http

    @Test("http: blocked without an exception (error with the fix), allowed with one (warning), entry then needed")
    func http() throws {
        let blocked = try F.audit(try F.plist(""), [("http://cdn.example.com/x.js", nil)])
        let error = blocked.findings(AuditRuleID.endpointHTTP)
        #expect(error.count == 1)
        #expect(error.first?.severity == .error)
        #expect(error.first?.message.contains("NSExceptionAllowsInsecureHTTPLoads") == true)
        #expect(blocked.verdict("cdn.example.com") == .fail)
        #expect(blocked.report.endpoints.first?.profile.handshakes == 0)
        #expect(blocked.exceptionDebt.contains { $0.kind == .http })

        let doc = try F.plist(F.domains([("cdn.example.com", F.insecure)]))
        let allowed = try F.audit(doc, [("http://cdn.example.com/x.js", nil)])
        #expect(allowed.verdict("cdn.example.com") == .pass)
        #expect(allowed.findings(AuditRuleID.endpointHTTP).map(\.severity) == [.warning])
        #expect(allowed.findings(AuditRuleID.exceptionBroader).isEmpty)
        #expect(allowed.findings(AuditRuleID.exceptionUnneeded).isEmpty)
        #expect(allowed.exitStatus == .success)
    }

    // MARK: fails

    @Test("fails: an untrusted certificate cannot be excepted")
    func impossible() throws {
        let result = try F.audit(
            try F.plist(""), [("selfsigned.example.com", F.profile("selfsigned.example.com", F.modern, trusted: false))]
        )
        #expect(result.verdict("selfsigned.example.com") == .fail)
        let fails = result.findings(AuditRuleID.endpointFails)
        #expect(fails.count == 1)
        #expect(fails.first?.severity == .error)
        #expect(fails.first?.line == 1)
        #expect(result.findings(AuditRuleID.exceptionMissing).isEmpty)
        #expect(result.exceptionDebt.contains { $0.kind == .impossible })
    }

    @Test("fails: negative — a trusted modern host has no failure finding")
    func notImpossible() throws {
        let result = try F.audit(try F.plist(""), [("api.example.com", F.profile("api.example.com", F.modern))])
        #expect(result.findings(AuditRuleID.endpointFails).isEmpty)
        #expect(result.exceptionDebt.isEmpty)
    }

    @Test("an entry whose endpoint cannot be judged is not called unneeded or broader")
    func unscanned() throws {
        let doc = try F.plist(F.domains([("legacy.example.com", F.tls10 + "\n" + F.rfsNo)]))
        let result = try F.audit(doc, [("legacy.example.com", F.profile("legacy.example.com", [:], status: .timeout))])
        #expect(result.findings(AuditRuleID.endpointUnscanned).count == 1)
        #expect(result.findings(AuditRuleID.exceptionUnneeded).isEmpty)
        #expect(result.findings(AuditRuleID.exceptionBroader).isEmpty)
        #expect(result.exitStatus == .incomplete)
    }

    // MARK: expectations

    @Test("expect: fail turns a failure into a note; a verdict against the expectation is an error")
    func expectations() throws {
        let doc = try F.plist("")
        let expected = try F.audit(
            doc, [("legacy.example.com", F.profile("legacy.example.com", F.tls10Only))], expect: [1: .fail])
        #expect(expected.findings(AuditRuleID.exceptionMissing).map(\.severity) == [.note])
        #expect(expected.exitStatus == .success)
        let surprising = try F.audit(
            doc, [("api.example.com", F.profile("api.example.com", F.modern))], expect: [1: .fail])
        #expect(surprising.findings(AuditRuleID.endpointUnexpected).map(\.severity) == [.error])
        let failing = try F.audit(
            doc, [("legacy.example.com", F.profile("legacy.example.com", F.tls10Only))], expect: [1: .pass])
        #expect(failing.findings(AuditRuleID.endpointUnexpected).count == 1)
        #expect(failing.exitStatus == .policyFailure)
    }

    @Test("report: endpoints keep their source line, plist and list findings come first")
    func reportShape() throws {
        let doc = try F.plist("")
        let e = try F.entry("api.example.com", line: 7)
        let earlier = Finding(rule: "plist.ats.absent", severity: .note, message: "x")
        let result = Auditor(for: ATSClient(os: F.os)).audit(
            document: doc, endpoints: [Auditor.Endpoint(entry: e, profile: F.profile("api.example.com", F.modern))],
            findings: [earlier])
        #expect(result.report.endpoints.first?.source == SourceLocation(file: "endpoints.txt", line: 7))
        #expect(result.report.findings.first == earlier)
        #expect(result.report.summary.passed == 1)
        let json = try JSONEncoder().encode(result)
        #expect(try JSONDecoder().decode(AuditResult.self, from: json) == result)
    }
}
