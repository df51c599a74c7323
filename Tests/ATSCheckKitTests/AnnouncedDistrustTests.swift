import ATSCheckKit
import ATSPolicy
import Foundation
import Reporting
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// Announced distrust by issuance date (docs/apple-rules.md §2.3a, added 2026-11-27; Apple support 121668): a test root
/// is injected into the same table the bundled Entrust, AffirmTrust and Camerfirma entries live in, and a real
/// handshake is judged.
@Suite("§2.3a Announced distrust by issuance date", .serialized)
struct AnnouncedDistrustTests {
    typealias Stores = AppleTrustStoreTests

    static func data(_ pki: TestPKI, effective: Date, enforcedFrom: String? = nil, uses: [String] = ["TLS"])
        -> AppleTrustData
    {
        var data = Stores.data([("17.0", [pki.root]), ("26.0", [pki.root])])
        data.announcedDistrust = [
            AnnouncedDistrust(
                ca: "Test CA", source: "Apple support 999999 (test)", url: "https://support.example.test/999999",
                effective: effective, uses: uses, enforcedFromIOS: enforcedFrom,
                enforcedFromSource: enforcedFrom.map { _ in "test release notes" }, roots: [pki.root.sha256])
        ]
        return data
    }

    static let day: TimeInterval = 86_400

    @Test("a leaf issued after the date fails with the rule that names the article")
    func issuedAfter() async throws {
        let pki = try TestPKI.make(name: "announced-after")
        let effective = CalendarDay.date(from: CalendarDay.string(from: Date().addingTimeInterval(-10 * Self.day)))!
        let profile = try await Stores.scan(pki, source: .apple(Self.data(pki, effective: effective)))
        let findings = try #require(profile.certificate?.trust?.stores.last?.distrust)
        #expect(findings.map(\.kind) == [.announcedDistrust])
        let evaluation = Stores.judge(profile, "26")
        #expect(evaluation.verdict == .fail)
        let message = try #require(Stores.messages(evaluation, .Trust.distrustAnnounced).first)
        #expect(message.contains("after \(CalendarDay.string(from: effective))"), "\(message)")
        #expect(message.contains("Apple support 999999 (test)"))
        #expect(message.contains("announced-after Test Root CA"), "\(message)")
        // Not the database rule: one problem, one rule.
        #expect(Stores.messages(evaluation, .Trust.distrusted).isEmpty)
    }

    @Test("a leaf issued on or before the date keeps working")
    func issuedBefore() async throws {
        let pki = try TestPKI.make(name: "announced-before")
        let effective = CalendarDay.date(from: CalendarDay.string(from: Date().addingTimeInterval(2 * Self.day)))!
        let profile = try await Stores.scan(pki, source: .apple(Self.data(pki, effective: effective)))
        #expect(profile.certificate?.trust?.stores.last?.distrust == [])
        #expect(Stores.messages(Stores.judge(profile, "26"), .Trust.distrustAnnounced).isEmpty)
    }

    @Test("a release before the one known to enforce it gets a note, not a failure")
    func beforeEnforcement() async throws {
        let pki = try TestPKI.make(name: "announced-era")
        let effective = CalendarDay.date(from: CalendarDay.string(from: Date().addingTimeInterval(-10 * Self.day)))!
        let profile = try await Stores.scan(
            pki, source: .apple(Self.data(pki, effective: effective, enforcedFrom: "18.2")))
        let on17 = Stores.judge(profile, "17.4")
        #expect(Stores.messages(on17, .Trust.distrustAnnounced).isEmpty)
        #expect(on17.notes.contains { $0.contains("enforced from iOS 18.2 (test release notes)") })
        #expect(Stores.messages(Stores.judge(profile, "18.2"), .Trust.distrustAnnounced).count == 1)
    }

    @Test("a distrust that does not name TLS does not touch a TLS chain")
    func otherUses() async throws {
        let pki = try TestPKI.make(name: "announced-smime")
        let effective = Date().addingTimeInterval(-30 * Self.day)
        let profile = try await Stores.scan(
            pki, source: .apple(Self.data(pki, effective: effective, uses: ["S/MIME"])))
        #expect(profile.certificate?.trust?.stores.last?.distrust == [])
    }

    @Test("the bundled data carries Apple's 121668 roots, each in Apple's store, with its date in roots --format json")
    func bundled() throws {
        let data = TrustInputs.bundled
        let roots = data.announcedDistrust.flatMap(\.roots)
        #expect(roots.count == 11)
        #expect(roots.allSatisfy { data.root(sha256: $0) != nil })
        let entrust = try #require(data.announcedDistrust.first { $0.ca == "Entrust" })
        #expect(CalendarDay.string(from: entrust.effective) == "2024-11-15")
        #expect(entrust.roots.contains("DB3517D1F6732A2D5AB97C533EC70779EE3270A62FB4AC4238372460E6F01E88"))
        let json = try TrustStoreListing.json(data, release: [26, 0])
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let stores = try #require(listing["stores"] as? [[String: Any]])
        let listed = try #require(stores.first?["roots"] as? [[String: Any]])
        let g4 = try #require(listed.first { ($0["name"] as? String) == "Entrust Root Certification Authority - G4" })
        #expect(g4["distrustedAfter"] as? String == "2024-11-15")
        #expect((g4["distrustSource"] as? String)?.contains("121668") == true)
        #expect(listed.contains { $0["distrustedAfter"] == nil })
    }
}
