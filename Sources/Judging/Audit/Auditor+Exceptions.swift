import ATSPolicy
import Foundation
import TLSModel

extension Auditor {
    /// The debt of the plist's exceptions: each `NSExceptionDomains` entry against the endpoints it governs,
    /// and `NSAllowsArbitraryLoads` against the endpoints left to the global keys.
    func exceptionFindings(_ analyses: [Analysis], context: PlistContext) -> ([Finding], [ExceptionDebt]) {
        var findings: [Finding] = []
        var debt: [ExceptionDebt] = []
        for key in context.configuration.exceptionDomains.keys.sorted() {
            let (f, d) = entryFindings(key, analyses.filter { $0.matches[key] != nil }, context: context)
            findings += f
            debt += d
        }
        let (f, d) = arbitraryLoadsFindings(analyses.filter { $0.matches.isEmpty }, context: context)
        return (findings + f, debt + d)
    }

    /// One entry: unused, unneeded, or broader than what its endpoints need.
    func entryFindings(_ key: String, _ covered: [Analysis], context: PlistContext) -> ([Finding], [ExceptionDebt]) {
        let entry = context.configuration.exceptionDomains[key]!
        let entryPath = [ATSKey.exceptionDomains.name, key]
        func finding(_ rule: RuleID, _ severity: Finding.Severity, _ message: String, subkey: String? = nil) -> Finding
        {
            Finding(
                rule: rule, severity: severity, message: message, file: context.document.file,
                line: context.line(entryPath + (subkey.map { [$0] } ?? [])), keyPath: keyPath(key, subkey))
        }
        let labels = covered.map(\.label)
        guard !covered.isEmpty else {
            return (
                [
                    finding(
                        RuleID.Audit.exceptionNoEndpoint, .warning,
                        "no endpoint in the list uses the NSExceptionDomains entry '\(key)': remove it if the app no "
                            + "longer connects to \(key), or add its endpoints to the list"
                    )
                ],
                [
                    ExceptionDebt(
                        kind: .noEndpoint, rule: RuleID.Audit.exceptionNoEndpoint, domain: key, keyPath: keyPath(key),
                        endpoints: [], current: entry.plistValue, message: "matches no endpoint")
                ]
            )
        }
        let granted = ExceptionNeeds(granted: entry)
        // An entry that relaxes nothing (empty, or raising requirements) is not an exception to pay back.
        guard granted.relaxesAnything else { return ([], []) }
        // Needs can only be told when every endpoint was judged and some entry could make it pass.
        let perEndpoint = covered.map(\.needs)
        guard perEndpoint.allSatisfy({ $0 != nil }) else { return ([], []) }
        var needed = perEndpoint.compactMap { $0 }.reduce(ExceptionNeeds()) { $0.merged($1) }
        let subdomainEndpoints = covered.filter { ($0.matches[key] ?? 0) > 0 }
        needed.includesSubdomains = !subdomainEndpoints.isEmpty

        if !needed.relaxesAnything {
            let message =
                "every endpoint the NSExceptionDomains entry '\(key)' covers (\(labels.joined(separator: ", "))) "
                + "passes under the default ATS policy: remove the entry"
            return (
                [finding(RuleID.Audit.exceptionUnneeded, .warning, message)],
                [
                    ExceptionDebt(
                        kind: .unneeded, rule: RuleID.Audit.exceptionUnneeded, domain: key, keyPath: keyPath(key),
                        endpoints: labels, current: entry.plistValue, message: message)
                ]
            )
        }

        var findings: [Finding] = []
        var reasons: [String] = []
        /// One key broader than needed: a reason in the debt item and a warning at the key.
        func broader(_ why: String, _ subkey: ATSKey) {
            reasons.append(why)
            findings.append(finding(RuleID.Audit.exceptionBroader, .warning, "'\(key)': \(why)", subkey: subkey.name))
        }
        if granted.minimumTLS < needed.minimumTLS {
            let fix = needed.minimumTLS == .tls1_2 ? "remove the key" : "\(needed.minimumTLS.name) suffices"
            broader(
                "NSExceptionMinimumTLSVersion \(granted.minimumTLS.name) is lower than the endpoints need (\(fix))",
                .exceptionMinimumTLSVersion)
        }
        if granted.forwardSecrecyOff && !needed.forwardSecrecyOff {
            broader(
                "NSExceptionRequiresForwardSecrecy = NO is not needed: the endpoints negotiate forward-secret suites "
                    + "(remove the key)", .exceptionRequiresForwardSecrecy)
        }
        if granted.insecureHTTP && !needed.insecureHTTP {
            broader(
                "NSExceptionAllowsInsecureHTTPLoads = YES is not needed: no endpoint uses http:// and the TLS "
                    + "endpoints pass without turning ATS off", .exceptionAllowsInsecureHTTPLoads)
        }
        if granted.includesSubdomains && !needed.includesSubdomains {
            broader(
                "NSIncludesSubdomains = YES extends the exception to every subdomain of \(key), but no listed "
                    + "endpoint is a subdomain", .includesSubdomains)
        }
        guard !reasons.isEmpty else { return ([], []) }
        return (
            findings,
            [
                ExceptionDebt(
                    kind: .broader, rule: RuleID.Audit.exceptionBroader, domain: key, keyPath: keyPath(key),
                    endpoints: labels,
                    current: entry.plistValue, suggested: .dict(needed.entry),
                    plist: ATSDiagnostics.plistFragment(host: key, entry: needed.entry),
                    message: reasons.joined(separator: "; "))
            ]
        )
    }

