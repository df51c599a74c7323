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
public struct Auditor: Sendable {
    /// The OS release and client whose rules apply.
    public var client: ATSClient
    public var os: AppleOSVersion { client.os }

    public init(for client: ATSClient = .newest) {
        self.client = client
    }

    /// One endpoint to audit: the list entry and its scan (for `http://` entries, a placeholder, see
    /// ``placeholderProfile(for:)``).
    public struct Endpoint: Sendable {
        public var entry: EndpointEntry
        public var profile: ServerProfile
        public init(entry: EndpointEntry, profile: ServerProfile) {
            self.entry = entry
            self.profile = profile
        }
    }

    /// The profile of an endpoint that is not scanned (`http://`): ATS decides from the plist alone.
    public static func placeholderProfile(for entry: EndpointEntry, now: Date = Date()) -> ServerProfile {
        ServerProfile.cleartext(for: entry.target, address: entry.resolve, now: now)
    }

    /// Audits endpoints against a plist.
    /// - Parameters:
    ///   - document: the parsed Info.plist (or bare ATS dictionary); its lines locate plist findings.
    ///   - configuration: the ATS configuration it gives (nil: parsed from `document`).
    ///   - endpoints: the entries with their profiles, in list order.
    ///   - findings: findings gathered before (plist lint, endpoint list), put first in the report.
    /// - Returns: the report (endpoints judged, findings) and the exception debt.
    public func audit(
        document: PlistDocument, configuration: ATSConfiguration? = nil, endpoints: [Endpoint], findings: [Finding] = []
    ) -> AuditResult {
        let configuration = configuration ?? Self.configuration(of: document)
        let analyses = endpoints.map { analyse($0, configuration: configuration) }
        var auditFindings: [Finding] = []
        var debt: [ExceptionDebt] = []
        let context = PlistContext(document: document, configuration: configuration)
        for analysis in analyses {
            let (f, d) = endpointFindings(analysis, context: context)
            auditFindings += f
            debt += d
        }
        let (entryFindings, entryDebt) = exceptionFindings(analyses, context: context)
        auditFindings += entryFindings
        debt += entryDebt
        let results = analyses.map {
            EndpointResult(profile: $0.endpoint.profile, ats: $0.ats, source: $0.endpoint.entry.source)
        }
        return AuditResult(
            report: ScanReport(endpoints: results, findings: findings + auditFindings), exceptionDebt: debt)
    }

