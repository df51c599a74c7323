import Foundation
import Judging
import TLSModel
import TLSTestSupport
import Testing

@testable import Reporting

/// Issue 36: each simulated Apple client per endpoint, and the quantum-secure readiness of iOS 26's connections, in
/// every report: text, JSON, SARIF (a note), HTML (columns), the summaries; `--require-pq`'s findings.
@Suite("Simulated Apple clients and quantum-secure readiness in the reports")
struct SimulationReportTests {
    static let report = ReportFixtures.simulationsReport

    @Test("text: a line per simulated client, the readiness and the two-segment check (golden scan-simulations.txt)")
    func text() throws {
        // The golden file at the default width (long lines wrapped); the checks on lines as long as they are.
        let golden = ScanTextRenderer(style: TextStyle(enabled: false), now: ReportFixtures.date).render(Self.report)
        try Snapshot.assert(golden, named: "scan-simulations.txt")
        let text = ScanTextRenderer(style: TextStyle(enabled: false), now: ReportFixtures.date, width: Int.max)
            .render(Self.report)
        #expect(
            text.contains("    iOS 26 (URLSession): TLS 1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure\n")
        )
        #expect(
            text.contains(
                "    iOS 26 (URLSession): fails — the connection is reset after the first segment of the ClientHello\n")
        )
        // An older era is not called "not quantum-secure": it never offered the hybrid.
        #expect(
            text.contains("    iOS 18 (URLSession): TLS 1.3, TLS_AES_128_GCM_SHA256, x25519, rsa_pss_rsae_sha256\n"))
        #expect(
            text.contains(
                "    iOS 12.2 (URLSession): TLS 1.2, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, x25519 "
                    + "(profile inferred from sources)\n"))
        #expect(
            text.contains("    iOS 26 (URLSession): TLS 1.3, TLS_AES_256_GCM_SHA384, x25519 — not quantum-secure\n"))
        #expect(text.contains("  Quantum-secure (iOS 26): yes — X25519MLKEM768 negotiated\n"))
        #expect(
            text.contains(
                "  Quantum-secure (iOS 26): no — iOS 26 (URLSession) negotiates x25519 "
                    + "(ATS does not require X25519MLKEM768)\n"))
        #expect(
            text.contains(
                "  Quantum-secure (iOS 26): unknown — iOS 26 did not connect (the connection is reset after the first "
                    + "segment of the ClientHello)\n"))
        // The two-segment check has its own line (ScanTextHelloSizeTests), once per endpoint.
        #expect(text.components(separatedBy: "ClientHello in two TCP segments (iOS 26)").count - 1 == 2)
        // Nothing simulated (ats-only): no section for the endpoint.
        let atsOnly = try #require(text.components(separatedBy: "atsonly.example.com:443").last)
        #expect(!atsOnly.contains("Apple clients") && !atsOnly.contains("Quantum-secure"))
        #expect(text.contains("quantum-secure: 1 of 3 endpoints (1 unknown)\n"))
    }

    @Test("text summary: the readiness count only when some endpoint was simulated")
    func summary() {
        #expect(ScanTextRenderer.summary(Self.report).hasSuffix("; quantum-secure: 1 of 3 endpoints (1 unknown)"))
        #expect(!ScanTextRenderer.summary(ReportFixtures.report).contains("quantum"))
        var one = Self.report
        one.endpoints = [one.endpoints[0]]
        one.summary = ReportSummary(endpoints: one.endpoints)
        #expect(ScanTextRenderer.summary(one).hasSuffix("; quantum-secure: 1 of 1 endpoint"))
    }

    @Test("text: with colour, quantum-secure is green and a failing client red")
    func colour() {
        let style = TextStyle(enabled: true)
        let text = ScanTextRenderer(style: style, width: Int.max).render(Self.report)
        #expect(text.contains("X25519MLKEM768 — " + style.green("quantum-secure")))
        #expect(text.contains("iOS 26 (URLSession): " + style.red("fails") + " — the connection is reset"))
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        "JSON: simulations, quantumSecure per endpoint (null when unknown, absent when not simulated), summary counts")
    func json() throws {
        let text = try JSONRendering.render(Self.report)
        let json = try Self.object(text)
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect(endpoints[0]["quantumSecure"] as? Bool == true)
        #expect(endpoints[1]["quantumSecure"] as? Bool == false)
        #expect(endpoints[2].keys.contains("quantumSecure") && endpoints[2]["quantumSecure"] is NSNull)
        #expect(!endpoints[3].keys.contains("quantumSecure") && endpoints[3]["simulations"] == nil)
        let simulations = try #require(endpoints[0]["simulations"] as? [[String: Any]])
        #expect(
            simulations.map { $0["client"] as? String } == [
                "iOS 26 (URLSession)", "iOS 18 (URLSession)", "iOS 12.2 (URLSession)",
            ])
        #expect((simulations[0]["group"] as? [String: Any])?["name"] as? String == "X25519MLKEM768")
        #expect(simulations[0]["quantumSecure"] as? Bool == true && simulations[2]["evidence"] as? String == "inferred")
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["quantumSecure"] as? Int == 1 && summary["notQuantumSecure"] as? Int == 1)
        #expect(summary["quantumUnknown"] as? Int == 1)
        // A report with nothing simulated has no readiness keys at all.
        let plain = try #require(
            try Self.object(try JSONRendering.render(ReportFixtures.report))["summary"] as? [String: Any])
        #expect(plain["quantumSecure"] == nil && plain["notQuantumSecure"] == nil && plain["quantumUnknown"] == nil)
        // It reads back whole: the derived quantumSecure is ignored, the summary kept.
        let back = try JSONRendering.decoder().decode(ScanReport.self, from: Data(text.utf8))
        #expect(back.endpoints.map(\.profile) == Self.report.endpoints.map(\.profile))
        #expect(back.summary == Self.report.summary)
        // JSON Lines: the same field per line, and the counts in the summary line.
        let lines = try JSONLinesRendering.render(Self.report).split(separator: "\n").map(String.init)
        #expect(try Self.object(lines[1])["quantumSecure"] as? Bool == false)
        let last = try #require(try Self.object(lines[lines.count - 1])["summary"] as? [String: Any])
        #expect(last["quantumSecure"] as? Int == 1)
    }

    @Test("summary counts add up across parts (a streamed scan's tally)")
    func summaryAdds() {
        var total = ReportSummary()
        for endpoint in Self.report.endpoints { total.add(ReportSummary(endpoints: [endpoint])) }
        #expect(total == Self.report.summary)
        #expect(total.quantumJudged == 3)
        #expect(ReportSummary(endpoints: ReportFixtures.report.endpoints).quantumJudged == nil)
    }

    @Test("SARIF: one quantum-secure note per simulated endpoint, beside the post-quantum notes; it validates")
    func sarif() throws {
        let text = try SARIFRenderer.render(Self.report, plistFile: nil, endpointsFile: "endpoints.txt")
        let (ok, output) = try SARIFSchemaValidator.validate(text)
        #expect(ok, "SARIF schema validation failed: \(output)")
        let log = try Self.object(text)
        let results = try SARIFRendererTests.results(log)
        let notes = results.filter { $0["ruleId"] as? String == RuleID.Info.quantumSecure.rawValue }
        #expect(notes.count == 3, "pq, classic and tldr; not the ats-only endpoint")
        #expect(notes.allSatisfy { $0["level"] as? String == "note" })
        let messages = notes.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(
            messages == [
                "pq.example.com:443: iOS 26 connections are quantum-secure: iOS 26 (URLSession) negotiates X25519MLKEM768",
                "classic.example.com:443: iOS 26 connections are not quantum-secure: iOS 26 (URLSession) negotiates "
                    + "x25519, not X25519MLKEM768 (ATS does not require it)",
                "tldr.example.com:443: whether iOS 26 connections are quantum-secure is unknown: iOS 26 did not connect "
                    + "(the connection is reset after the first segment of the ClientHello)",
            ])
        let location = try #require((notes[1]["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 3)
        let (_, rules) = try SARIFRuleCatalogueTests.rules(log)
        let rule = try #require(rules[RuleID.Info.quantumSecure.rawValue])
        #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == "note")
        #expect((rule["properties"] as? [String: Any])?["security-severity"] == nil)
        // Notes are no problems: no other format counts or lists them. Beside each quantum-secure note, the endpoint's
        // Apple-clients note (SimulationFormatsTests).
        let clients = results.filter { $0["ruleId"] as? String == RuleID.Info.appleClients.rawValue }
        #expect(results.count == notes.count + clients.count + IssueCounts(ReportIssues.of(Self.report)).total)
        #expect(clients.count == notes.count)
        #expect(!JUnitRenderer.render(Self.report).contains(RuleID.Info.quantumSecure.rawValue))
        #expect(!MarkdownRenderer.render(Self.report).contains(RuleID.Info.quantumSecure.rawValue))
    }

    @Test("HTML: an Apple-clients column and a quantum-secure column, only when something was simulated")
    func html() throws {
        let page = try HTMLReportTests.page(ScanDocument(report: Self.report))
        let matrix = try #require(page.descendants { $0.name == "table" && $0.hasClass("matrix") }.first)
        let header = try #require(matrix.all("thead").first?.all("tr").first)
        #expect(
            HTMLReportTests.cells(header) == [
                "Endpoint", "iOS 26.4", "Apple clients (simulated)", "Quantum-secure (iOS 26)",
            ])
        let rows = try #require(matrix.all("tbody").first).all("tr").map(HTMLReportTests.cells)
        #expect(rows.count == 4)
        #expect(
            rows[0][2].hasPrefix("iOS 26 (URLSession) TLS 1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure")
        )
        #expect(rows[0][2].contains("iOS 12.2 (URLSession) TLS 1.2"))
        #expect(rows[0][3] == "⚛ yes X25519MLKEM768")
        #expect(rows[1][3] == "! no x25519 (not required by ATS)")
        #expect(rows[2][3].hasPrefix("? unknown iOS 26 did not connect"))
        #expect(rows[2][2].contains("fails — the connection is reset after the first segment of the ClientHello"))
        #expect(rows[3][2] == "—" && rows[3][3] == "—")
        let plain = try HTMLReportTests.page(ScanDocument(report: ReportFixtures.report))
        #expect(!plain.textContent.contains("Quantum-secure") && !plain.textContent.contains("Apple clients"))
    }

    @Test("--require-pq: an error where iOS 26 is not quantum-secure, a note where unknown, nothing where it is")
    func requirement() throws {
        let findings = QuantumSecureRequirement.findings(for: Self.report.endpoints)
        #expect(findings.map(\.rule) == Array(repeating: RuleID.Required.quantumSecure, count: 3))
        #expect(findings.map(\.severity) == [.error, .note, .note])
        #expect(
            findings[0].message
                == "classic.example.com:443: iOS 26 connections are not quantum-secure: iOS 26 (URLSession) negotiates "
                + "x25519, not X25519MLKEM768 (--require-pq)")
        #expect(findings[0].file == "endpoints.txt" && findings[0].line == 3)
        #expect(
            findings[1].message.hasPrefix(
                "tldr.example.com:443: whether iOS 26 connections are quantum-secure is unknown: iOS 26 did not connect"
            ))
        #expect(findings[2].message.contains("Apple clients were not simulated (an ats-only scan)"))
        #expect(findings.allSatisfy { $0.message.contains("--require-pq") })
        // It fails the run (exit 1) only through the error; without the option nothing is added.
        let required = Self.report.addingQuantumRequirement(true)
        #expect(ExitStatus.of(required) == .policyFailure && ExitStatus.of(Self.report) == .success)
        #expect(Self.report.addingQuantumRequirement(false) == Self.report)
        var onlyUnknown = Self.report
        onlyUnknown.endpoints.remove(at: 1)
        #expect(ExitStatus.of(onlyUnknown.addingQuantumRequirement(true)) == .success)
        // The text report lists the error as any finding, and counts it.
        let text = ScanTextRenderer(style: .plain, width: Int.max).render(required)
        #expect(
            text.contains("error: endpoints.txt:3: classic.example.com:443: iOS 26 connections are not quantum-secure"))
        #expect(text.contains("[required.quantum-secure]"))
        // A not-scanned endpoint gets nothing: it is reported as not scanned already.
        var down = Self.report
        down.endpoints[1].profile.status = .timeout
        #expect(QuantumSecureRequirement.findings(for: down.endpoints).allSatisfy { $0.severity == .note })
    }
    @Test("text and JSON: a server order that puts ChaCha20 first for clients that prefer it says so on its line")
    func chachaPrioritized() throws {
        var profile = ReportFixtures.profile("go.example.com")
        var result = ProtocolResult(
            version: .tls1_3, supported: true, serverPreference: true,
            cipherSuites: [0x1301, 0x1302, 0x1303].map { AcceptedCipherSuite(suite: CipherSuite($0)) })
        result.chachaPrioritized = true
        var asked = result
        asked.version = .tls1_2
        asked.cipherSuites = [0xC02F, 0xCCA8].map { AcceptedCipherSuite(suite: CipherSuite($0)) }
        asked.chachaPrioritized = false
        profile.protocols = [result, asked]
        let report = ScanReport(endpoints: [EndpointResult(profile: profile)])
        let text = ScanTextRenderer(style: TextStyle(enabled: false), width: Int.max).render(report)
        #expect(
            text.contains("    TLSv1.3  yes  3 suite(s), server order, ChaCha20 first for clients that prefer it\n"))
        #expect(text.contains("    TLSv1.2  yes  2 suite(s), server order\n"))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try JSONRendering.render(report).utf8)) as? [String: Any])
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        let protocols = try #require(endpoints.first?["protocols"] as? [[String: Any]])
        #expect(protocols.map { $0["chachaPrioritized"] as? Bool } == [true, false])
        #expect(try JSONRendering.render(ReportFixtures.report).contains("chachaPrioritized") == false)
    }
}
