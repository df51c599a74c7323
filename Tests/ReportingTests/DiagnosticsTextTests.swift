import TLSModel
import Testing

@testable import Reporting

@Suite("nscurl-style diagnostics text")
struct DiagnosticsTextTests {
    static let report = DiagnosticsReport(
        url: "https://api.example.com", host: "api.example.com", osVersion: "26.4",
        tests: [
            DiagnosticTest(
                number: 1, section: "Default ATS Secure Connection", title: "ATS Default Connection",
                dictionary: .emptyDict, result: .fail, reason: "-1200 TLS handshake would fail: x"),
            DiagnosticTest(
                number: 2, section: "Allowing Arbitrary Loads", title: "Allow All Loads",
                dictionary: .dict(["NSAllowsArbitraryLoads": .bool(true)]), result: .pass),
            DiagnosticTest(
                number: 3, section: "Configuring TLS exceptions for api.example.com", title: "TLSv1.3",
                dictionary: .dict([
                    "NSExceptionDomains": .dict([
                        "api.example.com": .dict(["NSExceptionMinimumTLSVersion": .string("TLSv1.3")])
                    ])
                ]),
                result: .pass),
            DiagnosticTest(
                number: 4, section: "Configuring TLS exceptions for api.example.com", title: "TLSv1.2",
                dictionary: .emptyDict, result: .pass),
        ],
        minimalException: MinimalException(
            status: .exception, domain: "api.example.com",
            dictionary: .dict(["NSExceptionRequiresForwardSecrecy": .bool(false)]),
            plist:
                "<key>api.example.com</key>\n<dict>\n\t<key>NSExceptionRequiresForwardSecrecy</key>\n\t<false/>\n</dict>",
            reason: "r"))

    @Test("layout of §5.1 (at an unbounded width, as nscurl prints it)")
    func layout() {
        let text = DiagnosticsTextRenderer.render(Self.report, width: .max)
        let rule = String(repeating: "=", count: 80)
        let expectedStart = """
            Starting ATS Diagnostics

            Configuring ATS Info.plist keys and displaying the result of HTTPS loads to https://api.example.com.
            A test will "PASS" if URLSession:task:didCompleteWithError: returns a nil error.
            (Predicted from one scan with iOS 26.4 rules by atscheck; no connection was made per test.)
            \(rule)

            Default ATS Secure Connection
            ---
            ATS Default Connection
            ATS Dictionary:
            {
            }
            Result : FAIL
            Error : -1200 TLS handshake would fail: x
            ---

            \(rule)

            Allowing Arbitrary Loads

            ---
            Allow All Loads
            ATS Dictionary:
            {
                NSAllowsArbitraryLoads = true;
            }
            Result : PASS
            ---

            \(rule)

            Configuring TLS exceptions for api.example.com

            ---
            TLSv1.3
            ATS Dictionary:
            {
                NSExceptionDomains =     {
                    "api.example.com" =         {
                        NSExceptionMinimumTLSVersion = "TLSv1.3";
                    };
                };
            }
            Result : PASS
            ---

            ---
            TLSv1.2
            """
        #expect(text.hasPrefix(expectedStart))
        #expect(
            text.contains(
                "\n<key>api.example.com</key>\n<dict>\n\t<key>NSExceptionRequiresForwardSecrecy</key>\n\t<false/>\n</dict>\n"
            ))
        #expect(text.contains("Reason : r\n"))
    }

    @Test("diagnose's text: a line when the URL could not be scanned, the matrix, then the findings")
    func section() {
        let profile = ReportFixtures.profile("api.example.com", status: .timeout, error: "timed out\u{1B}")
        let finding = Finding(rule: RuleID.Trust.expirySoon, severity: .warning, message: "expires soon")
        let text = DiagnosticsTextRenderer.render(
            DiagnosisSection(report: Self.report, profile: profile, findings: [finding]))
        #expect(text.hasPrefix("atscheck could not scan api.example.com:443: timed out\\u{1B}\n\n"))
        let findings = "\nwarning: expires soon [trust.expiry.soon]\n"
        #expect(text.hasSuffix(DiagnosticsTextRenderer.render(Self.report) + findings))
        let scanned = DiagnosticsTextRenderer.render(
            DiagnosisSection(report: Self.report, profile: ReportFixtures.profile("api.example.com"), findings: []))
        #expect(scanned == DiagnosticsTextRenderer.render(Self.report))
    }
}
