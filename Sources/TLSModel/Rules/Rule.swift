/// One rule atscheck reports: an ATS rule, a trust check, a plist lint rule or an audit rule. Each is a value of
/// its own type in one file, beside the catalogue entries of the ids it emits (``entries``), so its code and its
/// text (title, help and fix, severity, standards) change together.
///
/// The kinds refine this protocol with what they read: `ATSRule` a `RuleContext` (ATSPolicy), `PlistLintRule` a
/// lint context (ATSPolicy), `AuditRule` an audit's inputs (Judging). A kind's registry lists its rules in
/// documentation order; the catalogue is the concatenation of the registries (``RuleRegistry``,
/// ``RuleCatalogue``).
public protocol Rule: Sendable {
    /// The catalogue entries of the ids the rule emits: one, or a few that share the rule's one predicate.
    var entries: [RuleDescriptor] { get }
}

extension Rule {
    /// The ids the rule declares.
    public var ids: [RuleID] { entries.map(\.id) }
}
