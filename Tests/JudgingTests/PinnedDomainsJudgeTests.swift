import Foundation
import Judging
import TLSModel
import Testing

/// Which `NSPinnedDomains` entry locates a check's findings, its key path and the findings' subject: pure (moved
/// from the facade's `PinnedDomainsCheck`, issue 33), so tested without libssl.
@Suite("NSPinnedDomains judging")
struct PinnedDomainsJudgeTests {
    @Test("the key written for the host comes first, case and a trailing dot ignored; else the first parent")
    func keyOrder() {
        #expect(
            PinnedDomainsJudge.domains(host: "API.Example.com.", applicable: ["example.com", "api.example.com"])
                == ["api.example.com", "example.com"])
        #expect(
            PinnedDomainsJudge.domains(host: "api.example.com", applicable: ["example.com"]) == ["example.com"])
        #expect(
            PinnedDomainsJudge.domains(host: "a.b.example.com", applicable: ["b.example.com", "B.Example.com"])
                == ["b.example.com", "B.Example.com"])
    }

    @Test("an entry's key path is under NSAppTransportSecurity.NSPinnedDomains")
    func keyPath() {
        #expect(
            PinnedDomainsJudge.keyPath("api.example.com") == "NSAppTransportSecurity.NSPinnedDomains.api.example.com")
    }

    @Test("the findings name the entry that locates them, as PinFindings words them")
    func findings() {
        let check = PinFindingsTests.check(.reject, findings: [PinFindingsTests.rejected])
        let out = PinnedDomainsJudge.findings(of: check)
        #expect(out == PinFindings.of(check, subject: "NSPinnedDomains 'a.example.com'", expectFail: false))
        #expect(out.first?.rule == RuleID.Pins.rejected)
        #expect(
            PinnedDomainsJudge.findings(of: check, expectFail: true)
                == PinFindings.of(check, subject: "NSPinnedDomains 'a.example.com'", expectFail: true))
    }
}

@Suite("NSPinnedDomains entries no listed endpoint covers")
struct PinnedDomainsUncoveredTests {
    @Test("one note per uncovered entry, in key order, at its line, naming one label below when it includes them")
    func uncovered() {
        let configuration = PinnedDomainsConfiguration(domains: [
            "z.example.com": PinnedDomainEntry(includesSubdomains: true, caIdentities: []),
            "a.example.com": PinnedDomainEntry(includesSubdomains: false, caIdentities: []),
            "api.example.com": PinnedDomainEntry(includesSubdomains: false, caIdentities: []),
        ])
        let out = PinnedDomainsJudge.uncovered(
            configuration, covered: ["api.example.com"], file: "Info.plist", lines: ["z.example.com": 12])
        #expect(out.map(\.rule) == [RuleID.Audit.pinnedDomainNoEndpoint, RuleID.Audit.pinnedDomainNoEndpoint])
        #expect(out.map(\.severity) == [.note, .note])
        #expect(out.map(\.line) == [nil, 12])
        #expect(out.map(\.file) == ["Info.plist", "Info.plist"])
        #expect(
            out.map(\.keyPath) == [
                "NSAppTransportSecurity.NSPinnedDomains.a.example.com",
                "NSAppTransportSecurity.NSPinnedDomains.z.example.com",
            ])
        #expect(
            out[0].message
                == "the NSPinnedDomains entry 'a.example.com' covers no https endpoint of the list (none is "
                + "a.example.com): its pins were not checked against a live path")
        #expect(out[1].message.contains("(none is z.example.com or one label below it)"))
        #expect(
            PinnedDomainsJudge.uncovered(configuration, covered: Set(configuration.domains.keys), file: "", lines: [:])
                .isEmpty)
    }
}
