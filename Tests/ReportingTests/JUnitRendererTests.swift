import Foundation
import TLSModel
import Testing

@testable import Reporting

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("JUnitRenderer")
struct JUnitRendererTests {
    static func parse(_ xml: String) throws -> XMLDocument { try XMLDocument(data: Data(xml.utf8), options: []) }

    static func nodes(_ doc: XMLDocument, _ xpath: String) throws -> [XMLElement] {
        try doc.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    static func attr(_ element: XMLElement?, _ name: String) -> String? {
        element?.attribute(forName: name)?.stringValue
    }

    @Test("well-formed, one test case per problem and per passing endpoint: failures are the errors")
    func counts() throws {
        let report = ReportFixtures.report
        let xml = JUnitRenderer.render(report)
        let doc = try Self.parse(xml)
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        // api passes (1 case); legacy has 2 violations; down, the ambiguous and the unknown endpoint 1 each; 3 findings.
        #expect(try Self.nodes(doc, "//testcase").count == 9)
        #expect(Self.attr(root, "tests") == "9")
        // Failures: the two legacy violations and the plist error — the text summary's errors.
        let counts = IssueCounts(ReportIssues.of(report))
        #expect(Self.attr(root, "failures") == "\(counts.errors)")
        #expect(counts.errors == 3)
        #expect(try Self.nodes(doc, "//failure").count == 3)
        #expect(Self.attr(root, "errors") == "1")
        // Skipped: the ambiguous and the unknown verdict (not decided).
        #expect(Self.attr(root, "skipped") == "2")
        let suites = try Self.nodes(doc, "/testsuites/testsuite")
        #expect(suites.map { Self.attr($0, "name") ?? "" } == ["endpoints", "Info.plist", "Binary.plist"])
        #expect(Self.attr(suites.first, "tests") == "6")
    }

    @Test("an endpoint's cases: one per problem, named by its rule; a passing endpoint one passing case")
    func endpointCases() throws {
        let doc = try Self.parse(JUnitRenderer.render(ReportFixtures.report))
        let legacy = try Self.nodes(doc, "//testcase[@classname='legacy.example.com:443']")
        #expect(legacy.map { Self.attr($0, "name") ?? "" } == ["ats.tls.forward-secrecy", "trust.chain"])
        let atsFailure = try #require(
            try Self.nodes(
                doc, "//testcase[@classname='legacy.example.com:443'][@name='ats.tls.forward-secrecy']/failure"
            ).first)
        #expect(Self.attr(atsFailure, "type") == "ats.tls.forward-secrecy")
        #expect(Self.attr(atsFailure, "message")?.hasPrefix("legacy.example.com:443: no ECDHE suite") == true)
        let trust = try #require(
            try Self.nodes(doc, "//testcase[@classname='legacy.example.com:443'][@name='trust.chain']/failure").first)
        #expect(Self.attr(trust, "message")?.contains("chain not trusted: self-signed certificate") == true)
        let scanError = try #require(
            try Self.nodes(doc, "//testcase[@classname='down.example.com:443'][@name='scan.unreachable']/error").first)
        #expect(
            Self.attr(scanError, "message")
                == "down.example.com:443 could not be scanned (unreachable): connection refused")
        let api = try Self.nodes(doc, "//testcase[@classname='api.example.com:443']")
        #expect(api.map { Self.attr($0, "name") ?? "" } == [JUnitRenderer.atsCheck])
        #expect(
            try Self.nodes(doc, "//testcase[@classname='api.example.com:443']/*[name() != 'system-out']").isEmpty,
            "a passing endpoint has no failure, error or skipped")
    }

    @Test("plist findings: errors fail, warnings and notes pass with their message")
    func findingCases() throws {
        let doc = try Self.parse(JUnitRenderer.render(ReportFixtures.report))
        let error = try #require(try Self.nodes(doc, "//testsuite[@name='Info.plist']/testcase").first)
        #expect(Self.attr(error, "name") == "plist.key.misspelled NSAppTransportSecurity.NSAllowArbitraryLoads")
        #expect(
            error.elements(forName: "failure").first?.stringValue?.hasPrefix("Info.plist:12: error: unknown key")
                == true)
        let warning = try #require(try Self.nodes(doc, "//testsuite[@name='Info.plist']/testcase").last)
        #expect(warning.elements(forName: "failure").isEmpty)
        #expect(
            warning.elements(forName: "system-out").first?.stringValue?.hasPrefix("Info.plist:20: warning:") == true)
    }

    @Test("XML special and control characters are escaped")
    func escaping() throws {
        let finding = Finding(
            rule: "plist.x", severity: .error, message: "a <b> & 'c' \"d\"\u{1}\ne", file: "A&B <1>.plist", line: 1)
        let xml = JUnitRenderer.render(ScanReport(endpoints: [], findings: [finding]))
        let doc = try Self.parse(xml)
        let failure = try #require(try Self.nodes(doc, "//failure").first)
        #expect(Self.attr(failure, "message") == "a <b> & 'c' \"d\"\u{FFFD}\ne")
        #expect(Self.attr(try Self.nodes(doc, "//testsuite").first, "name") == "A&B <1>.plist")
    }

    @Test("an empty report is a well-formed empty suite list")
    func empty() throws {
        let doc = try Self.parse(JUnitRenderer.render(ScanReport(endpoints: [])))
        #expect(Self.attr(doc.rootElement(), "tests") == "0")
    }
}
