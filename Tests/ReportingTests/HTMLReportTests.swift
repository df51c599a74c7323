import ATSCheckKit
import Foundation
import Judging
import TLSModel
import TLSTestSupport
import Testing

@testable import Reporting

/// The HTML report: parsed by html5lib in strict mode (``HTML5Parser``), then checked as a browser would build it —
/// the matrix's rows and columns, the failures with their rules and fixes, the exceptions to paste, the pin
/// verdicts — and that hostile strings stay text.
@Suite("HTML report")
struct HTMLReportTests {
    static let now = Date(timeIntervalSince1970: 1_760_000_000)

    static func render(_ document: some ReportDocument) throws -> String {
        try ReportRendererRegistry.standard.render(document, as: .html, options: RenderOptions(now: now))
    }

    static func page(_ document: some ReportDocument) throws -> HTMLNode {
        try HTML5Parser.parse(try render(document))
    }

    /// The text of each cell of a row (`th` and `td`), whitespace collapsed.
    static func cells(_ row: HTMLNode) -> [String] {
        row.elements.filter { $0.name == "td" || $0.name == "th" }.map { squeeze($0.textContent) }
    }

    static func squeeze(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("the strict HTML5 parser refuses what a sloppy page would have: the check can fail")
    func parserIsStrict() throws {
        let page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>t</title></head><body>"
        #expect(throws: Never.self) { try HTML5Parser.parse(page + "<p>x</p></body></html>") }
        #expect(throws: HTML5Parser.Failure.self) { try HTML5Parser.parse(page + "<p>x</div></body></html>") }
        #expect(throws: HTML5Parser.Failure.self) { try HTML5Parser.parse("<html><body>no doctype</body></html>") }
        #expect(throws: HTML5Parser.Failure.self) { try HTML5Parser.parse(page + "<p>\u{1}</p></body></html>") }
        let noCharset = "<!DOCTYPE html><html lang=\"en\"><head><title>t</title></head><body>é</body></html>"
        #expect(throws: HTML5Parser.Failure.self) { try HTML5Parser.parse(noCharset) }
    }

    @Test("app: a matrix row per endpoint and a column per OS era, each cell a symbol and a word")
    func appMatrix() throws {
        let document = DocumentFixtures.app(live: true)
        let live = try #require(document.app.live)
        let page = try Self.page(document)
        let matrix = try #require(page.descendants { $0.name == "table" && $0.hasClass("matrix") }.first)
        let eras = matrix.descendants { $0.name == "th" && $0.hasClass("era") }.map { Self.squeeze($0.textContent) }
        #expect(eras == live.eras.map { "iOS \($0)" })
        let rows = try #require(matrix.all("tbody").first).all("tr")
        #expect(rows.count == live.endpoints.count)
        for (row, endpoint) in zip(rows, live.endpoints) {
            let cells = row.all("td").filter { $0.hasClass("cell") }
            #expect(cells.count == live.eras.count, "\(endpoint.endpoint)")
            #expect(Self.cells(row).first?.hasPrefix(endpoint.endpoint) == true)
            #expect(Self.cells(row).first?.contains(endpoint.summary) == true)
        }
        #expect(Self.cells(rows[0]).dropFirst().prefix(3).allSatisfy { $0 == "✓ PASS" })
        #expect(Self.cells(rows[1]).dropFirst().prefix(3).allSatisfy { $0 == "✗ FAIL" })
        #expect(Self.cells(rows[2]).dropFirst().prefix(3).allSatisfy { $0 == "– NOT SCANNED" })
        // The failing row links to its entry, which exists.
        let link = try #require(rows[1].all("a").first?.attributes["href"])
        #expect(page.element(id: String(link.dropFirst())) != nil)
        // The legend explains every mark.
        let legend = try #require(page.descendants { $0.name == "ul" && $0.hasClass("legend") }.first)
        #expect(
            legend.all("li").map { Self.squeeze($0.textContent) }.map { $0.split(separator: " ")[1] } == [
                "PASS", "FAIL", "AMBIGUOUS", "UNKNOWN", "NOT",
            ])
    }

