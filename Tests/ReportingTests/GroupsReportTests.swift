import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import Reporting

/// Issue 35: the key-exchange groups of each version, post-quantum ones named, and the codepoints atscheck could not
/// offer, in every report; whether TLS 1.3 accepts a post-quantum hybrid as a SARIF note that no format counts as a
/// problem.
@Suite("Groups and untested codepoints in the reports")
struct GroupsReportTests {
    static let report = ReportFixtures.groupsReport

    @Test("text: a groups line per enumerated version, the untested codepoints named (golden scan-groups.txt)")
    func text() throws {
        let text = ScanTextRenderer(style: TextStyle(enabled: false)).render(Self.report)
        try Snapshot.assert(text, named: "scan-groups.txt")
        #expect(text.contains("      groups: X25519MLKEM768 (post-quantum hybrid), x25519, secp256r1\n"))
        #expect(text.contains("      groups: x25519, secp256r1, ffdhe2048\n"))
        #expect(text.contains("      groups: x25519, secp384r1\n"))
        #expect(text.contains("      groups: secp256r1 (incomplete)\n"))
        #expect(text.contains("      not tested: 0x000A, 0x0016 — offered, never answered\n"))
        // A version that is "no" as far as it was tested still names what was not.
        #expect(text.contains("    TLSv1.0  no\n      not tested: 0x000A — offered, never answered\n"))
        // Not enumerated (ats-only): no groups line for the endpoint.
        let atsOnly = try #require(text.components(separatedBy: "atsonly.example.com:443").last)
        #expect(!atsOnly.contains("groups:"))
        // Notes are not problems: the summary counts none.
        #expect(!ScanTextRenderer.summary(Self.report).contains("finding"))
    }

    @Test("text: with colour, the post-quantum label is green and the untested line yellow")
    func colour() {
        let text = ScanTextRenderer(style: TextStyle(enabled: true)).render(Self.report)
        #expect(text.contains("X25519MLKEM768 " + TextStyle(enabled: true).green("(post-quantum hybrid)")))
        #expect(text.contains(TextStyle(enabled: true).yellow("not tested:")))
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The versions of an endpoint of a JSON report (an object with `endpoints`, or one JSON Lines line).
    static func protocols(_ endpoint: [String: Any]) throws -> [String: [String: Any]] {
        let list = try #require(endpoint["protocols"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["version"] as? String ?? "?", $0) })
    }

    @Test("JSON and JSON Lines: groups, groupsComplete and untestedSuites where known, absent where not")
    func json() throws {
        let json = try Self.object(try JSONRendering.render(Self.report))
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        let pq = try Self.protocols(endpoints[0])
        let groups = try #require(pq["TLSv1.3"]?["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["X25519MLKEM768", "x25519", "secp256r1"])
        #expect(groups[0]["code"] as? String == "0x11EC" && groups[0]["postQuantum"] as? Bool == true)
        #expect(groups[0]["bits"] as? Int == 128 && groups[1]["postQuantum"] as? Bool == false)
        #expect(pq["TLSv1.3"]?["groupsComplete"] == nil && pq["TLSv1.2"]?["untestedSuites"] == nil)
        let classic = try Self.protocols(endpoints[1])
        #expect(classic["TLSv1.2"]?["untestedSuites"] as? [String] == ["0x000A", "0x0016"])
        #expect(classic["TLSv1.2"]?["enumerationComplete"] as? Bool == false)
        #expect(try Self.protocols(endpoints[2])["TLSv1.3"]?["groupsComplete"] as? Bool == false)
        let atsOnly = try Self.protocols(endpoints[3])
        #expect(atsOnly["TLSv1.3"]?["groups"] == nil && atsOnly["TLSv1.2"]?["groups"] == nil)
        #expect(atsOnly["TLSv1.0"]?["untestedSuites"] as? [String] == ["0x000A"])

        // JSON Lines: the same fields, endpoint by endpoint; and the report decodes back whole.
        let lines = try JSONLinesRendering.render(Self.report).split(separator: "\n").map(String.init)
        let first = try Self.protocols(try Self.object(lines[0]))
        #expect((first["TLSv1.3"]?["groups"] as? [[String: Any]])?.first?["name"] as? String == "X25519MLKEM768")
        let back = try JSONRendering.decoder().decode(
            ScanReport.self, from: Data(JSONRendering.render(Self.report).utf8))
        #expect(back.endpoints.map(\.profile) == Self.report.endpoints.map(\.profile))
        // The streamed JSON is the same bytes as the whole.
        var streamed = Data()
        try JSONStreamRendering.write(Self.report) { streamed += $0 }
        #expect(String(decoding: streamed, as: UTF8.self) == (try JSONRendering.render(Self.report)))
    }

    @Test("SARIF: one note per endpoint whose TLS 1.3 groups were enumerated, after the problems; it validates")
    func sarif() throws {
        let text = try SARIFRenderer.render(Self.report, plistFile: "Info.plist", endpointsFile: "endpoints.txt")
        let (ok, output) = try SARIFSchemaValidator.validate(text)
        #expect(ok, "SARIF schema validation failed: \(output)")
        let log = try Self.object(text)
        let results = try SARIFRendererTests.results(log)
        let notes = results.filter { $0["ruleId"] as? String == RuleID.Info.postQuantum.rawValue }
        #expect(notes.count == 3, "pq, classic and stalled; not the ats-only endpoint")
        #expect(notes.allSatisfy { $0["level"] as? String == "note" })
        let messages = notes.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(messages[0] == "pq.example.com:443 accepts the post-quantum hybrid X25519MLKEM768 in TLS 1.3")
        #expect(messages[1].hasPrefix("classic.example.com:443 accepts no post-quantum hybrid (X25519MLKEM768)"))
        #expect(messages[2].contains("stalled.example.com:443") && messages[2].contains("unknown"))
        // Each note is at its endpoint's line of the list, named by its target.
        let location = try #require((notes[1]["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 3)
        // The rule is described from the catalogue, as a note, with no security severity (it is no problem).
        let (_, rules) = try SARIFRuleCatalogueTests.rules(log)
        let rule = try #require(rules[RuleID.Info.postQuantum.rawValue])
        #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == "note")
        #expect(((rule["help"] as? [String: Any])?["text"] as? String)?.contains("X25519MLKEM768") == true)
        #expect((rule["properties"] as? [String: Any])?["security-severity"] == nil)
        // The problems are unchanged: the fixture has none.
        #expect(results.count == notes.count + IssueCounts(ReportIssues.of(Self.report)).total)
    }

    @Test("a post-quantum group other than X25519MLKEM768 is named, with what iOS offers first")
    func otherHybrid() throws {
        var report = Self.report
        report.endpoints[0].profile.protocols[1] = ReportFixtures.tls13([.x25519, .SecP256r1MLKEM768])
        let note = try #require(EndpointNotes.of(report).first)
        #expect(
            note.message == "pq.example.com:443 accepts post-quantum key exchange in TLS 1.3 (SecP256r1MLKEM768) "
                + "but not X25519MLKEM768, the hybrid iOS 26 offers first")
        #expect(note.rule == RuleID.Info.postQuantum && note.severity == .note && note.endpoint == 0)
        // An endpoint not scanned has no note, whatever its saved protocols say.
        report.endpoints[0].profile.status = .timeout
        #expect(EndpointNotes.of(report).map(\.endpoint) == [1, 2])
    }

