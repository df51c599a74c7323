import Foundation
import TLSModel
import Testing

@testable import Reporting

/// Control characters from input never reach a terminal raw (issue 8: escape-sequence injection).
@Suite("ControlEscaping and the renderers")
struct ControlEscapingTests {
    static let hostileKey = "NSAllows\u{1B}[2J\u{1B}]0;owned\u{7}Arbitrary\u{0}Loads\u{9B}31m\u{7F}"

    @Test(
        "C0, DEL and C1 controls are escaped as \\u{…}; other text is unchanged",
        arguments: [
            ("\u{1B}[31m", "\\u{1B}[31m"), ("a\u{0}b", "a\\u{0}b"), ("\r\n\t", "\\u{D}\\u{A}\\u{9}"),
            ("\u{7F}", "\\u{7F}"),
            ("\u{9B}", "\\u{9B}"), ("plain é 🔒 text", "plain é 🔒 text"), ("\u{A0}", "\u{A0}"),
        ])
    func escape(input: String, expected: String) {
        #expect(ControlEscaping.escape(input) == expected)
    }

    static var hostileReport: ScanReport {
        let finding = Finding(
            rule: "plist.key.unknown", severity: .error, message: "unknown key '\(hostileKey)'",
            file: "In\u{1B}fo.plist", line: 3, keyPath: "NSAppTransportSecurity.\(hostileKey)")
        let profile = ServerProfile(
            target: "h\u{1B}[1m:1", host: "h", port: 1, status: .error, error: "boom\u{0}\u{1B}[K")
        return ScanReport(endpoints: [EndpointResult(profile: profile)], findings: [finding])
    }

    static func assertNoControls(_ text: String, allowingNewlines: Bool = true, _ name: String) {
        let bad = text.unicodeScalars.filter { ControlEscaping.needsEscape($0) && !(allowingNewlines && $0 == "\n") }
        #expect(bad.isEmpty, "\(name) printed raw controls: \(bad.map { String($0.value, radix: 16) })")
        #expect(text.contains("\\u{1B}"), "\(name) shows the escape as text")
    }

    @Test("the text report escapes keys, files, hosts and errors")
    func text() {
        Self.assertNoControls(ScanTextRenderer(style: .plain).render(Self.hostileReport), "text")
        #expect(ScanTextRenderer(style: .plain).render(Self.hostileReport).contains("Arbitrary\\u{0}Loads"))
    }

    @Test("the Markdown comment escapes keys, files, hosts and errors")
    func markdown() {
        Self.assertNoControls(MarkdownRenderer.render(Self.hostileReport), "markdown")
    }

    @Test("JUnit carries no ESC, NUL, DEL or C1 (ESC and NUL as U+FFFD, DEL and C1 escaped)")
    func junit() {
        let xml = JUnitRenderer.render(Self.hostileReport)
        #expect(!xml.unicodeScalars.contains { ControlEscaping.needsEscape($0) && $0 != "\n" })
        #expect(xml.contains("\\u{9B}") && xml.contains("\\u{7F}"))
    }

    @Test("explain and diagnostics text escape input-derived notes")
    func otherRenderers() {
        let notes = ["key '\(Self.hostileKey)' ignored"]
        let explanation = PolicyExplanation(hosts: [], notes: notes)
        Self.assertNoControls(ExplainTextRenderer.render(explanation), "explain")
    }
}