    @Test("every coloured mark carries a symbol and a word")
    func colourIsNeverAlone() throws {
        for fixture in DocumentFixtures.all where fixture.formats.contains(.html) {
            let page = try Self.page(fixture.document)
            let coloured = page.descendants { node in
                (node.attributes["class"] ?? "").split(separator: " ").contains { $0.hasPrefix("s-") }
            }
            for node in coloured {
                let symbol = node.descendants { $0.hasClass("sym") }.first.map(\.textContent) ?? ""
                #expect(!symbol.isEmpty, "\(fixture.command): \(node.textContent)")
                let words = Self.squeeze(node.textContent).dropFirst(symbol.count)
                #expect(words.contains { $0.isLetter }, "\(fixture.command): \(node.textContent)")
            }
        }
    }

    @Test("audit: each failure has its rule id, reason and fix; each rule its help")
    func auditFailures() throws {
        let document = DocumentFixtures.audit(defaultPolicy: false)
        let page = try Self.page(document)
        let matrix = try #require(page.descendants { $0.name == "table" && $0.hasClass("matrix") }.first)
        let scan = document.report
        #expect(try #require(matrix.all("tbody").first).all("tr").count == scan.endpoints.count)
        #expect(matrix.descendants { $0.hasClass("era") }.map(\.textContent) == ["iOS 26.4"])

        let failures = try #require(page.element(id: "failures"))
        let legacy = try #require(failures.all("article").first { $0.textContent.contains("legacy.example.com:443") })
        let issues = legacy.all("tbody").flatMap { $0.all("tr") }.map(Self.cells)
        let forwardSecrecy = try #require(issues.first { $0.first == "ats.tls.forward-secrecy" })
        #expect(forwardSecrecy[1] == "no ECDHE suite: the server offers only RSA key exchange")
        #expect(forwardSecrecy[2].contains("NSExceptionDomains.legacy.example.com.NSExceptionRequiresForwardSecrecy"))
        // The hostile-looking message of the fixture is text, decoded back to what the report says.
        #expect(issues.contains { $0[1] == "chain not trusted: self-signed certificate <root> & \"CA\"" })
        let down = try #require(failures.all("article").first { $0.textContent.contains("down.example.com") })
        #expect(down.textContent.contains("scan.unreachable"))
        #expect(down.textContent.contains("connection refused"))

        let rules = try #require(page.element(id: "rules"))
        let help = try #require(RuleCatalogue.atscheck.descriptor(for: RuleID("ats.tls.forward-secrecy"))?.help)
        let entry = try #require(page.element(id: "rule-ats-tls-forward-secrecy"))
        #expect(entry.textContent.hasPrefix("ats.tls.forward-secrecy"))
        #expect(Self.squeeze(rules.textContent).contains(Self.squeeze(help.replacingOccurrences(of: "`", with: ""))))
        for finding in scan.findings {
            #expect(page.element(id: HTMLReport.anchor(finding.rule)) != nil, "\(finding.rule)")
        }
        // Findings: one row each, errors first.
        let findings = try #require(page.element(id: "findings")?.all("tbody").first).all("tr").map(Self.cells)
        #expect(findings.count == scan.findings.count)
        #expect(findings.first?.first == "✗ ERROR")
        #expect(findings.last?.first == "i NOTE")
    }

    @Test("the minimal exception is in <pre>, escaped, and reads back as the plist fragment")
    func exceptionToPaste() throws {
        let plist =
            "<key>legacy.example.com</key>\n<dict>\n\t<key>NSExceptionRequiresForwardSecrecy</key>\n"
            + "\t<false/>\n</dict>"
        var document = DocumentFixtures.audit(defaultPolicy: false)
        document.audit.exceptionDebt[0].plist = plist
        let html = try Self.render(document)
        #expect(html.contains("&lt;key&gt;legacy.example.com&lt;/key&gt;"))
        let page = try HTML5Parser.parse(html)
        let exceptions = try #require(page.element(id: "exceptions"))
        let pre = try #require(exceptions.all("pre").first)
        #expect(pre.textContent == plist)
        #expect(pre.all("key").isEmpty && pre.all("dict").isEmpty)
        #expect(exceptions.textContent.contains("MISSING"))
        #expect(exceptions.textContent.contains("legacy.example.com fails ATS"))
    }

