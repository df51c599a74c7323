import ATSCheckKit
import Foundation
import Judging
import TLSModel
import Testing

@testable import Reporting

/// Text fitted to the terminal (issue 24): wrapping at spaces with hanging indents, tables sized from their
/// contents, widths in display columns without ANSI escapes.
@Suite("Text layout: fitting the terminal's width")
struct TextLayoutTests {
    // MARK: The checks, measured independently of TextLayout

    /// `text` without ANSI SGR escapes.
    static func strip(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// The lines wider than `width` characters (escapes left out; the fixtures hold no wide characters), except a
    /// single word wider than the width standing alone, which the layout allows.
    static func overlong(_ text: String, width: Int) -> [String] {
        strip(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { line in
            guard line.count > width else { return false }
            let words = line.split(separator: " ")
            return !(words.count == 1 && words[0].count > width)
        }
    }

    /// Every word of the text, sorted: the same multiset at any width means no word was split or lost. The `====`
    /// rule of the diagnostics is as wide as the width allows (at most 80): a line, not a word.
    static func words(_ text: String) -> [String] {
        strip(text).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).filter {
            !$0.allSatisfy { $0 == "=" }
        }.sorted()
    }

    static func render(_ document: some ReportDocument, width: Int, color: Bool = false) throws -> String {
        try ReportRendererRegistry.standard.render(
            document, as: .text, options: RenderOptions(color: color, now: ReportFixtures.date, width: width))
    }

    // MARK: Fixtures with long text

    static let longSubject =
        "CN=payments-gateway.staging.internal.example.com,OU=Platform Engineering,O=Example Corporation "
        + "International,L=San Francisco,ST=California,C=US"

    static func facts(_ subject: String, issuer: String, sans: [String]) -> CertificateFacts {
        CertificateFacts(
            subject: subject, issuer: issuer, serialNumber: "01", notBefore: ReportFixtures.date,
            notAfter: ReportFixtures.date.addingTimeInterval(86_400 * 90), keyType: .rsa, keyBits: 2048,
            signatureAlgorithm: "sha256WithRSAEncryption", signatureHash: .sha256, subjectAltNames: sans,
            sha256: "00", spkiSHA256: "88bL9hIkEdYDBSdidm/J1xEFFG3B+W1oRl6ugkrfKv0=")
    }

    /// Several endpoints with long subjects, SAN lists, reasons, notes and key paths, an unreachable one with a long
    /// error, a version whose support is unknown for a long reason, and audit findings quoting plist XML.
    static var longReport: ScanReport {
        let host = "payments-gateway.staging.internal.example.com"
        var passing = ReportFixtures.profile(host)
        passing.protocols = [
            ProtocolResult(
                version: .tls1_3, supported: true,
                cipherSuites: [0x1301, 0x1302, 0x1303].map {
                    AcceptedCipherSuite(suite: CipherSuite($0), group: "X25519")
                }),
            ProtocolResult(
                version: .tls1_2, supported: true,
                cipherSuites: [0xC02F, 0xCCA8, 0x009C].map { AcceptedCipherSuite(suite: CipherSuite($0)) }),
            ProtocolResult(
                version: .tls1_1, supported: nil,
                reason: "every handshake was cut off before the ServerHello: the middlebox in front of the server "
                    + "resets connections that offer TLSv1.1 and the probe could not tell whether it is supported"),
        ]
        passing.certificate = CertificateReport(
            chain: [
                facts(
                    Self.longSubject, issuer: "CN=Example Corporation Issuing CA 2024 G2,O=Example Corporation",
                    sans: (1...12).map { "service\($0).staging.internal.example.com" }),
                facts(
                    "CN=Example Corporation Issuing CA 2024 G2,O=Example Corporation", issuer: "CN=Example Root",
                    sans: []),
            ], trusted: false, hostnameMatches: true,
            verifyError: "unable to get local issuer certificate (the server sent no intermediate and the root "
                + "is not in the Apple iOS 26.0 trust store)", verifiedAt: ReportFixtures.date)
        passing.error =
            "the server dropped two of the probe's connections while suites were enumerated; the suite list may "
            + "be incomplete for TLSv1.2 and the verdict rests on what was seen"
        let failing = EndpointResult(
            profile: passing,
            ats: ATSEvaluation(
                verdict: .fail,
                violations: [
                    ATSViolation(
                        rule: "ats.tls.forward-secrecy",
                        message: "TLSv1.2 accepts only TLS_RSA_WITH_AES_128_GCM_SHA256, "
                            + "TLS_RSA_WITH_AES_256_GCM_SHA384, TLS_RSA_WITH_AES_128_CBC_SHA256: no forward secrecy; "
                            + "ATS requires ECDHE",
                        keyPath: "NSAppTransportSecurity.NSExceptionDomains.\(host).NSExceptionRequiresForwardSecrecy"),
                    ATSViolation(
                        rule: "trust.untrusted",
                        message:
                            "the chain does not verify to a trusted root (unable to get local issuer certificate); "
                            + "judged with Apple iOS 26.0 (trust store 2025072000, security_certificates-55349.0.11); "
                            + "ATS allows no exception for an untrusted chain"),
                ], osVersion: "26.4",
                notes: [
                    "NSExceptionDomains entry '\(host)' governs \(host); global keys are ignored for it",
                    "chain ends at a --ca-file root: judged as a user- or MDM-installed root (no 398-day cap, no CT)",
                ],
                readings: [
                    .init(
                        name: "tls13-on-from-12.2", verdict: .fail,
                        violations: [
                            ATSViolation(
                                rule: "ats.tls.minimum-version",
                                message: "the server accepts only TLSv1.3, above the highest version this iOS release "
                                    + "offers (TLSv1.2): no version is shared")
                        ])
                ]),
            source: SourceLocation(file: "endpoints.yaml", line: 8))
        let unreachable = EndpointResult(
            profile: ReportFixtures.profile(
                "legacy-billing.partner-network.example.org", status: .unreachable,
                error: "connect to legacy-billing.partner-network.example.org:443 (203.0.113.7): connection timed out "
                    + "after 5 s; 3 attempts, the last one refused by a firewall that answers with a TCP reset"))
        let findings = [
            Finding(
                rule: RuleID.Audit.exceptionMissing, severity: .error,
                message: "legacy-tls10.demo.atscheck.test:35175 fails ATS (TLSv1.0 accepts only "
                    + "TLS_RSA_WITH_AES_128_CBC_SHA, TLS_RSA_WITH_AES_256_CBC_SHA: no forward secrecy; ATS requires "
                    + "ECDHE); the NSExceptionDomains entry 'legacy-tls10.demo.atscheck.test' does not allow it; the "
                    + "least exception that fixes it: NSExceptionMinimumTLSVersion = TLSv1.0, "
                    + "NSExceptionRequiresForwardSecrecy = NO — <key>legacy-tls10.demo.atscheck.test</key><dict><key>"
                    + "NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string><key>NSExceptionRequiresForwardSecrecy"
                    + "</key><false/></dict>",
                file: "/tmp/ci/workspace/app/endpoints.yaml", line: 8),
            Finding(
                rule: RuleID.Audit.exceptionUnneeded, severity: .warning,
                message: "every endpoint the NSExceptionDomains entry 'modern.demo.atscheck.test' covers "
                    + "(modern.demo.atscheck.test:40189) passes under the default ATS policy: remove the entry",
                file: "Examples/demo-app/Info.plist", line: 27),
        ]
        return ScanReport(
            endpoints: [failing, unreachable] + ReportFixtures.report.endpoints,
            findings: ReportFixtures.report.findings + findings)
    }

    static var longExplanation: PolicyExplanation {
        let key = "NSAppTransportSecurity.NSExceptionDomains.legacy-api.example.com.NSExceptionMinimumTLSVersion"
        let conflict = ConflictingReading(
            conflict: "uiwebview",
            summary: "Apple's 2016 documentation exempts UIWebView; the source of iOS 10 "
                + "applies the policy to it as to every other client",
            reading: "doc-uiwebview-exempt", atsApplies: false, httpAllowed: true, minimumTLS: .tls1_0,
            forwardSecrecyRequired: false, reason: "exempt")
        func client(_ c: ClientPolicy.Client, niap: Bool = false, conflicts: [ConflictingReading] = []) -> ClientPolicy
        {
            ClientPolicy(
                client: c, atsApplies: true, httpAllowed: false, minimumTLS: .tls1_0, forwardSecrecyRequired: true,
                niap: niap, decidedBy: ["NSAppTransportSecurity.NSExceptionDomains.legacy-api.example.com", key],
                reason: "r", conflicts: conflicts)
        }
        return PolicyExplanation(
            hosts: [
                HostPatternPolicy(
                    pattern: "legacy-api.example.com", kind: .exceptionDomain, exampleHost: "legacy-api.example.com",
                    eras: [
                        EraPolicy(
                            era: "10–16", osVersion: "10.0",
                            clients: [
                                client(.urlSession, niap: true), client(.wkWebView), client(.media),
                                client(.uiWebView, conflicts: [conflict]),
                            ])
                    ],
                    neverMatches: "the key has a trailing dot, and Apple compares host names without one, so no "
                        + "connection ever matches this entry")
            ],
            notes: [
                "ATS does not cover Network.framework, sockets or TLS stacks inside the app (docs/apple-rules.md §0); "
                    + "what those connect to is not judged here"
            ])
    }

    static var longPins: PinCheckReport {
        let host = "payments-gateway.staging.internal.example.com"
        var report = PinsRendererTests.report(host: host)
        let path = [
            PinPathEntry(
                position: 0, role: "leaf", subject: Self.longSubject, issuer: "CN=Issuing CA",
                spkiSHA256: "88bL9hIkEdYDBSdidm/J1xEFFG3B+W1oRl6ugkrfKv0=", sha256: "aa", notAfter: ReportFixtures.date,
                sentByServer: true),
            PinPathEntry(
                position: 1, role: "anchor", subject: "CN=Example Root", issuer: "CN=Example Root",
                spkiSHA256: "Scs0O2COFrqQlm3S7FyhfxwJZDRdonWSIhHNaU2P+y4=", sha256: "bb",
                notAfter: ReportFixtures.date, sentByServer: false),
        ]
        report.results[0].evaluation?.path = path
        report.results[0].evaluation?.steps.append(
            PinStep(
                "pinned-anchor evaluation with a name longer than the column", .passed,
                "BasicX509 with only the pinned certificate as anchor: verifies, and the walk from the anchor finds "
                    + "the pinned certificate at position 1"))
        report.results[0].evaluation?.trustChecks = [
            TrustCheckApplication(.chain, .applied, ""), TrustCheckApplication(.hostname, .skipped, ""),
        ]
        report.results[0].release?.path = path
        return report
    }

    /// The documents of each text output, with long text.
    static var documents: [(String, any ReportDocument)] {
        [
            ("scan", ScanDocument(report: longReport)),
            (
                "audit (failing, plist exceptions)",
                AuditDocument(
                    report: longReport, audit: AuditSection(exceptionDebt: [], judgedUnderDefaultPolicy: true))
            ),
            (
                "plist --explain",
                ExplanationDocument(plists: [ExplainedPlist(file: "Info.plist", explanation: longExplanation)])
            ),
            ("pins check (debug next to release)", PinCheckDocument(report: longPins)),
            ("pins extract", PinExtractDocument(report: DocumentFixtures.pinExtract)),
            ("app", DocumentFixtures.app(live: true)),
            ("diagnose", DocumentFixtures.diagnose),
            ("rules", RuleCatalogueDocument(rules: RuleCatalogue.atscheck.all)),
        ]
    }

    // MARK: Tests

    @Test("every text output fits 80 columns, with and without colour", arguments: 0..<8)
    func fits80(_ index: Int) throws {
        let (name, document) = Self.documents[index]
        let unbounded = try Self.render(document, width: .max)
        // The fixture is meant to be too wide; otherwise this test shows nothing.
        #expect(!Self.overlong(unbounded, width: 80).isEmpty || name == "pins extract", "\(name)")
        for color in [false, true] {
            let text = try Self.render(document, width: 80, color: color)
            let over = Self.overlong(text, width: 80)
            #expect(over.isEmpty, "\(name), colour \(color): \(over)")
        }
        // Colour changes no break: the escapes take no columns.
        #expect(Self.strip(try Self.render(document, width: 80, color: true)) == (try Self.render(document, width: 80)))
    }

    @Test("no word is split or lost: the words at 80 and 40 columns are those of an unbounded width", arguments: 0..<8)
    func wordsKept(_ index: Int) throws {
        let (name, document) = Self.documents[index]
        // A stacked comparison (pins: debug next to release) repeats its headings as keys on each row: those words
        // are left out of the count.
        let headings: Set<String> = ["debug", "release", "debug:", "release:"]
        let words = { (width: Int) in
            try Self.words(Self.render(document, width: width)).filter { !headings.contains($0) }
        }
        let unbounded = try words(.max)
        #expect(try words(80) == unbounded, "\(name)")
        #expect(try words(40) == unbounded, "\(name)")
        if name.hasPrefix("pins check") {
            // …and the stacked rows do carry them.
            #expect(try Self.render(document, width: 80).contains("\n      release: system-trust-failed\n"))
        }
    }

    @Test("the width each renderer is given is the width it keeps")
    func widths() throws {
        let document = ScanDocument(report: Self.longReport)
        for width in [40, 60, 100, 120] {
            let text = try Self.render(document, width: width)
            #expect(Self.overlong(text, width: width).isEmpty, "\(width)")
        }
        // Wider text uses the room: fewer lines at 120 than at 80.
        let lines = { (width: Int) in try Self.render(document, width: width).split(separator: "\n").count }
        #expect(try lines(120) < lines(80))
    }

    @Test("columns count display cells: escapes none, wide characters two, combining marks none")
    func columns() {
        #expect(TextLayout.columns("abc") == 3)
        #expect(TextLayout.columns("\u{1B}[31mred\u{1B}[0m") == 3)
        #expect(TextLayout.columns("日本") == 4)
        #expect(TextLayout.columns("e\u{301}") == 1)
        #expect(TextLayout.columns("✗ → ←") == 5)
    }

    @Test("a line wraps at spaces under its hang; a word wider than the width stands alone")
    func wrap() {
        let line = "    ✗ alpha beta gamma delta epsilon [rule.id]"
        #expect(TextLayout.wrap(line, width: 100) == line)
        #expect(TextLayout.wrap(line, width: 24) == "    ✗ alpha beta gamma\n      delta epsilon\n      [rule.id]")
        let token = String(repeating: "x", count: 50)
        #expect(TextLayout.wrap("note: a \(token) b", width: 40) == "note: a\n  \(token)\n      b")
        // A word that does not fit after the hang moves left rather than past the width.
        #expect(
            TextLayout.wrap("relax with: \(String(repeating: "k", count: 16))", width: 20)
                == "relax with:\n  kkkkkkkkkkkkkkkk")
    }

