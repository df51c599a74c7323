import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import Pinning
import TLSModel
import Testing

/// Examples/pinned-app stays valid: its plist lints clean, its endpoint list's pin checks load their material,
/// and its NSPinnedDomains covers the endpoints the comments say.
@Suite("Pinned-app example")
struct AuditPinsExampleTests {
    static let dir = AuditExamplesTests.examples + "/pinned-app"

    @Test("the plist, the endpoint list and the pin material it names load; NSPinnedDomains covers api and eu.cdn")
    func loads() throws {
        let document = try PlistDocument.load(path: Self.dir + "/Info.plist")
        #expect(PlistLinter.lint(document).filter { $0.severity == .error }.isEmpty)
        let list = try EndpointList.load(path: Self.dir + "/endpoints.yaml")
        #expect(list.findings.isEmpty, "\(list.findings)")
        #expect(list.entries.count == 4)
        #expect(list.entries.map { $0.pinCheck?.options.library } == [nil, nil, .trustkit, .afnetworking])
        #expect(list.entries[2].pinCheck?.pins == Self.dir + "/pins/payments.json")

        let pins = try AuditPins.prepare(
            document: document, entries: list.entries, settings: ScanSettings(), now: Date())
        #expect(pins.materialFindings.isEmpty, "\(pins.materialFindings)")
        #expect(pins.entryCheckers.keys.sorted() == [2, 3])
        #expect(pins.entryCheckers[3]?.pins.certificates.count == 1)
        let config = try #require(pins.pinnedDomains)
        let covered = list.entries.map {
            PinnedDomainsEvaluator.applicable(host: $0.target.host, in: config)?.domains ?? []
        }
        #expect(covered == [["api.example.com"], ["cdn.example.com"], [], []])
    }
}