    @Test("pins: the release build next to the debug build, and a check that could not run")
    func pins() throws {
        let documents: [any ReportDocument] = [
            PinCheckDocument(report: DocumentFixtures.pinsReport), DocumentFixtures.app(live: true),
        ]
        for document in documents {
            let page = try Self.page(document)
            let rows = try #require(page.element(id: "pins")?.all("tbody").first).all("tr").map(Self.cells)
            let api = try #require(rows.first { $0.first == "api.example.com:443" })
            #expect(api[2].hasPrefix("✗ REJECT"), "release")
            #expect(api[3].hasPrefix("✓ ACCEPT"), "debug")
            #expect(api[4].contains("allowInvalidCertificates = YES"))
            #expect(api[4].contains("pins.debug.release-differs"))
            let down = try #require(rows.first { $0.first?.hasPrefix("down") == true })
            #expect(down[2] == "– NOT CHECKED")
        }
    }

    @Test("the header says what was checked, when, with which version, and the counts")
    func header() throws {
        let document = DocumentFixtures.audit(defaultPolicy: false)
        let page = try Self.page(document)
        let header = try #require(page.all("header").first)
        let facts = Dictionary(
            uniqueKeysWithValues: header.all("div").compactMap { div -> (String, String)? in
                guard let term = div.all("dt").first, let value = div.all("dd").first else { return nil }
                return (term.textContent, Self.squeeze(value.textContent))
            })
        #expect(facts["Info.plist"] == "Info.plist")
        #expect(facts["Endpoint list"] == "endpoints.txt")
        #expect(facts["Generated"] == "2025-10-09 08:53:20 UTC")
        #expect(facts["Tool"] == "atscheck \(ToolInfo.currentVersion)")
        #expect(facts["Judged as"] == "iOS 26.4")
        let counts = header.all("li").map { Self.squeeze($0.textContent) }
        let summary = document.report.summary
        #expect(counts.contains("✓ \(summary.passed) pass"))
        #expect(counts.contains("✗ \(summary.failed) fail"))
        #expect(counts.contains("– \(summary.unreachable) not scanned"))
        #expect(counts.contains("✗ 2 errors"))
        let verdict = page.all("p").first(where: { $0.hasClass("verdict") })
        let banner = Self.squeeze(verdict?.textContent ?? "")
        #expect(banner.hasPrefix("✗ Not ready"), "\(banner)")
        #expect(page.all("title").first?.textContent == "atscheck: audit of Info.plist against endpoints.txt")
    }

    @Test("self-contained: no script, no external asset, and every link inside the page resolves")
    func selfContained() throws {
        for fixture in DocumentFixtures.all where fixture.formats.contains(.html) {
            let page = try Self.page(fixture.document)
            for tag in ["script", "link", "img", "iframe", "object", "embed", "base"] {
                #expect(page.all(tag).isEmpty, "\(fixture.command): <\(tag)>")
            }
            let all = page.descendants { _ in true }
            #expect(all.allSatisfy { $0.attributes["src"] == nil }, "\(fixture.command)")
            #expect(all.allSatisfy { $0.attributes.keys.allSatisfy { !$0.hasPrefix("on") } }, "\(fixture.command)")
            let css = page.all("style").map(\.textContent).joined()
            #expect(!css.contains("url(") && !css.contains("@import"), "\(fixture.command)")
            for href in all.compactMap({ $0.attributes["href"] }) {
                if href.hasPrefix("#") {
                    #expect(page.element(id: String(href.dropFirst())) != nil, "\(fixture.command): \(href)")
                } else {
                    #expect(href.hasPrefix(RuleCatalogue.informationURL), "\(fixture.command): \(href)")
                }
            }
        }
    }

