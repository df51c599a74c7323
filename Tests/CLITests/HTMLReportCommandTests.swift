import AppBundleFixtures
import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `--report html=PATH` and `--format html` through the built binary against loopback servers: the page of a run is
/// parsed by html5lib in strict mode and compared with the JSON of the same run.
@Suite("HTML report (CLI)")
struct HTMLReportCommandTests {
    static let host = "cli-html.atscheck.test"

    /// The matrix of a parsed page: its era headers and, per row, the endpoint and the cells' text.
    static func matrix(_ page: HTMLNode) throws -> (eras: [String], rows: [(endpoint: String, cells: [String])]) {
        let table = try #require(page.descendants { $0.name == "table" && $0.hasClass("matrix") }.first)
        let eras = table.descendants { $0.hasClass("era") }.map(\.textContent)
        let rows = try #require(table.all("tbody").first).all("tr").map { row in
            (
                row.all("th").first?.all("code").first?.textContent ?? "",
                row.all("td").map { $0.textContent.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            )
        }
        return (eras, rows)
    }

    static func word(_ verdict: String?) -> String {
        switch verdict {
        case "pass": return "✓ PASS"
        case "fail": return "✗ FAIL"
        case "ambiguous": return "! AMBIGUOUS"
        default: return "? UNKNOWN"
        }
    }

    @Test("app: the page's endpoints × OS-era matrix, exceptions and pins are those of the run's JSON")
    func app() async throws {
        let fixture = try AppLiveCommandTests.Fixture()
        let page = fixture.file("release.html")
        let arguments =
            ["app", fixture.ipa] + (try fixture.list(["modern", "rsa-kx-only"]))
            + ["--format", "json", "--report", "html=\(page)"]
        let result = try await CLI.offPool { try CLI.run(arguments) }
        #expect(result.status == 1, "\(result.stderr)")
        let live = try #require((result.json as? [String: Any])?["live"] as? [String: Any], "\(result.stdout)")
        let html = try HTML5Parser.parse(try String(contentsOfFile: page, encoding: .utf8))

        let (eras, rows) = try Self.matrix(html)
        let jsonEras = try #require(live["eras"] as? [String])
        #expect(eras == jsonEras.map { "iOS \($0)" })
        let endpoints = try #require(live["endpoints"] as? [[String: Any]])
        #expect(rows.map(\.endpoint) == endpoints.compactMap { $0["endpoint"] as? String })
        for (row, endpoint) in zip(rows, endpoints) {
            let verdicts = (endpoint["eras"] as? [[String: Any]] ?? []).map { Self.word($0["verdict"] as? String) }
            // The era verdicts, then the columns of issues 35 and 36 (groups, simulated clients, quantum-secure).
            #expect(Array(row.cells.prefix(verdicts.count)) == verdicts, "\(row.endpoint)")
        }
        #expect(rows.contains { $0.cells.contains("✗ FAIL") })

        // The exception to paste is the one the JSON carries, character for character.
        let debt = try #require(live["exceptionDebt"] as? [[String: Any]])
        let plists = debt.compactMap { $0["plist"] as? String }
        #expect(!plists.isEmpty)
        let pasted = try #require(html.element(id: "exceptions")).all("pre").map(\.textContent)
        #expect(pasted == plists)

        let pins = try #require(live["pins"] as? [[String: Any]])
        let pinRows = try #require(html.element(id: "pins")?.all("tbody").first).all("tr")
        #expect(pinRows.count == pins.count)
        #expect(pinRows.allSatisfy { $0.all("td")[1].textContent.contains("ACCEPT") })
    }

