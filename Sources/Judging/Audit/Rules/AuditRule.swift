import ATSPolicy
import TLSModel

/// One audit rule: a value that reads what `atscheck audit` judged (the endpoints, the plist's exception entries,
/// `NSAllowsArbitraryLoads`) and returns its findings and exception debt. Its id and catalogue entry are declared
/// in its own file, beside its code (``Rule/entries``).
///
/// ``Auditor`` runs ``AuditRules/all`` at each step (every endpoint, then every `NSExceptionDomains` entry, then
/// the global switch); a rule answers the steps it judges and keeps the others' defaults (nothing).
protocol AuditRule: Rule {
    /// The findings about one endpoint, at its endpoint-list line.
    /// - Parameters:
    ///   - endpoint: The endpoint judged, with what it would need.
    ///   - context: The plist and its configuration.
    /// - Returns: The findings and debt (default: none).
    func check(endpoint: Auditor.Analysis, context: PlistContext) -> AuditOutcome

    /// Settles one endpoint's findings against its `expect:` (default: unchanged).
    /// - Parameters:
    ///   - endpoint: The endpoint judged.
    ///   - findings: The findings the rules made about it.
    /// - Returns: The findings to report.
    func settle(endpoint: Auditor.Analysis, findings: [Finding]) -> [Finding]

    /// The findings about one `NSExceptionDomains` entry and the endpoints it governs.
    /// - Parameter entry: The entry, its endpoints and what they need.
    /// - Returns: The findings and debt (default: none).
    func check(entry: ExceptionEntryAudit) -> AuditOutcome

    /// The findings about `NSAllowsArbitraryLoads` and the endpoints no entry governs.
    /// - Parameter arbitraryLoads: The switch in force, its endpoints and what they need.
    /// - Returns: The findings and debt (default: none).
    func check(arbitraryLoads: ArbitraryLoadsAudit) -> AuditOutcome
}

extension AuditRule {
    func check(endpoint: Auditor.Analysis, context: PlistContext) -> AuditOutcome { AuditOutcome() }
    func settle(endpoint: Auditor.Analysis, findings: [Finding]) -> [Finding] { findings }
    func check(entry: ExceptionEntryAudit) -> AuditOutcome { AuditOutcome() }
    func check(arbitraryLoads: ArbitraryLoadsAudit) -> AuditOutcome { AuditOutcome() }
}

/// What one audit rule found at one step: findings and the exception debt they stand for.
struct AuditOutcome {
    var findings: [Finding] = []
    var debt: [ExceptionDebt] = []

    static func + (a: AuditOutcome, b: AuditOutcome) -> AuditOutcome {
        AuditOutcome(findings: a.findings + b.findings, debt: a.debt + b.debt)
    }
}

/// The audit rules, in documentation order (docs/rules.md), which is also the order they run in: at each step at
/// most one of them answers for an endpoint, an entry or the global switch, so the order of findings is the audit's.
enum AuditRules {
    static let all: [any AuditRule] = [
        ExceptionMissingRule(), ExceptionUnneededRule(), ExceptionBroaderRule(), ExceptionNoEndpointRule(),
        EndpointHTTPRule(), EndpointFailsRule(), EndpointUnscannedRule(), EndpointUnexpectedRule(),
        PinnedDomainNoEndpointRule(),
    ]
}

extension RuleRegistry {
    /// The plist-against-endpoints cross-check of `atscheck audit` (`audit.*`), in documentation order.
    package static let audit = RuleRegistry("audit", rules: AuditRules.all)
}