    /// Names a hostile server, bundle or plist could carry.
    static let hostile = [
        "<script>alert(1)</script>", "\"onload=\"alert(1)", "x' onmouseover='alert(1)", "</td></tr></table><em>",
        "&amp; &lt;", "esc\u{1B}[31m", "bidi\u{202E}gpj.exe", "nul\u{0}char", "nonchar" + scalars(0xFFFE),
    ]

    @Test("hostile host names, plist values and certificate subjects stay text", arguments: hostile)
    func hostileStrings(_ name: String) throws {
        var document = DocumentFixtures.app(live: true)
        document.app.live?.endpoints[1].endpoint = name + ":443"
        document.app.live?.endpoints[1].eras[0].reason = "fails for " + name
        document.app.facts.certificates[0].subject = "CN=" + name
        document.app.facts.bundleIdentifier = name
        document.app.live?.exceptionDebt = [
            AppExceptionDebt(
                debt: ExceptionDebt(
                    kind: .missing, rule: RuleID.Audit.exceptionMissing, domain: name, endpoints: [name + ":443"],
                    plist: "<key>\(name)</key>\n<dict/>", message: "add " + name),
                eras: ["12"])
        ]
        document.report.findings.append(
            Finding(rule: RuleID(rawValue: name), severity: .error, message: name, file: name, keyPath: name))
        let html = try Self.render(document)
        #expect(!html.contains("<script>") && !html.contains("\u{1B}") && !html.contains("\u{202E}"))
        let page = try HTML5Parser.parse(html)
        #expect(page.all("script").isEmpty && page.all("em").isEmpty)
        let all = page.descendants { _ in true }
        #expect(all.allSatisfy { $0.attributes.keys.allSatisfy { !$0.hasPrefix("on") } })
        let shown = Self.visible(name)
        let matrix = try #require(page.descendants { $0.name == "table" && $0.hasClass("matrix") }.first)
        let row = try #require(matrix.all("tbody").first?.all("tr")[1])
        #expect(row.all("th").first?.all("code").first?.textContent == shown + ":443")
        #expect(row.all("td").first?.attributes["title"] == "fails for " + shown)
        #expect(page.element(id: "app")?.textContent.contains("CN=" + shown) == true)
        #expect(page.all("h1").first?.textContent.contains(shown) == true)
        #expect(page.element(id: "exceptions")?.all("pre").first?.textContent == "<key>\(shown)</key>\n<dict/>")
    }

    /// What a hostile name looks like on the page: invisible characters as `\u{…}` text.
    static func visible(_ name: String) -> String {
        name.unicodeScalars.map { HTMLEscaping.isInvisible($0) ? ControlEscaping.escaped($0) : String($0) }.joined()
    }

    /// A string of scalars given by value (Swift literals refuse noncharacters).
    static func scalars(_ values: UInt32...) -> String {
        String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init)))
    }

    @Test("escaping: markup characters as references, invisible characters as visible text")
    func escaping() {
        let cases = [
            ("<a href=\"x\">'&'</a>", "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"),
            ("tab\tline\nCR\r", "tab\\u{9}line\\u{A}CR\\u{D}"),
            (Self.scalars(0x7F, 0x9B, 0xFDD0, 0x1FFFF, 0x2066), "\\u{7F}\\u{9B}\\u{FDD0}\\u{1FFFF}\\u{2066}"),
            ("ünïcødé ✓ 🙂", "ünïcødé ✓ 🙂"),
        ]
        for (input, expected) in cases { #expect(HTMLEscaping.text(input) == expected) }
    }

    @Test("preformatted text keeps line feeds and tabs, nothing else")
    func preformatted() {
        #expect(
            HTMLEscaping.preformatted("<dict>\n\t<true/>\r</dict>")
                == "&lt;dict&gt;\n\t&lt;true/&gt;\\u{D}&lt;/dict&gt;")
    }

    @Test("golden file: the live app report")
    func golden() throws {
        try Snapshot.assert(try Self.render(DocumentFixtures.app(live: true)), named: "app.html")
    }
}