    @Test("audit: a hostile exception-domain key stays text; the missing exception is ready to paste")
    func audit() throws {
        let leaf = try TestPKI.shared.leaf(.leaf(Self.host))
        let server = try TestTLSServer(
            .only(.tls1_2, cipherList: "AES128-GCM-SHA256", chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let hostile = "<script>alert(1)</script>\"onload=\"x"
        let escaped = hostile.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let plist = try CLI.temporaryFile(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>NSExceptionDomains</key>
            \t\t<dict>
            \t\t\t<key>\(escaped)</key>
            \t\t\t<dict><key>NSIncludesSubdomains</key><true/></dict>
            \t\t</dict>
            \t</dict>
            </dict>
            </plist>
            """, suffix: ".plist")
        let list = try CLI.temporaryFile("https://\(Self.host):\(server.port)\n")
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let page = TestScratch.file("atscheck-html-audit", suffix: ".html")
        let result = try CLI.run([
            "audit", "--plist", plist, "--endpoints", list, "--resolve", "\(Self.host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--format", "json", "--report", "html=\(page)",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;onload=&quot;x"))
        let html = try HTML5Parser.parse(text)
        #expect(html.all("script").isEmpty)
        #expect(html.descendants { node in node.attributes.keys.contains { $0.hasPrefix("on") } }.isEmpty)
        #expect(html.all("code").contains { $0.textContent.contains(hostile) })
        let exceptions = try #require(html.element(id: "exceptions"))

        let debt = try #require((result.json as? [String: Any])?["exceptionDebt"] as? [[String: Any]])
        let missing = try #require(debt.first { $0["kind"] as? String == "missing" })
        let plistText = try #require(missing["plist"] as? String)
        #expect(exceptions.all("pre").map(\.textContent).contains(plistText))
        let (eras, rows) = try Self.matrix(html)
        #expect(eras.count == 1)
        #expect(rows.map(\.endpoint) == ["\(Self.host):\(server.port)"])
        #expect(rows.first?.cells.first == "✗ FAIL")
        let failures = try #require(html.element(id: "failures"))
        #expect(failures.textContent.contains("ats.tls.forward-secrecy"))
    }

    @Test("scan, diagnose, cert, merge and pins check write html; plist --explain and rules refuse it")
    func otherCommands() throws {
        let leaf = try TestPKI.shared.leaf(.leaf(Self.host))
        let server = try TestTLSServer(.modern(chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let target = "\(Self.host):\(server.port)"
        let reach = ["--resolve", "\(target):127.0.0.1", "--ca-file", ca]

        let scan = try CLI.run(["scan", target] + reach + ["--format", "html"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let scanned = try Self.matrix(try HTML5Parser.parse(scan.stdout))
        // The verdict, then the groups each version accepts (issue 35) and the simulated clients (issue 36).
        #expect(scanned.rows.map(\.endpoint) == [target] && scanned.rows.first?.cells.first == "✓ PASS")
        #expect(scanned.rows.first?.cells.dropFirst().contains { $0.contains("x25519") } == true)

        let diagnose = try CLI.run(["diagnose", "https://\(target)/"] + reach + ["--format", "html"])
        #expect(diagnose.status == 0, "\(diagnose.stderr)")
        let tests = try #require(try HTML5Parser.parse(diagnose.stdout).element(id: "diagnostics"))
        #expect(tests.all("td").filter { $0.hasClass("cell") }.count == 16)

        let shard = TestScratch.file("atscheck-html-shard", suffix: ".json")
        let part = try CLI.run(["scan", target] + reach + ["--shard", "1/1", "--format", "json", "--output", shard])
        #expect(part.status == 0, "\(part.stderr)")
        let merge = try CLI.run(["merge", shard, "--format", "html"])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try Self.matrix(try HTML5Parser.parse(merge.stdout)).rows.map(\.endpoint) == [target])

        let chain = try CLI.temporaryFile(
            TestCertificate.pemBundle([leaf, TestPKI.shared.intermediate]), suffix: ".pem")
        let cert = try CLI.run([
            "cert", chain, "--host", "other.atscheck.test", "--trust-store", "none", "--ca-file", ca, "--format",
            "html",
        ])
        #expect(cert.status == 1, "\(cert.stderr)")
        let certPage = try HTML5Parser.parse(cert.stdout)
        #expect(try Self.matrix(certPage).rows.first?.cells == ["✗ FAIL"])
        #expect(certPage.element(id: "rule-trust-hostname") != nil)

        let pinsDir = TestScratch.file("atscheck-html-pins")
        let extract = try CLI.run(
            ["pins", "extract", target] + reach + ["--out", pinsDir, "--format", "json"])
        #expect(extract.status == 0, "\(extract.stderr)")
        let pins = try CLI.run(
            ["pins", "check", target] + reach + [
                "--pins", pinsDir, "--library", "nspinneddomains", "--format", "html",
            ])
        #expect(pins.status == 0, "\(pins.stderr)")
        let pinRows = try #require(try HTML5Parser.parse(pins.stdout).element(id: "pins")?.all("tbody").first)
        #expect(pinRows.all("tr").map { $0.all("td")[1].textContent.hasPrefix("✓ ACCEPT") } == [true])

        let explain = try CLI.run(["plist", "--explain", plistFile(), "--format", "html"])
        #expect(explain.status == 64)
        #expect(explain.stderr.contains("not html"), "\(explain.stderr)")
        #expect(try CLI.run(["rules", "--format", "html"]).status == 64)
    }

    func plistFile() throws -> String {
        try CLI.temporaryFile(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict/></plist>\n", suffix: ".plist")
    }
}
