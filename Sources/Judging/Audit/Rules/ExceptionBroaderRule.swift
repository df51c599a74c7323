import ATSPolicy
import TLSModel

extension RuleID.Audit {
    /// An entry (or NSAllowsArbitraryLoads) grants more than the endpoints need (warning).
    package static let exceptionBroader: RuleID = "audit.exception.broader"
}

/// An exception that relaxes more than its endpoints need: a warning at each key broader than needed (one debt item
/// for the entry), or `NSAllowsArbitraryLoads` where named entries would do.
struct ExceptionBroaderRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.exceptionBroader, .audit, .warning,
                title: "An ATS exception that relaxes more than its endpoints need.",
                help: """
                    The entry (or `NSAllowsArbitraryLoads`) grants more than the least exception the endpoints \
                    need: a lower TLS floor, forward secrecy off, insecure HTTP, or subdomains no endpoint uses. \
                    Narrow it to the keys the message names.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(entry e: ExceptionEntryAudit) -> AuditOutcome {
        guard let needed = e.needed, needed.relaxesAnything else { return AuditOutcome() }
        let granted = e.granted
        var findings: [Finding] = []
        var reasons: [String] = []
        /// One key broader than needed: a reason in the debt item and a warning at the key.
        func broader(_ why: String, _ subkey: ATSKey) {
            reasons.append(why)
            findings.append(
                e.finding(RuleID.Audit.exceptionBroader, .warning, "'\(e.key)': \(why)", subkey: subkey.name))
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
                "NSIncludesSubdomains = YES extends the exception to every subdomain of \(e.key), but no listed "
                    + "endpoint is a subdomain", .includesSubdomains)
        }
        guard !reasons.isEmpty else { return AuditOutcome() }
        return AuditOutcome(
            findings: findings,
            debt: [
                ExceptionDebt(
                    kind: .broader, rule: RuleID.Audit.exceptionBroader, domain: e.key,
                    keyPath: Auditor.keyPath(e.key), endpoints: e.labels, current: e.entry.plistValue,
                    suggested: .dict(needed.entry),
                    plist: ATSDiagnostics.plistFragment(host: e.key, entry: needed.entry),
                    message: reasons.joined(separator: "; "))
            ])
    }

    func check(arbitraryLoads g: ArbitraryLoadsAudit) -> AuditOutcome {
        guard !g.needing.isEmpty else { return AuditOutcome() }
        // Group the needs per host: one entry per host is what would replace the global switch.
        var perHost: [String: ExceptionNeeds] = [:]
        for (analysis, needs) in g.needing {
            perHost[analysis.host, default: ExceptionNeeds()] = perHost[analysis.host, default: ExceptionNeeds()]
                .merged(needs)
        }
        let fragments = perHost.keys.sorted().map { ATSDiagnostics.plistFragment(host: $0, entry: perHost[$0]!.entry) }
        let message =
            "NSAllowsArbitraryLoads = YES turns ATS off for every host, but only "
            + "\(perHost.keys.sorted().joined(separator: ", ")) need an exception: replace it with "
            + "NSExceptionDomains entries for them"
        return g.about(
            .broader, RuleID.Audit.exceptionBroader, message, endpoints: g.needing.map(\.0.label),
            suggested: .dict(perHost.mapValues { .dict($0.entry) }), plist: fragments.joined(separator: "\n"))
    }
}