    @Test("JUnit, Code Climate, GitHub and Markdown list problems only: no post-quantum note")
    func problemFormats() throws {
        let id = RuleID.Info.postQuantum.rawValue
        #expect(!JUnitRenderer.render(Self.report).contains(id))
        #expect(!(try CodeClimateRenderer.render(Self.report, endpointsFile: "endpoints.txt")).contains(id))
        #expect(!GitHubRenderer.render(Self.report, endpointsFile: "endpoints.txt").contains(id))
        #expect(!MarkdownRenderer.render(Self.report).contains(id))
    }

    @Test("HTML: a groups column with post-quantum marked, and the untested codepoints under the endpoint")
    func html() throws {
        let page = try HTMLReportTests.page(ScanDocument(report: Self.report))
        let matrix = try #require(page.descendants { $0.name == "table" && $0.hasClass("matrix") }.first)
        let header = try #require(matrix.all("thead").first?.all("tr").first)
        #expect(HTMLReportTests.cells(header) == ["Endpoint", "iOS 26.4", "Key-exchange groups"])
        let rows = try #require(matrix.all("tbody").first).all("tr").map(HTMLReportTests.cells)
        #expect(rows.count == 4)
        #expect(
            rows[0][2] == "TLSv1.3 X25519MLKEM768 ⚛ post-quantum hybrid, x25519, secp256r1 "
                + "TLSv1.2 x25519, secp256r1, ffdhe2048")
        #expect(rows[1][2] == "TLSv1.3 x25519, secp384r1 TLSv1.2 secp256r1")
        #expect(rows[2][2] == "TLSv1.3 secp256r1 (incomplete)")
        #expect(rows[3][2] == "—", "ats-only: groups not enumerated")
        #expect(rows[1][0].contains("TLSv1.2 not tested: 0x000A, 0x0016 — offered, never answered"))
        #expect(rows[3][0].contains("TLSv1.0 not tested: 0x000A"))
        #expect(!rows[0][0].contains("not tested"))
        // The report without groups has no such column.
        let plain = try HTMLReportTests.page(ScanDocument(report: ReportFixtures.report))
        #expect(!plain.textContent.contains("Key-exchange groups") && !plain.textContent.contains("not tested"))
    }
}
