import Foundation
import TLSModel

/// Reproduces `nscurl --ats-diagnostics --verbose URL` (docs/apple-rules.md §5) from one scan: every test is
/// predicted from the same `ServerProfile` (§5.3), with no connection per test, then the minimal exception.
package enum ATSDiagnostics {
    /// Runs the matrix for a URL.
    /// - Parameters:
    ///   - profile: the scan of the URL's endpoint.
    ///   - target: the URL (its scheme and host drive the tests).
    ///   - client: the OS whose rules apply and the client class (nscurl uses URLSession).
    /// - Returns: the tests in nscurl's order and the minimal exception.
    package static func run(profile: ServerProfile, target: Target, for client: ATSClient = .newest)
        -> DiagnosticsReport
    {
        let evaluator = ATSPolicyEvaluator(for: client)
        let os = client.os
        let host = target.host
        var tests: [DiagnosticTest] = []
        var defaultTest: (evaluation: ATSEvaluation, unknowns: [String])?
        for (index, test) in testCases(host: host, includeTLS13: os.enforcesIOS13CertificateRules).enumerated() {
            let configuration = ATSConfiguration(dictionary: test.dictionary.foundationValue as? [String: Any] ?? [:])
            let (evaluation, unknowns) = evaluator.detailedEvaluation(
                profile, host: host, configuration: configuration, scheme: target.scheme)
            if index == 0 { defaultTest = (evaluation, unknowns) }  // test 1 is the default configuration
            let (result, reason) = describe(evaluation, unknowns: unknowns)
            tests.append(
                DiagnosticTest(
                    number: index + 1, section: test.section, title: test.title, dictionary: test.dictionary,
                    result: result, reason: reason))
        }
        let minimal = minimalException(profile: profile, target: target, evaluator: evaluator, baseline: defaultTest)
        var notes = [
            "predicted for iOS \(os) rules from one scan; nscurl runs macOS's implementation, whose results do not "
                + "always match iOS",
            "HTTP redirects are not followed: each redirect hop needs its own check (an http:// hop fails with -1022)",
        ]
        if profile.host != host { notes.append("the scan connected to \(profile.host); the URL's host is \(host)") }
        return DiagnosticsReport(
            url: target.original, host: host, osVersion: os.description, tests: tests, minimalException: minimal,
            notes: notes)
    }

    /// Runs the matrix for a URL given as text (`https://host/path`, `host`, `host:port`).
    /// - Throws: ``TargetError`` when the text is not a URL or target.
    package static func run(
        profile: ServerProfile, url: String, for client: ATSClient = .newest
    ) throws -> DiagnosticsReport {
        try run(profile: profile, target: Target(parsing: url), for: client)
    }

    /// A test result and its nscurl-style reason (§5.4).
    static func describe(_ evaluation: ATSEvaluation, unknowns: [String]) -> (DiagnosticTest.Result, String?) {
        switch evaluation.verdict {
        case .pass:
            return (.pass, nil)
        case .fail:
            return (.fail, errorLine(evaluation.violations))
        case .unknown:
            return (
                .unknown,
                "could not be predicted: "
                    + (unknowns.isEmpty ? "the scan was incomplete" : unknowns.joined(separator: "; "))
            )
        case .ambiguous:
            let parts = evaluation.readings.map { reading in
                reading.verdict == .pass
                    ? "\(reading.name): PASS"
                    : "\(reading.name): FAIL (\(errorLine(reading.violations) ?? reading.verdict.rawValue))"
            }
            return (.ambiguous, "Apple's sources disagree: " + parts.joined(separator: "; "))
        }
    }

    /// `-1200 TLS handshake would fail: …` for the first failing stage, then every message.
    static func errorLine(_ violations: [ATSViolation]) -> String? {
        guard let first = violations.first else { return nil }
        return "\(urlError(for: first.rule)): " + violations.map(\.message).joined(separator: "; ")
    }

    /// The NSURLError a violation's family ends the load with: cleartext HTTP −1022, a TLS negotiation
    /// failure −1200, anything else (the certificate trust rules) −1202.
    static func urlError(for rule: RuleID) -> String {
        if RuleRegistry.atsHTTP.descriptor(for: rule) != nil { return "-1022 cleartext HTTP load blocked by ATS" }
        if RuleRegistry.atsTLS.descriptor(for: rule) != nil { return "-1200 TLS handshake would fail" }
        return "-1202 certificate not trusted"
    }
}
