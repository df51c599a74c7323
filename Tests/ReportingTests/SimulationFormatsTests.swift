import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import Reporting

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Issue 36: the simulated Apple clients per era in the CI formats (SARIF, Markdown, JUnit, GitHub), in the text
/// report's words (``SimulationWording``), for an endpoint with a client that connects, one that fails (reset after
/// the first segment, the judged release's: its ATS verdict fails) and one whose simulation did not run; and the
/// quantum-secure count in each summary.
@Suite("Simulated Apple clients in the CI formats")
struct SimulationFormatsTests {
    static let report = ReportFixtures.simulatedErasReport
    static let negotiated = "iOS 26 (URLSession): TLS 1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure"
    static let failed = "iOS 26 (URLSession): fails — " + ReportFixtures.resetAfterFirstSegment
    static let notRun = "iOS 15.4 (URLSession): not simulated — the scan was interrupted before this client's turn"
    static let count = "quantum-secure: 1 of 3 endpoints (1 unknown)"

    @Test("one wording: the text report's lines are SimulationWording's, coloured piece by piece")
    func wording() throws {
        let simulations = Self.report.endpoints.flatMap { $0.profile.simulations ?? [] }
        let lines = simulations.map { SimulationWording.line($0) }
        #expect(lines.contains(Self.negotiated) && lines.contains(Self.failed) && lines.contains(Self.notRun))
        #expect(lines.contains("iOS 26 (URLSession): TLS 1.3, TLS_AES_256_GCM_SHA384, x25519 — not quantum-secure"))
        let text = ScanTextRenderer(style: .plain, width: Int.max).render(Self.report)
        for line in lines { #expect(text.contains("    " + line + "\n"), "\(line)") }
        // Colour wraps the words, never the escaping of what the server sent.
        let style = TextStyle(enabled: true)
        var hostile = simulations[0]
        hostile.outcome = .refused
        hostile.failure = "alert \u{1B}[31m"
        let coloured = ScanTextRenderer(style: style).simulationLine(hostile)
        #expect(coloured == "iOS 26 (URLSession): " + style.red("fails") + " — alert \\u{1B}[31m")
        #expect(SimulationWording.summaryCount(Self.report.summary) == Self.count)
        #expect(SimulationWording.summaryCount(ReportFixtures.report.summary) == nil)
    }

    @Test("SARIF: one Apple-clients note per simulated endpoint, the eras in its message and properties; it validates")
    func sarif() throws {
        let text = try SARIFRenderer.render(Self.report, plistFile: nil, endpointsFile: "endpoints.txt")
        let (ok, output) = try SARIFSchemaValidator.validate(text)
        #expect(ok, "SARIF schema validation failed: \(output)")
        #expect(GitHubSARIFRules.violations(text).isEmpty, "\(GitHubSARIFRules.violations(text))")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let results = try SARIFRendererTests.results(log)
        let notes = results.filter { $0["ruleId"] as? String == RuleID.Info.appleClients.rawValue }
        #expect(notes.count == 3, "pq, classic and tldr; not the ats-only endpoint")
        #expect(notes.allSatisfy { $0["level"] as? String == "note" })
        let messages = notes.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(messages.count == 3)
        let prefix = "Apple clients, each simulated with its own ClientHello: "
        #expect(messages[0].hasPrefix("pq.example.com:443: " + prefix + Self.negotiated + "; iOS 18 (URLSession): "))
        #expect(messages[1].hasSuffix("; " + Self.notRun))
        #expect(messages[2].hasPrefix("tldr.example.com:443: " + prefix + Self.failed + "; "))
        // The eras as the JSON report has them.
        let properties = try #require(notes[2]["properties"] as? [String: Any])
        let eras = try #require(properties["simulations"] as? [[String: Any]])
        #expect(eras.map { $0["outcome"] as? String } == ["dropped", "negotiated"])
        #expect(eras[0]["failure"] as? String == ReportFixtures.resetAfterFirstSegment)
        #expect((eras[1]["group"] as? [String: Any])?["name"] as? String == "secp256r1")
        // Placed at the endpoint's list line, like every endpoint result.
        let physical = try #require((notes[1]["locations"] as? [[String: Any]])?.first?["physicalLocation"])
        #expect(((physical as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int == 3)
        // The rule is in the run's rule list, as a note without a security severity.
        let (_, rules) = try SARIFRuleCatalogueTests.rules(log)
        let rule = try #require(rules[RuleID.Info.appleClients.rawValue])
        #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == "note")
        #expect((rule["properties"] as? [String: Any])?["security-severity"] == nil)
        // The failing judged era is an error of its own rule; the notes are no problems.
        let failures = results.filter { $0["ruleId"] as? String == RuleID.ATS.simulatedHandshakeFailed.rawValue }
        #expect(failures.count == 1 && failures[0]["level"] as? String == "error")
        let problems = IssueCounts(ReportIssues.of(Self.report)).total
        #expect(results.filter { $0["level"] as? String != "note" }.count == problems)
    }

    @Test("Markdown: a table per simulated endpoint, the readiness under it, the count in the summary (golden)")
    func markdown() throws {
        let text = MarkdownRenderer.render(Self.report)
        try Snapshot.assert(text, named: "simulations.md")
        #expect(text.hasPrefix("## atscheck: 4 endpoints: 3 passed, 1 failed, 0 unreachable; endpoints: 1 error, "))
        #expect(text.split(separator: "\n").first?.hasSuffix("; " + Self.count) == true)
        #expect(text.contains("<details><summary>Apple clients (each simulated with its own ClientHello): 3 endpoints"))
        #expect(
            text.contains(
                "| iOS 26 (URLSession) | connects | TLS 1.3 | `TLS_AES_256_GCM_SHA384` | `X25519MLKEM768` | yes |\n"))
        #expect(
            text.contains("| iOS 26 (URLSession) | connects | TLS 1.3 | `TLS_AES_256_GCM_SHA384` | `x25519` | no |\n"))
        #expect(
            text.contains(
                "| iOS 26 (URLSession) | fails — \(ReportFixtures.resetAfterFirstSegment) | — | — | — | — |\n"))
        #expect(
            text.contains(
                "| iOS 15.4 (URLSession) | not simulated — the scan was interrupted before this client's turn "
                    + "| — | — | — | — |\n"))
        // An older client never offered the hybrid: a dash, not "no".
        #expect(
            text.contains("| iOS 18 (URLSession) | connects | TLS 1.3 | `TLS_AES_128_GCM_SHA256` | `x25519` | — |\n"))
        #expect(text.contains("| iOS 12.2 (URLSession) (profile inferred from sources) | connects | TLS 1.2 |"))
        #expect(text.contains("\nQuantum-secure (iOS 26): yes — X25519MLKEM768 negotiated\n"))
        #expect(!text.contains("atsonly.example.com:443`\n\n| Client"), "nothing simulated: no table")
        // Every row has its six cells.
        for row in text.split(separator: "\n") where row.hasPrefix("| iOS") {
            #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 7, "\(row)")
        }
        #expect(!MarkdownRenderer.render(ReportFixtures.report).contains("Apple clients"))
    }

    @Test("JUnit: the eras in the endpoint's system-out, no case of their own; failures stay the errors (golden)")
    func junit() throws {
        let xml = JUnitRenderer.render(Self.report)
        try Snapshot.assert(xml, named: "simulations-junit.xml")
        let doc = try JUnitRendererTests.parse(xml)
        let root = try #require(doc.rootElement())
        #expect(JUnitRendererTests.attr(root, "failures") == "\(IssueCounts(ReportIssues.of(Self.report)).errors)")
        #expect(JUnitRendererTests.attr(root, "failures") == "1")
        let cases = try JUnitRendererTests.nodes(doc, "//testcase")
        #expect(cases.count == 4, "one case per endpoint: three pass, tldr's is its failure")
        func systemOut(_ classname: String) throws -> String {
            let c = try #require(cases.first { JUnitRendererTests.attr($0, "classname") == classname })
            return try #require(c.elements(forName: "system-out").first?.stringValue)
        }
        let pq = try systemOut("pq.example.com:443")
        #expect(pq.hasPrefix("rules of OS 26.4\nApple clients (each simulated with its own ClientHello):\n"))
        #expect(pq.contains("\n  " + Self.negotiated + "\n"))
        #expect(pq.hasSuffix("\nQuantum-secure (iOS 26): yes — X25519MLKEM768 negotiated"))
        #expect(try systemOut("classic.example.com:443").contains("\n  " + Self.notRun + "\n"))
        // The failing era: the failed case is its rule's, the era line beside its reason.
        let tldr = try #require(cases.first { JUnitRendererTests.attr($0, "classname") == "tldr.example.com:443" })
        #expect(JUnitRendererTests.attr(tldr, "name") == RuleID.ATS.simulatedHandshakeFailed.rawValue)
        let failure = try #require(tldr.elements(forName: "failure").first)
        #expect(JUnitRendererTests.attr(failure, "message")?.hasSuffix(ReportFixtures.resetAfterFirstSegment) == true)
        #expect(try systemOut("tldr.example.com:443").contains("\n  " + Self.failed + "\n"))
        #expect(try systemOut("atsonly.example.com:443") == "rules of OS 26.4")
        // The readiness counts as properties of the endpoints suite.
        let properties = try JUnitRendererTests.nodes(doc, "//testsuite[@name='endpoints']/properties/property")
        #expect(
            properties.map {
                "\(JUnitRendererTests.attr($0, "name") ?? "")=\(JUnitRendererTests.attr($0, "value") ?? "")"
            }
                == ["quantum-secure=1", "not-quantum-secure=1", "quantum-unknown=1"])
        #expect(!JUnitRenderer.render(ReportFixtures.report).contains("<properties>"))
    }

    @Test("GitHub: the eras as log lines in a group, annotations one per problem, the count in the summary (golden)")
    func github() throws {
        let text = GitHubRenderer.render(Self.report, endpointsFile: "endpoints.txt")
        try Snapshot.assert(text, named: "simulations-github.txt")
        let lines = text.split(separator: "\n").map(String.init)
        let annotations = lines.filter { $0.hasPrefix("::") && !$0.hasPrefix("::group::") && $0 != "::endgroup::" }
        #expect(annotations.count == IssueCounts(ReportIssues.of(Self.report)).total)
        #expect(
            annotations == [
                "::error file=endpoints.txt,line=4,title=ats.tls.simulated-handshake-failed::tldr.example.com:443: "
                    + "iOS 26 (URLSession)'s own ClientHello does not connect: " + ReportFixtures.resetAfterFirstSegment
            ])
        let start = try #require(
            lines.firstIndex(of: "::group::Apple clients (each simulated with its own ClientHello)"))
        let end = try #require(lines.firstIndex(of: "::endgroup::"))
        let group = Array(lines[(start + 1)..<end])
        #expect(group.allSatisfy { $0.hasPrefix("atscheck: ") })
        #expect(group.contains("atscheck: pq.example.com:443: " + Self.negotiated))
        #expect(group.contains("atscheck: tldr.example.com:443: " + Self.failed))
        #expect(group.contains("atscheck: classic.example.com:443: " + Self.notRun))
        #expect(
            group.contains("atscheck: pq.example.com:443: Quantum-secure (iOS 26): yes — X25519MLKEM768 negotiated"))
        #expect(group.count == 3 + 3 + 2 + 3, "eight clients and three readiness lines")
        #expect(lines.last?.hasPrefix("atscheck: 4 endpoint(s): 3 passed, 1 failed") == true)
        #expect(lines.last?.hasSuffix("; " + Self.count) == true)
        // A line break from the server cannot start a workflow command.
        var hostile = Self.report
        hostile.endpoints[2].profile.simulations?[0].failure = "reset\n::error::forged"
        let forged = GitHubRenderer.render(hostile).split(separator: "\n")
        #expect(!forged.contains { $0.hasPrefix("::error::forged") })
        #expect(!GitHubRenderer.render(ReportFixtures.report).contains("::group::"))
    }

    @Test(
        "scan, audit and app documents: every format that words the clients has the failing era's line",
        arguments: [OutputFormat.text, .html, .sarif, .markdown, .junit, .github])
    func documents(_ format: OutputFormat) throws {
        let sources = ReportSources(endpointsFile: "endpoints.txt")
        let audit = AuditDocument(
            report: Self.report, audit: AuditSection(exceptionDebt: [], pins: [], judgedUnderDefaultPolicy: true),
            sources: sources)
        let app = AppDocument(
            report: Self.report, app: AppSection(facts: DocumentFixtures.appFacts), sources: sources)
        let options = RenderOptions(catalogue: .atscheck, width: Int.max)
        let registry = ReportRendererRegistry.standard
        let outputs = [
            try registry.render(ScanDocument(report: Self.report, sources: sources), as: format, options: options),
            try registry.render(audit, as: format, options: options),
            try registry.render(app, as: format, options: options),
        ]
        for output in outputs {
            #expect(output.contains("fails — " + ReportFixtures.resetAfterFirstSegment), "\(format)")
            #expect(output.contains("not simulated — the scan was interrupted before this client"), "\(format)")
            // Markdown lays the negotiated parameters out in cells; the others say the line.
            #expect(
                output.contains("TLS 1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure")
                    || (format == .markdown
                        && output.contains("| TLS 1.3 | `TLS_AES_256_GCM_SHA384` | `X25519MLKEM768` | yes |")),
                "\(format)")
        }
    }

    @Test("HTML: the readiness count beside the verdict counts")
    func htmlCount() throws {
        let page = try HTMLReportTests.page(ScanDocument(report: Self.report))
        let counts = try #require(page.descendants { $0.name == "ul" && $0.hasClass("counts") }.first)
        #expect(counts.textContent.contains("1 of 3 quantum-secure (iOS 26), 1 unknown"))
        let plain = try HTMLReportTests.page(ScanDocument(report: ReportFixtures.report))
        #expect(!plain.textContent.contains("quantum-secure"))
    }
}