    @Test(
        "the hang follows the item's marker",
        arguments: [
            ("    ✗ message", 6), ("error: file:1: message", 7), ("    note: x", 10), ("    [0] CN=x", 8),
            ("  Trust store: x", 15), ("- a note", 2), ("  warning pins.backup.missing: x", 10), ("plain text", 2),
            ("  a sentence that is longer: x", 4),
        ])
    func hang(_ line: String, _ expected: Int) {
        #expect(TextLayout.hangingIndent(of: line) == expected)
    }

    @Test("a table sizes its columns from its cells, two spaces apart, and wraps or stacks its last column")
    func table() {
        let rows = [["a", "verdict", "a short note"], ["longer", "x", "a note with several words in it"]]
        #expect(
            TextLayout.table(rows, indent: 2, width: 80) == [
                "  a       verdict  a short note", "  longer  x        a note with several words in it",
            ])
        // 30 columns leave the note 11: it wraps under its column.
        #expect(
            TextLayout.table(rows, indent: 2, width: 30, minimumLast: 10)[1]
                == "  longer  x        a note with\n                   several\n                   words in it")
        // With fewer columns than the note needs, rows stack.
        #expect(
            TextLayout.table(rows, indent: 2, width: 30)[1] == "  longer  x\n    a note with several words\n    in it")
    }

    @Test("the pins table keeps two spaces between its columns however long a cell is")
    func pinsColumns() throws {
        var report = PinsRendererTests.report(host: "api.example.com")
        // A debug result longer than the old fixed 14-column cell ran into the release column.
        report.results[0].evaluation?.result = "accepted-by-the-pinned-anchor"
        let lines = PinsTextRenderer(width: 80).render(report).split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.contains("  debug  ") && $0.hasSuffix("release") })
        let result = try #require(lines.first { $0.hasPrefix("    result") })
        #expect(result.contains("accepted-by-the-pinned-anchor  system-trust-failed"), "\(result)")
        // Each header starts where its column's cells do.
        func column(_ line: String, _ text: String) -> Int? {
            line.range(of: text).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        #expect(column(header, "debug") == column(result, "accepted-by"))
        #expect(column(header, "release") == column(result, "system-trust-failed"))
    }
}
