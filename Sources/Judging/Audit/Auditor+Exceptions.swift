import ATSPolicy
import Foundation
import TLSModel

extension Auditor {
    /// The debt of the plist's exceptions: each `NSExceptionDomains` entry against the endpoints it governs,
    /// and `NSAllowsArbitraryLoads` against the endpoints left to the global keys; each audit rule's findings.
    func exceptionFindings(_ analyses: [Analysis], context: PlistContext) -> AuditOutcome {
        var outcome = AuditOutcome()
        for key in context.configuration.exceptionDomains.keys.sorted() {
            let entry = ExceptionEntryAudit(
                key: key, entry: context.configuration.exceptionDomains[key]!,
                covered: analyses.filter { $0.matches[key] != nil }, context: context)
            outcome = AuditRules.all.reduce(outcome) { $0 + $1.check(entry: entry) }
        }
        // `NSAllowsArbitraryLoads = YES` in force for URLSession, over the endpoints no entry governs.
        let uncovered = analyses.filter { $0.matches.isEmpty }
        guard client.kind == .urlSession, context.configuration.arbitraryLoadsInForce(on: os), !uncovered.isEmpty,
            let global = ArbitraryLoadsAudit(uncovered: uncovered, context: context)
        else { return outcome }
        return AuditRules.all.reduce(outcome) { $0 + $1.check(arbitraryLoads: global) }
    }
}

/// One `NSExceptionDomains` entry and the endpoints it governs, with what they need of it.
struct ExceptionEntryAudit {
    /// The entry's domain key.
    var key: String
    /// The entry.
    var entry: ExceptionDomain
    /// The endpoints it governs.
    var covered: [Auditor.Analysis]
    var context: PlistContext

    var labels: [String] { covered.map(\.label) }
    var granted: ExceptionNeeds { ExceptionNeeds(granted: entry) }

    /// What the entry's endpoints need, or nil when that cannot be told or does not matter: no endpoint, an entry
    /// that relaxes nothing (empty, or raising requirements: not an exception to pay back), or an endpoint not
    /// judged or that no entry could make pass.
    var needed: ExceptionNeeds? {
        guard !covered.isEmpty, granted.relaxesAnything else { return nil }
        let perEndpoint = covered.map(\.needs)
        guard perEndpoint.allSatisfy({ $0 != nil }) else { return nil }
        var needed = perEndpoint.compactMap { $0 }.reduce(ExceptionNeeds()) { $0.merged($1) }
        needed.includesSubdomains = covered.contains { ($0.matches[key] ?? 0) > 0 }
        return needed
    }

    /// A finding at the entry's line (or its key's).
    func finding(_ rule: RuleID, _ severity: Finding.Severity, _ message: String, subkey: String? = nil) -> Finding {
        Finding(
            rule: rule, severity: severity, message: message, file: context.document.file,
            line: context.line([ATSKey.exceptionDomains.name, key] + (subkey.map { [$0] } ?? [])),
            keyPath: Auditor.keyPath(key, subkey))
    }
}

/// `NSAllowsArbitraryLoads = YES` in force and the endpoints no entry governs, when all of their needs are known.
struct ArbitraryLoadsAudit {
    /// The endpoints the switch governs.
    var uncovered: [Auditor.Analysis]
    /// Those that need an exception, with what they need.
    var needing: [(Auditor.Analysis, ExceptionNeeds)]
    var context: PlistContext

    /// - Returns: nil when an endpoint's needs cannot be told.
    init?(uncovered: [Auditor.Analysis], context: PlistContext) {
        let perEndpoint = uncovered.map(\.needs)
        guard perEndpoint.allSatisfy({ $0 != nil }) else { return nil }
        self.uncovered = uncovered
        self.needing = zip(uncovered, perEndpoint).compactMap { a, n in n!.relaxesAnything ? (a, n!) : nil }
        self.context = context
    }

    var labels: [String] { uncovered.map(\.label) }

    /// One warning and its debt entry about the global switch.
    func about(
        _ kind: ExceptionDebt.Kind, _ rule: RuleID, _ message: String, endpoints: [String],
        suggested: PlistValue? = nil, plist: String? = nil
    ) -> AuditOutcome {
        let aal = ATSKey.allowsArbitraryLoads.name
        let path = "\(ATSKey.appTransportSecurity).\(aal)"
        return AuditOutcome(
            findings: [
                Finding(
                    rule: rule, severity: .warning, message: message, file: context.document.file,
                    line: context.line([aal]), keyPath: path)
            ],
            debt: [
                ExceptionDebt(
                    kind: kind, rule: rule, domain: aal, keyPath: path, endpoints: endpoints, current: .bool(true),
                    suggested: suggested, plist: plist, message: message)
            ])
    }
}
