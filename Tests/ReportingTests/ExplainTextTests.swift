import TLSModel
import Testing

@testable import Reporting

@Suite("plist --explain text")
struct ExplainTextTests {
    static func client(
        _ c: ClientPolicy.Client, ats: Bool, by: [String] = [], conflicts: [ConflictingReading] = []
    ) -> ClientPolicy {
        ClientPolicy(
            client: c, atsApplies: ats, httpAllowed: !ats, minimumTLS: ats ? .tls1_2 : .tls1_0,
            forwardSecrecyRequired: ats, niap: false, decidedBy: by, reason: "r", conflicts: conflicts)
    }

    static let web = "NSAppTransportSecurity.NSAllowsArbitraryLoadsInWebContent"
    static let explanation = PolicyExplanation(
        hosts: [
            HostPatternPolicy(
                pattern: "any other public host", kind: .otherPublicHost, exampleHost: "other-host.example",
                eras: [
                    EraPolicy(
                        era: "10–16", osVersion: "10.0",
                        clients: [
                            client(.urlSession, ats: true, by: [web]),
                            client(.wkWebView, ats: false, by: [web]),
                            client(.media, ats: true, by: [web]),
                            client(
                                .uiWebView, ats: true, by: [web],
                                conflicts: [
                                    ConflictingReading(
                                        conflict: "uiwebview", summary: "old docs: exempt; source: not",
                                        reading: "doc-uiwebview-exempt", atsApplies: false, httpAllowed: true,
                                        minimumTLS: .tls1_0, forwardSecrecyRequired: false, reason: "exempt")
                                ]),
                        ])
                ])
        ],
        notes: ["a note"])

    @Test("one line per client with the cells and deciding keys, conflicts under it, notes last (unbounded width)")
    func layout() {
        let text = ExplainTextRenderer.render(Self.explanation, width: .max)
        let expected = """
            Effective App Transport Security policy per host pattern and OS era (iOS numbering)

            any other public host — no entry (e.g. other-host.example)
              iOS 10–16
                URLSession          ATS on   TLSv1.2+  PFS     HTTPS only    ← NSAllowsArbitraryLoadsInWebContent
                WKWebView           ATS off  TLSv1.0+  no PFS  HTTP allowed  ← NSAllowsArbitraryLoadsInWebContent
                AVFoundation media  ATS on   TLSv1.2+  PFS     HTTPS only    ← NSAllowsArbitraryLoadsInWebContent
                UIWebView           ATS on   TLSv1.2+  PFS     HTTPS only    ← NSAllowsArbitraryLoadsInWebContent
                  CONFLICT uiwebview: under doc-uiwebview-exempt: ATS off, TLSv1.0+, no PFS, HTTP allowed (exempt); old docs: exempt; source: not

            Notes:
            - a note

            """
        #expect(text == expected)
    }

    @Test("no deciding key reads 'OS default'; NIAP is shown; colour only when asked")
    func details() {
        var e = Self.explanation
        e.hosts[0].eras[0].clients[0].decidedBy = []
        e.hosts[0].eras[0].clients[0].niap = true
        let plain = ExplainTextRenderer.render(e, width: .max)
        #expect(plain.contains("HTTPS only    NIAP FCP_v2.1  ← OS default"))
        #expect(!plain.contains("\u{1B}["))
        #expect(ExplainTextRenderer.render(e, style: TextStyle(enabled: true)).contains("\u{1B}[32mATS on"))
    }

    @Test(
        "long key paths keep their indent where the width allows, never past it unless wider (issue 32)",
        arguments: [80, 100, 120])
    func longKeyPaths(_ width: Int) {
        let domain = "NSAppTransportSecurity.NSExceptionDomains.api.staging-environment.example-company.com"
        var e = Self.explanation
        e.hosts[0].eras[0].clients[0].decidedBy = [
            domain, domain + ".NSExceptionAllowsInsecureHTTPLoads", domain + ".NSExceptionMinimumTLSVersion",
        ]
        let lines = ExplainTextRenderer.render(e, width: width).split(separator: "\n")
        let keyLines = lines.filter { $0.contains("NSExceptionDomains.") }
        #expect(keyLines.count == 3)
        for line in keyLines {
            let indent = line.prefix { $0 == " " }.count
            let text = line.count - indent
            if text > width {
                #expect(indent >= 6, "a key wider than the width stays at the hang: \(line)")
            } else {
                #expect(line.count <= width, "\(line)")
                #expect(indent == min(8, width - text) || indent == 6, "as far right as fits, up to the hang: \(line)")
            }
        }
    }
}
