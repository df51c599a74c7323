import ATSPolicy
import Foundation
import TLSModel

/// Cross-checks an app's `NSAppTransportSecurity` dictionary against its endpoints (issue 4, `atscheck audit`).
///
/// Pure over profiles: give it the plist, the endpoint entries and what each scan found, and it judges every
/// endpoint under the policy the plist gives its host, then works out the exception debt — exceptions that are
/// missing, unneeded, broader than needed or unused, `http://` endpoints, and failures no exception can fix.
/// Findings about the plist point at the plist line of the exception key; findings about an endpoint point at
/// its line in the endpoint list.
package struct Auditor: Sendable {
    /// The OS release and client whose rules apply.
    package var client: ATSClient
    package var os: AppleOSVersion { client.os }

    package init(for client: ATSClient = .newest) {
        self.client = client
    }

    /// One endpoint to audit: the list entry and its scan (for `http://` entries, a placeholder, see
    /// ``placeholderProfile(for:)``).
    package struct Endpoint: Sendable {
        package var entry: EndpointEntry
        package var profile: ServerProfile
        package init(entry: EndpointEntry, profile: ServerProfile) {
            self.entry = entry
            self.profile = profile
        }
    }

    /// The profile of an endpoint that is not scanned (`http://`): ATS decides from the plist alone.
    package static func placeholderProfile(for entry: EndpointEntry, now: Date = Date()) -> ServerProfile {
        ServerProfile.cleartext(for: entry.target, address: entry.resolve, now: now)
    }

    /// Audits endpoints against a plist.
    /// - Parameters:
    ///   - document: the parsed Info.plist (or bare ATS dictionary); its lines locate plist findings.
    ///   - configuration: the ATS configuration it gives (nil: parsed from `document`).
    ///   - endpoints: the entries with their profiles, in list order.
    ///   - findings: findings gathered before (plist lint, endpoint list), put first in the report.
    /// - Returns: the report (endpoints judged, findings) and the exception debt.
    package func audit(
        document: PlistDocument, configuration: ATSConfiguration? = nil, endpoints: [Endpoint], findings: [Finding] = []
    ) -> AuditResult {
        let configuration = configuration ?? Self.configuration(of: document)
        let analyses = endpoints.map { analyse($0, configuration: configuration) }
        let context = PlistContext(document: document, configuration: configuration)
        var outcome = AuditOutcome()
        for analysis in analyses {
            outcome = outcome + endpointFindings(analysis, context: context)
        }
        outcome = outcome + exceptionFindings(analyses, context: context)
        let results = analyses.map {
            EndpointResult(profile: $0.endpoint.profile, ats: $0.ats, source: $0.endpoint.entry.source)
        }
        return AuditResult(
            report: ScanReport(endpoints: results, findings: findings + outcome.findings), exceptionDebt: outcome.debt)
    }

    /// The configuration Apple reads from a document (the default when it has no ATS dictionary).
    package static func configuration(of document: PlistDocument) -> ATSConfiguration {
        document.atsDictionary.map(ATSConfiguration.init(dictionary:)) ?? .default
    }

    // MARK: Endpoints

    /// One endpoint judged, with what it would need.
    struct Analysis {
        var endpoint: Endpoint
        var ats: ATSEvaluation
        /// The least exception that makes the endpoint pass under the default policy (nil: not judged).
        var minimal: MinimalException?
        /// The app's `NSExceptionDomains` key governing the host under either subdomain-depth reading, and its depth.
        var matches: [String: Int]

        var host: String { endpoint.entry.target.host }
        var label: String {
            endpoint.entry.isHTTP ? "http://\(endpoint.entry.target.hostPort)" : endpoint.entry.target.hostPort
        }
        /// The app's entry that governs the host (the first by name when the readings differ).
        var governing: String? { matches.keys.sorted().first }
        /// The first ATS violations, for messages.
        var summary: String { ats.violations.prefix(3).map(\.message).joined(separator: "; ") }
        /// A finding about the endpoint, at its line in the endpoint list.
        func finding(_ rule: RuleID, _ severity: Finding.Severity, _ message: String) -> Finding {
            Finding(
                rule: rule, severity: severity, message: message, file: endpoint.entry.source.file,
                line: endpoint.entry.source.line)
        }
        /// Whether the scan completed and was judged.
        var judged: Bool { endpoint.profile.status == .completed && ats.verdict != .unknown }
        var fails: Bool { ats.verdict == .fail || ats.verdict == .ambiguous }

        /// What the endpoint needs from an exception entry, or nil when that cannot be told
        /// (not scanned, or no exception could make it pass).
        var needs: ExceptionNeeds? {
            if endpoint.entry.isHTTP {
                var needs = ExceptionNeeds()
                needs.insecureHTTP = true
                return needs
            }
            guard judged, let minimal else { return nil }
            switch minimal.status {
            case .noneNeeded: return ExceptionNeeds()
            case .exception: return ExceptionNeeds(minimal: minimal.dictionary)
            case .impossible, .unknown: return nil
            }
        }
    }

    func analyse(_ endpoint: Endpoint, configuration: ATSConfiguration) -> Analysis {
        let target = endpoint.entry.target
        let judge = PolicyJudge(policy: AppPolicySource(configuration: configuration, file: nil), for: client)
        var ats = judge.judge(endpoint.profile, scheme: target.scheme)
        if endpoint.entry.isHTTP {
            ats.notes.append("http:// endpoint: judged from the plist alone, nothing was scanned")
        }
        var minimal: MinimalException?
        if endpoint.profile.status == .completed {
            // The diagnostics' minimal exception is relative to the default policy: the entry the host needs.
            minimal = ATSDiagnostics.minimalException(profile: endpoint.profile, target: target, for: client)
        }
        var matches: [String: Int] = [:]
        for depth in SubdomainDepth.allCases {
            if let match = configuration.exception(for: target.host, os: os, depth: depth), !match.builtIn {
                matches[match.key] = match.depth
            }
        }
        return Analysis(endpoint: endpoint, ats: ats, minimal: minimal, matches: matches)
    }

    /// The findings about one endpoint (at its endpoint-list line) and its debt: each audit rule's, settled
    /// against the endpoint's `expect:`.
    func endpointFindings(_ a: Analysis, context: PlistContext) -> AuditOutcome {
        let outcome = AuditRules.all.reduce(AuditOutcome()) { $0 + $1.check(endpoint: a, context: context) }
        let findings = AuditRules.all.reduce(outcome.findings) { $1.settle(endpoint: a, findings: $0) }
        return AuditOutcome(findings: findings, debt: outcome.debt)
    }

    // MARK: Helpers

    /// The key path of an `NSExceptionDomains` entry, or of a key in it.
    static func keyPath(_ domain: String, _ key: String? = nil) -> String {
        ATSKeyPath.exceptionDomain(domain, key)
    }

    /// A plist fragment on one line, for messages.
    static func oneLine(_ fragment: String) -> String {
        fragment.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }
}

/// The plist and the configuration Apple reads from it.
struct PlistContext {
    var document: PlistDocument
    var configuration: ATSConfiguration

    /// The plist line of a key under the ATS dictionary, falling back to its parent's line.
    func line(_ path: [String]) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = document.line(forATSKeyPath: path) { return line }
            path.removeLast()
        }
        return nil
    }
}