    /// `NSAllowsArbitraryLoads = YES` in force for URLSession: unneeded when every endpoint it governs passes
    /// with ATS on, broader than needed otherwise (named entries would do).
    func arbitraryLoadsFindings(_ uncovered: [Analysis], context: PlistContext) -> ([Finding], [ExceptionDebt]) {
        let c = context.configuration
        let inForce = c.arbitraryLoadsInForce(on: os)
        guard client.kind == .urlSession, inForce, !uncovered.isEmpty else { return ([], []) }
        let perEndpoint = uncovered.map(\.needs)
        guard perEndpoint.allSatisfy({ $0 != nil }) else { return ([], []) }
        let aal = ATSKey.allowsArbitraryLoads.name
        let line = context.line([aal])
        let path = "\(ATSKey.appTransportSecurity).\(aal)"
        let needing = zip(uncovered, perEndpoint).filter { $0.1!.relaxesAnything }
        let labels = uncovered.map(\.label)
        // One warning and its debt entry about the global switch.
        func about(
            _ kind: ExceptionDebt.Kind, _ rule: RuleID, _ message: String, endpoints: [String],
            suggested: PlistValue? = nil, plist: String? = nil
        ) -> ([Finding], [ExceptionDebt]) {
            (
                [
                    Finding(
                        rule: rule, severity: .warning, message: message, file: context.document.file, line: line,
                        keyPath: path)
                ],
                [
                    ExceptionDebt(
                        kind: kind, rule: rule, domain: aal, keyPath: path, endpoints: endpoints, current: .bool(true),
                        suggested: suggested, plist: plist, message: message)
                ]
            )
        }
        if needing.isEmpty {
            let message =
                "NSAllowsArbitraryLoads = YES turns ATS off for every host, but every endpoint it governs "
                + "(\(labels.joined(separator: ", "))) passes with ATS on: remove it (App Review asks for a "
                + "justification)"
            return about(.unneeded, RuleID.Audit.exceptionUnneeded, message, endpoints: labels)
        }
        // Group the needs per host: one entry per host is what would replace the global switch.
        var perHost: [String: ExceptionNeeds] = [:]
        for (analysis, needs) in needing {
            perHost[analysis.host, default: ExceptionNeeds()] = perHost[analysis.host, default: ExceptionNeeds()]
                .merged(needs!)
        }
        let fragments = perHost.keys.sorted().map { ATSDiagnostics.plistFragment(host: $0, entry: perHost[$0]!.entry) }
        let message =
            "NSAllowsArbitraryLoads = YES turns ATS off for every host, but only "
            + "\(perHost.keys.sorted().joined(separator: ", ")) need an exception: replace it with "
            + "NSExceptionDomains entries for them"
        return about(
            .broader, RuleID.Audit.exceptionBroader, message, endpoints: needing.map(\.0.label),
            suggested: .dict(perHost.mapValues { .dict($0.entry) }), plist: fragments.joined(separator: "\n"))
    }
}