    /// The configuration Apple reads from a document (the default when it has no ATS dictionary).
    public static func configuration(of document: PlistDocument) -> ATSConfiguration {
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

    /// The findings about one endpoint (at its endpoint-list line) and its debt.
    func endpointFindings(_ a: Analysis, context: PlistContext) -> ([Finding], [ExceptionDebt]) {
        let entry = a.endpoint.entry
        var findings: [Finding] = []
        var debt: [ExceptionDebt] = []
        func finding(_ rule: RuleID, _ severity: Finding.Severity, _ message: String) -> Finding {
            Finding(rule: rule, severity: severity, message: message, file: entry.source.file, line: entry.source.line)
        }
        let governing = a.matches.keys.sorted().first
        let summary = a.ats.violations.prefix(3).map(\.message).joined(separator: "; ")

        if entry.isHTTP {
            if a.fails {
                let fragment = ATSDiagnostics.plistFragment(
                    host: governing ?? a.host, entry: [ATSKey.exceptionAllowsInsecureHTTPLoads.name: .bool(true)])
                let via =
                    governing.map { "set NSExceptionAllowsInsecureHTTPLoads = YES in the entry '\($0)'" }
                    ?? "add an NSExceptionDomains entry for \(a.host) with NSExceptionAllowsInsecureHTTPLoads = YES"
                findings.append(
                    finding(
                        RuleID.Audit.endpointHTTP, .error,
                        "\(a.label) is cleartext and ATS blocks it: use https://, or \(via) (App Review asks why): "
                            + "\(oneLine(fragment))"
                    ))
                debt.append(
                    ExceptionDebt(
                        kind: .http, rule: RuleID.Audit.endpointHTTP, domain: governing ?? a.host,
                        keyPath: keyPath(governing ?? a.host, ATSKey.exceptionAllowsInsecureHTTPLoads.name),
                        endpoints: [a.label],
                        suggested: .dict([ATSKey.exceptionAllowsInsecureHTTPLoads.name: .bool(true)]),
                        plist: fragment, message: "cleartext endpoint blocked by ATS"))
            } else if a.ats.verdict == .pass {
                let why = a.ats.notes.first ?? "the plist allows it"
                findings.append(
                    finding(
                        RuleID.Audit.endpointHTTP, .warning,
                        "\(a.label) is cleartext; ATS allows it (\(why)); prefer https:// — App Review asks why "
                            + "cleartext is needed"
                    ))
            }
        } else if !a.judged {
            let why = a.endpoint.profile.error ?? a.ats.notes.last ?? a.endpoint.profile.status.rawValue
            findings.append(
                finding(
                    RuleID.Audit.endpointUnscanned, .warning,
                    "\(a.label) could not be scanned or judged (\(why)); its exception needs are unknown"))
        } else if a.fails, let minimal = a.minimal {
            switch minimal.status {
            case .exception:
                let key = governing ?? minimal.domain
                let needs = ExceptionNeeds(minimal: minimal.dictionary)
                // With an entry already in force, the fix is that entry plus what is missing from it.
                var current: PlistValue?
                var suggested = minimal.dictionary
                var fragment = minimal.plist ?? ""
                if let governing, let granted = context.configuration.exceptionDomains[governing] {
                    current = granted.plistValue
                    let merged = ExceptionNeeds(granted: granted).merged(needs).entry
                    suggested = .dict(merged)
                    fragment = ATSDiagnostics.plistFragment(host: governing, entry: merged)
                }
                let prefix =
                    governing.map { "the NSExceptionDomains entry '\($0)' does not allow it" }
                    ?? "no NSExceptionDomains entry covers \(a.host)"
                findings.append(
                    finding(
                        RuleID.Audit.exceptionMissing, .error,
                        "\(a.label) fails ATS (\(summary)); \(prefix); the least exception that fixes it: "
                            + "\(needs.phrases.joined(separator: ", ")) — \(oneLine(fragment))"
                    ))
                debt.append(
                    ExceptionDebt(
                        kind: .missing, rule: RuleID.Audit.exceptionMissing, domain: key, keyPath: keyPath(key),
                        endpoints: [a.label], current: current, suggested: suggested, plist: fragment,
                        message: minimal.reason))
            case .noneNeeded:
                findings.append(
                    finding(
                        RuleID.Audit.endpointFails, .error,
                        "\(a.label) fails ATS (\(summary)) only because the plist is stricter for it than the "
                            + "default\(governing.map { " (entry '\($0)')" } ?? ""); the default policy would pass"
                    ))
            case .impossible, .unknown:
                findings.append(
                    finding(
                        RuleID.Audit.endpointFails, .error,
                        "\(a.label) fails ATS and no exception can fix it: \(minimal.reason)"))
                debt.append(
                    ExceptionDebt(
                        kind: .impossible, rule: RuleID.Audit.endpointFails, domain: a.host, endpoints: [a.label],
                        message: minimal.reason))
            }
        }
        return (applyExpectation(a, findings: findings, finding: finding), debt)
    }

    /// `expect: fail` turns the endpoint's failure findings into notes; a verdict against the expectation is an error.
    func applyExpectation(
        _ a: Analysis, findings: [Finding], finding: (RuleID, Finding.Severity, String) -> Finding
    ) -> [Finding] {
        guard let expect = a.endpoint.entry.expect, a.judged || a.endpoint.entry.isHTTP else { return findings }
        switch (expect, a.fails) {
        case (.fail, true):
            return findings.map { f in
                guard f.severity == .error else { return f }
                var copy = f
                copy.severity = .note
                copy.message = "expected to fail (expect: fail): " + f.message
                return copy
            }
        case (.fail, false):
            return findings + [
                finding(
                    RuleID.Audit.endpointUnexpected, .error,
                    "\(a.label) passes ATS but the endpoint list expects it to fail (expect: fail)")
            ]
        case (.pass, true):
            return findings + [
                finding(
                    RuleID.Audit.endpointUnexpected, .error,
                    "\(a.label) fails ATS but the endpoint list expects it to pass")
            ]
        case (.pass, false):
            return findings
        }
    }

    // MARK: Helpers

    func keyPath(_ domain: String, _ key: String? = nil) -> String {
        ATSKeyPath.exceptionDomain(domain, key)
    }

    /// A plist fragment on one line, for messages.
    func oneLine(_ fragment: String) -> String {
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
